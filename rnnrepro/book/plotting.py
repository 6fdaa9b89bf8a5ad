"""One plotting style for the whole book.

Figures have an explicit white background (readable on the light and the dark theme), a fixed
size family and labelled axes. Chapters call :func:`new_figure` and label every axis. In a notebook
kernel figures are SVG; ``ledger.figure`` makes each legible (:func:`make_legible`: mathtext for raw
sub/superscripts, enough ticks, dense clouds drawn as images, no text below 10 CSS px as the page shows
it at 1400 px) and refuses what is still hard to read (:func:`legibility_problems`). A figure wider than
a phone's column also gets a phone variant (:func:`phone_variant_svg`: its panels stacked in one column
at their natural size), which the page shows on narrow screens (rnnrepro.site.sphinxext.phone_figures).
"""

from __future__ import annotations

import math
import os
import re

import matplotlib.pyplot as plt

#: Width of a full-width figure, in inches; heights are chosen per figure.
FULL_WIDTH = 7.5
#: The page's content column at a 1400-px window (sphinx-book-theme), in CSS px: a figure shown wider is
#: scaled down to it, and its text with it.
COLUMN_PX = 784
#: The smallest text a figure may show, in CSS px at a 1400-px window, tick labels included (issue 30).
MIN_TEXT_PX = 10.0
#: CSS px per inch; an SVG's sizes are points (1/72 inch), so 1 pt is 4/3 px at the figure's natural size.
PX_PER_INCH = 96
#: The margin IPython's inline SVG adds around the tight bounding box (``savefig.pad_inches``).
SAVE_PAD_INCHES = 0.1

STYLE = {
    "figure.facecolor": "white",
    "axes.facecolor": "white",
    "savefig.facecolor": "white",
    "figure.dpi": 200,              # the resolution of what an SVG holds as an image (rasterize_dense)
    "savefig.dpi": 200,
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "lines.linewidth": 1.4,
    "figure.constrained_layout.use": True,
    "svg.hashsalt": "rnnrepro",     # the same ids in every build's SVG
    "svg.fonttype": "path",         # text drawn as paths: the SVG needs no font
    "image.cmap": "viridis",
}


def use_book_style() -> None:
    """Apply the book's matplotlib style (idempotent); in a notebook kernel, figures are shown as SVG
    (sharp at any zoom, on a phone too)."""
    plt.rcParams.update(STYLE)
    inline_svg()


def kernel_shell():
    """The IPython shell of the running notebook kernel, or None outside one (a script, a test, a
    terminal IPython)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with the book's environment
        return None
    shell = get_ipython()
    return shell if shell is not None and hasattr(shell, "kernel") else None


def inline_svg() -> bool:
    """Make a running IPython kernel display figures as SVG; False (nothing done) outside one."""
    if kernel_shell() is None:
        return False
    from matplotlib_inline.backend_inline import set_matplotlib_formats

    set_matplotlib_formats("svg")
    return True


def new_figure(ncols: int = 1, nrows: int = 1, *, height: float = 3.0, width: float = FULL_WIDTH, **kwargs):
    """``plt.subplots`` with the book's sizes: returns ``(fig, axes)`` (axes squeezed as in matplotlib)."""
    use_book_style()
    return plt.subplots(nrows, ncols, figsize=(width, height * nrows), **kwargs)


def unlabelled_axes(fig) -> list[str]:
    """Titles/indices of axes in ``fig`` that lack an x or y label (used by the ledger's checks)."""
    missing = []
    for i, ax in enumerate(fig.get_axes()):
        if ax.get_visible() and ax.has_data() and not (ax.get_xlabel() and ax.get_ylabel()):
            missing.append(ax.get_title() or f"axes {i}")
    return missing


# ---------------------------------------------------------------------------------------- legibility
#: ``$…$`` (an unescaped dollar to the next): text matplotlib already typesets as mathtext.
_MATH = re.compile(r"(?<!\\)\$(?:[^$\\]|\\.)*(?<!\\)\$")
#: A base (a word, a number, ``∂``, ``∇`` or a closing ``)``, ``‖``, ``|``) followed by ``_x``/``^x`` scripts,
#: where x is ``{…}``, ``(…)``, a number (``-1/2`` allowed) or a word: ``L_f``, ``m^-1/2``, ``e^(−βt)``.
_ARG = r"(?:\{[^{}]*\}|\([^()]*\)|[-−+]?\d+(?:/\d+)?|[-−+]?[^\W_]+)"
_SCRIPT = rf"[_^]{_ARG}"
_SCRIPTED = re.compile(rf"(?P<base>[^\W\d_][^\W_]*|\d+(?:\.\d+)?|[)‖|∂∇])(?P<scripts>(?:{_SCRIPT})+)")
_ONE_SCRIPT = re.compile(rf"(?P<kind>[_^])(?P<arg>{_ARG})")
_SQRT = re.compile(r"sqrt\(([^()]*)\)")
_OPERATORS = {"max", "min", "sup", "inf", "log", "exp", "lim", "arg"}


def _script_arg(arg: str) -> str:
    arg = arg[1:-1] if arg[:1] in "{(" else arg
    return rf"\mathrm{{{arg}}}" if len(arg) > 1 and arg.isalpha() else arg


def _scripted(m: re.Match) -> str:
    base = m["base"]
    base = "\\" + base if base in _OPERATORS else (rf"\mathrm{{{base}}}" if len(base) > 1 and base.isalpha() else base)
    scripts = "".join(f"{s['kind']}{{{_script_arg(s['arg'])}}}" for s in _ONE_SCRIPT.finditer(m["scripts"]))
    return f"${base}{scripts}$"


def math_label(text: str) -> str:
    """``text`` with its raw sub- and superscripts and square roots as mathtext: ``L_f`` → ``$L_{f}$``,
    ``m^-1/2`` → ``$m^{-1/2}$``, ``τ_sep`` → ``$τ_{\\mathrm{sep}}$``, ``max_t`` → ``$\\max_{t}$``,
    ``sqrt(t)`` → ``$\\sqrt{t}$``; ``$…$`` parts are left as they are."""
    out, at = [], 0
    for m in _MATH.finditer(text):
        out += [_plain_to_math(text[at:m.start()]), m.group()]
        at = m.end()
    return "".join(out + [_plain_to_math(text[at:])])


def _plain_to_math(text: str) -> str:
    text = _SQRT.sub(lambda m: rf"$\sqrt{{{m.group(1)}}}$", text)
    parts = re.split(r"(\$[^$]*\$)", text)    # the square roots just made
    return "".join(p if p.startswith("$") else _SCRIPTED.sub(_scripted, p) for p in parts)


def _texts(fig) -> list:
    """Every text a reader sees in ``fig``: titles, axis labels, legend entries and titles, free text."""
    texts = list(fig.texts) + [t for t in (getattr(fig, "_suptitle", None), getattr(fig, "_supxlabel", None),
                                            getattr(fig, "_supylabel", None)) if t is not None]
    legends = list(fig.legends)
    for ax in fig.get_axes():
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label, *ax.texts]
        legends += [ax.get_legend()] if ax.get_legend() is not None else []
    for legend in legends:
        texts += [*legend.get_texts(), legend.get_title()]
    return [t for t in texts if t.get_visible() and t.get_text()]


def raw_markup(text: str) -> str | None:
    """The raw math markup (``_``, ``^``, ``sqrt(``) left outside ``$…$`` in ``text``, or None."""
    plain = _MATH.sub(" ", text)
    m = re.search(r"[_^]|sqrt\(", plain)
    return m.group() if m else None


def _axis_ticks(axis, lo: float, hi: float) -> tuple[int, bool]:
    """(labelled ticks in the view, whether the axis shows tick labels at all)."""
    ticks = [t for t in axis.get_major_ticks() + axis.get_minor_ticks()
             if lo - 1e-9 * abs(hi - lo) <= t.get_loc() <= hi + 1e-9 * abs(hi - lo)]
    shown = [t for t in ticks if t.label1.get_visible() or t.label2.get_visible()]
    labelled = {round(float(t.get_loc()), 12) for t in shown
                if (t.label1.get_visible() and t.label1.get_text()) or (t.label2.get_visible() and t.label2.get_text())}
    return len(labelled), bool(shown)


def _axes_axis(ax):
    return (("x", ax.xaxis, ax.get_xlim()), ("y", ax.yaxis, ax.get_ylim()))


def _too_few_ticks(fig, *, drawn: bool = False) -> list[tuple]:
    """(axes, "x"/"y", axis, labelled ticks) of every axis with data that shows fewer than two labelled
    ticks. ``drawn``: the figure was drawn after its last change (:func:`shown_width_px`), so its tick
    labels are current and it is not drawn again."""
    if not drawn:
        fig.draw_without_rendering()   # tick labels as they will be drawn (a closed figure too)
    few = []
    for ax in fig.get_axes():
        if not (ax.get_visible() and ax.axison and ax.has_data()):
            continue
        for name, axis, (a, b) in _axes_axis(ax):
            n, shown = _axis_ticks(axis, min(a, b), max(a, b))
            if axis.get_visible() and shown and n < 2:
                few.append((ax, name, axis, n))
    return few


def ensure_ticks(fig) -> bool:
    """Give every axis that shows fewer than two labelled ticks more: on a log axis a locator at 1, 2
    and 5 times each power of ten (then at every integer multiple), on a linear axis more bins. Returns
    whether it changed a locator (if not, the figure was drawn after its last change: :func:`shown_width_px`)."""
    from matplotlib.ticker import LogFormatterSciNotation, LogLocator, MaxNLocator, NullFormatter

    few = _too_few_ticks(fig)
    if not few:
        return False                       # nothing changed: a second look would find the same
    for ax, _name, axis, _n in few:
        if axis.get_scale() == "log":
            axis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
            axis.set_major_formatter(LogFormatterSciNotation(labelOnlyBase=False))
            axis.set_minor_formatter(NullFormatter())
        else:
            axis.set_major_locator(MaxNLocator(nbins="auto", min_n_ticks=3))
    for ax, _name, axis, _n in _too_few_ticks(fig):
        if axis.get_scale() == "log":
            axis.set_major_locator(LogLocator(subs=tuple(float(k) for k in range(1, 10))))
    return True


def _visible_handle(handle) -> bool:
    from matplotlib.collections import Collection
    from matplotlib.colors import to_rgba
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    if not handle.get_visible() or handle.get_alpha() == 0:
        return False
    if isinstance(handle, Line2D):
        line = handle.get_linestyle() not in ("None", "none", "", " ") and handle.get_linewidth() > 0
        marker = handle.get_marker() not in ("None", "none", "", " ", None) and handle.get_markersize() > 0
        return (line or marker) and to_rgba(handle.get_color())[3] > 0
    if isinstance(handle, Patch):
        return to_rgba(handle.get_facecolor())[3] > 0 or (handle.get_linewidth() > 0
                                                          and to_rgba(handle.get_edgecolor())[3] > 0)
    if isinstance(handle, Collection):
        return len(handle.get_facecolors()) + len(handle.get_edgecolors()) > 0
    return True


def shown_width_px(fig, *, drawn: bool = False) -> float:
    """The width of ``fig`` as the book shows it at its natural size, in CSS px: its tight bounding box
    (IPython saves inline figures with ``bbox_inches="tight"``) plus the saving margin on both sides.
    ``drawn``: the figure was drawn after its last change to what it shows, so it is not drawn again."""
    if not drawn:
        fig.draw_without_rendering()
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    return (box.width + 2 * SAVE_PAD_INCHES) * PX_PER_INCH


def min_font_points(fig, *, column_px: float = COLUMN_PX, min_px: float = MIN_TEXT_PX,
                    width_px: float | None = None) -> float:
    """The smallest font size, in points, whose text ``fig`` shows at ``min_px`` CSS px or more: at its
    natural size 1 pt is 4/3 px; a figure wider than the ``column_px`` column is scaled down to it.
    ``width_px``: :func:`shown_width_px`, when already known."""
    scale = min(1.0, column_px / (shown_width_px(fig) if width_px is None else width_px))
    return min_px * 72 / PX_PER_INCH / scale


def _tick_labels(fig) -> list:
    labels = []
    for ax in fig.get_axes():
        if not (ax.get_visible() and ax.axison):
            continue
        for axis in (ax.xaxis, ax.yaxis):
            if axis.get_visible():
                labels += [*axis.get_ticklabels(which="both"), axis.get_offset_text()]
    return [t for t in labels if t.get_visible() and t.get_text()]


def small_texts(fig, min_points: float | None = None) -> list[tuple[str, float]]:
    """(text, size in points) of every text of ``fig``, tick labels included, smaller than
    ``min_points`` (default :func:`min_font_points`)."""
    need = min_font_points(fig) if min_points is None else min_points
    return [(t.get_text(), t.get_fontsize()) for t in [*_texts(fig), *_tick_labels(fig)]
            if t.get_fontsize() < need - 1e-9]


def enlarge_small_text(fig, *, rounds: int = 5) -> float:
    """Set every text of ``fig`` smaller than :func:`min_font_points` to that size (tick labels through
    ``tick_params``, so that ticks drawn later keep it); larger text enlarges the figure's bounding box,
    so repeat until nothing is too small. Returns the size used, in points."""
    return _enlarge_small_text(fig, rounds)[0]


def _enlarge_small_text(fig, rounds: int, *, drawn: bool = False) -> tuple[float, float | None]:
    """:func:`enlarge_small_text`'s work: (the size used in points, :func:`shown_width_px` of the figure as
    left, measured after its last change; None when the rounds ran out after a change). ``drawn``: the figure
    was drawn after its last change (the first measurement need not draw it)."""
    need = 0.0
    for k in range(rounds):
        width = shown_width_px(fig, drawn=drawn and k == 0)
        # 0.1 pt above the bound, rounded up to a tenth: a browser snaps an image's width to its layout
        # grid, so text set exactly at the bound could show at 9.99 px
        need = math.ceil((min_font_points(fig, width_px=width) + 0.1) * 10) / 10
        if not small_texts(fig, need):
            return need, width
        for t in _texts(fig):
            if t.get_fontsize() < need:
                t.set_fontsize(need)
        for ax in fig.get_axes():
            for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
                labels = axis.get_ticklabels(which="both")
                if any(t.get_fontsize() < need for t in labels):
                    ax.tick_params(axis=name, which="both", labelsize=need)
                if axis.get_offset_text().get_fontsize() < need:
                    axis.get_offset_text().set_fontsize(need)
    return need, None


def legibility_problems(fig, *, drawn_width_px: float | None = None) -> list[str]:
    """What makes ``fig`` hard to read, one line each: raw ``_``, ``^`` or ``sqrt(`` outside mathtext,
    mathtext that does not parse, an axis with data and tick labels but fewer than two labelled ticks,
    a legend entry whose line/marker/patch is invisible, text (tick labels included) that the page
    would show smaller than :data:`MIN_TEXT_PX` CSS px at a 1400-px window. Empty when the figure reads
    well. ``drawn_width_px``: :func:`shown_width_px` measured after the figure's last change (what
    :func:`make_legible` returns), so that the figure is not drawn again."""
    from matplotlib.mathtext import MathTextParser

    parser, problems = MathTextParser("path"), []
    width = shown_width_px(fig) if drawn_width_px is None else drawn_width_px
    need = min_font_points(fig, width_px=width)
    small = small_texts(fig, need)
    if small:
        shown = ", ".join(f"{text!r} {size:g} pt" for text, size in small[:4])
        problems.append(f"{len(small)} text(s) smaller than {need:.1f} pt, which a figure {width:.0f} px wide shows at "
                        f"{MIN_TEXT_PX:g} CSS px in the {COLUMN_PX}-px column: {shown}")
    for t in _texts(fig):
        text = t.get_text()
        if raw_markup(text):
            problems.append(f"raw {raw_markup(text)!r} in {text!r}: write it as mathtext ($…$)")
        for m in _MATH.finditer(text):
            try:
                parser.parse(m.group())
            except ValueError as e:
                problems.append(f"mathtext {m.group()!r} does not parse: {str(e).splitlines()[0]}")
    for ax, name, _axis, n in _too_few_ticks(fig, drawn=True):   # drawn by shown_width_px, or by the caller
        problems.append(f"{ax.get_title() or 'axes'}: {name} axis has {n} labelled tick(s)")
    for legend in [*fig.legends, *(ax.get_legend() for ax in fig.get_axes() if ax.get_legend() is not None)]:
        for handle, text in zip(legend.legend_handles, legend.get_texts()):
            if handle is not None and not _visible_handle(handle):
                problems.append(f"legend entry {text.get_text()!r} has no visible line, marker or patch")
    return problems


#: Artists with more points than this are drawn as an image inside the SVG (a bifurcation diagram's
#: 10^5 dots would otherwise make a file of tens of megabytes); axes, labels and lines stay vector.
DENSE_POINTS = 5000


def _n_points(artist) -> int:
    from matplotlib.collections import Collection
    from matplotlib.lines import Line2D

    if isinstance(artist, Line2D):
        return len(artist.get_xdata())
    if isinstance(artist, Collection):
        return max(len(artist.get_offsets()), sum(len(p.vertices) for p in artist.get_paths()))
    return 0


def rasterize_dense(fig, max_points: int = DENSE_POINTS) -> int:
    """Draw every line or collection of ``fig`` with more than ``max_points`` points as an image (at the
    figure's dpi) when the figure is saved as SVG; return how many were set."""
    count = 0
    for ax in fig.get_axes():
        for artist in [*ax.lines, *ax.collections]:
            if not artist.get_rasterized() and _n_points(artist) > max_points:
                artist.set_rasterized(True)
                count += 1
    return count


def make_legible(fig) -> float:
    """Put every text of ``fig`` in mathtext (:func:`math_label`), give axes with too few ticks more
    (:func:`ensure_ticks`), draw dense point clouds as images (:func:`rasterize_dense`) and enlarge text
    the page would show below :data:`MIN_TEXT_PX` (:func:`enlarge_small_text`);
    :func:`legibility_problems` says what is left. Returns the figure's :func:`shown_width_px`, measured
    after its last change (pass it on to :func:`legibility_problems` and :func:`phone_variant_svg`)."""
    for t in _texts(fig):
        t.set_text(math_label(t.get_text()))
    changed = ensure_ticks(fig)            # draws the figure to read its ticks
    rasterize_dense(fig)                   # draws some artists as images: the layout stays as drawn
    _need, width = _enlarge_small_text(fig, 5, drawn=not changed)
    return shown_width_px(fig) if width is None else width


# ---------------------------------------------------------------------------------------- phone variant
#: The page's content column on a 390-px phone (sphinx-book-theme), in CSS px: a figure no wider shows
#: at its natural size, so its text keeps its size; the page shows the phone variant up to
#: :data:`PHONE_MEDIA` (rnnrepro.site.sphinxext.phone_figures).
PHONE_COLUMN_PX = 340
#: The screens that get a figure's phone variant (the book's phone breakpoint, rnnrepro.css).
PHONE_MEDIA = "(max-width: 40rem)"
#: The smallest text a phone variant may show, in CSS px at its natural size.
PHONE_MIN_TEXT_PX = 9.0
#: Height of one panel of a phone variant, in inches (a panel keeps about the aspect of a desktop one).
PHONE_PANEL_HEIGHT = 2.5


def phone_gid(name: str) -> str:
    """The id written into a figure's SVG (its figure group) that names its phone variant: ``name`` is the
    figure's glue name (``<key>.<fig_id>``)."""
    return "rnnrepro-fig-" + re.sub(r"[^a-z0-9_-]", "-", name.lower())


def _panels(fig) -> list[list]:
    """The figure's panels in reading order (row by row): the axes of each grid cell (twin axes share
    their panel); axes outside the grid (colorbars, insets) follow the panel they are drawn on."""
    cells: dict[tuple, list] = {}
    for ax in fig.get_axes():
        spec = ax.get_subplotspec() if hasattr(ax, "get_subplotspec") else None
        if spec is None:
            continue
        rows, cols = spec.rowspan, spec.colspan
        cells.setdefault((rows.start, cols.start, rows.stop, cols.stop, id(spec.get_gridspec())), []).append(ax)
    return [cells[k] for k in sorted(cells)]


#: A phone variant's panel title longer than this many characters is broken over lines.
PHONE_TITLE_CHARS = 40


def wrap_outside_math(text: str, width: int) -> str:
    """``text`` broken over lines of at most ``width`` characters (a longer word or formula on its own
    line), at spaces outside ``$…$`` formulas only (a formula stays whole: mathtext spans one line)."""
    words, at = [], 0
    for m in _MATH.finditer(text):           # formulas as single words, with what touches them
        words += text[at:m.start()].split(" ")
        words[-1] += m.group()
        at = m.end()
    rest = text[at:].split(" ")
    words[-1:] = [words[-1] + rest[0]] + rest[1:] if words else rest
    lines, line = [], ""
    for word in (w for w in words if w):
        if line and len(line) + 1 + len(_MATH.sub("xxxx", word)) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join(lines + [line]) if line else text


def _legends_in_one_column(fig) -> list[tuple]:
    """Replace every legend of ``fig`` laid out in more than one column (a figure legend shared by the
    panels, in a row) by the same entries in one column; return what :func:`_restore_legends` undoes."""
    swapped = []
    for owner in [fig, *fig.get_axes()]:
        old = owner.get_legend() if owner is not fig else None
        for lg in (list(fig.legends) if owner is fig else [old] if old is not None else []):
            if getattr(lg, "_ncols", 1) <= 1:
                continue
            texts = lg.get_texts()
            kwargs = {"ncols": 1, "fontsize": texts[0].get_fontsize() if texts else None,
                      "title": lg.get_title().get_text() or None}
            labels = [t.get_text() for t in texts]
            if owner is fig:
                at = fig.legends.index(lg)
                fig.legends.remove(lg)
                outside = getattr(lg, "_outside_loc", None)
                where = f"outside {'lower center' if outside == 'lower' else 'upper center' if outside == 'upper' else outside}" \
                    if outside else lg._loc
                new = fig.legend(lg.legend_handles, labels, loc=where, **kwargs)
                swapped.append((fig, lg, new, at))
            else:
                new = owner.legend(lg.legend_handles, labels, loc=lg._loc, **kwargs)
                swapped.append((owner, lg, new, None))
    return swapped


def _restore_legends(fig, swapped: list[tuple]) -> None:
    for owner, old, new, at in reversed(swapped):
        if owner is fig:
            fig.legends.remove(new)
            fig.legends.insert(at, old)
        else:
            owner.legend_ = old


def phone_variant_svg(fig, *, width_px: float = PHONE_COLUMN_PX, shown_px: float | None = None) -> bytes | None:
    """The figure redrawn for a phone as SVG: its panels one under another in a single column no wider
    than ``width_px`` (a legend laid out in a row listed in one column) (at its natural size, so its text keeps its size in points: 8 pt is 10.7 CSS px);
    None when the figure already fits (its desktop image is shown) or cannot be laid out that narrow
    (a panel or a legend wider than the column: the page then scales the desktop image down). ``fig``
    is left as it was (panels, size). ``shown_px``: the figure's :func:`shown_width_px` when known
    (:func:`make_legible` returns it)."""
    import io
    import warnings

    if (shown_width_px(fig) if shown_px is None else shown_px) <= width_px:
        return None
    panels = _panels(fig)
    if not panels:
        return None
    old_specs = [(ax, ax.get_subplotspec()) for panel in panels for ax in panel]
    old_size = fig.get_size_inches().copy()
    swapped: list[tuple] = []
    titles = [(t, t.get_text()) for ax in fig.get_axes() for t in (ax.title, ax._left_title, ax._right_title)
              if t.get_text()]
    try:
        swapped = _legends_in_one_column(fig)
        for t, text in titles:                  # a title as long as a desktop panel is wide: two lines
            t.set_text(wrap_outside_math(text, PHONE_TITLE_CHARS))
        with warnings.catch_warnings(record=True):   # nothing printed under the page's figure
            # constrained layout that gives up ("... not applied ..."): no phone variant
            warnings.filterwarnings("error", message=r"(?i).*layout not applied")
            grid = fig.add_gridspec(len(panels), 1)
            for i, panel in enumerate(panels):
                for ax in panel:
                    ax.set_subplotspec(grid[i, 0])
            width_in = width_px / PX_PER_INCH - 2 * SAVE_PAD_INCHES
            for _ in range(4):
                fig.set_size_inches(width_in, PHONE_PANEL_HEIGHT * len(panels))
                shown = shown_width_px(fig)        # of the size set last: the check below reads it
                excess = shown - width_px
                if excess <= 0.5:
                    break
                width_in -= excess / PX_PER_INCH + 0.02
            if shown > width_px + 0.5 or width_in < 1.5:
                return None
            if small_texts(fig, PHONE_MIN_TEXT_PX * 72 / PX_PER_INCH):
                return None
            buffer = io.BytesIO()
            fig.savefig(buffer, format="svg", bbox_inches="tight", pad_inches=SAVE_PAD_INCHES,
                        metadata={"Date": None})
            return buffer.getvalue()
    except (UserWarning, ValueError, RuntimeError):
        return None
    finally:
        for ax, spec in old_specs:
            ax.set_subplotspec(spec)
        _restore_legends(fig, swapped)
        for t, text in titles:
            t.set_text(text)
        fig.set_size_inches(old_size)


#: Set (to ``1``) in a book build (:mod:`rnnrepro.site.sphinxext.phone_figures`, the variants' one reader) and
#: inherited by the chapters it executes: only then does ``ledger.figure`` write phone variants. A chapter run by
#: itself (``rnnrepro run``, the tests' re-runs, the exercises) makes none: about a tenth of its time.
PHONE_FIGURES_ENV = "RNNREPRO_PHONE_FIGURES"


def phone_variants_wanted(environ=os.environ) -> bool:
    """Whether this run writes its figures' phone variants (:data:`PHONE_FIGURES_ENV` is ``1`` in ``environ``)."""
    return environ.get(PHONE_FIGURES_ENV, "") == "1"


def write_phone_variant(fig, path, *, shown_px: float | None = None) -> bool:
    """Write ``fig``'s phone variant (:func:`phone_variant_svg`; ``shown_px`` as there) to ``path``; remove
    a stale one when the figure needs none or cannot have one. True when written."""
    from pathlib import Path

    path = Path(path)
    svg = phone_variant_svg(fig, shown_px=shown_px)
    path.unlink(missing_ok=True)
    if svg is not None:
        path.write_bytes(svg)
    return svg is not None
