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


_CHAPTER_TESTS = ("tests/test_chapters.py::", "tests/test_portability.py::")
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
