import numpy as np

from rnnrepro.ribeiro import entropy, lemmas


def test_lemma1_lemma2():
    s, p = lemmas.lemma1_ratios(n_pairs=2000)
    assert s <= 1 + 1e-9 and p <= 1
    r = lemmas.lemma2_checks(n=2000)
    assert r["se_ratio"] <= 1 and r["bce_ratio"] <= 1
    assert r["se_grad_err"] < 1e-12 and r["bce_grad_err"] < 1e-12 and r["bce_grad_err_wrong_sign"] > 1
    assert r["literal_bce_ratio"] > 1 and r["corrected_bce_ratio"] <= 1


def test_eq18():
    assert lemmas.eq18_ratio(n_pairs=500, T=10) <= 1
    assert lemmas.eq18_ratio(n_pairs=500, T=10, scale_S=1e-3) > 1


def test_product_bound_ratio_against_the_closed_slope_of_x_cubed():
    # f1 = f2 = f3 = x: (x^3 - z^3)/(x - z) = x^2 + xz + z^2, and the lemma's constant is 3
    x, z = np.array([0.2, 0.9, 0.999]), np.array([0.5, 0.95, 1.0])
    want = max(a * a + a * b + b * b for a, b in zip(x, z)) / 3
    ident = lambda v: v
    assert abs(lemmas.product_bound_ratio(x, z, [ident] * 3, [1, 1, 1], [1, 1, 1]) - want) < 1e-12
    # mixed constants: sum of L_i times the other M_j (3*1*0.5 + 1*2*0.5 + 1*1*0.5 = 3 for the chapter's f's)
    fs = [lambda v: np.sin(3 * v), lambda v: np.tanh(2 * v), lambda v: 0.5 * v]
    ratio = lemmas.product_bound_ratio(np.array([0.1]), np.array([0.3]), fs, [3, 2, 0.5], [1, 1, 0.5])
    f = lambda v: np.sin(3 * v) * np.tanh(2 * v) * 0.5 * v
    assert abs(ratio - abs(f(0.1) - f(0.3)) / 0.2 / 3.0) < 1e-12


def test_lemma1_product_is_attained_and_a_smaller_bound_fails():
    r = lemmas.lemma1_product_attained(n_pairs=2000)
    assert 0.997 < r <= 1
    assert r * 3 / 2 > 1 and 2 * r > 1            # a bound missing one of its three terms, or 2x too small, fails


def test_eq18_linear_ratios_equal_the_closed_form_and_nearly_attain_the_bound():
    L, T = 3.0, 20
    r = lemmas.eq18_linear_ratios(L=L, T=T)
    t = np.arange(1, T + 1)
    S = np.sqrt((L ** (2 * t + 2) - 1) / (L ** 2 - 1))          # eq. (19), closed form
    assert np.allclose(r, L ** t / S, rtol=1e-10, atol=0)
    assert abs(r.max() - L / np.sqrt(1 + L * L)) < 1e-12 and abs(r[-1] - np.sqrt(1 - L ** -2)) < 1e-9
    assert lemmas.eq18_linear_ratios(L=L, T=T, scale_S=0.94).max() > 1    # a bound 6 % too small fails
    S_short = np.sqrt((L ** (2 * t) - 1) / (L ** 2 - 1))                  # the sum stopping at t - 1
    assert (L ** t / S_short).max() > 1


def test_knn_entropy_uniform_and_gaussian():
    rng = np.random.default_rng(0)
    assert abs(entropy.knn_entropy(rng.uniform(0, 1, (5000, 2))) - 0.0) < 0.05
    X = rng.standard_normal((5000, 2))
    assert abs(entropy.knn_entropy(X) - np.log(2 * np.pi * np.e)) < 0.05
    # scale equivariance: H(cX) = H(X) + d log c
    assert abs(entropy.knn_entropy(3 * X) - entropy.knn_entropy(X) - 2 * np.log(3)) < 1e-9


def test_bound_margins():
    pr, co = entropy.bound_margins(np.diag([0.9, 0.5]))
    assert pr < 0 < co and abs(pr + co) < 1e-15
    assert abs(entropy.gaussian_entropy_change(np.diag([2.0, 3.0])) - np.log(6)) < 1e-12
    pr_min, co_min = entropy.random_matrix_margins(100, 3)
    assert co_min >= -1e-12 and pr_min < 0


def test_tanh_map_entropies():
    d = entropy.tanh_map_entropies(np.array([[0.6, -0.5], [0.4, 0.7]]), np.zeros(2), n_steps=1, n=4000)
    assert d["H"].shape == (2,) and abs(np.diff(d["H"])[0] - d["E_logdet"][0]) < 0.1
    assert d["NlogL"] < 0


def test_gaussian_entropy_closed_form_and_quadrature():
    from scipy.stats import norm
    for sigma in (1.0, 0.3, 1e-3, 0.8 ** 200):
        want = float(norm(scale=sigma).entropy())                      # scipy's formula, a third evaluation
        assert abs(entropy.gaussian_entropy(sigma) - want) < 1e-12
        assert abs(entropy.gaussian_entropy_quadrature(sigma) - want) < 1e-9
    # the entropy of a shrinking Gaussian falls without bound, by log 0.8 per step
    assert abs(entropy.gaussian_entropy(0.8 ** 200) - entropy.gaussian_entropy(1.0) - 200 * np.log(0.8)) < 1e-9
