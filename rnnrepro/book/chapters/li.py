"""Li, Han, E, Li: the curse of memory in recurrent neural networks (approximation and optimisation)."""

from rnnrepro.book.profiles import Chapter, Param

CHAPTER = Chapter(
    key="li",
    title="The curse of memory (Li, Han, E & Li, 2021)",
    paper="Z. Li, J. Han, W. E, Q. Li. On the curse of memory in recurrent neural networks: "
          "approximation and optimization analysis. ICLR 2021, arXiv:2009.07799",
    notebook="book/chapters/li.md",
    texts=('li2021-curse-of-memory.txt',),
    params=(
        Param("seed", int, fast=0, full=0, low=0, help="master seed"),
        # model identities and Itô isometry
        Param("id_width", int, fast=8, full=8, low=2, high=64, help="width of the random stable RNN (Prop. 3.1)"),
        Param("mc_paths", int, fast=20000, full=200000, low=1000, help="Monte Carlo paths for the Itô check (17)"),
        # approximation
        Param("approx_m_max", int, fast=32, full=64, low=8, high=128,
              help="largest width of the exponential-sum constructions (widths 2, 4, ..., m_max)"),
        Param("approx_n_beta", int, fast=12, full=24, low=2,
              help="points of the log grid of β on [1e-3, 2] (the curse continues it to 1e-4)"),
        Param("curse_n_omega", int, fast=4, full=4, low=3, high=5,
              help="power-law exponents ω = 1, 1/2, ..., 2^{1-n} for the paper's construction"),
        Param("curse_eps", float, fast=0.05, full=0.05, low=1e-4, high=0.5,
              help="relative L1 accuracy ε at which both constructions' widths are compared"),
        # plateau point and gradient flow
        Param("dead_rate", float, fast=0.5, full=0.5, low=0.05, high=0.95,
              help="rate w_f of the dead neuron of the initialisation θ₀ = (1, 0; 1, w_f)"),
        Param("mu_max", int, fast=30, full=30, low=20, high=36, help="largest memory 1/ω (bump position)"),
        Param("mu_step", int, fast=2, full=1, low=1, high=4, help="spacing of the memories 1/ω"),
        Param("delta", float, fast=0.01, full=0.01, low=1e-4, high=0.5, help="loss drop δ of the hitting time (22)"),
        Param("delta_theta", float, fast=0.5, full=0.5, low=1e-3, high=2.0,
              help="parameter distance of the separation time τ_sep"),
        Param("gd_lr", float, fast=0.01, full=0.01, low=1e-4, high=0.1, help="GD step compared with the flow"),
        # Fig. 1
        Param("fig1_width", int, fast=16, full=32, low=2, high=128, help="hidden width m of the Fig. 1 RNN"),
        Param("fig1_steps", int, fast=15000, full=50000, low=100, help="GD steps per Fig. 1 target"),
        Param("fig1_lr", float, fast=0.02, full=0.02, low=1e-4, high=0.5, help="GD step of Fig. 1"),
        Param("fig1_dt", float, fast=0.1, full=0.1, low=0.01, high=0.5, help="Euler step Δt of the RNN"),
        Param("fig1_horizon", float, fast=20.0, full=20.0, low=5.0, high=100.0, help="kernel horizon T"),
        Param("fig1_t0s", str, fast="6,8,10", full="4,6,8,10,12", help="Airy delays t₀ (comma separated)"),
        Param("fig1_seeds", int, fast=1, full=3, low=1, high=10, help="initialisation seeds of Fig. 1"),
        Param("fig1_m_star", int, fast=8, full=8, low=1, high=64, help="terms of the Fig. 1(a) exponential-sum target"),
        Param("plateau_band", float, fast=1.1, full=1.1, low=1.01, high=2.0,
              help="detector: max/min of the loss over a plateau"),
        Param("plateau_drop", float, fast=2.0, full=2.0, low=1.1, high=10.0,
              help="detector: a plateau must be followed by a drop by this factor"),
        Param("plateau_level", float, fast=0.1, full=0.1, low=0.0, high=1.0,
              help="detector: plateaus below this fraction of the initial loss are ignored"),
        # Fig. 4
        Param("fig4_width", int, fast=8, full=8, low=2, high=64, help="hidden width of the Fig. 4 RNNs"),
        Param("fig4_mus", str, fast="4,8,12", full="4,6,8,10,12", help="memories 1/ω of Fig. 4"),
        Param("fig4_dt", float, fast=0.1, full=0.1, low=0.01, high=0.5,
              help="Euler step of the closed-form Fig. 4 runs"),
        Param("fig4_tail", float, fast=8.0, full=8.0, low=2.0, high=50.0,
              help="kernel horizon beyond the bump: T = 1/ω + tail"),
        Param("fig4_gd_lr", float, fast=0.01, full=0.01, low=1e-4, high=0.5,
              help="GD step (closed-form loss); 0.05 already oscillates on the long-memory plateau"),
        Param("fig4_adam_lr", float, fast=0.01, full=0.01, low=1e-5, high=0.5, help="Adam step"),
        Param("fig4_max_steps", int, fast=40000, full=200000, low=100, help="step cap of the closed-form runs"),
        Param("sp_batch", int, fast=64, full=128, low=4, help="sample paths per SGD step"),
        Param("sp_dt", float, fast=0.2, full=0.2, low=0.01, high=0.5, help="Euler step of the sample-path runs"),
        Param("sp_steps", int, fast=1000, full=3000, low=100, help="SGD steps of the sample-path runs"),
        Param("sp_lr", float, fast=0.05, full=0.05, low=1e-4, high=0.5, help="SGD step of the sample-path runs"),
        Param("sp_clip", float, fast=2.0, full=2.0, low=0.0,
              help="gradient-norm clip of the sample-path runs (0: none)"),
        # App. E
        Param("mom_lr", float, fast=0.5, full=0.5, low=1e-3, high=1.0, help="step η of the App. E iterations"),
        Param("mom_theta0", float, fast=1e-3, full=1e-3, low=1e-12, high=0.5, help="initial offset θ₂(0)"),
    ),
    cites=("li2021curse",),
    helpers=("rnnrepro.core.fits:secant_slope_ratio", "rnnrepro.core.fits:exponential_rate",
             "rnnrepro.core.fits:power_law_exponent",
             "rnnrepro.li.approximation:uniform_errors"),
    gaps=(("rnnrepro.core.fits:secant_slope_ratio",
           "the claims compare it with thresholds set between an exponential (1) and the power-law rivals (at most "
           "0.63), a margin a 10 % error does not cross by design; no row reads its level"),
          ("rnnrepro.core.fits:exponential_rate",
           "read by the integrity checks lemmac1.overlap_exponential and full.gradient_rate_reverified; the paper "
           "claims on Lemma C.1 and Prop. C.2 read shapes and signs, which a constant factor keeps"),
          ("rnnrepro.core.fits:power_law_exponent",
           "an overestimate fails appe.momentum_exponent; an underestimate only the integrity check "
           "appe.gd_exponent, as the momentum claim is one-sided"),
          ("rnnrepro.li.approximation:uniform_errors",
           "the approximation claims read ratios of errors and fitted rates, which a constant factor keeps; the "
           "integrity check thm42.construction_exact (the error against the closed form (n+1)4^-n) reads its level")),
    question="why long memory is hard to approximate and slow to learn",
    renamed=(("li.curse.free_rule_bound", "li.curse.hidden_states_exponential"),),
)
