"""The comparison of a chapter's two executions (rnnrepro.book.rerun): exact where a changed instruction
set cannot change anything, within its tolerance where it can."""

import copy

import pytest

from rnnrepro.book.rerun import ATOL, RTOL, close, compare_ledgers, largest_difference, largest_relative_difference


def ledger(**values):
    rows = [{"id": "demo.a.b", "kind": "paper", "type": "experiment", "status": "reproduced", "holds": True,
             "control_holds": False, "criterion": "≤ 0.5", "measured": 0.25, "control": 0.9},
            {"id": "demo.a.c", "kind": "integrity", "type": "", "status": "verified", "holds": True,
             "control_holds": None, "criterion": "≤ 1e-12", "measured": 4.4e-16, "control": None}]
    return {"claims": rows, "values": {"demo.n_seeds": 8, "demo.rate": 0.731, "demo.label": "AVX2", **values}}


def test_equal_ledgers_agree():
    assert compare_ledgers(ledger(), ledger()) == [] and largest_difference(ledger(), ledger()) == (0.0, "")


def test_a_last_bit_passes_and_round_off_is_noise_in_every_digit():
    again = ledger(**{"demo.rate": 0.731 * (1 + 1e-6)})
    again["claims"][1]["measured"] = 0.0                 # 4.4e-16 then 0: both round-off
    assert compare_ledgers(ledger(), again) == []
    diff, where = largest_difference(ledger(), again)
    assert diff == pytest.approx(1e-6, rel=1e-3) and where == "glued demo.rate"


@pytest.mark.parametrize("factor", [1 + 3 * RTOL, 1.1, 1.3])
def test_a_float_moved_beyond_the_tolerance_is_reported(factor):
    again = ledger()
    again["claims"][0]["measured"] = 0.25 * factor
    assert compare_ledgers(ledger(), again) == [f"demo.a.b: measured 0.25 then {0.25 * factor!r}"]


@pytest.mark.parametrize("field, value", [("status", "partial"), ("holds", False), ("control_holds", True),
                                          ("criterion", "≤ 0.6"), ("kind", "finding")])
def test_verdicts_must_be_equal(field, value):
    again = ledger()
    again["claims"][0][field] = value
    assert compare_ledgers(ledger(), again)[0].startswith(f"demo.a.b: {field} ")


def test_integers_strings_and_rows_are_exact():
    assert compare_ledgers(ledger(), ledger(**{"demo.n_seeds": 9})) == ["glued demo.n_seeds: 8 then 9"]
    assert compare_ledgers(ledger(), ledger(**{"demo.label": "AVX512"})) == ["glued demo.label: 'AVX2' then 'AVX512'"]
    fewer = copy.deepcopy(ledger())
    fewer["claims"].pop()
    assert "only in the first ['demo.a.c']" in compare_ledgers(ledger(), fewer)[0]
    swapped = copy.deepcopy(ledger())
    swapped["claims"].reverse()
    assert compare_ledgers(ledger(), swapped) == ["the rows come in another order"]
    extra = ledger(**{"demo.more": 1})
    assert compare_ledgers(ledger(), extra) == ["glued values differ: ['demo.more']"]
    assert compare_ledgers(ledger(**{"demo.meta.cpu_s": 56.7}), ledger(**{"demo.meta.cpu_s": 61.8})) == []  # timings
    assert compare_ledgers(ledger(**{"demo.meta.n_s": 5}), ledger(**{"demo.meta.n_s": 6})) != []   # not a timing


def test_close_on_structures_and_specials():
    assert close([1.0, {"a": 2.0}], [1.0 + 1e-9, {"a": 2.0}]) and not close([1.0], [1.0, 2.0])
    assert close(float("nan"), float("nan")) and not close(float("nan"), 1.0)
    assert close(float("inf"), float("inf")) and not close(float("inf"), 1e308)
    assert not close(True, 1) and close(3, 3.0) and not close(3, 4)
    assert close(ATOL / 2, -ATOL / 3) and not close(10 * ATOL, 0.0)
    assert largest_relative_difference([1.0, 2.0], [1.0, 2.2]) == pytest.approx(0.2 / 2.2)


def test_a_chaotic_statistic_has_its_own_named_tolerance(monkeypatch):
    from rnnrepro.book import rerun

    monkeypatch.setitem(rerun.ISA_SENSITIVE, "demo.a.b", (0.05, "a chaotic orbit's statistic"))
    again = ledger()
    again["claims"][0]["measured"] = 0.25 * 1.01
    assert compare_ledgers(ledger(), again) == [] and rerun.tolerance("demo.a.b") == 0.05
    again["claims"][0]["measured"] = 0.25 * 1.1               # beyond even its own tolerance
    assert compare_ledgers(ledger(), again) == [f"demo.a.b: measured 0.25 then {0.25 * 1.1!r}"]
    assert rerun.tolerance("demo.a.c") == RTOL


def test_every_sensitive_value_says_why_and_stays_within_a_half():
    from rnnrepro.book.rerun import ISA_SENSITIVE

    assert all((tol is None or 0 < tol <= 0.5) and len(why) > 20 for tol, why in ISA_SENSITIVE.values())


def test_every_sensitive_value_names_a_row_or_value_of_its_chapter():
    from rnnrepro.book.chapters import all_chapters
    from rnnrepro.book.paths import REPO
    from rnnrepro.book.rerun import ISA_SENSITIVE

    chapters = all_chapters()
    for name in ISA_SENSITIVE:
        key = name.split(".")[0]
        assert key in chapters and f'"{name}"' in (REPO / chapters[key].notebook).read_text(), name


def test_a_chaotic_chapter_compares_its_rows_and_verdicts_only(monkeypatch):
    from rnnrepro.book import rerun

    first, again = ledger(), ledger(**{"demo.rate": 0.9})
    first["chapter"] = again["chapter"] = "demo"
    again["claims"][0].update(measured=0.4, criterion="≤ 0.51")
    assert len(compare_ledgers(first, again)) == 3
    monkeypatch.setitem(rerun.ISA_CHAOTIC, "demo", "every number is a chaotic orbit's")
    assert compare_ledgers(first, again) == []
    again["claims"][0]["status"] = "partial"                      # a verdict still must agree
    assert compare_ledgers(first, again) == ["demo.a.b: status 'reproduced' then 'partial'"]
    fewer = ledger()
    fewer["chapter"] = "demo"
    del fewer["values"]["demo.rate"]
    assert compare_ledgers(first, fewer) == ["glued values differ: ['demo.rate']"]


def test_every_chaotic_chapter_is_a_chapter_and_says_why():
    from rnnrepro.book.chapters import all_chapters
    from rnnrepro.book.rerun import ISA_CHAOTIC

    assert all(key in all_chapters() and len(why) > 50 for key, why in ISA_CHAOTIC.items())


def test_a_round_off_value_is_not_compared_but_its_verdict_is(monkeypatch):
    from rnnrepro.book import rerun

    monkeypatch.setitem(rerun.ISA_SENSITIVE, "demo.a.c", (None, "a replay's distance, round-off itself"))
    again = ledger()
    again["claims"][1].update(measured=0.12, control=3.0)
    assert compare_ledgers(ledger(), again) == [] and rerun.tolerance("demo.a.c") is None
    again["claims"][1]["holds"] = False
    assert compare_ledgers(ledger(), again) == ["demo.a.c: holds True then False"]
