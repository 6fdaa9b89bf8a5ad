import json

import pytest

from rnnrepro.book import scorecard
from rnnrepro.book.chapters import all_chapters
from rnnrepro.data import sha256_file
from rnnrepro.book.errors import RnnreproError
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
    counts = scorecard.counts_table(ledgers)
    assert "| **all** |" in counts and counts.count("\n") == len(ledgers) + 2
    n = len(ledgers)
    assert counts.endswith(f"| **all** |  | {n} | 0 | 0 | {n} | {2 * n} | {n} |")
    claims = scorecard.claims_table(ledgers)
    assert "### Recurrent networks as dynamical systems" in claims
    assert ('| <a id="dynamics.x.y" href="chapters/dynamics.html#dynamics.x.y"><code>x.<wbr>y</code></a> | Thm 1<br>'
            '<span class="claim-meta">criterion ≤ 1 · control: 2.00 (unstable) fails it</span> | 0.50 | 0.25 '
            '| reproduced |') in claims
    assert "control: none: identity</span> | — | True | erratum |" in claims
    assert claims.index("**Paper claims** (2)") < claims.index("**Integrity checks** (1)")
    assert "control: none: artefact</span> | — | 1.0e-07 | verified |" in claims
    compute = scorecard.compute_table(ledgers)
    assert "a 1.0" in compute and "Some CPU (AVX2)" in compute


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
