"""Shared test settings: float64 and one thread, as the book runs; a line when each chapter run starts and ends."""

import pytest
import torch


@pytest.fixture(autouse=True)
def _float64_one_thread():
    dtype = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    torch.set_num_threads(1)
    yield
    torch.set_default_dtype(dtype)


@pytest.fixture(autouse=True)
def _phone_variants_as_before():
    """A test that builds pages in this process loads rnnrepro.site.sphinxext, which sets RNNREPRO_PHONE_FIGURES for
    the chapters a build executes: put it back as it was, so that the chapter runs of later tests make no phone
    variants, as a run by itself does (rnnrepro.book.plotting.phone_variants_wanted)."""
    import os

    from rnnrepro.book.plotting import PHONE_FIGURES_ENV

    before = os.environ.get(PHONE_FIGURES_ENV)
    yield
    if before is None:
        os.environ.pop(PHONE_FIGURES_ENV, None)
    else:
        os.environ[PHONE_FIGURES_ENV] = before


_CHAPTER_TESTS = ("tests/test_chapters.py::",)
_config = []


def pytest_configure(config):
    _config.append(config)


def pytest_runtest_logstart(nodeid, location):
    """Say when a chapter run starts and ends: they take minutes, while the progress dots stand still."""
    if nodeid.startswith(_CHAPTER_TESTS):
        _say(f"started  {nodeid}")


def pytest_runtest_logreport(report):
    if report.when == "call" and report.nodeid.startswith(_CHAPTER_TESTS):
        _say(f"{report.outcome:8s} {report.nodeid} after {report.duration:.0f} s")


def _say(text: str) -> None:
    import time

    reporter = _config[0].pluginmanager.get_plugin("terminalreporter") if _config else None
    if reporter is not None:
        reporter.ensure_newline()
        reporter.write_line(f"[{time.strftime('%H:%M:%S')}] {text}")


def pytest_sessionstart(session):
    """Before any test runs: a session that will execute chapters has their data (missing files fetched
    when the source can be reached, as the book build does), else it stops with one line that names the
    folder, the files and what to do (:func:`rnnrepro.data.preflight.ensure_data`)."""
    config = session.config
    if hasattr(config, "workerinput") or not _runs_chapters(config):      # xdist workers: the controller checks
        return
    from rnnrepro.book.chapters import all_chapters
    from rnnrepro.data.preflight import ensure_data
    from rnnrepro.errors import DataError

    try:
        ensure_data(all_chapters().values(), log=print)
    except DataError as exc:
        raise pytest.UsageError(str(exc)) from None


def _runs_chapters(config) -> bool:
    """Whether ``-m`` admits tests marked ``chapter`` and the paths given may hold some."""
    from pathlib import Path

    from _pytest.mark.expression import Expression

    expr = config.getoption("markexpr") or ""
    if expr:
        admits = Expression.compile(expr).evaluate
        if not any(admits(lambda name, m=marks: name in m) for marks in ({"chapter"}, {"chapter", "portability"},
                                                                           {"chapter", "full"})):
            return False
    paths = [Path(config.invocation_params.dir, arg.split("::")[0]) for arg in config.args]
    return any(path.is_dir() or (path.is_file() and "pytest.mark.chapter" in path.read_text()) for path in paths)


_OPT_IN = ("full", "sensitivity")   # markers whose tests run only when -m names them


def pytest_collection_modifyitems(config, items):
    """Tests marked ``full`` or ``sensitivity`` take hours: they run only when ``-m`` asks for them. The longest
    tests run first (:func:`expected_seconds`), so that with pytest-xdist handing out one test at a time
    (``-n 2 --dist load --maxschedchunk 1``, the README's test command) no long chapter run is left to the end
    while the other core has nothing to do."""
    expr = config.getoption("-m") or ""
    for marker in _OPT_IN:
        if marker in expr and f"not {marker}" not in expr:
            continue
        skip = pytest.mark.skip(reason=f"opt-in: run with -m {marker}")
        for item in items:
            if marker in item.keywords:
                item.add_marker(skip)
    items.sort(key=lambda item: -expected_seconds(item))            # stable: the rest keep pytest's order


#: What part of its chapter's `fast` time a test marked ``chapter`` takes, roughly: a whole re-run, a derive
#: exercise (one section); a predict exercise runs the chapter up to its row (:func:`_share_until`).
_SHARE = {"test_chapter_fast_profile_deterministic_and_portable": 1.0,
          "test_derive_exercise_matches_the_exploration_run": 0.2}
#: The built-book checks, most of which open pages in headless Chromium (seconds each, roughly).
_BUILT_BOOK_S = 10.0


def expected_seconds(item) -> float:
    """A rough duration of a test, only to order the run (longest first): for a chapter run, its share of its
    chapter's recorded `fast` time (book/fast_times.json); for the built-book checks (when ``RNNREPRO_BUILT_BOOK``
    is set) :data:`_BUILT_BOOK_S`; 0 for every other test and for a skipped one."""
    import os

    if item.get_closest_marker("skip"):
        return 0.0
    if "chapter" in item.keywords:
        from rnnrepro.book.fast_budget import recorded_seconds

        params = getattr(getattr(item, "callspec", None), "params", {})
        exercise = params.get("exercise")
        key = params.get("key") or getattr(exercise, "key", None)
        seconds = (recorded_seconds(key) if key else None) or 60.0
        share = _share_until(exercise) if exercise is not None and exercise.kind == "predict" else \
            _SHARE.get(item.originalname, 0.2)
        return share * seconds
    if item.path.name == "test_built_book.py" and os.environ.get("RNNREPRO_BUILT_BOOK"):
        return _BUILT_BOOK_S
    return 0.0


def _share_until(exercise) -> float:
    """How far into its chapter's page the row a predict exercise stops at is recorded (0-1; 0.5 if not found)."""
    from rnnrepro.book.chapters import get_chapter
    from rnnrepro.book.paths import REPO

    text = (REPO / get_chapter(exercise.key).notebook).read_text(encoding="utf-8")
    at = text.find(f'"{exercise.claim}"')
    return at / len(text) if at >= 0 else 0.5


_FIGURE_TESTS = ("figures.py", "_plot.py")   # test modules whose figures must read well


@pytest.fixture(autouse=True)
def _figures_read_well(request, monkeypatch):
    """Every figure that a figure test draws must read well once ``ledger.figure`` has tidied it
    (:func:`rnnrepro.book.plotting.make_legible`): no raw markup, two ticks per axis, visible legend entries."""
    if not request.path.name.endswith(_FIGURE_TESTS):
        yield
        return
    import matplotlib.pyplot as plt

    from rnnrepro.book.plotting import legibility_problems, make_legible

    drawn, subplots = [], plt.subplots

    def recording(*args, **kwargs):
        fig, axes = subplots(*args, **kwargs)
        drawn.append(fig)
        return fig, axes

    monkeypatch.setattr(plt, "subplots", recording)
    yield
    problems = []
    for fig in drawn:
        problems += legibility_problems(fig, drawn_width_px=make_legible(fig))     # as ledger.figure reads it
        plt.close(fig)
    assert not problems, f"figures hard to read: {problems}"
