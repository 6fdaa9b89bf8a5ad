"""The fast-profile budget report (rnnrepro.book.fast_budget): measured and printed, never enforced."""

import json

from rnnrepro.book import fast_budget


def write(folder, key, wall, profile="fast"):
    ledger = {"profile": profile, "wall_time_s": {"total": wall},
              "environment": {"cpu": {"model": "Some CPU", "capability": "AVX2"}}}
    (folder / f"{key}.ledger.json").write_text(json.dumps(ledger))


def test_each_chapter_with_its_margin_and_over_budget_marked(tmp_path, capsys):
    write(tmp_path, "li", 58.0)
    write(tmp_path, "ribeiro", 200.5)
    write(tmp_path, "miller", 1000.0, profile="full")     # a full run has no fast budget
    assert fast_budget.main([str(tmp_path)]) == 0         # a benchmark: over budget still exits 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("li") and "58.0 s  margin +122.0 s of 180 s  (Some CPU, AVX2)" in out[1]
    assert out[2].startswith("ribeiro") and "margin  -20.5 s of 180 s  OVER BUDGET" in out[2]
    assert len(out) == 3 and fast_budget.margin(179.0) == 1.0


def test_no_ledgers_says_what_to_do(tmp_path, capsys):
    assert fast_budget.main([str(tmp_path)]) == 2
    assert "build the book" in capsys.readouterr().err
