import matplotlib.pyplot as plt
import numpy as np

from rnnrepro.ribeiro.steady_state_figures import steady_state_grid, steady_state_panel


def _bif(P=5, K=3, n_ic=2, L=12, R=2):
    rng = np.random.default_rng(0)
    return {"out": rng.normal(size=(P, K, n_ic, L, R))}


def test_panel_scatters_every_kept_step_of_the_chosen_pair():
    bif = _bif()
    fig, ax = plt.subplots()
    steady_state_panel(ax, bif, k=1, j=0, s=np.linspace(0, 1, 5), title="(a) t", every=3)
    offsets = ax.collections[0].get_offsets()
    assert len(offsets) == 5 * 2 * 4                                     # P · n_ic · L / every
    np.testing.assert_array_equal(np.sort(offsets[:, 1]), np.sort(bif["out"][:, 1, :, ::3, 0].ravel()))
    assert ax.get_title() == "(a) t" and ax.get_ylabel() == "output 1"


def test_grid_has_one_lettered_panel_per_pair_and_no_text_below_7_points():
    fig = steady_state_grid(_bif(), np.linspace(0, 1, 5), ["p", "q", "a"], every=4)
    axes = fig.get_axes()
    assert len(axes) == 3 * 2
    assert [ax.get_title()[:3] for ax in axes] == ["(a)", "(b)", "(c)", "(d)", "(e)", "(f)"]
    assert axes[3].get_title() == "(d) input q, out 2"
    for ax in axes:
        sizes = [ax.title.get_fontsize(), ax.xaxis.label.get_fontsize(), ax.yaxis.label.get_fontsize()]
        sizes += [t.get_fontsize() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        assert min(sizes) >= 7


def test_grid_of_chosen_inputs_continues_the_lettering():
    bif = _bif()
    fig = steady_state_grid(bif, np.linspace(0, 1, 5), ["p", "q", "a"], inputs=[2], first_letter=4, fontsize=9,
                            markersize=3, every=4)
    axes = fig.get_axes()
    assert [ax.get_title() for ax in axes] == ["(e) input a, out 1", "(f) input a, out 2"]
    np.testing.assert_array_equal(np.sort(axes[1].collections[0].get_offsets()[:, 1]),
                                  np.sort(bif["out"][:, 2, :, ::4, 1].ravel()))
    assert axes[0].collections[0].get_sizes()[0] == 3 and axes[0].title.get_fontsize() == 9
    for bad in ([], [3], [-1]):
        try:
            steady_state_grid(bif, np.linspace(0, 1, 5), ["p", "q", "a"], inputs=bad)
        except ValueError:
            continue
        raise AssertionError(f"inputs={bad} accepted")
