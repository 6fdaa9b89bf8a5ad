"""Ribeiro, Tiels, Aguirre, Schön: the trade-off between long-term memory and smoothness."""

from rnnrepro.book.profiles import Chapter, Param

CHAPTER = Chapter(
    key="ribeiro",
    title="Memory and smoothness (Ribeiro et al., 2019)",
    paper="Ribeiro, Tiels, Aguirre, Schön. The trade-off between long-term memory and smoothness for "
          "recurrent networks, arXiv:1906.08482 (2019); published as Beyond exploding and vanishing "
          "gradients: analysing RNN training using attractors and smoothness, AISTATS 2020",
    notebook="book/chapters/ribeiro.md",
    texts=('ribeiro2019-memory-smoothness.txt',),
    params=(
        Param("seed", int, fast=0, full=0, low=0, help="master seed"),
        Param("n_s", int, fast=5000, full=5000, low=11, help="points on the line θ(s) = s·θ_true (Fig. 1)"),
        Param("n_plane", int, fast=150, full=150, low=5, help="grid points per axis of the Fig. 7 plane"),
        Param("n_lyap_s", int, fast=151, full=301, low=5, help="s values of the Lyapunov panel"),
        Param("lyap_steps", int, fast=1500, full=5000, low=100, help="steps per Lyapunov exponent on the s grid"),
        Param("lyap_steps_true", int, fast=5000, full=20000, low=100, help="steps for λ at s = 1"),
        Param("n_line_grad", int, fast=301, full=1101, low=11, help="s values for the LSTM derivative growth"),
        Param("n_s_wss", int, fast=21, full=121, low=5, help="s values on the temporal-order lines"),
        Param("n_s_bif", int, fast=21, full=101, low=3, help="s values in the bifurcation diagrams"),
        Param("lm_mode", str, fast="shipped", full="train", choices=("shipped", "train"),
              help="language model: re-verify the shipped model, or train it"),
        Param("lm_live_steps", int, fast=20, full=20, low=0, help="BPTT steps of the short live LM run"),
        Param("n_s_lm", int, fast=21, full=61, low=5, help="s values on the language-model line"),
        Param("n_s_lm_zoom", int, fast=21, full=201, low=5, help="s values on the LM zoom around its minimum"),
        Param("n_s_zoom", int, fast=101, full=401, low=5, help="s values on the temporal-order zooms [-0.05, 0.05]"),
        Param("pop_seeds", int, fast=3, full=0, low=0,
              help="solving seeds of the population, and solving and memorising seeds of the long sweep, read by "
                   "the Fig. 4/5/8 claims, each (0: every seed)"),
        Param("pop_mem_seeds", int, fast=8, full=0, low=0,
              help="memorising seeds of the population read by the Fig. 4/5/9 claims (0: every seed; 8 is the "
                   "fewest at which a Wilson interval can lie above ½ with one seed against)"),
        Param("pop_n_s_line", int, fast=11, full=21, low=5, help="s values on each seed's line (population)"),
        Param("pop_n_s_zoom", int, fast=51, full=101, low=5, help="s values on each seed's zoom (population)"),
        Param("pop_n_seq", int, fast=50, full=100, low=10, high=1000, help="sequences of each seed's line costs"),
        Param("pop_n_s_bif", int, fast=6, full=11, low=3, help="s values of each seed's steady states (population)"),
        Param("lyap_pop_steps", int, fast=400, full=2000, low=100,
              help="steps of the trained networks' Lyapunov exponents"),
    ),
    data=("wikitext-2/valid.txt", "wikitext-2/test.txt"),   # train.txt is used when present (full)
    cites=("ribeiro2019tradeoff", "ribeiro2020beyond"),
    renamed=(("ribeiro.fig1.intricacy_tracks_lyapunov", "ribeiro.fig1.noncontractive_above_band"),
             # rows that could not fail, now glued numbers: their anchors land on the row they belong to
             ("ribeiro.fig6.training_monotone", "ribeiro.fig6.line_smooth"),
             ("ribeiro.eq9.chaotic_lstm_entropy_falls", "ribeiro.eq9.printed_direction_erratum"),
             # the finding that read the bad run's distinct outputs at the trained weights is now the paper row
             ("ribeiro.fig5.bad_distinct_at_final", "ribeiro.fig5.bad_distinct_exists")),
    helpers=("rnnrepro.core.lyapunov:largest_lyapunov", "rnnrepro.core.fits:exponential_rate",
             "rnnrepro.core.fits:power_law_exponent"),
    question="whether chaotic and periodic attractors make the cost intricate (chaos and the periodic windows "
             "inside the chaotic band do; the stable cycles above the band do not)",
    note="The temporal-order experiments (Figs. 3–9) as rates over a 50-seed sweep at the paper's configuration "
         "(trained on the CPU to epoch 500 and shipped), with a 10-seed, 3000-epoch sweep from a GPU",
    gaps=(("rnnrepro.core.lyapunov:largest_lyapunov",
           "the paper states no Lyapunov exponent; λ enters Theorem 1 only through our refinement L_f = e^λ "
           "(findings of ours), and into paper claims only through its sign or ratios of exponents"),
          ("rnnrepro.core.fits:exponential_rate",
           "read only by findings of ours and integrity checks: thm1a.linear_attains_bound and "
           "thm1a.expansive_exponential (rates that attain Theorem 1's orders: tightness, ours), the LSTM rate "
           "refinements and the bound ratios; no paper claim reads a fitted exponential rate, so a 10 % scale error "
           "fails none"),
          ("rnnrepro.core.fits:power_law_exponent",
           "read only by the finding thm1a.marginal_linear (the marginal linear RNN's polynomial growth, ours); "
           "no paper claim reads a power-law exponent")),
)
