import torch

from rnnrepro.book.plotting import unlabelled_axes
from rnnrepro.dynamics import figures


def test_every_figure_has_labelled_axes_and_draws_its_data():
    t = torch.arange(6)
    dist = torch.rand(6, 2, 3) + 0.1
    windows = [1, 2, 3]
    err = torch.rand(3, 2, 4) + 0.1
    lags = torch.arange(5)
    kernels = torch.rand(8, 5) + 0.1
    figs = [figures.forgetting(t, dist, 0.5),
            figures.truncation(windows, err, [1.0, 0.5, 0.25]),
            figures.edge_of_chaos([0.5, 1.0], [-0.2, 0.1], [-0.3, 0.0]),
            figures.memory(lags, kernels, horizons=[10, 20], gap_to_one={"power": [0.1, 0.05],
                                                                        "exponential": [0.05, 0.05]}, alpha=1.5)]
    assert all(unlabelled_axes(f) == [] for f in figs)
    # the forgetting panel draws every pair shown plus the bound; the memory panel both halves plus 0.9^k
    assert len(figs[0].axes[0].lines) == 3 + 1 and len(figs[0].axes[1].lines) == 3
    assert len(figs[3].axes[0].lines) == 8 + 1
    bound = figs[0].axes[0].lines[-1].get_ydata()
    assert abs(bound[2] - dist[0, 0].max().item() * 0.25) < 1e-12


def _panel_titles(fig):
    return [ax.get_title() for ax in fig.axes if ax.get_visible() and ax.has_data()]


def test_panels_are_lettered_in_order_and_no_text_is_below_7pt():
    """Multi-panel figures title each panel "(a) …", "(b) …" in order (the captions name them so);
    single-panel figures carry no letter; no text is smaller than 7 pt."""
    from matplotlib.text import Text

    t = torch.arange(6)
    two = [figures.forgetting(t, torch.rand(6, 2, 3) + 0.1, 0.5),
           figures.memory(torch.arange(5), torch.rand(8, 5) + 0.1, horizons=[10, 20],
                          gap_to_one={"power": [0.1, 0.05], "exponential": [0.05, 0.05]}, alpha=1.5)]
    one = [figures.truncation([1, 2, 3], torch.rand(3, 2, 4) + 0.1, [1.0, 0.5, 0.25]),
           figures.edge_of_chaos([0.5, 1.0], [-0.2, 0.1], [-0.3, 0.0])]
    for fig in two:
        titles = _panel_titles(fig)
        assert [s[:4] for s in titles] == ["(a) ", "(b) "], titles
    for fig in one:
        assert not any(s.startswith("(") for s in _panel_titles(fig))
    for fig in two + one:
        assert min(x.get_fontsize() for x in fig.findobj(Text) if x.get_text()) >= 7
