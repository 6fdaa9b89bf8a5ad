import matplotlib.pyplot as plt
import pytest

from rnnrepro.book.plotting import FULL_WIDTH, new_figure, unlabelled_axes, use_book_style


def test_style_has_white_background():
    use_book_style()
    assert plt.rcParams["figure.facecolor"] == "white" and plt.rcParams["savefig.facecolor"] == "white"


def test_new_figure_size_and_label_check():
    fig, axes = new_figure(2, height=2.0)
    assert tuple(fig.get_size_inches()) == (FULL_WIDTH, 2.0) and len(axes) == 2
    axes[0].plot([0, 1], [0, 1])
    axes[0].set_title("a")
    assert unlabelled_axes(fig) == ["a"]
    axes[0].set(xlabel="x", ylabel="y")
    assert unlabelled_axes(fig) == []
    plt.close(fig)


def test_math_label_puts_raw_scripts_and_roots_in_mathtext():
    from matplotlib.mathtext import MathTextParser

    from rnnrepro.book.plotting import math_label, raw_markup

    cases = {
        "‖w_τ(T) − w_gf(T)‖_F": r"‖$w_{τ}$(T) − $w_{\mathrm{gf}}$(T)$‖_{F}$",
        "max_t ‖h − h*‖": r"$\max_{t}$ ‖h − h*‖",
        "m^-1/2": "$m^{-1/2}$",
        "max |F − F^Lin|": r"max |F − $F^{\mathrm{Lin}}$|",
        "τ_sep: separation": r"$τ_{\mathrm{sep}}$: separation",
        "α·1/sqrt(t)": r"α·1/$\sqrt{t}$",
        "e^(−βt) d(0)": "$e^{−βt}$ d(0)",
        "β_x = 1 − ‖v‖_F/4": "$β_{x}$ = 1 − ‖v$‖_{F}$/4",
        r"bound $L_f^k\sqrt{n}$ and L_f": r"bound $L_f^k\sqrt{n}$ and $L_{f}$",
        "no markup, 10 % of it": "no markup, 10 % of it",
    }
    parser = MathTextParser("path")
    for raw, want in cases.items():
        got = math_label(raw)
        assert got == want and raw_markup(got) is None, raw
        for piece in got.split("$")[1::2]:
            parser.parse(f"${piece}$")
    assert raw_markup("L_f") == "_" and raw_markup("x^2 $y_1$") == "^" and raw_markup("1/sqrt(t)") == "sqrt("


def test_legibility_problems_and_what_make_legible_fixes():
    from rnnrepro.book.plotting import legibility_problems, make_legible

    from matplotlib.ticker import NullFormatter

    fig, (a, b) = new_figure(2, height=2.0)
    a.semilogy([1, 2, 3], [0.09, 0.2, 0.8], label="printed L_t")
    a.yaxis.set_minor_formatter(NullFormatter())      # only 10^-1 is labelled
    a.plot([1, 2], [0.2, 0.2], ls="none", label="zoom")          # a legend entry nothing draws
    a.legend()
    a.set(xlabel="t", ylabel="max ‖∂_Θ H_t‖")
    b.plot([0, 1], [0, 1])
    b.set(xlabel="m^-1/2", ylabel="y")
    before = " ".join(legibility_problems(fig))
    assert "raw '_'" in before and "raw '^'" in before and "y axis has 1 labelled tick" in before
    assert "'zoom' has no visible line" in before
    make_legible(fig)
    after = legibility_problems(fig)
    assert after == ["legend entry 'zoom' has no visible line, marker or patch"]
    assert a.get_ylabel() == r"max ‖$∂_{Θ}$ $H_{t}$‖" and b.get_xlabel() == "$m^{-1/2}$"
    plt.close(fig)


def test_figures_are_svg_only_inside_a_kernel():
    from rnnrepro.book.plotting import inline_svg

    assert inline_svg() is False


def test_dense_point_clouds_are_images_inside_the_svg():
    import io

    import numpy as np

    from rnnrepro.book.plotting import rasterize_dense

    def svg_size(fig):
        out = io.BytesIO()
        fig.savefig(out, format="svg")
        return out.tell()

    rng = np.random.default_rng(0)
    fig, ax = new_figure(1, height=2.0)
    ax.plot(rng.random(20000), rng.random(20000), ",")
    ax.plot([0, 1], [0, 1], "k-")
    vector = svg_size(fig)
    assert rasterize_dense(fig) == 1 and ax.lines[0].get_rasterized() and not ax.lines[1].get_rasterized()
    assert svg_size(fig) < vector / 5
    plt.close(fig)


def _shown_text_px(fig) -> float:
    """The smallest text of ``fig`` as the page shows it at 1400 px, measured independently of
    plotting.py: the SVG that IPython's inline backend writes (``bbox_inches="tight"``), its glyphs'
    sizes read back (rnnrepro.site.browser_check.svg_text_sizes), shown at its natural width (4/3 CSS px
    per pt) or scaled down to the 784-px column."""
    import io

    from rnnrepro.site.browser_check import svg_text_sizes

    out = io.StringIO()
    fig.savefig(out, format="svg", bbox_inches="tight", pad_inches=0.1)
    sizes, view_width = svg_text_sizes(out.getvalue())
    natural = view_width * 4 / 3
    return min(sizes) * 4 / 3 * min(1.0, 784 / natural)


def test_small_text_is_enlarged_to_10_css_px_as_shown():
    from rnnrepro.book.plotting import (enlarge_small_text, legibility_problems, make_legible, min_font_points,
                                        small_texts)

    for width, labelsize in ((FULL_WIDTH, 6), (12.0, 8)):        # natural size; scaled down to the column
        fig, ax = new_figure(1, height=2.0, width=width)
        ax.plot([1, 2, 3], [1, 4, 9], label="data")
        ax.set(xlabel="x", ylabel="y", title="t")
        ax.tick_params(labelsize=labelsize)
        ax.legend(fontsize=labelsize)
        assert _shown_text_px(fig) < 10
        need = min_font_points(fig)
        assert need == pytest.approx(7.5 if width == FULL_WIDTH else 7.5 * (width + 0.2) * 96 / 784, rel=0.03)
        assert small_texts(fig) and any("smaller than" in p for p in legibility_problems(fig))
        make_legible(fig)
        assert not small_texts(fig) and not any("smaller than" in p for p in legibility_problems(fig))
        assert 10 <= _shown_text_px(fig) < 10.6
        assert enlarge_small_text(fig) >= need
        plt.close(fig)


def test_the_book_style_is_legible_as_it_is():
    """The default sizes (ticks 8 pt) in a full-width figure need no enlarging: 10.7 CSS px."""
    from rnnrepro.book.plotting import small_texts

    fig, ax = new_figure(1, height=2.0)
    ax.plot([0, 1], [0, 1])
    ax.set(xlabel="x", ylabel="y")
    assert not small_texts(fig) and _shown_text_px(fig) == pytest.approx(8 * 4 / 3)
    plt.close(fig)
