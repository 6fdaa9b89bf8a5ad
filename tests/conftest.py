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
    """Tests marked ``full`` or ``sensitivity`` take hours: they run only when ``-m`` asks for them."""
    expr = config.getoption("-m") or ""
    for marker in _OPT_IN:
        if marker in expr and f"not {marker}" not in expr:
            continue
        skip = pytest.mark.skip(reason=f"opt-in: run with -m {marker}")
        for item in items:
            if marker in item.keywords:
                item.add_marker(skip)


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
