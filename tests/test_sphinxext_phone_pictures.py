"""Figures on a phone (issue 37): a figure wider than a phone's column gets a phone variant, its panels
stacked in one column at their natural size (rnnrepro.book.plotting.phone_variant_svg), which the page
offers to narrow screens in a <picture> (rnnrepro.site.sphinxext.phone_figures)."""

import re

import matplotlib.pyplot as plt
import numpy as np

from rnnrepro.book import plotting
from rnnrepro.site.browser_check import svg_text_sizes
from rnnrepro.site.sphinxext import phone_figures


def _two_panels(width=plotting.FULL_WIDTH):
    fig, (a, b) = plotting.new_figure(2, width=width)
    t = np.arange(50)
    a.semilogy(t, 0.9 ** t, label="contractive")
    a.set(xlabel="step t", ylabel="distance", title="(a) contractive")
    b.plot(t, np.sin(t / 5), label="expansive")
    b.set(xlabel="step t", ylabel="distance", title="(b) expansive")
    b.legend()
    b.twinx().plot(t, t, color="k")
    plotting.make_legible(fig)
    return fig


def _svg_size_px(svg: bytes) -> tuple[float, float]:
    w, h = re.search(rb'width="([\d.]+)pt" height="([\d.]+)pt"', svg).groups()
    return float(w) * 4 / 3, float(h) * 4 / 3


def test_a_wide_figure_gets_its_panels_stacked_no_wider_than_a_phone_column_with_legible_text():
    fig = _two_panels()
    assert plotting.shown_width_px(fig) > 600          # the desktop figure: too wide for a phone
    size, specs = fig.get_size_inches().copy(), [ax.get_subplotspec() for ax in fig.get_axes()]
    svg = plotting.phone_variant_svg(fig)
    width, height = _svg_size_px(svg)
    assert width <= plotting.PHONE_COLUMN_PX + 0.5 and height > 1.3 * width   # two panels, one under the other
    sizes, view_width = svg_text_sizes(svg.decode())
    assert min(sizes) * width / view_width >= plotting.PHONE_MIN_TEXT_PX   # measured on the SVG, as a browser shows it
    # the desktop figure is left as it was (its glued image is drawn from it)
    assert (fig.get_size_inches() == size).all() and [ax.get_subplotspec() for ax in fig.get_axes()] == specs
    plt.close(fig)


def test_a_figure_that_fits_a_phone_gets_no_variant(tmp_path):
    fig, ax = plotting.new_figure(width=3.0, height=2.0)
    ax.plot([0, 1], [0, 1])
    ax.set(xlabel="x", ylabel="y")
    assert plotting.phone_variant_svg(fig) is None
    stale = tmp_path / "f.phone.svg"
    stale.write_text("old")
    assert plotting.write_phone_variant(fig, stale) is False and not stale.exists()
    plt.close(fig)


def test_a_figure_that_cannot_be_laid_out_that_narrow_gets_no_variant():
    fig, ax = plotting.new_figure(width=9.0)
    ax.plot([0, 1], [0, 1])
    ax.set(xlabel="x", ylabel="y")
    ax.set_title("Averyveryverylongtitlewithoutanyspaceatalltobreakitanywhereinthecolumn")   # no break fits
    assert plotting.phone_variant_svg(fig) is None
    plt.close(fig)


def _site(tmp_path):
    fig = _two_panels()
    fig.set_gid(plotting.phone_gid("li.fig2"))
    images = tmp_path / "jupyter_execute"
    images.mkdir()
    fig.savefig(images / "abc.svg", format="svg")
    out = tmp_path / "out" / "li.figures"
    out.mkdir(parents=True)
    assert plotting.write_phone_variant(fig, out / "fig2.phone.svg")
    plt.close(fig)
    return images, tmp_path / "out"


def test_the_page_offers_the_phone_variant_to_narrow_screens_only(tmp_path):
    images, out = _site(tmp_path)
    variants = phone_figures.phone_variants("li", out)
    assert list(variants) == [plotting.phone_gid("li.fig2")]
    body = ('<figure><img alt="Fig" src="../../_images/abc.svg" /></figure>'
            '<figure><img alt="other" src="../../_images/other.svg" /></figure>')
    page_dir = tmp_path / "html" / "book" / "chapters"
    new = phone_figures.with_phone_pictures(body, "li", variants, [images], page_dir)
    assert new.count("<picture") == 1 and 'src="../../_images/other.svg" /></figure>' in new
    assert (f'<picture class="rnnrepro-phone-figure"><source media="{plotting.PHONE_MEDIA}" srcset="li.phone/fig2.svg" '
            'type="image/svg+xml" /><img alt="Fig" src="../../_images/abc.svg" /></picture>') in new
    assert (page_dir / "li.phone" / "fig2.svg").read_bytes() == (out / "li.figures" / "fig2.phone.svg").read_bytes()


def test_a_figure_without_a_phone_variant_is_left_alone(tmp_path):
    images, out = _site(tmp_path)
    body = '<img alt="Fig" src="../../_images/abc.svg" />'
    assert phone_figures.with_phone_pictures(body, "li", {}, [images], tmp_path) == body


def test_a_shared_legend_in_a_row_is_listed_in_a_column_on_a_phone():
    """Three panels sharing a figure legend laid out in one row (miller's Fig. 3, flynn's perturbed flow):
    the phone variant lists the legend's entries one under another, and the desktop figure keeps its row."""
    fig, axes = plotting.new_figure(3, height=3.4)
    for k, ax in enumerate(axes):
        for j in range(5):
            ax.plot([0, 1], [j, j + k], label=f"k = {10 ** j}")
        ax.set(xlabel="update", ylabel="distance")
    legend = fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=5, fontsize=7)
    plotting.make_legible(fig)
    svg = plotting.phone_variant_svg(fig)
    assert svg is not None and _svg_size_px(svg)[0] <= plotting.PHONE_COLUMN_PX + 0.5
    assert legend._ncols == 5 and fig.legends == [legend]   # the desktop figure keeps its row


def test_a_long_panel_title_is_broken_outside_formulas():
    assert plotting.wrap_outside_math("(c) largest Lyapunov exponent (not in the paper)", 40) == \
        "(c) largest Lyapunov exponent (not in\nthe paper)"
    assert plotting.wrap_outside_math(r"(b) the cost along $\theta(s) = s\,\theta$ here", 16) == \
        "(b) the cost\nalong $\\theta(s) = s\\,\\theta$\nhere"      # a formula counts 4 characters
    fig, axes = plotting.new_figure(3, height=2.2)
    for ax in axes:
        ax.plot([0, 1], [0, 1])
        ax.set(xlabel="s", ylabel="λ(s)", title="(c) largest Lyapunov exponent (not in the paper)")
    plotting.make_legible(fig)
    assert plotting.phone_variant_svg(fig) is not None
    assert axes[0].get_title() == "(c) largest Lyapunov exponent (not in the paper)"   # the desktop figure's


def test_the_book_build_asks_the_chapters_it_executes_for_phone_variants(monkeypatch):
    """Loading the extension sets RNNREPRO_PHONE_FIGURES=1 in the build's environment, which the chapters'
    kernels inherit (ledger.figure writes a phone variant only then)."""
    from types import SimpleNamespace

    monkeypatch.setenv(plotting.PHONE_FIGURES_ENV, "0")
    assert not plotting.phone_variants_wanted()
    phone_figures.setup(SimpleNamespace(connect=lambda *args: None))
    assert plotting.phone_variants_wanted()
    assert not plotting.phone_variants_wanted({}) and plotting.phone_variants_wanted({plotting.PHONE_FIGURES_ENV: "1"})
