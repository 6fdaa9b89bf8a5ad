"""Miller & Hardt: when recurrent models don't need to be recurrent (stable models are feed-forward)."""

from rnnrepro.book.profiles import Chapter, Param

CHAPTER = Chapter(
    key="miller",
    title="Stable recurrent models are feed-forward (Miller & Hardt, 2018)",
    paper="J. Miller, M. Hardt. When recurrent models don't need to be recurrent. arXiv:1805.10369 v1 (2018); "
          "published as \"Stable recurrent models\", ICLR 2019",
    notebook="book/chapters/miller.md",
    texts=('miller-hardt2018-stable-recurrent.txt',),
    params=(
        Param("seed", int, fast=0, full=0, low=0, help="master seed"),
        Param("n", int, fast=32, full=32, low=2, high=256, help="hidden units n (= input size d) of §7.1"),
        Param("lam", float, fast=0.75, full=0.75, low=0.05, high=0.95, help="stability radius λ of §7.1"),
        Param("T", int, fast=200, full=200, low=50, high=2000, help="sequence length T of Fig. 1"),
        Param("fig1a_seeds", int, fast=10, full=10, low=2, high=100, help="random instances of Fig. 1(a)"),
        Param("fig1a_kmax", int, fast=100, full=100, low=60, high=199, help="largest truncation k of Fig. 1(a)"),
        Param("lemma1_seeds", int, fast=3, full=10, low=1, high=100, help="instances of the Lemma 1 runs"),
        Param("hess_seeds", int, fast=3, full=5, low=1, high=20, help="instances per model of the Lemma 3 runs"),
        Param("hess_iters", int, fast=12, full=50, low=5, high=500, help="power iterations for ‖∇²p_T‖"),
        Param("lstm_pairs", int, fast=5000, full=20000, low=100, help="state pairs of the Prop. 5 checks"),
        Param("pgd_seeds", int, fast=3, full=10, low=1, high=50, help="instances of the Fig. 1(b) runs"),
        Param("pgd_steps", int, fast=50, full=200, low=20, high=2000, help="projected GD steps N of Fig. 1(b)"),
        Param("pgd_alpha", float, fast=0.01, full=0.01, low=1e-4, high=1.0, help="step size α of Fig. 1(b)"),
        Param("lm_replay", int, fast=30, full=150, low=2, high=180,
              help="updates of the shipped §7.2 language models replayed live (wt2, Fig. 2; within the first epoch)"),
        Param("fig3_replay", int, fast=10, full=30, low=1, high=300,
              help="updates of the shipped Fig. 3 k-sweeps replayed live"),
    ),
    data=("wikitext-2/valid.txt", "wikitext-2/test.txt"),   # train.txt is used when present (full)
    cites=("miller2018stable", "miller2019stable"),
    helpers=("rnnrepro.miller.gradient_gap:gradient_gaps", "rnnrepro.miller.gradient_gap:shape_ratio",
             "rnnrepro.miller.truncated_training:sweep_statistics", "rnnrepro.miller.input_gradients:decay_ratio",
             "rnnrepro.miller.lm_experiments:relative_gap", "rnnrepro.core.language_model:spectral_norm"),
    question="when a recurrent model can be replaced by a feed-forward one",
    note="WikiText-2 experiments on the test split (the training split is not available here), small models "
         "shipped; Fig. 3 at the paper's size from one GPU run",
    gaps=(("rnnrepro.miller.gradient_gap:gradient_gaps",
           "the Fig. 1(a) and Lemma 2 paper claims read ratios of gaps (R, the independence of T, decay rates), "
           "which a constant factor keeps; only the integrity check lemma2.expansion (the recursion against "
           "autograd) notices its level"),
          ("rnnrepro.miller.gradient_gap:shape_ratio",
           "the only value the paper implies for it (Fig. 1(a)'s \"closely matches kλ^k\") is contradicted by our "
           "data, and no instance makes the gap exactly kλ^k, so no paper claim can pin its level"),
          ("rnnrepro.miller.truncated_training:sweep_statistics",
           "ratios whose paper counterparts are qualitative; only the integrity check full.paper_size_reverified "
           "notices"),
          ("rnnrepro.miller.input_gradients:decay_ratio",
           "the instance where the paper's bound is attained exactly (W = λI) makes the check an identity, so it "
           "is an integrity check; the paper claims read decay rates and signs of the gap"),
          ("rnnrepro.miller.lm_experiments:relative_gap",
           "the paper's −2.2 % is a full-scale number our reduced-scale runs do not reach; the claims read its "
           "sign, which a constant factor keeps"),
          ("rnnrepro.core.language_model:spectral_norm",
           "the instance where the paper's bound is attained exactly (the Jacobian at zero pre-activation) makes "
           "the check an identity, so it is an integrity check; the paper claims read decay rates and signs")),
)
