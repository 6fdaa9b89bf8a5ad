"""The lists of chapters generated from the registry (rnnrepro.book.chapter_lists): README's chapter, data and time
tables, the intro's table and the sensitivity page are current, and each generator says what it should."""

import dataclasses
import difflib
import json

import pytest

from rnnrepro.book import chapter_lists as cl
from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.paths import REPO
from rnnrepro.book.profiles import Chapter
from rnnrepro.book.sensitivity import FACTORS, SensitivityResult, record_results
from rnnrepro.errors import RnnreproError

DEMO = Chapter(key="demo", title="Forgetting linearly (Doe & Roe, 2031)", paper="J. Doe, R. Roe. Forgetting. 2031",
               notebook="book/chapters/demo.md", cites=("doe2031",), question="how fast a linear RNN forgets",
               helpers=("rnnrepro.demo.fits:rate", "rnnrepro.demo.fits:level"), data=("corpus/a.txt",))


def test_the_generated_files_are_current():
    """README.md, book/intro.md and results/sensitivity.md say what the registry, the shipped full results and the
    recorded sensitivity runs give now (after ship-full, sensitivity or a registry change: `python -m rnnrepro
    generate` rewrites them)."""
    stale = {path: text for path, text in cl.generated().items() if not path.is_file() or path.read_text() != text}
    if stale:
        path, text = next(iter(stale.items()))
        old = path.read_text().splitlines() if path.is_file() else []
        diff = "\n".join(list(difflib.unified_diff(old, text.splitlines(), "now", "generated", lineterm="", n=0))[:12])
        pytest.fail(f"{', '.join(str(p.relative_to(REPO)) for p in stale)} out of date with the registry and the "
                    f"results: run `{cl.COMMAND}` and commit the result. First difference:\n{diff}")


def test_factors_are_the_sensitivity_runs_factors():
    assert cl.FACTORS == FACTORS


def test_verdict_text_words_the_counts_as_the_readme_does():
    counts = {"holds": 20, "erratum": 3, "reproduced": 2, "partial": 13, "not reproduced": 4}
    assert cl.verdict_text(counts, 7) == ("42 paper claims (statements: 20 hold, 3 errata; experiments: 2 reproduced, "
                                          "13 partial, 4 not reproduced); 7 findings of ours")
    assert cl.verdict_text({"holds": 1, "reproduced": 0, "erratum": 0}, 1) == \
        "1 paper claims (statements: 1 holds); 1 finding of ours"
    assert cl.verdict_text({"reproduced": 36, "partial": 1, "erratum": 1}, 0) == \
        "38 paper claims (statements: 1 erratum; experiments: 36 reproduced, 1 partial)"
    assert cl.verdict_text({"holds": 0}, 0) == "no paper claims"


def test_replace_block_rewrites_between_the_markers_only():
    begin, end = cl.markers("x", "html")
    text = f"intro\n{begin}\nold | table\n{end}\noutro"
    new = cl.replace_block(text, "x", "| new |", style="html")
    assert new == f"intro\n{begin}\n\n| new |\n\n{end}\noutro"
    assert cl.replace_block(new, "x", "| new |", style="html") == new
    assert cl.markers("x", "myst")[0].startswith("% generated: x")
    for broken in ("no markers", f"{begin}\n{begin}\n{end}", f"{end}\n{begin}"):
        with pytest.raises(RnnreproError, match=r"README\.md must hold the generated block 'x' once.*put them back"):
            cl.replace_block(broken, "x", "", style="html", where="README.md")


def test_cells_cannot_split_a_row():
    assert cl._cell("a | b\nc") == "a \\| b c"


def test_intro_table_links_each_chapter_with_its_papers_and_question():
    nocite = dataclasses.replace(DEMO, key="front", notebook="book/chapters/front.md", cites=(), title="Front matter")
    table = cl.intro_table({"demo": DEMO, "front": nocite})
    assert "| [Forgetting linearly](chapters/demo) | {cite}`doe2031` | how fast a linear RNN forgets |" in table
    assert "| [Front matter](chapters/front) | — |" in table
    assert cl.short_title("The curse of memory (Li, Han, E & Li, 2021)") == "The curse of memory"
    assert cl.short_title("Recurrent networks as dynamical systems") == "Recurrent networks as dynamical systems"


def _shipped(stale=False, lower=True):
    runs = {"native": {"wall_time_s": 79.1, "cpu": {"capability": "AVX512"}}}
    if lower:
        runs["lower_isa"] = {"wall_time_s": 82.6, "cpu": {"capability": "AVX2"}}
    return {"counts": {"reproduced": 3, "partial": 1, "not reproduced": 0, "erratum": 0}, "findings": 2, "stale": stale,
            "manifest": {"runs": runs, "machine": {"model": "AMD EPYC", "capability": "AVX512"},
                         "commit": "7b744bd0389deb", "created_utc": "2026-11-25T15:09:15+00:00"}}


def test_readme_chapter_table_quotes_the_shipped_counts_and_the_note():
    noted = dataclasses.replace(DEMO, note="Trained once on a GPU.")
    row = cl.readme_chapter_table({"demo": noted}, {"demo": _shipped()}).splitlines()[2]
    assert row == ("| `demo` | J. Doe, R. Roe. Forgetting. 2031 | 4 paper claims (experiments: 3 reproduced, "
                   "1 partial); 2 findings of ours. Trained once on a GPU |")
    assert "is stale: re-ship it with `python -m rnnrepro ship-full demo --lower-isa`" in \
        cl.readme_chapter_table({"demo": DEMO}, {"demo": _shipped(stale=True)})
    assert "no `full` result shipped yet" in cl.readme_chapter_table({"demo": DEMO}, {"demo": None})


def test_readme_time_table_reads_the_manifest():
    rows = cl.readme_time_table({"demo": DEMO, "late": DEMO}, {"demo": _shipped(), "late": None}).splitlines()
    assert rows[2] == "| `demo` | 79 s (AVX-512) | 83 s (AVX2) | AMD EPYC, AVX-512 | `7b744bd`, 2026-11-25 |"
    assert rows[3] == "| `late` | not shipped | — | — | — |"
    assert "| 79 s (AVX-512) | — |" in cl.readme_time_table({"demo": DEMO}, {"demo": _shipped(lower=False)})


def test_readme_data_table_groups_chapters_by_their_files():
    other = dataclasses.replace(DEMO, key="other", data=())
    third = dataclasses.replace(DEMO, key="third")
    rows = cl.readme_data_table({"other": other, "demo": DEMO, "third": third}).splitlines()[2:]
    assert rows == ["| `demo`, `third` | `corpus/a.txt` |", "| `other` | none: runs without any data |"]


def _run(helper, factor, paper=(), n=None, **other):
    failed = {"paper": list(paper), **{k: list(v) for k, v in other.items()}}
    return {"helper": helper, "factor": factor, "date": "2031-01-02", "error": "",
            "failed": {k: v for k, v in failed.items() if v}, "n_failed": n or {k: len(v) for k, v in failed.items()}}


def test_run_cell_says_what_broke():
    assert cl.run_cell(None, "demo") == "not run"
    assert cl.run_cell({"error": "ValueError: x"}, "demo") == "crashed: ValueError: x"
    assert cl.run_cell(_run("h", 0.9, ["demo.a.b"]), "demo") == "1 paper claim fails (`a.b`)"
    three = _run("h", 0.9, ["demo.a.b", "demo.c.d", "demo.e.f"], integrity=["demo.g.h"])
    assert cl.run_cell(three, "demo") == "3 paper claims fail (`a.b`, `c.d`, …); also 1 integrity check (`g.h`)"
    counted = _run("h", 0.9, ["demo.a.b"], n={"paper": 3})     # a transcribed record: 3 failed, one named
    assert cl.run_cell(counted, "demo") == "3 paper claims fail (`a.b`, …)"
    assert cl.run_cell(_run("h", 0.9), "demo") == "**no paper claim fails**"
    assert cl.run_cell(_run("h", 0.9, finding=["demo.a.b"]), "demo") == \
        "**no paper claim fails**; 1 finding (`a.b`) does"
    two = _run("h", 0.9, integrity=["demo.a", "demo.b"])
    assert cl.run_cell(two, "demo") == "**no paper claim fails**; 2 integrity checks (`a`, `b`) do"


def test_sensitivity_page_counts_runs_and_lists_gaps_with_their_reasons():
    rate, level = DEMO.helpers
    records = {"demo": {"note": "made up", "runs": [_run(rate, 0.9, ["demo.a.b"]), _run(rate, 1.1, ["demo.a.b"]),
                                                    _run(level, 0.9), _run(level, 1.1, ["demo.a.b"])]}}
    page = cl.sensitivity_page({"demo": DEMO}, records)
    assert "`demo`: 3 of 4." in page and "- `demo`: made up" in page
    assert "- `demo` `demo.fits:level` (×0.9): **no reason given**: add it to `gaps=`" in page
    explained = dataclasses.replace(DEMO, gaps=((level, "a level the paper never states"),))
    assert "- `demo` `demo.fits:level` (×0.9): a level the paper never states" in \
        cl.sensitivity_page({"demo": explained}, records)
    assert cl.open_gaps({"demo": DEMO}, records) == [("demo", level, [0.9])]
    assert "`demo`: not run (`python -m rnnrepro sensitivity demo`)" in cl.sensitivity_page({"demo": DEMO}, {})
    crashed = {"demo": {"runs": [dict(_run(rate, 0.9), error="boom")]}}
    assert cl.open_gaps({"demo": DEMO}, crashed) == []      # a crash is reported, not a gap


def test_every_open_gap_has_its_reason_and_every_reason_is_a_gap():
    """The registry's gaps= name exactly the helpers whose recorded runs fail no paper claim: a gap gets its
    reason, a closed gap loses it."""
    problems = cl.gap_problems(all_chapters(), cl.sensitivity_records())
    assert not problems, "\n".join(problems)


def test_a_gap_message_names_its_fix():
    """A reason written before the sensitivity run asks for the run; one whose runs now fail asks for its
    removal; an open gap without a reason asks for one."""
    rate, level = DEMO.helpers
    explained = dataclasses.replace(DEMO, gaps=((level, "a level the paper never states"),))
    assert cl.gap_problems({"demo": explained}, {}) == [
        f"demo: gaps= names {level}, whose sensitivity runs are not recorded yet: run `python -m rnnrepro "
        "sensitivity demo` to record them (keep the reason if a run still fails no paper claim)"]
    caught = {"demo": {"runs": [_run(rate, 0.9, ["demo.a.b"]), _run(rate, 1.1, ["demo.a.b"]),
                                _run(level, 0.9, ["demo.a.b"]), _run(level, 1.1, ["demo.a.b"])]}}
    assert "now each fail a paper claim: remove it from gaps=" in cl.gap_problems({"demo": explained}, caught)[0]
    missed = {"demo": {"runs": [*caught["demo"]["runs"][:2], _run(level, 0.9), _run(level, 1.1, ["demo.a.b"])]}}
    assert cl.gap_problems({"demo": explained}, missed) == []
    assert cl.gap_problems({"demo": DEMO}, missed) == [
        f"demo: {level} fails no paper claim at ×0.9 and gaps= gives no reason: add ({level!r}, "
        "'<why no row can see it>') to gaps= in rnnrepro/book/chapters/demo.py"]


def test_record_results_merges_by_helper_and_factor(tmp_path):
    key = "dynamics"
    helpers = all_chapters()[key].helpers
    folder = tmp_path / cl.SENSITIVITY_DIR
    folder.mkdir(parents=True)
    old = {"chapter": key, "note": "transcribed", "runs": [
        dict(_run(helpers[0], 0.9, ["dynamics.a.b"]), transcribed=True), dict(_run(helpers[1], 0.9), transcribed=True),
        _run("rnnrepro.gone:helper", 0.9)]}
    (folder / f"{key}.json").write_text(json.dumps(old))
    path = record_results(key, [SensitivityResult(key, helpers[1], 0.9, failed={"paper": ["dynamics.x.y"],
                                                                                  "integrity": ["dynamics.z.w"]})],
                          root=tmp_path, commit="abc", date="2031-01-02")
    runs = json.loads(path.read_text())["runs"]
    assert [(r["helper"], r["factor"]) for r in runs] == [(helpers[0], 0.9), (helpers[1], 0.9)]   # 'gone' dropped
    assert runs[1]["n_failed"] == {"paper": 1, "integrity": 1} and runs[1]["commit"] == "abc"
    assert cl.short_commit("fa788e39d70f33f0-dirty") == "fa788e3-dirty" and cl.short_commit("fa788e39d7") == "fa788e3"
    assert json.loads(path.read_text())["note"] == "transcribed"                  # runs[0] is still transcribed
    record_results(key, [SensitivityResult(key, helpers[0], 0.9)], root=tmp_path, commit="abc", date="2031-01-02")
    assert "note" not in json.loads(path.read_text())


def test_every_helper_has_recorded_runs():
    """Each helper of each entry has a recorded run per factor (`python -m rnnrepro sensitivity KEY` records them);
    the page would say 'not run'."""
    records = cl.sensitivity_records()
    for key, chapter in all_chapters().items():
        runs = {(r["helper"], float(r["factor"])) for r in records.get(key, {}).get("runs", [])}
        missing = [f"{h} ×{f:g}" for h in chapter.helpers for f in cl.FACTORS if (h, f) not in runs]
        assert not missing, f"{key}: no recorded sensitivity run for {missing}: run `python -m rnnrepro " \
                            f"sensitivity {key}` and commit results/"
