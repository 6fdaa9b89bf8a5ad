"""The temporal-order outcome as a property of a population of seeds: rates with their intervals, outcomes
at a given epoch, flips between twin sweeps, transient rises, and Lyapunov exponents of trained networks."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike
import torch

from rnnrepro.core import cells
from rnnrepro.core.lyapunov import largest_lyapunov
from rnnrepro.core.roundoff import ROUNDOFF_FLOOR
from rnnrepro.ribeiro.paper_sweep import CHANCE, chance_sd, outcome_labels, unflatten

Z95 = 1.959963984540054      #: the standard normal's 97.5 % quantile


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval (lo, hi) of a proportion k / n (95 % by default); ValueError unless 0 ≤ k ≤ n, n ≥ 1."""
    if not (n >= 1 and 0 <= k <= n):
        raise ValueError(f"need 0 <= k <= n and n >= 1, got k={k}, n={n}")
    p, z2 = k / n, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return float(max(0.0, centre - half)), float(min(1.0, centre + half))


def interval_text(lo: float, hi: float) -> str:
    """``"lo–hi"`` to two decimals, an exact zero as ``0`` (:func:`rnnrepro.book.rows.show`): a Wilson interval's
    lower end for k = 0 is exactly 0, and ``0.00`` would read as a non-zero value rounded away."""
    from rnnrepro.book.rows import show
    return f"{show(float(lo), '.2f')}–{show(float(hi), '.2f')}"


def of_n_wilson(k: int, n: int) -> str:
    """``"of n, Wilson 95 % lo–hi"``: the population and interval of a count k (:func:`wilson_interval`,
    :func:`interval_text`), for the quantity of a row whose measured value is k."""
    return f"of {n}, Wilson 95 % {interval_text(*wilson_interval(k, n))}"


def labels_at(history: dict, epoch: int, *, n_val: int) -> np.ndarray:
    """Outcome label of every seed (:func:`paper_sweep.outcome_labels`) from the running training accuracy of
    ``epoch`` and the validation accuracy evaluated at ``epoch``; history arrays are (epochs, S) with
    ``epoch`` and ``val_epoch`` vectors. ValueError when validation was not evaluated at ``epoch``."""
    e, ve = np.asarray(history["epoch"]), np.asarray(history["val_epoch"])
    if epoch not in ve or epoch not in e:
        raise ValueError(f"epoch {epoch} was not logged (validation every {int(ve[1] - ve[0])} epochs)")
    tr = np.asarray(history["train_acc"])[int(np.flatnonzero(e == epoch)[0])]
    va = np.asarray(history["val_acc"])[int(np.flatnonzero(ve == epoch)[0])]
    return outcome_labels(tr, va, n_val=n_val)


def outcome_flips(labels_a: ArrayLike, labels_b: ArrayLike) -> np.ndarray:
    """Per seed: True where one of two runs solves and the other does not."""
    a, b = np.asarray(labels_a) == "solved", np.asarray(labels_b) == "solved"
    if a.shape != b.shape:
        raise ValueError(f"label arrays differ in shape: {a.shape} and {b.shape}")
    return a != b


def transient_rises(val_acc: ArrayLike, *, n_val: int, n_sd: float = 5.0) -> np.ndarray:
    """Per seed (columns of val_acc (E, S)): True where the validation accuracy rose to at least chance + n_sd
    binomial standard deviations at some evaluation and ended within that margin of chance (a rise that
    fell back)."""
    va = np.asarray(val_acc, float)
    margin = n_sd * chance_sd(n_val)
    return (va.max(0) >= CHANCE + margin) & (np.abs(va[-1] - CHANCE) < margin)


def max_abs_gap_to_chance(acc: ArrayLike) -> float:
    """Largest |accuracy − 1/4| over the given seeds (nan for none)."""
    a = np.asarray(acc, float)
    return float(np.abs(a - CHANCE).max()) if a.size else float("nan")


def _lstm_map(params: Sequence[torch.Tensor], inputs: torch.Tensor):
    Wih, Whh, bih, bhh = params[:4]
    H = Whh.shape[2]

    def f(hc: torch.Tensor) -> torch.Tensor:
        h, c = cells.lstm_step(hc[..., :H], hc[..., H:], inputs, W_ih=Wih, W_hh=Whh, b_ih=bih, b_hh=bhh)
        return torch.cat([h, c], -1)
    return f


def lyapunov_under_inputs(theta: np.ndarray | torch.Tensor, *, hidden: int = 50, n_steps: int = 2000,
                          n_burn: int = 500, seed: int = 0) -> np.ndarray:
    """Largest Lyapunov exponent (nats per step, float64) of each classifier's LSTM state (h, c) under each
    constant one-hot input: theta (S, D) flat weights -> (S, 6), from (h, c) = 0 after ``n_burn`` steps."""
    params = [p.double() for p in unflatten(torch.as_tensor(theta, dtype=torch.float32), hidden)]
    inputs = torch.eye(6, dtype=torch.float64)
    S = params[0].shape[0]
    h0 = torch.zeros(S, 6, 2 * hidden, dtype=torch.float64)
    with torch.enable_grad():
        lam = largest_lyapunov(_lstm_map(params, inputs), h0, n_steps, n_burn, seed=seed)
    return lam.detach().numpy()


def deep_minima(v: ArrayLike) -> np.ndarray:
    """Strict local minima of a cost profile deeper than the round-off floor (1e-12,
    :data:`~rnnrepro.core.roundoff.ROUNDOFF_FLOOR`) times its largest |value|:
    :func:`minima.strict_minima_beyond` with that tolerance."""
    from rnnrepro.ribeiro.minima import strict_minima_beyond
    v = np.asarray(v, float)
    return strict_minima_beyond(v, ROUNDOFF_FLOOR * float(np.max(np.abs(v))))


def minimum_kept(train: ArrayLike, val: ArrayLike, near: int = 2) -> bool:
    """Whether ``val`` has a deep strict local minimum (:func:`deep_minima`) within ``near`` grid points of the
    lowest point of ``train`` (two cost profiles on one grid)."""
    k = int(np.argmin(np.asarray(train, float)))
    return bool(deep_minima(val)[max(0, k - near):k + near + 1].any())


def central_slope(s: ArrayLike, v: ArrayLike, *, at: float) -> float:
    """Central difference (v[k+1] − v[k−1]) / (s[k+1] − s[k−1]) at the grid point s[k] == ``at`` (an interior point
    of the increasing grid s); ValueError otherwise."""
    s, v = np.asarray(s, float), np.asarray(v, float)
    k = np.flatnonzero(s == at)
    if s.shape != v.shape or len(k) != 1 or not 0 < k[0] < len(s) - 1:
        raise ValueError(f"s must hold {at} once, as an interior point, and match v's shape")
    k = int(k[0])
    return float((v[k + 1] - v[k - 1]) / (s[k + 1] - s[k - 1]))


def landscape_per_seed(theta_init: np.ndarray, theta_final: np.ndarray, data: Sequence[torch.Tensor], *,
                       s_line: np.ndarray, s_zoom: np.ndarray, n_seq: int, hidden: int = 50,
                       validation_zoom: bool = False, train_control: bool = False,
                       near: int = 2) -> dict[str, np.ndarray]:
    """Fig. 4's statistics along θ(s) = s·θ_init + (1 − s)·θ_final for each seed (rows of theta_* (S, D)), on the
    first n_seq training / validation sequences of data = (Xtr, ytr, Xva, yva), float64:
    ``zoom_train_minima`` (S,) strict minima of the training cost on s_zoom; ``line_train_argmin``,
    ``line_val_argmin`` (S,) the s of the lowest training / validation cost on s_line; with ``validation_zoom``,
    also ``train_min_kept_on_val`` (S,) bool: the validation cost has a strict minimum within ``near`` grid
    points of the training cost's lowest point on s_zoom (the training minimum is also one on validation),
    ``train_min_kept_on_train`` the same test with the training cost in both places; with ``train_control`` too,
    ``train_min_kept_on_train2`` the same test with the cost on the next n_seq training sequences in place of the
    validation cost (seen data: the control of a test that might only measure how rugged the cost is; data must
    hold 2·n_seq of them) and ``train2_slope_at_final`` that cost's slope at s = 0; and
    ``val_slope_at_final`` (S,) the validation cost's slope dV/ds at s = 0 (:func:`central_slope`; s_zoom must hold 0
    inside it)."""
    from rnnrepro.ribeiro.temporal_order import line_cost, line_thetas, new_model
    model = new_model(hidden, 0)                                          # parameter shapes only
    Xtr, ytr, Xva, yva = (d[:n_seq] for d in data)
    Xtr2, ytr2 = data[0][n_seq:2 * n_seq], data[1][n_seq:2 * n_seq]
    if train_control and not validation_zoom:
        raise ValueError("train_control is the control of the validation zoom: pass validation_zoom=True too")
    if train_control and len(Xtr2) < n_seq:
        raise ValueError(f"validation_zoom needs 2·n_seq = {2 * n_seq} training sequences, data has {len(data[0])}")
    out = {k: [] for k in ("zoom_train_minima", "line_train_argmin", "line_val_argmin")}
    for ti, tf in zip(torch.as_tensor(theta_init), torch.as_tensor(theta_final)):
        line, zoom = line_thetas(ti, tf, s_line), line_thetas(ti, tf, s_zoom)
        zoom_train = line_cost(model, zoom, Xtr, ytr)
        out["zoom_train_minima"].append(int(deep_minima(zoom_train).sum()))
        if validation_zoom:
            zoom_val = line_cost(model, zoom, Xva, yva)
            out.setdefault("train_min_kept_on_val", []).append(minimum_kept(zoom_train, zoom_val, near))
            out.setdefault("train_min_kept_on_train", []).append(minimum_kept(zoom_train, zoom_train, near))
            if train_control:
                zoom_train2 = line_cost(model, zoom, Xtr2, ytr2)
                out.setdefault("train_min_kept_on_train2", []).append(minimum_kept(zoom_train, zoom_train2, near))
                out.setdefault("train2_slope_at_final", []).append(central_slope(s_zoom, zoom_train2, at=0.0))
            out.setdefault("val_slope_at_final", []).append(central_slope(s_zoom, zoom_val, at=0.0))
        out["line_train_argmin"].append(float(s_line[np.argmin(line_cost(model, line, Xtr, ytr))]))
        out["line_val_argmin"].append(float(s_line[np.argmin(line_cost(model, line, Xva, yva))]))
    return {k: np.asarray(v) for k, v in out.items()}


def steady_state_spreads(theta_init: np.ndarray, theta_final: np.ndarray, s: np.ndarray, *, hidden: int = 50,
                         seed: int = 0, group: int = 24) -> np.ndarray:
    """Spread of every steady-state output (Figs. 5, 8, 9) along θ(s) for each seed: (S, len(s), 6 inputs,
    4 outputs), from 8 initial states N(0, 1), 600 steps of which the last 300 are kept, float64.

    The S·len(s) networks are simulated ``group`` at a time (the initial states are shared by all of them, and each
    network's arithmetic is its own, so the grouping changes no number): one network per call would spend most of
    its time on the calls' overhead, every network at once on memory traffic."""
    from rnnrepro.ribeiro import bifurcation as bif
    from rnnrepro.ribeiro.temporal_order import N_CLASSES, batched_params, line_thetas, new_model
    if len(theta_init) == 0:
        return np.zeros((0, len(s), 6, N_CLASSES))
    model = new_model(hidden, 0)
    thetas = torch.cat([line_thetas(ti, tf, s) for ti, tf in zip(torch.as_tensor(theta_init),
                                                                  torch.as_tensor(theta_final))])   # (S·len(s), D)
    spreads = []
    for k in range(0, thetas.shape[0], group):
        P = batched_params(model, thetas[k:k + group])
        readout = lambda h, P=P: torch.einsum("pbh,pkh->pbk", h, P["C"]) + P["d"][:, None]
        out, _ = bif.steady_states(P["W_ih"], P["W_hh"], P["b_ih"], P["b_hh"], inputs=torch.eye(6), readout=readout,
                                   n_ic=8, n_steps=600, burn=300, seed=seed)
        spreads.append(output_spreads(out))
    return np.concatenate(spreads).reshape(len(theta_init), len(s), 6, N_CLASSES)


def output_spreads(out: np.ndarray) -> np.ndarray:
    """Spread of every output of steady states ``out`` (P, K inputs, n_ic, L, R outputs), as
    :func:`bifurcation.classify_all` measures it, one output (channel) at a time: (P, K, R)."""
    from rnnrepro.ribeiro import bifurcation as bif
    return np.stack([bif.classify_all(out, channel=j)[1] for j in range(out.shape[-1])], -1)


def long_run_periods(theta: np.ndarray | torch.Tensor, inputs: Sequence[int], *, hidden: int = 50,
                     n_steps: int = 12_000, window: int = 6_000, max_period: int = 2_000,
                     tol: float = 1e-6) -> np.ndarray:
    """Smallest period of each classifier's first output under each constant one-hot input (index into the 6
    symbols), over the last ``window`` of ``n_steps`` steps from (h, c) = 0, float64: theta (S, D) flat weights
    -> (S, len(inputs)) int, :func:`bifurcation.smallest_period` (1: a fixed point; 0: no period ≤ max_period
    to ``tol``)."""
    from rnnrepro.ribeiro import bifurcation as bif
    if not 0 < max_period < window <= n_steps:
        raise ValueError(f"need 0 < max_period ({max_period}) < window ({window}) <= n_steps ({n_steps})")
    Wih, Whh, bih, bhh, C, d = (p.double() for p in unflatten(torch.as_tensor(theta, dtype=torch.float32), hidden))
    x = torch.eye(6, dtype=torch.float64)[list(inputs)]                       # (K, 6)
    h = torch.zeros(Wih.shape[0], len(x), hidden, dtype=torch.float64)
    c = torch.zeros_like(h)
    out = []
    for t in range(n_steps):
        h, c = cells.lstm_step(h, c, x, W_ih=Wih, W_hh=Whh, b_ih=bih, b_hh=bhh)
        if t >= n_steps - window:
            out.append(torch.einsum("skh,sh->sk", h, C[:, 0]) + d[:, :1])
    y = torch.stack(out, -1).numpy()                                          # (S, K, window)
    return np.array([[bif.smallest_period(row, max_period, tol) for row in per_seed] for per_seed in y])


def existence_undecided(k: int, n: int) -> float:
    """How far a population of n leaves "some runs do X" open, when k of them do: 0 when k ≥ 1 (an instance
    decides existence), else the upper end of the Wilson 95 % interval of the rate (:func:`wilson_interval`).
    A row reads it as undecided while it is above the smallest rate it cares to exclude (the book: 5 %)."""
    hi = wilson_interval(k, n)[1]                     # also refuses k outside 0..n
    return 0.0 if k >= 1 else hi
