"""Front-matter chapter: recurrent networks as dynamical systems (shared notation and tools)."""

from rnnrepro.book.profiles import Chapter, Param

CHAPTER = Chapter(
    key="dynamics",
    title="Recurrent networks as dynamical systems",
    paper="(front matter: the notation and tools the papers share)",
    notebook="book/chapters/dynamics.md",
    # no paper of its own: each claim quotes the textbook fact as one of the five papers states it
    texts=("miller-hardt2018-stable-recurrent.txt", "li2021-curse-of-memory.txt",
           "ribeiro2019-memory-smoothness.txt", "flynn2015-timescale-separation.txt",
           "cayci-eryilmaz2024-gd-convergence-rnn.txt"),
    params=(
        Param("seed", int, fast=0, full=0, low=0, help="master seed"),
        Param("n_hidden", int, fast=16, full=64, low=2, high=1024, help="units of the tanh RNNs"),
        Param("n_init", int, fast=200, full=2000, low=2, help="initial states per network"),
        Param("n_steps", int, fast=130, full=200, low=10,
              help="time steps of the forgetting runs (>= 124 lets any 0.8-contraction reach 1e-12)"),
        Param("contraction", float, fast=0.8, full=0.8, low=0.05, high=0.99,
              help="spectral norm of the contractive recurrent matrix"),
        Param("expansion", float, fast=3.0, full=3.0, low=1.5, high=10.0,
              help="gain of the expansive recurrent matrix"),
        Param("lyap_steps", int, fast=2000, full=20000, low=100, help="steps of the Lyapunov estimators"),
        Param("lyap_traj", int, fast=64, full=256, low=1, help="trajectories averaged by the estimators"),
        Param("n_gains", int, fast=13, full=41, low=3, help="gains on the tanh-RNN Lyapunov sweep"),
        Param("lstm_sets", int, fast=8, full=64, low=1, help="parameter sets in the LSTM check"),
        Param("memory_lags", int, fast=3200, full=4000, low=400, high=5000,
              help="lags of the linear-RNN memory kernels (rate read over lags/4 … 7/8; 0.9^5000 ≈ 1e-229)"),
        Param("memory_horizon", int, fast=1000, full=10000, low=200, high=1000000,
              help="longest horizon K of the single-rate fits to a power-law memory"),
    ),
    helpers=("rnnrepro.core.lyapunov:largest_lyapunov", "rnnrepro.dynamics.systems:spectral_radius",
             "rnnrepro.dynamics.forgetting:step_factor", "rnnrepro.dynamics.truncation:truncation_errors",
             "rnnrepro.dynamics.linear_memory:decay_rate"),
    question="the notation and tools the papers share",
    gaps=(("rnnrepro.core.lyapunov:largest_lyapunov",
           "none of the five papers states a Lyapunov exponent, so no paper claim reads one; the estimator is "
           "calibrated by the integrity checks lyapunov.linear_map and lyapunov.logistic and read by the "
           "findings attractor.*"),
          ("rnnrepro.dynamics.systems:spectral_radius",
           "read only by the finding attractor.fixed_point_exponent (log ρ(gW)) and a glued error of the "
           "Lyapunov section; no paper claim reads a spectral radius (the memory check's matrices get "
           "ρ(A) = 0.9 from with_spectral_radius, which does not call it)"),
          ("rnnrepro.dynamics.forgetting:step_factor",
           "×1.1 fails contraction.rate_within_bound on the near-tight W = L Q; ×0.9 cannot fail an upper "
           "bound (Miller & Hardt state d_{t+1} <= L d_t, not equality), and only the tightness finding "
           "contraction.bound_attained (= L, ours) notices it"),
          ("rnnrepro.dynamics.truncation:truncation_errors",
           "×1.1 fails truncation.bound on the near-tight W = L Q; ×0.9 cannot fail an upper bound (Miller & "
           "Hardt's proof of Lemma 1 states <= L^k ||h_{t-k}||, not equality), and only the tightness finding "
           "truncation.attained (= 1, ours) notices it"),
          ("rnnrepro.dynamics.linear_memory:decay_rate",
           "read only by the integrity check memory.exponential_forgetting (the estimator against the closed form "
           "rho(W) = 0.9) and glued values: no paper states a decay rate, so no paper claim reads one")),
)
