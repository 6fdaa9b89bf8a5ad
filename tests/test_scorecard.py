import json
import re

import pytest

from rnnrepro.book import scorecard
from rnnrepro.book.chapters import all_chapters
from rnnrepro.data import sha256_file
from rnnrepro.errors import RnnreproError
from rnnrepro.book.paths import REPO, toc_files


def fake_ledger(key, chapter, sha):
    return {"chapter": key, "title": chapter.title, "profile": "fast", "source_sha256": sha,
            "counts": {"reproduced": 1, "partial": 0, "not reproduced": 0, "erratum": 1}, "integrity_checks": 1,
            "environment": {"cpu": {"model": "Some CPU", "capability": "AVX2"}},
            "wall_time_s": {"total": 1.5, "sections": {"a": 1.0}},
            "claims": [{"id": f"{key}.x.y", "statement": "s | t", "ref": "Thm 1", "paper": 0.5,
                        "measured": 0.25, "criterion": "≤ 1", "status": "reproduced", "fmt": ".2f",
                        "kind": "paper", "control": 2.0, "control_note": "unstable", "no_control": ""},
                       {"id": f"{key}.x.z", "statement": "u", "ref": "Eq. 9", "paper": None,
                        "measured": True, "criterion": "holds", "status": "erratum", "fmt": ".2f",
                        "kind": "paper", "control": None, "no_control": "identity"},
                       {"id": f"{key}.x.w", "statement": "v", "ref": "(integrity)", "paper": None,
                        "measured": 1e-7, "criterion": "≤ 1e-05", "status": "verified", "fmt": ".1e",
                        "kind": "integrity", "control": None, "no_control": "artefact"}]}


@pytest.fixture
def ledgers_dir(tmp_path):
    in_toc = set(toc_files())
    for key, chapter in all_chapters().items():
        if chapter.notebook.removesuffix(".md") in in_toc:
            led = fake_ledger(key, chapter, sha256_file(REPO / chapter.notebook))
            (tmp_path / f"{key}.ledger.json").write_text(json.dumps(led))
    return tmp_path


def test_tables(ledgers_dir):
    ledgers = scorecard.load_ledgers(ledgers_dir)
    assert "dynamics" in ledgers
    n = len(ledgers)
    counts = scorecard.counts_table(ledgers)
    assert counts.count("<tr>") == n + 3 and "\n\n" not in counts      # two header rows, a row per chapter, totals
    assert '<td class="n"><a href="scorecard.html?chapter=cayci&status=reproduced">1</a></td>' in counts
    assert '<a href="chapters/cayci.html#claims-paper">' in counts
    total = counts.split("<strong>all</strong>")[1]
    # holds, erratum, statements, reproduced, partial, not reproduced, experiments, findings, integrity
    assert [int(x) for x in re.findall(r"<strong>(\d+)</strong>", total)] == [0, n, n, n, 0, 0, n, 0, n]
    assert '<th colspan="3" scope="colgroup">statements</th>' in counts
    assert '<th colspan="4" scope="colgroup">experiments</th>' in counts
    assert '<th scope="col" title="not reproduced">not repr.</th>' in counts
    claims = scorecard.claims_table(ledgers)
    assert "<h3>Recurrent networks as dynamical systems</h3>" in claims
    assert ('<td class="claim-id"><a id="dynamics.x.y" href="chapters/dynamics.html#dynamics.x.y"><code>x.<wbr>y</code>'
            '</a></td><td class="claim-text">Thm 1<br><span class="claim-meta">criterion ≤ 1 · control: 2.00 '
            '(unstable) fails it</span></td><td class="claim-paper">0.50</td>'
            '<td class="claim-ours">0.25</td>') in claims
    assert "control: none: identity</span>" in claims and 'data-status="erratum"' in claims
    assert claims.index("<strong>Paper claims</strong> (2)") < claims.index("<strong>Integrity checks</strong> (1)")
    assert all("\n\n" not in block for block in claims.split("\n\n<section"))   # one raw HTML block per chapter
    compute = scorecard.compute_table(ledgers)
    assert "a 1.0" in compute and "Some CPU (AVX2)" in compute
    assert "margin under 180 s (s)" in compute
    ledgers["dynamics"]["wall_time_s"]["sections"] = {"quick": 0.031, "none": 0.0}
    assert "quick 0.031, none 0 |" in scorecard.compute_table(ledgers)    # never "0.0" for a time that is not zero


def test_headline_counts_paper_claims_only_and_prefer_full(ledgers_dir):
    ledger = scorecard.load_ledgers(ledgers_dir)["cayci"]
    assert scorecard.headline_counts(ledger) == {"holds": 0, "erratum": 1, "reproduced": 1, "partial": 0,
                                                 "not reproduced": 0, "profile": "fast", "differ": 0}
    full = {"claims": [dict(ledger["claims"][0], status="not reproduced"), ledger["claims"][1]], "stale": False}
    counts = scorecard.headline_counts(ledger, full)
    assert counts["reproduced"] == 0 and counts["not reproduced"] == 1 and counts["profile"] == "full"
    assert counts["differ"] == 1
    assert scorecard.headline_counts(ledger, {**full, "stale": True})["profile"] == "fast"
    table = scorecard.book_table_html({"cayci": ledger}, {"cayci": full}, page_of=lambda k: f"x/{k}.html",
                                      scorecard="../sc.html")
    assert "verdicts: full, 1 differ" in table and '<a href="x/cayci.html#claims-paper">' in table
    assert "../sc.html?chapter=cayci&status=not-reproduced" in table


def test_filter_lists_every_status_and_chapter(ledgers_dir):
    ledgers = scorecard.load_ledgers(ledgers_dir)
    form = scorecard.filter_html(ledgers)
    assert form.startswith('<form class="rnnrepro-filter"') and '<option value="not-reproduced">' in form
    assert all(f'<option value="{key}">' in form for key in ledgers) and '<select name="kind">' in form


def test_full_compute_table_names_the_shipped_runs(ledgers_dir):
    ledgers = scorecard.load_ledgers(ledgers_dir)
    full = {"claims": [], "stale": True, "manifest": {"commit": "0123456789abcdef", "created_utc": "2026-11-24T01:00",
            "machine": {"model": "EPYC", "capability": "AVX2"},
            "runs": {"native": {"wall_time_s": 100.4}, "lower_isa": {"wall_time_s": 120.6}}}}
    table = scorecard.full_compute_table(ledgers, {"cayci": full})
    assert "| `0123456789ab` (stale) | 2026-11-24 | EPYC (AVX2) | 100 | 121 |" in table
    assert "not shipped" in table


def test_missing_ledger(tmp_path):
    with pytest.raises(RnnreproError, match="no ledger for chapter dynamics"):
        scorecard.load_ledgers(tmp_path)


def test_stale_ledger(ledgers_dir):
    path = ledgers_dir / "dynamics.ledger.json"
    led = json.loads(path.read_text())
    led["source_sha256"] = "0" * 64
    path.write_text(json.dumps(led))
    with pytest.raises(RnnreproError, match="stale"):
        scorecard.load_ledgers(ledgers_dir)


def test_a_ledger_is_stale_when_the_code_changed_not_the_prose(ledgers_dir):
    """A ledger that records its code hash is current while the chapter's code is (its prose may have changed
    since, as the execution cache allows), and stale once the code differs."""
    from rnnrepro.book.paths import code_sha256

    path = ledgers_dir / "dynamics.ledger.json"
    led = json.loads(path.read_text())
    notebook = REPO / all_chapters()["dynamics"].notebook
    path.write_text(json.dumps(dict(led, source_sha256="0" * 64, code_sha256=code_sha256(notebook))))
    assert "dynamics" in scorecard.load_ledgers(ledgers_dir)
    path.write_text(json.dumps(dict(led, code_sha256="0" * 64)))
    with pytest.raises(RnnreproError, match="stale"):
        scorecard.load_ledgers(ledgers_dir)


def test_the_book_result_is_one_sentence_of_headline_counts(ledgers_dir):
    """Summed over the chapters, headline verdicts (the full row where a current one is shipped)."""
    ledgers = scorecard.load_ledgers(ledgers_dir)
    n = len(ledgers)
    text = scorecard.book_result_html(ledgers)
    numbered = sum(1 for key in ledgers if all_chapters()[key].cites)
    assert 0 < numbered < n          # the front matter (no paper cited) is named, not counted as a chapter
    assert text == (f'<p class="rnnrepro-book-result"><strong>The result.</strong> Across the {numbered} chapters '
                    f'that test papers and the front matter, of the {n} statements they print that we checked, '
                    f'0 hold and '
                    f'<a href="scorecard.html?status=erratum">{n} are errata</a>; of the {n} experiments we '
                    f'reran, <a href="scorecard.html?status=reproduced">{n}</a> are reproduced, 0 partial and 0 '
                    "not reproduced.</p>")
    cayci = ledgers["cayci"]
    full = {"claims": [dict(cayci["claims"][0], status="partial"), cayci["claims"][1]], "stale": False}
    totals = scorecard.book_totals(ledgers, {"cayci": full})
    assert totals["reproduced"] == n - 1 and totals["partial"] == 1 and totals["experiments"] == n
    assert totals["finding"] == 0 and totals["integrity"] == n
    one = scorecard.book_result_html({"cayci": cayci}, {"cayci": full}, scorecard="../s.html")
    assert "Across the 1 chapter that tests a paper," in one and "of the 1 statement they print" in one
    assert '<a href="../s.html?status=erratum">1 is an erratum</a>' in one and "0 are reproduced" in one
    assert '<a href="../s.html?status=partial">1</a> partial' in one
