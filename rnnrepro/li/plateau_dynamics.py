"""App. C and Thm 5.1: the loss, gradient and Hessian at the plateau point θ₀, the overlap of Lemma C.1,
and the gradient-flow hitting and separation times against the memory 1/ω."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from rnnrepro.core.fits import exponential_rate
from rnnrepro.li import diagonal as D
from rnnrepro.li import gradient_flow as GF
from rnnrepro.li import targets as T


def plateau_point(mus: ArrayLike, theta0: np.ndarray, level: float) -> dict:
    """Loss, gradient norm and Hessian eigenvalues at θ₀ (2m,) for the two-part target and its contrast:
    {"mus": (n,), "bump"/"tail": dict(J (n,), grad (n,), eig (n, 2m)), "eig_h0": (2m,)}."""
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


def lemma_c1(mus: ArrayLike, w: float) -> tuple[np.ndarray, np.ndarray]:
    """δ₀(w; ω) = ℒ|ρ₀(· − μ)|(w) for the Gaussian template and a Cauchy (heavy-tailed) one."""
    gauss = [float(T.GaussBump(mu).moment(0, w)) for mu in mus]
    cauchy = [D.laplace_quad(lambda s: 1.0 / (1.0 + s * s), w, mu) for mu in mus]
    return np.array(gauss), np.array(cauchy)


def escape_times(mus: ArrayLike, theta0: np.ndarray, *, delta: float, level: float, delta_theta: float,
                 tmax: float) -> dict:
    """Hitting times τ₀(δ) (loss) and τ_sep(δ_θ) (parameters) for the two-part target, and both for the
    undelayed contrast target of the same plateau height (``control``, ``sep_control``); arrays (len(mus),)."""
    ctl_t = [T.exp_tail_control(mu, level) for mu in mus]
    tau = np.array([GF.hitting_time(theta0, T.two_part(mu), delta=delta, tmax=tmax) for mu in mus])
    sep = np.array([GF.hitting_time(theta0, T.two_part(mu), delta=delta_theta, tmax=tmax, kind="param") for mu in mus])
    ctl = np.array([GF.hitting_time(theta0, tg, delta=delta, tmax=tmax) for tg in ctl_t])
    sep_ctl = np.array([GF.hitting_time(theta0, tg, delta=delta_theta, tmax=tmax, kind="param") for tg in ctl_t])
    return dict(mus=np.asarray(mus, float), tau=tau, sep=sep, control=ctl, sep_control=sep_ctl)


def gd_vs_flow(mus: ArrayLike, theta0: np.ndarray, lr: float, delta: float) -> float:
    """max over μ of |η·k − τ_GF|/τ_GF (float) for GD with step lr."""
    gaps = []
    for mu in mus:
        tg = T.two_part(mu)
        tau = GF.hitting_time(theta0, tg, delta=delta)
        gaps.append(abs(lr * GF.gd_hitting_steps(theta0, tg, lr, delta=delta) - tau) / tau)
    return float(max(gaps))


def flow_curves(mus: ArrayLike, theta0: np.ndarray, taus: np.ndarray) -> np.ndarray:
    """Loss curves J(θ(τ)) (len(mus), len(taus)) of the gradient flow for the two-part target."""
    return np.array([GF.loss_curve(theta0, T.two_part(mu), taus) for mu in mus])


def loglinear(x: ArrayLike, y: ArrayLike) -> tuple[float, float]:
    """(slope, R²) of log y against x (thin wrapper of rnnrepro.core.fits.exponential_rate)."""
    f = exponential_rate(x, y)
    return f.slope, f.r2


def m0_points(w_f: float) -> dict:
    """Starting points in M₀ for ρ̄ = e^{-t}, m = 2 → {name: θ (4,)}: the dead neuron (1, 0; 1, w_f), a
    coincided point with unequal weights (0.8, 0.2; 1, 1) and the symmetric one (0.5, 0.5; 1, 1)."""
    return {"dead": np.array([1.0, 0.0, 1.0, w_f]), "coincided": np.array([0.8, 0.2, 1.0, 1.0]),
            "symmetric": np.array([0.5, 0.5, 1.0, 1.0])}


def m0_separation(points: dict[str, np.ndarray], mus: ArrayLike, *, delta: float, delta_theta: float,
                  tmax: float) -> dict:
    """For each start in ``points`` {name: θ} and memory in ``mus``: the loss hitting time τ₀(δ), and
    ‖θ(tmax) − θ_start‖/δ_θ → {name: dict(tau (n,), dist (n,))} (τ₀ = inf if not reached by tmax)."""
    out = {}
    for name, th in points.items():
        tau = [GF.hitting_time(th, T.two_part(mu), delta=delta, tmax=tmax) for mu in mus]
        dist = [GF.distance_at(th, T.two_part(mu), tmax) / delta_theta for mu in mus]
        out[name] = dict(tau=np.array(tau), dist=np.array(dist))
    return out
