import numpy as np

from rnnrepro.flynn.activations import L_DDSIGMA, L_DSIGMA, ddsigma, dsigma, sigma


def test_derivatives_and_bounds():
    s = np.linspace(-20, 20, 200001)
    eps = 1e-6
    assert np.allclose(dsigma(s), (sigma(s + eps) - sigma(s - eps)) / (2 * eps), atol=1e-9)
    assert np.allclose(ddsigma(s), (dsigma(s + eps) - dsigma(s - eps)) / (2 * eps), atol=1e-9)
    assert abs(dsigma(s).max() - L_DSIGMA) < 1e-12
    assert abs(np.abs(ddsigma(s)).max() - L_DDSIGMA) < 1e-9
    assert np.all(np.isfinite(sigma(np.array([-1e4, 1e4]))))
