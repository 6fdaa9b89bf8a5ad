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
