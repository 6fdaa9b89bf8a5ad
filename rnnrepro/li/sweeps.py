"""The chapter's sweeps: each returns a dict of arrays/numbers that the notebook checks and plots."""

from __future__ import annotations

import math

import numpy as np

from rnnrepro.li import approximation as A
from rnnrepro.li import diagonal as D
from rnnrepro.li import euler_rnn as E
from rnnrepro.li import gradient_flow as GF
from rnnrepro.li import kernels as K
from rnnrepro.li import landscape as LS
from rnnrepro.li import momentum as MO
from rnnrepro.li import targets as T
from rnnrepro.li.plateau import longest_plateau, steps_to_fraction
from rnnrepro.core.fits import exponential_rate, power_law_exponent

# ------------------------------------------------------------------ Prop. 3.1 and (17)


def model_identities(m, rng, dt=0.1, t_end=10.0, shift_steps=50, eta=1e-4, n_paths=20000):
    """Euler → continuous kernel order, homogeneity, causality, the sign input and Itô's isometry."""
    W, U, c = K.random_stable(m, rng)
    errs, errs_cn = [], []
    for h in (dt, dt / 2):
        n = int(round(t_end / h))
        ref = K.continuous_kernel(W, U, c, h * np.arange(n))
        errs.append(np.abs(K.euler_kernel(W, U, c, h, n) - ref).max())
        errs_cn.append(np.abs(K.trapezoid_kernel(W, U, c, h, n) - ref).max())
    x = rng.normal(size=300)
    x[:shift_steps] = 0.0
    y = K.simulate_euler(W, U, c, x, dt)
    y_shift = K.simulate_euler(W, U, c, np.concatenate([np.zeros(shift_steps), x]), dt)[shift_steps:]
    Wt = lambda k: W * (1 + 0.5 * math.sin(0.1 * k))
    y_tv = K.simulate_euler(W, U, c, x, dt, Wt)
    y_tv_shift = K.simulate_euler(W, U, c, np.concatenate([np.zeros(shift_steps), x]), dt, Wt)[shift_steps:]
    cut = 200
    xp = x.copy()
    xp[cut + 1:] += rng.normal(size=x.size - cut - 1)
    y_p = K.simulate_euler(W, U, c, xp, dt)
    y_rev = K.simulate_euler(W, U, c, x[::-1], dt)[::-1]
    y_rev_p = K.simulate_euler(W, U, c, xp[::-1], dt)[::-1]
    # sign input on a fine grid: ρ = Airy-type target vs the RNN kernel
    hf = 1e-3
    tf = hf * np.arange(int(20 / hf))
    diff = T.airy_kernel(tf, 6.0) - K.continuous_kernel(W, U, c, tf)
    # Itô isometry with the discrete kernels
    k_model = K.euler_kernel(W, U, c, dt, 120)
    k_target = T.airy_kernel(dt * np.arange(120), 6.0)
    mc = K.white_noise_mc(k_model, k_target, dt, n_paths, rng)
    mc_dt = K.white_noise_mc(k_model, k_target, dt, n_paths, rng, scale="dt")
    closed = K.white_noise_loss(k_model, k_target, dt)
    return dict(
        euler_errors=np.array(errs), cn_errors=np.array(errs_cn),
        order_ratio=errs[0] / errs[1], order_ratio_cn=errs_cn[0] / errs_cn[1],
        shift_gap=float(np.abs(y - y_shift).max()), shift_gap_tv=float(np.abs(y_tv - y_tv_shift).max()),
        causal_gap=float(np.abs(y_p[:cut + 1] - y[:cut + 1]).max()),
        causal_gap_rev=float(np.abs(y_rev_p[:cut + 1] - y_rev[:cut + 1]).max()),
        sign_ratio=K.sign_input_ratio(diff, hf, eta),
        const_ratio=float(abs(diff.sum()) / np.abs(diff).sum()),
        mc=mc, mc_dt=mc_dt, closed=closed,
        z=abs(mc[0] - closed) / mc[1], z_dt=abs(mc_dt[0] - closed) / mc_dt[1],
    )


# ------------------------------------------------------------------ Thms 4.1, 4.2, the curse


DENSITY_TARGETS = {
    "exp_type": ("e^{-t}/(1+t)", lambda t: np.exp(-t) / (1 + t)),
    "airy": ("Ai(t-6)", lambda t: T.airy_kernel(t, 6.0)),
    "bump": ("e^{-(t-5)^2}", lambda t: np.exp(-(t - 5.0) ** 2)),
    "power_law": ("(1+t)^{-2}", lambda t: (1 + t) ** -2.0),
}


def density(ms, betas, fixed_beta=2.0):
    """Uniform-grid construction on the four targets: errors (len(ms),) per target, plus the
    errors with β fixed at ``fixed_beta`` instead of chosen from ``betas``."""
    out = {}
    for key, (_, f) in DENSITY_TARGETS.items():
        metric = A.power_law_metric(1.0) if key == "power_law" else A.L1Metric(f)
        err, bet = A.uniform_errors(f, metric, ms, betas)
        ctl, _ = A.uniform_errors(f, metric, ms, [fixed_beta])
        out[key] = dict(err=err, beta=bet, control=ctl)
    return out


def density_nonintegrable(ms, betas):
    """The construction on ρ = (1+t)^{-1}, outside Thm 4.1's class (not integrable, so the functional is
    unbounded), relative L¹ error on t ≤ 10^12 → errors (len(ms),) (running minimum over widths)."""
    f = lambda t: 1.0 / (1.0 + t)
    return A.uniform_errors(f, A.L1Metric(f), ms, betas)[0]


def curse(omegas, ms, betas, eps_uniform, eps_free, free_omegas, x_mins):
    """Power-law memory: uniform-grid rates p(ω) and widths m_ε, free-rate widths and w_min."""
    ms = np.asarray(ms)
    fit = ms >= 8
    res = dict(omegas=np.asarray(omegas), ms=ms, err=[], p=[], m_eps=[])
    for om in omegas:
        f = lambda t, om=om: (1 + t) ** (-(1 + om))
        err, _ = A.uniform_errors(f, A.power_law_metric(om), ms, betas)
        slope, icpt = power_law_exponent(ms[fit], err[fit])[:2]
        res["err"].append(err), res["p"].append(-slope)
        res["m_eps"].append(math.exp((math.log(eps_uniform) - icpt) / slope))  # from err ≈ C·m^{-p}
    res["free_omegas"] = np.asarray(free_omegas)
    mf, wm = zip(*[A.free_rate_width(om, eps_free, A.power_law_metric(om), x_mins) for om in free_omegas])
    res["m_free"], res["w_min"] = np.array(mf, float), np.array(wm)
    res["cond13"] = min(A.exp_weighted_sup(lambda t: (1 + t) ** -2.0, b, np.linspace(0, 400, 4001))
                        for b in (0.05, 0.1, 0.5))
    res["cond13_exp"] = min(A.exp_weighted_sup(DENSITY_TARGETS["exp_type"][1], b, np.linspace(0, 400, 4001))
                            for b in (0.05, 0.1, 0.5))
    return {k: np.asarray(v) if isinstance(v, list) else v for k, v in res.items()}


# ------------------------------------------------------------------ App. C: plateau point


def plateau_point(mus, theta0, level):
    """Loss, gradient norm and Hessian eigenvalues at θ₀ for the two-part target and its contrast."""
    out = {"mus": np.asarray(mus, float)}
    for name, make in (("bump", lambda mu: T.two_part(mu)),
                       ("tail", lambda mu: T.exp_tail_control(mu, level))):
        J, g, ev = [], [], []
        for mu in mus:
            tg = make(mu)
            J.append(D.loss(theta0, tg)), g.append(np.linalg.norm(D.grad(theta0, tg)))
            ev.append(np.linalg.eigvalsh(D.hessian(theta0, tg)))
        out[name] = dict(J=np.array(J), grad=np.array(g), eig=np.array(ev))
    rho_bar = T.ExpSum([1.0], [1.0])
    out["eig_h0"] = np.linalg.eigvalsh(D.hessian(theta0, rho_bar))
    return out


def lemma_c1(mus, w):
    """δ₀(w; ω) = ℒ|ρ₀(· − μ)|(w) for the Gaussian template and a Cauchy (heavy-tailed) one."""
    gauss = [float(T.GaussBump(mu).moment(0, w)) for mu in mus]
    cauchy = [D.laplace_quad(lambda s: 1.0 / (1.0 + s * s), w, mu) for mu in mus]
    return np.array(gauss), np.array(cauchy)


# ------------------------------------------------------------------ Thm 5.1, Figs 2 and 3


def escape_times(mus, theta0, delta, level, delta_theta, tmax):
    """Hitting times τ₀(δ) (loss), τ_sep(δ_θ) (parameters), and τ₀ for the contrast target."""
    tau = np.array([GF.hitting_time(theta0, T.two_part(mu), delta, tmax) for mu in mus])
    sep = np.array([GF.hitting_time(theta0, T.two_part(mu), delta_theta, tmax, kind="param") for mu in mus])
    ctl = np.array([GF.hitting_time(theta0, T.exp_tail_control(mu, level), delta, tmax) for mu in mus])
    return dict(mus=np.asarray(mus, float), tau=tau, sep=sep, control=ctl)


def gd_vs_flow(mus, theta0, lr, delta):
    """max over μ of |η·k − τ_GF|/τ_GF (float) for GD with step lr."""
    gaps = []
    for mu in mus:
        tg = T.two_part(mu)
        gaps.append(abs(lr * GF.gd_hitting_steps(theta0, tg, lr, delta) - GF.hitting_time(theta0, tg, delta))
                    / GF.hitting_time(theta0, tg, delta))
    return float(max(gaps))


def flow_curves(mus, theta0, taus):
    """Loss curves J(θ(τ)) (len(mus), len(taus)) of the gradient flow for the two-part target."""
    return np.array([GF.loss_curve(theta0, T.two_part(mu), taus) for mu in mus])


# ------------------------------------------------------------------ Fig. 1


def fig1_targets(t, t0s, m_star, seed):
    """Fig. 1 kernels on the grid t, each normalised to unit discrete L² norm → {name: ρ (len(t),)}."""
    dt = t[1] - t[0]
    out = {"exp_sum": T.random_exp_sum_kernel(t, m_star, seed)}
    out.update({f"airy_{t0:g}": T.airy_kernel(t, t0) for t0 in t0s})
    return {k: v / math.sqrt(dt * v @ v) for k, v in out.items()}


def fig1_undelayed_targets(t, t0s):
    """Undelayed contrast of Fig. 1: e^{-t/t0} for each t0, unit discrete L² norm → {f"exp_{t0:g}": ρ}."""
    dt = t[1] - t[0]
    out = {f"exp_{t0:g}": np.exp(-t / t0) for t0 in t0s}
    return {k: v / math.sqrt(dt * v @ v) for k, v in out.items()}


def fig1_train(rhos, m, dt, steps, lr, seed, band, drop, min_frac):
    """GD on the closed-form loss for each target → {name: dict(loss, steps10, plateau)}."""
    out = {}
    for name, rho in rhos.items():
        p0 = E.random_init(m, np.random.default_rng(seed))
        _, L = E.train(p0, lambda q, k, rho=rho: E.kernel_loss_grad(q, rho, dt), steps, lr)
        out[name] = dict(loss=L, steps10=steps_to_fraction(L, 0.1),
                         plateau=longest_plateau(L, band, drop, min_frac * L[0]))
    return out


# ------------------------------------------------------------------ Fig. 4


def fig4_closed_form(mus, m, dt, horizon, seed, runs, *, target=T.two_part):
    """Full-W linear RNN on the closed-form loss of ``target(mu)`` (default: the two-part target), for each
    optimiser in ``runs`` = {name: (method, lr, max_steps)}; returns {name: {mu: loss curve}} (stop at L₀/2)."""
    out = {name: {} for name in runs}
    for mu in mus:
        n = int(round((mu + horizon) / dt))
        rho = target(mu)(dt * np.arange(n))
        for name, (method, lr, steps) in runs.items():
            p0 = E.structured_init(m, np.random.default_rng(seed))
            L0 = E.kernel_loss_grad(p0, rho, dt)[0]
            _, L = E.train(p0, lambda q, k, rho=rho: E.kernel_loss_grad(q, rho, dt), steps, lr, method,
                           stop_below=L0 / 2)
            out[name][mu] = L
    return out


def fig4_sample_paths(mus, acts, m, dt, horizon, batch, steps, lr, seed, window, clip=None):
    """SGD on real white-noise sample paths (fresh batch each step, gradient norm clipped at
    ``clip``) → {(act, mu): smoothed loss (steps,)}."""
    out = {}
    for act in acts:
        for mu in mus:
            n = int(round((mu + horizon) / dt))
            rho = T.two_part(mu)(dt * np.arange(n))
            rng = np.random.default_rng(seed + 1)
            p0 = E.structured_init(m, np.random.default_rng(seed))

            def lg(q, k, rho=rho, rng=rng, n=n, act=act):
                return E.sample_path_loss_grad(q, rho, dt, rng.normal(0, 1 / math.sqrt(dt), (batch, n)), act)

            _, L = E.train(p0, lg, steps, lr, clip=clip)
            out[(act, mu)] = E.smooth(L, window)
    return out


# ------------------------------------------------------------------ App. D and E


def appendix_d(rng, n_points=5):
    """Coincided critical spaces of J_3 for ρ = e^{-t} + e^{-3t}; Prop. D.1 lines for two targets."""
    tgt = T.ExpSum([1.0, 1.0], [1.0, 3.0])
    a1, w1 = LS.best_single_exponential(tgt)
    minimisers = {1: (a1, w1), 2: (np.array([1.0, 1.0]), np.array([1.0, 3.0]))}
    grads, grads_off, zero_excess, zero_excess_generic = [], [], [], []
    for k, (ak, wk) in minimisers.items():
        for lab in LS.labelled_partitions(3, k):
            for _ in range(n_points):
                th = LS.coincided_point(ak, wk, lab, rng)
                grads.append(np.linalg.norm(D.grad(th, tgt)))
                off = th.copy()
                off[3 + int(np.argmax(np.bincount(lab)))] += 1e-2
                grads_off.append(np.linalg.norm(D.grad(off, tgt)))
                zero_excess.append(LS.zero_eigenvalues(D.hessian(th, tgt), 1e-8) - (3 - k))
    generic = np.concatenate([rng.normal(size=3), rng.uniform(0.5, 3, 3)])
    zero_excess_generic = LS.zero_eigenvalues(D.hessian(generic, tgt), 1e-8) - 1
    s = np.linspace(-1, 2, 61)
    lines = {}
    for name, tg in (("cm", tgt), ("mixed", T.ExpSum([1.0, -0.5], [1.0, 3.0]))):
        a_hat, w_hat = LS.best_single_exponential(tg)
        lines[name] = np.array([LS.line_min_eigenvalue(tg, a_hat[0], w_hat[0], si) for si in s])
    return dict(max_grad=max(grads), min_grad_off=min(grads_off), min_zero_excess=min(zero_excess),
                zero_excess_generic=zero_excess_generic, s=s, lines=lines,
                n_spaces=len(LS.labelled_partitions(4, 2)), stirling_count=math.factorial(2) * LS.stirling2(4, 2))


def appendix_e(eps, lr, theta0):
    """Escape steps of GD (closed form), heavy ball with β = 0.9 and with the tuned β, per ε."""
    eps = np.asarray(eps, float)
    gd = np.array([MO.gd_escape_steps(e, lr, theta0) for e in eps])
    hb = np.array([MO.hb_escape_steps(e, lr, 0.9, theta0) for e in eps])
    hbt = np.array([MO.hb_escape_steps(e, lr, MO.tuned_beta(e, lr), theta0) for e in eps])
    check = MO.gd_escape_steps_iterated(eps[0], lr, theta0) == gd[0]
    return dict(eps=eps, gd=gd, hb=hb, hb_tuned=hbt, gd_closed_form_ok=bool(check),
                exp_gd=MO.exponent(eps, gd), exp_hb=MO.exponent(eps, hb), exp_hbt=MO.exponent(eps, hbt))


def loglinear(x, y):
    """(slope, R²) of log y against x (thin wrapper of rnnrepro.core.fits.exponential_rate)."""
    f = exponential_rate(x, y)
    return f.slope, f.r2


def m0_points(w_f):
    """Starting points in M₀ for ρ̄ = e^{-t}, m = 2 → {name: θ (4,)}: the dead neuron (1, 0; 1, w_f), a
    coincided point with unequal weights (0.8, 0.2; 1, 1) and the symmetric one (0.5, 0.5; 1, 1)."""
    return {"dead": np.array([1.0, 0.0, 1.0, w_f]), "coincided": np.array([0.8, 0.2, 1.0, 1.0]),
            "symmetric": np.array([0.5, 0.5, 1.0, 1.0])}


def m0_separation(points, mus, delta, delta_theta, tmax):
    """For each start in ``points`` {name: θ} and memory in ``mus``: the loss hitting time τ₀(δ), and
    ‖θ(tmax) − θ_start‖/δ_θ → {name: dict(tau (n,), dist (n,))} (τ₀ = inf if not reached by tmax)."""
    out = {}
    for name, th in points.items():
        tau = [GF.hitting_time(th, T.two_part(mu), delta, tmax) for mu in mus]
        dist = [GF.distance_at(th, T.two_part(mu), tmax) / delta_theta for mu in mus]
        out[name] = dict(tau=np.array(tau), dist=np.array(dist))
    return out
