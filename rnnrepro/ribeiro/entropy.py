"""Section 4: entropy of the state, eq. (7)-(9). Exact for linear-Gaussian maps, k-NN for nonlinear."""

from __future__ import annotations

import numpy as np
from scipy.spatial import cKDTree
from scipy.special import digamma, gammaln


def knn_entropy(X: np.ndarray, k: int = 3) -> float:
    """Kozachenko-Leonenko estimate of the differential entropy (nats) of samples X (n, d)."""
    n, d = X.shape
    r = cKDTree(X).query(X, k + 1)[0][:, k]
    log_vd = (d / 2) * np.log(np.pi) - gammaln(d / 2 + 1)
    return float(digamma(n) - digamma(k) + log_vd + d * np.mean(np.log(r)))


def gaussian_entropy_change(A: np.ndarray) -> float:
    """ΔH = H(A x) − H(x) = log|det A| for Gaussian x (exact)."""
    return float(np.linalg.slogdet(A)[1])


def bound_margins(A: np.ndarray) -> tuple[float, float]:
    """For x_{t+1} = A x_t (Gaussian): (printed (9) margin ΔH − N_x log‖A‖₂ (≥ 0 if printed holds),
    corrected margin N_x log‖A‖₂ − ΔH (≥ 0 if H_{t+1} ≤ H_t + N_x log L_f holds))."""
    dH = gaussian_entropy_change(A)
    b = A.shape[0] * np.log(np.linalg.norm(A, 2))
    return float(dH - b), float(b - dH)


def random_matrix_margins(n: int, d: int, seed: int = 0) -> tuple[float, float]:
    """Min over n random Gaussian d×d matrices of the (printed, corrected) margins."""
    rng = np.random.default_rng(seed)
    m = np.array([bound_margins(rng.standard_normal((d, d))) for _ in range(n)])
    return float(m[:, 0].min()), float(m[:, 1].min())


def tanh_map_entropies(W: np.ndarray, b: np.ndarray, n_steps: int = 3, n: int = 20_000, k: int = 3,
                       seed: int = 0) -> dict:
    """x_{t+1} = tanh(W x_t + b), x_0 ~ U[−1, 1]^2. Returns dict(H (n_steps+1,) k-NN entropies,
    E_logdet (n_steps,) = mean log|det J_t| over the samples, NlogL = N_x log sup‖J‖₂ (sampled))."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (n, 2))
    H, E, Lmax = [knn_entropy(x, k)], [], 0.0
    for _ in range(n_steps):
        xn = np.tanh(x @ W.T + b)
        J = (1 - xn ** 2)[:, :, None] * W[None]
        E.append(float(np.mean(np.linalg.slogdet(J)[1])))
        Lmax = max(Lmax, float(np.linalg.norm(J, 2, axis=(1, 2)).max()))
        x = xn
        H.append(knn_entropy(x, k))
    return dict(H=np.array(H), E_logdet=np.array(E), NlogL=2 * np.log(Lmax))


def gaussian_entropy(sigma: float) -> float:
    """Differential entropy of N(0, sigma²) in nats, closed form: ½ log(2πe sigma²) (→ −∞ as sigma → 0)."""
    return 0.5 * float(np.log(2 * np.pi * np.e * sigma ** 2))


def gaussian_entropy_quadrature(sigma: float, dps: int = 30) -> float:
    """Differential entropy −∫ p log p dx of N(0, sigma²), by mpmath quadrature of the density over ±40 sigma
    (an evaluation independent of :func:`gaussian_entropy`'s formula)."""
    import mpmath

    with mpmath.workdps(dps):
        s = mpmath.mpf(sigma)
        p = lambda x: mpmath.exp(-x * x / (2 * s * s)) / (s * mpmath.sqrt(2 * mpmath.pi))
        integrand = lambda x: -p(x) * mpmath.log(p(x)) if p(x) > 0 else mpmath.mpf(0)
        return float(mpmath.quad(integrand, [-40 * s, -4 * s, 0, 4 * s, 40 * s]))
