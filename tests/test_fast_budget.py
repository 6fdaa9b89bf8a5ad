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


def test_record_writes_what_a_fresh_clones_build_orders_by(tmp_path, monkeypatch, capsys):
    write(tmp_path, "li", 58.04)
    write(tmp_path, "ribeiro", 200.5)
    write(tmp_path, "miller", 1000.0, profile="full")     # not a fast time: not recorded
    record = tmp_path / "fast_times.json"
    monkeypatch.setattr(fast_budget, "RECORDED", record)
    monkeypatch.setattr(fast_budget, "REPO", tmp_path)
    assert fast_budget.main(["--record", str(tmp_path)]) == 0
    assert json.loads(record.read_text())["seconds"] == {"li": 58.0, "ribeiro": 200.5}
    assert "recorded in fast_times.json" in capsys.readouterr().out
    assert fast_budget.recorded_seconds("ribeiro", record) == 200.5
    assert fast_budget.recorded_seconds("miller", record) is None
    assert fast_budget.recorded_seconds("li", tmp_path / "absent.json") is None


def test_a_fresh_clones_build_orders_by_the_recorded_times(monkeypatch, tmp_path):
    from rnnrepro.site.sphinxext import parallel_execution

    record = tmp_path / "fast_times.json"
    record.write_text(json.dumps({"seconds": {"li": 93.0}}))
    monkeypatch.setattr(fast_budget, "RECORDED", record)
    monkeypatch.setattr("rnnrepro.site.sphinxext.execution_cache.built_ledger", lambda chapter: tmp_path / "none.json")
    assert parallel_execution._last_wall_time("book/chapters/li") == 93.0
    assert parallel_execution._last_wall_time("book/chapters/cayci") is None
