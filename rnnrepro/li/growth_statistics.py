"""Growth statistics of the plateau sweeps against the memory 1/ω: log-linear slopes and secant-slope
ratios of the quantities at θ₀ (Lemma C.1, Props C.2–C.3) and of the escape times (Thm 5.1, Fig. 3),
each with the same statistic of its contrast."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from rnnrepro.core.fits import exp_vs_power, exponential_rate, power_law_through, secant_slope_ratio


def _slope(x: ArrayLike, y: ArrayLike) -> float:
    return exponential_rate(x, y).slope


def decay_shape(x: ArrayLike, y: ArrayLike, span: float) -> float:
    """The secant-slope ratio of log y (:func:`rnnrepro.core.fits.secant_slope_ratio`), signed: the ratio
    where y falls over both the first and the last ``span``, minus its absolute value otherwise (a growth,
    a hump that rises then falls, a dip), so that only a decay can read positive.

    An exponential decay C·e^{−r·x} gives 1, a power-law decay C·x^{−k} the ratio of logarithms
    log(x_n/(x_n − span)) / log((x_0 + span)/x_0) < 1, and any exponential growth −1, so that "at least
    0.8" reads "decays, and exponentially". x increasing (n,), y > 0 (n,), as for secant_slope_ratio.
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    ratio = secant_slope_ratio(x, y, span)   # validates x, y and span
    i = int(np.argmin(np.abs(x - (x[0] + span))))
    j = int(np.argmin(np.abs(x - (x[-1] - span))))
    return ratio if y[i] < y[0] and y[-1] < y[j] else -abs(ratio)


def plateau_point_statistics(mus: ArrayLike, pp: dict, mus_lemma: ArrayLike, d_gauss: np.ndarray,
                             d_cauchy: np.ndarray, *,
                             span: float = 6.0) -> dict:
    """Reduce the sweep at θ₀ to the numbers Lemma C.1 and Props C.2–C.3 are checked on.

    mus (n,) memories of ``pp`` (from :func:`rnnrepro.li.plateau_dynamics.plateau_point`: per target "bump"/"tail",
    J (n,), grad (n,), eig (n, 4); eig_h0 (4,)); mus_lemma (k,) with the overlaps d_gauss, d_cauchy (k,).
    Slopes are of log y per unit of 1/ω; shapes are secant-slope ratios over ``span``; the gradient is
    fitted on 1/ω ≥ 6 and the small eigenvalue on 1/ω ≥ 10, and their shapes are signed
    (:func:`decay_shape`: a growth reads negative). Returns a dict of floats (keys ending in
    ``_ctl``: the contrast: Cauchy template, or the undelayed exp-tail target, or H₀).
    """
    mus = np.asarray(mus, float)
    big, late = mus >= 6, mus >= 10
    grad, grad_t = pp["bump"]["grad"], pp["tail"]["grad"]
    small, small_t = np.abs(pp["bump"]["eig"]).min(axis=1), np.abs(pp["tail"]["eig"]).min(axis=1)
    top_h0 = np.sort(pp["eig_h0"])[-2:]
    top_gap = lambda ev: float(np.abs(np.sort(ev)[-2:] - top_h0).max())
    return dict(
        overlap_slope=_slope(mus_lemma, d_gauss), overlap_slope_ctl=_slope(mus_lemma, d_cauchy),
        overlap_r2=exponential_rate(mus_lemma, d_gauss).r2,
        overlap_shape=secant_slope_ratio(mus_lemma, d_gauss, span),
        overlap_shape_ctl=secant_slope_ratio(mus_lemma, d_cauchy, span),
        loss_min=float(pp["bump"]["J"].min()),
        grad_slope=_slope(mus[big], grad[big]), grad_slope_ctl=_slope(mus[big], grad_t[big]),
        grad_r2=exponential_rate(mus[big], grad[big]).r2,
        grad_shape=decay_shape(mus[big], grad[big], span),
        grad_shape_ctl=decay_shape(mus[big], grad_t[big], span),
        grad_last_slope=float(np.diff(np.log(grad[-2:]))[0] / np.diff(mus[-2:])[0]),
        eig_slope=_slope(mus[late], small[late]), eig_slope_ctl=_slope(mus[late], small_t[late]),
        eig_shape=decay_shape(mus[late], small[late], span),
        eig_shape_ctl=decay_shape(mus[late], small_t[late], span),
        top_gap=top_gap(pp["bump"]["eig"][-1]), top_gap_ctl=top_gap(pp["bump"]["eig"][0]),
        saddle=float((pp["bump"]["eig"][late, 0] / pp["bump"]["eig"][late, -1]).max()),
        saddle_ctl=float(pp["eig_h0"][0] / pp["eig_h0"][-1]),
        h0_min=float(pp["eig_h0"][0]),
    )


def escape_statistics(mus: ArrayLike, esc: dict, grad: np.ndarray, *, w_f: float, mu_min: float = 8.0,
                      span: float = 6.0,
                      window: tuple[float, float] = (8.0, 20.0)) -> dict:
    """Reduce the escape-time sweep to the numbers Thm 5.1 and Fig. 3 are checked on.

    mus (n,) increasing memories; esc from :func:`rnnrepro.li.plateau_dynamics.escape_times` (tau, sep, control,
    sep_control (n,));
    grad (n,) ‖∇J(θ₀)‖; w_f the dead neuron's rate. Fits use 1/ω ≥ ``mu_min``; "top" is the last ``span``
    units. Returns floats (``_ctl``: the power law through the fitted range's end points, or the undelayed
    target's times of the same kind, or the pre-asymptotic ``window``; ``growth_shape_undelayed``: the
    undelayed target's escape-time secant ratio) and the arrays ``fit_mask``,
    ``power_law`` (fitted range) and the fits ``fit_tau``, ``fit_sep`` (for the figure).
    """
    mus = np.asarray(mus, float)
    fit = mus >= mu_min
    mu_fit, tau_fit = mus[fit], esc["tau"][fit]
    poly = power_law_through(mu_fit, mu_fit[0], tau_fit[0], mu_fit[-1], tau_fit[-1])
    top = mu_fit >= mu_fit[-1] - span
    win = (mus >= window[0]) & (mus <= window[1])
    local = np.diff(np.log(esc["tau"])) / np.diff(mus)
    return dict(
        growth_shape=secant_slope_ratio(mu_fit, tau_fit, span), growth_shape_ctl=secant_slope_ratio(mu_fit, poly, span),
        growth_shape_undelayed=secant_slope_ratio(mu_fit, esc["control"][fit], span),
        loglinear=exp_vs_power(mu_fit, tau_fit), loglinear_ctl=exp_vs_power(mu_fit, poly),
        sep_shape=secant_slope_ratio(mu_fit, esc["sep"][fit], span),
        sep_shape_ctl=secant_slope_ratio(mu_fit, esc["sep_control"][fit], span),
        rate_top=_slope(mu_fit[top], tau_fit[top]) / w_f, rate_window=_slope(mus[win], esc["tau"][win]) / w_f,
        slope_window=_slope(mus[win], esc["tau"][win]), slope_top=_slope(mu_fit[top], tau_fit[top]),
        tg2_slope_top=_slope(mu_fit[top], (esc["tau"] * np.asarray(grad) ** 2)[fit][top]),
        local_first=float(local[np.nonzero(mus[1:] > mu_min)[0][0]]), local_last=float(local[-1]),
        slope=exponential_rate(mu_fit, tau_fit).slope,
        tau_min_fit=float(tau_fit[0]), tau_max=float(esc["tau"][-1]),
        fit_mask=fit, power_law=poly, fit_tau=exponential_rate(mu_fit, tau_fit),
        fit_sep=exponential_rate(mu_fit, esc["sep"][fit]),
    )
