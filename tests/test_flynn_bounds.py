import pytest

from rnnrepro.flynn.bounds import example1_recipe, implied_alpha, tau_theorem3, with_tau


def test_recipe_reference_values():
    rec = example1_recipe(10, 2.0, 0.25)
    assert rec.beta_x == pytest.approx(0.5)
    assert rec.K == pytest.approx(3.434322, rel=1e-6)
    assert rec.r == pytest.approx(0.042228, rel=1e-4)
    assert rec.tau == pytest.approx(1.28519e-2, rel=1e-5)
    assert implied_alpha(rec) == pytest.approx(0.25)
    assert rec.tau == pytest.approx(tau_theorem3(rec.alpha, rec.beta, rec.c, rec.Lwh, rec.Lwu))
    # the optimum over r beats r = beta_x / (2K)
    assert example1_recipe(10, 2.0, 0.25, r=rec.beta_x / (2 * rec.K)).tau < rec.tau
    assert with_tau(rec, 1.0).tau == 1.0


def test_printed_c_and_rho_dependence():
    rec = example1_recipe(10, 2.0, 0.25)
    printed = example1_recipe(10, 2.0, 0.25, r=rec.r, printed_c=True)
    assert printed.tau / rec.tau == pytest.approx(7.74, rel=1e-2)
    assert implied_alpha(printed) > 1
    assert example1_recipe(10, 2.0, 0.25, rho_norm=2.0).tau < rec.tau
    assert example1_recipe(10, 2.0, 0.25).tau == example1_recipe(10, 2.0, 0.25).tau


def test_errors():
    with pytest.raises(ValueError, match="alpha"):
        example1_recipe(10, 4.5, 0.25)
    with pytest.raises(ValueError, match="r must"):
        example1_recipe(10, 2.0, 0.25, r=1.0)


def test_recipe_r_search_is_bounded(monkeypatch):
    from rnnrepro.flynn import bounds
    monkeypatch.setattr(bounds, "MAX_R_ITER", 2)
    with pytest.raises(RuntimeError, match="did not converge in 2 steps"):
        bounds.example1_recipe(10, 2.0, 0.25)
