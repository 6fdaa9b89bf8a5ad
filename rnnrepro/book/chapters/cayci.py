"""Cayci & Eryilmaz: convergence of gradient descent for diagonal Elman RNNs (kernel regime, nonasymptotic)."""

from rnnrepro.book.profiles import Chapter, Param

CHAPTER = Chapter(
    key="cayci",
    title="Gradient descent for RNNs in the kernel regime (Cayci & Eryilmaz, 2024)",
    paper="S. Cayci, A. Eryilmaz. Convergence of gradient descent for recurrent neural networks: "
          "a nonasymptotic analysis. arXiv:2402.12241 v1, 2024",
    notebook="book/chapters/cayci.md",
    texts=('cayci-eryilmaz2024-gd-convergence-rnn.txt',),
    params=(
        Param("seed", int, fast=0, full=0, low=0, help="master seed (inputs and initialisations)"),
        Param("d", int, fast=2, full=2, low=1, high=16, help="input dimension"),
        Param("T", int, fast=8, full=8, low=2, high=32, help="sequence length of the training problems"),
        Param("alpha", float, fast=0.5, full=0.5, low=0.05, high=0.95, help="init scale α (below the cutoff)"),
        Param("n", int, fast=16, full=32, low=4, high=1024, help="training sequences"),
        Param("qmc_log2", int, fast=12, full=14, low=6, high=16, help="log2 of the Sobol points for F̃ and κ"),
        Param("lemma_m", int, fast=2048, full=8192, low=64, high=65536, help="neurons in the Lemma 1 check"),
        Param("ntk_max_log2", int, fast=12, full=14, low=9, high=16, help="largest width 2^k of the NTK sweep"),
        Param("ntk_seeds", int, fast=8, full=16, low=2, high=64, help="initialisations per width (NTK)"),
        Param("lin_max_log2", int, fast=12, full=14, low=9, high=16,
              help="largest width of the linearisation and approximation sweeps"),
        Param("lin_seeds", int, fast=3, full=8, low=1, high=32, help="initialisations per width (Props. 3-5)"),
        Param("train_max_log2", int, fast=8, full=10, low=6, high=12,
              help="largest width 2^k of the training runs (widths 2^6, 2^8, ... )"),
        Param("label_noise", float, fast=0.0, full=0.0, low=0.0, high=1.0,
              help="sd of noise added to Theorem 1's training targets (0: in the transport class, as it asks)"),
        Param("tau_max", int, fast=1600, full=1600, low=100, high=25600,
              help="longest horizon τ; the runs use τ_max/16, τ_max/4, τ_max"),
        Param("cut_m", int, fast=128, full=512, low=16, high=4096, help="width of the cutoff-in-training runs"),
        Param("cut_seeds", int, fast=5, full=8, low=3, high=32, help="seeds of the cutoff-in-training runs"),
        Param("cut_tau", int, fast=120, full=400, low=50, high=4000, help="GD steps of the cutoff runs"),
    ),
    cites=("cayci2024convergence",),
    renamed=(("cayci.prop1.autograd", "cayci.prop1.printed_sums"),          # now evaluates the printed sums
             ("cayci.lemma2.gamma_holds", "cayci.lemma2.gamma_erratum")),    # an erratum row, named for it
    helpers=("rnnrepro.core.fits:power_law_exponent", "rnnrepro.cayci.lipschitz:rms_gradient",
             "rnnrepro.cayci.ntk:limit_kernel"),
    gaps=(("rnnrepro.cayci.lipschitz:rms_gradient",
           "the cutoff claims read window factors and a shape ratio of the RMS gradient, which a constant factor "
           "keeps; its level is read only by the integrity check prop2.diagonal_every_t (the two samplers)"),),
    question="when gradient descent provably trains an RNN, and how vacuous the proof's sizes are",
    note="The theorems' bounds are vacuous at any feasible size and are shown as ratios; rates, invariants and "
         "intermediate inequalities are the claims",
)
