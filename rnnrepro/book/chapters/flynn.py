"""Flynn: timescale separation in recurrent neural networks (contracting networks, explicit τ*)."""

from rnnrepro.book.profiles import Chapter, Param

CHAPTER = Chapter(
    key="flynn",
    title="Timescale separation (Flynn, 2015)",
    paper="T. Flynn. Timescale separation in recurrent neural networks. Neural Computation 27(6), 2015, "
          "pp. 1321 ff., doi:10.1162/NECO_a_00740",
    notebook="book/chapters/flynn.md",
    texts=('flynn2015-timescale-separation.txt',),
    params=(
        Param("seed", int, fast=0, full=0, low=0, help="master seed (problem generator of Example 1)"),
        Param("n", int, fast=10, full=20, low=4, high=60, help="nodes of the Example 1 network"),
        Param("m", int, fast=5, full=8, low=1, high=20, help="inputs of the Example 1 network"),
        Param("v_frob", float, fast=2.0, full=2.0, low=0.1, high=3.9, help="‖v‖_F (β_x = 1 − ‖v‖_F/4)"),
        Param("alpha", float, fast=0.25, full=0.25, low=0.01, high=0.49, help="descent tolerance α of (4.1)"),
        Param("n_states", int, fast=2000, full=20000, low=100, help="sampled states for the Table 1 measures"),
        Param("n_pairs", int, fast=20, full=50, low=2, help="trajectory pairs for Props. 2-3"),
        Param("n_lipschitz", int, fast=1000, full=5000, low=100, help="sampled pairs per Lipschitz constant"),
        Param("n_soderlind", int, fast=3000, full=10000, low=100, help="sampled states for inequality 4.4"),
        Param("t_main", float, fast=200.0, full=400.0, low=20.0, high=2000.0,
              help="weight-time horizon of the main run"),
        Param("t_sweep", float, fast=100.0, full=200.0, low=20.0, high=1000.0,
              help="horizon of the τ sweeps (O(τ) deviation, conservatism)"),
        Param("bisect_iters", int, fast=6, full=10, low=2, high=20,
              help="bisection steps (log τ) of the empirical descent threshold per β_x"),
        Param("n_tau", int, fast=13, full=25, low=5, high=60, help="τ values of the max-ratio-vs-τ sweep"),
    ),
    cites=("flynn2015timescale",),
    helpers=("rnnrepro.flynn.matrix_measures:measure", "rnnrepro.flynn.matrix_measures:window_envelope_ratio",
             "rnnrepro.flynn.trajectories:integrate_copies", "rnnrepro.flynn.network:fd_gradient",
             "rnnrepro.flynn.squashed_network:fd_second_derivatives", "rnnrepro.flynn.conservatism:crossing_log",
             "rnnrepro.flynn.extremal_system:max_invariant_ratio"),
    gaps=(("rnnrepro.flynn.matrix_measures:measure",
           "an underestimate fails tab1.certificate and ex3.every_w_contracts; an overestimate only makes the "
           "certified rates conservative, which one-sided certificates allow, and only the integrity check "
           "tab1.closed_forms notices it"),
          ("rnnrepro.flynn.network:fd_gradient",
           "read only by the integrity check setup.h_star_is_gradient (the gradient identity the setup rests on); no "
           "paper claim reads a finite-difference gradient"),
          ("rnnrepro.flynn.conservatism:crossing_log",
           "locates Theorem 3's threshold, read by the integrity check thm3.threshold_is_crossing and the finding "
           "thm3.formula_exact (tightness, ours); the paper states the threshold only as sufficient")),
    question="how fast the network must run relative to learning",
)
