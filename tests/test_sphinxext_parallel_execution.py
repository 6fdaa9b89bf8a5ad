"""The chapters execute side by side in the book build (rnnrepro.site.sphinxext.parallel_execution)."""

import pytest

from rnnrepro.site.sphinxext.parallel_execution import build_jobs, longest_first


def test_jobs_default_to_the_usable_cores_and_never_exceed_the_pages(monkeypatch):
    import os

    cores = len(os.sched_getaffinity(0))
    assert build_jobs(100, environ={}) == cores
    assert build_jobs(1, environ={}) == 1 and build_jobs(0, environ={}) == 1
    assert build_jobs(6, environ={"RNNREPRO_BUILD_JOBS": "3"}) == 3
    assert build_jobs(2, environ={"RNNREPRO_BUILD_JOBS": "8"}) == 2


@pytest.mark.parametrize("bad", ["0", "-1", "two", "1.5"])
def test_a_bad_job_count_says_what_to_set(bad):
    with pytest.raises(ValueError, match="set it to a positive integer"):
        build_jobs(4, environ={"RNNREPRO_BUILD_JOBS": bad})


def test_longest_chapters_start_first(tmp_path):
    pages = []
    for name, size in (("a", 10), ("b", 500), ("c", 20), ("d", 5)):
        path = tmp_path / f"{name}.md"
        path.write_text("x" * size)
        pages.append((name, path))
    last = {"a": 30.0, "c": 150.0}.get                 # b and d never ran: after the known, by size
    assert [name for name, _ in longest_first(pages, last)] == ["c", "a", "b", "d"]
