from html.parser import HTMLParser

from markdown_it.renderer import RendererHTML
from myst_parser.config.main import MdParserConfig
from myst_parser.parsers.mdit import create_md_parser

from rnnrepro.book import claims_table as ct

Q = "the paper says so in six words"   # a quote of the paper (six words)

NASTY = r"R = [gap](60) | $\|x_{[1]}\|$ after <eos> | and `a|b` for $a < b$"


def claim(id="demo.a.b", kind="paper", status="reproduced", statement=NASTY, **kw):
    row = {"id": id, "statement": statement, "ref": "Fig. [1]", "paper": "= 1.21 ± 0.02·|1.21|",
           "measured": 0.25, "criterion": "= 1.21 ± 0.02·|1.21|", "status": status, "fmt": ".2f",
           "kind": kind, "control": None, "control_note": "", "no_control": "identity"}
    return {**row, **kw}


class Cells(HTMLParser):
    """Cells per row of every table, the text of ``span.math`` elements, and all text."""

    def __init__(self):
        super().__init__()
        self.rows, self.math, self.text, self._in_math = [], [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append(0)
        elif tag in ("td", "th"):
            self.rows[-1] += 1
        elif tag == "span" and "math" in (dict(attrs).get("class") or "").split():
            self._in_math, _ = 1, self.math.append("")

    def handle_endtag(self, tag):
        if tag == "span" and self._in_math:
            self._in_math = 0

    def handle_data(self, data):
        self.text.append(data)
        if self._in_math:
            self.math[-1] += data


def myst_html(markdown: str) -> str:
    """``markdown`` rendered by MyST's own parser (the book's extensions), as HTML."""
    config = MdParserConfig(enable_extensions={"dollarmath", "amsmath", "colon_fence", "deflist", "substitution"})
    return create_md_parser(config, RendererHTML).render(markdown)


def test_no_character_of_a_statement_breaks_the_table():
    md = ct.claims_markdown([claim(), claim(id="demo.a.c", kind="finding", status="observed"),
                             claim(id="demo.a.d", kind="integrity", status="verified")])
    parsed = Cells()
    parsed.feed(myst_html(md))
    assert parsed.rows == [5, 5] * 3                      # header + one row, three tables
    text = "".join(parsed.text)
    assert "R = [gap](60) | " in text and " after <eos> | and " in text and "= 1.21 ± 0.02·|1.21|" in text
    assert parsed.math == [r"\(\|x_{[1]}\|\)", r"\(a < b\)"] * 3
    assert "<code>a|b</code>" in md


def test_inline_html_escapes_text_and_keeps_math_whole():
    assert ct.inline_html("a <b> & $x_{<1}$") == (
        'a &lt;b&gt; &amp; <span class="math notranslate nohighlight">\\(x_{&lt;1}\\)</span>')
    assert ct.inline_html("costs $5 or $6") == "costs $5 or $6"
    assert ct.inline_html("two\nlines") == "two lines"


def test_status_is_a_badge_with_its_text():
    md = ct.claims_markdown([claim(status="not reproduced")])
    assert '<span class="rnnrepro-badge status-not-reproduced">not reproduced</span>' in md
    assert 'data-status="not-reproduced"' in md and 'data-chapter="demo"' in md


def test_scorecard_rows_link_to_the_chapter_page():
    md = ct.claims_markdown([claim()], page="chapters/demo.html", statements=False, chapter="demo")
    assert '<a id="demo.a.b" href="chapters/demo.html#demo.a.b">' in md and "<th>paper ref.</th>" in md
    assert 'id="demo-claims-paper"' in md and "after &lt;eos&gt;" not in md


def full_ledger(rows, stale=False):
    manifest = {"commit": "abcdef1234567890", "created_utc": "2026-11-24T03:00", "machine": {"model": "AMD EPYC"},
                "runs": {"native": {"wall_time_s": 812.4}}}
    return {"claims": rows, "stale": stale, "manifest": manifest}


def test_full_beside_fast_and_the_headline_uses_full():
    fast = [claim(), claim(id="demo.a.c", status="partial")]
    full = full_ledger([claim(status="reproduced", measured=0.31), claim(id="demo.a.c", status="not reproduced")])
    md = ct.claims_markdown(fast, full=full)
    parsed = Cells()
    parsed.feed(myst_html(md))
    assert parsed.rows == [5, 5, 5]
    assert "<span class=\"rnnrepro-profile\">full</span> 0.31" in md and "812 s on AMD EPYC" in md
    assert 'data-status="not-reproduced"' in md                     # demo.a.c's headline is full's
    assert ('<span class="rnnrepro-badge status-partial rnnrepro-badge-aside"><span class="rnnrepro-profile">fast'
            '</span> partial</span>') in md
    assert ct.headline(fast[1], full["claims"][1], True) == ("not reproduced", "full")


def test_a_stale_or_missing_full_row_leaves_the_headline_at_fast():
    fast = [claim(status="partial"), claim(id="demo.a.new")]
    stale = ct.claims_markdown(fast[:1], full=full_ledger([claim(status="reproduced")], stale=True))
    assert "<strong>stale</strong>" in stale and 'data-status="partial"' in stale
    missing = ct.claims_markdown(fast, full=full_ledger([claim(status="partial")]))
    assert "no row</span>" in missing and missing.count('data-status="reproduced"') == 1
    assert ct.headline(fast[1], None, True) == ("reproduced", "fast")


def test_a_chapter_table_shows_its_shipped_full_ledger(tmp_path, monkeypatch):
    """End to end with a temporary shipped full ledger (rnnrepro.book.full's layout and checks)."""
    import json

    from rnnrepro.book import full as full_module
    from rnnrepro.book.chapters import get_chapter
    from rnnrepro.book.criteria import AtMost
    from rnnrepro.book.ledger import Ledger
    from rnnrepro.book.paths import REPO
    from rnnrepro.data import sha256_file

    chapter = get_chapter("dynamics")
    folder = tmp_path / "dynamics" / "full"
    folder.mkdir(parents=True)
    shipped = {"chapter": "dynamics", "profile": "full", "source_sha256": sha256_file(REPO / chapter.notebook),
               "claims": [claim(id="dynamics.a.b", status="partial", measured=0.75)]}
    (folder / "dynamics.ledger.json").write_text(json.dumps(shipped))
    manifest = {"commit": "0123456789abcdef", "created_utc": "2026-11-24T02:00:00", "machine": {"model": "AMD EPYC"},
                "runs": {"native": {"wall_time_s": 61.0}},
                "files": {"dynamics.ledger.json": sha256_file(folder / "dynamics.ledger.json")}}
    (folder / full_module.MANIFEST).write_text(json.dumps(manifest))
    monkeypatch.setattr(full_module, "full_dir", lambda key: tmp_path / key / "full")
    ledger = Ledger(chapter, chapter.resolve("fast"), publish=lambda *a: None, out=tmp_path)
    ledger.claim("dynamics.a.b", "s", quote=Q, ref="Eq. 1", measured=0.5, criterion=AtMost(1), status="reproduced",
                 no_control="identity")
    md = ledger.table_markdown()
    assert "61 s on AMD EPYC" in md and '<span class="rnnrepro-profile">full</span> 0.75' in md
    assert 'data-status="partial"' in md          # the headline is the full verdict
    assert "dynamics.a.b: reproduced; measured 0.5" in ledger.summary()   # nbval's text: fast only
    full_run = Ledger(chapter, chapter.resolve("full"), publish=lambda *a: None, out=tmp_path)
    full_run.claim("dynamics.a.b", "s", quote=Q, ref="Eq. 1", measured=0.5, criterion=AtMost(1), status="reproduced",
                   no_control="identity")
    assert "rnnrepro-profile" not in full_run.table_markdown()   # a full run shows itself only


def test_values_and_quotes_read_as_what_they_are():
    rows = [claim(id="demo.a.tiny", measured=1.26e-08, statement=r"for the RNN too, \"closely matches $k\lambda^k$\""),
            claim(id="demo.a.flag", kind="integrity", status="verified", measured=True, fmt=".4g")]
    out = ct.claims_html(rows, chapter="demo")
    p = Cells()
    p.feed(out)
    text = "".join(p.text)
    assert "1.26e-08" in text and "0.00" not in text
    assert '\\"' not in text and '"closely matches' in text and p.math[0] == "\\(k\\lambda^k\\)"
    assert "True" not in text and ">yes<" in out


def test_verdicts_html_lists_every_paper_claim_under_its_kind_with_the_headline_status():
    rows = [claim(id="demo.a.s", status="holds", ref="Thm 1", paper=0.5, measured=0.25),
            claim(id="demo.a.e", status="erratum", ref="Eq. 9"),
            claim(id="demo.a.x", status="partial", ref="Fig. 2"),
            claim(id="demo.a.f", kind="finding", status="observed")]
    out = ct.verdicts_html(rows)
    assert out.count("<tr data-status=") == 3 and "demo.a.f" not in out
    statements, experiments = out.split('data-type="experiment"')
    assert '<a href="#demo.a.s">Thm 1</a>' in statements and "(2: 1 holds, 1 erratum)" in statements
    assert '<a href="#demo.a.x">Fig. 2</a>' in experiments and "demo.a.s" not in experiments
    assert "<td>0.25</td><td>0.50</td>" in statements and "status-holds" in statements
    full = full_ledger([dict(rows[2], status="reproduced", measured=0.9)])
    shown = ct.verdicts_html(rows, full=full)
    assert ('<span class="rnnrepro-profile">full</span> reproduced' in shown
            and '<span class="rnnrepro-profile">fast</span> holds' in shown)
    assert ct.verdicts_html(rows[3:]) == '<p class="rnnrepro-claims-title">No paper claims.</p>'


def test_verdict_rows_name_the_quantity_measured_in_the_papers_terms():
    rows = [claim(id="demo.a.s", status="holds", ref="Lemma 2", paper="≈ 1", measured=0.41,
                  quantity="error / $k\\lambda^k$")]
    out = ct.verdicts_html(rows)
    assert ('<td>error / <span class="math notranslate nohighlight">\\(k\\lambda^k\\)</span> = 0.41</td>'
            '<td>≈ 1</td>' in out)
    full = full_ledger([dict(rows[0], measured=0.39, quantity="")])   # a shipped row keeps its value, not its label
    assert "error / " in ct.verdicts_html(rows, full=full) and "= 0.39</td>" in ct.verdicts_html(rows, full=full)


def test_headline_text_says_the_verdicts_in_words():
    rows = [claim(id=f"demo.a.s{i}", status=s) for i, s in
            enumerate(["holds"] * 3 + ["erratum"] * 2 + ["partial", "not reproduced"])]
    assert ct.headline_text(rows) == ("of 5 printed statements, 3 hold and 2 are errata; of 2 experiments, "
                                      "1 is partial and 1 is not reproduced")
    assert ct.headline_text(rows[3:4]) == "the one printed statement is an erratum"
    full = full_ledger([dict(rows[5], status="reproduced")])
    assert ct.headline_text(rows[5:6], full=full) == "the one experiment is reproduced"
    assert ct.headline_text([claim(kind="finding", status="observed")]) == "no paper claims"


def test_the_ledger_is_one_click_behind_the_story():
    out = ct.ledger_markdown([claim(id="demo.a.s", status="holds"), claim(id="demo.a.f", kind="finding",
                                                                           status="observed")], chapter="demo")
    assert out.startswith('<details class="rnnrepro-apparatus" id="claims">') and " open" not in out.split("\n")[0]
    assert "1 paper claims, 1 findings of ours and 0 integrity checks" in out and 'id="demo.a.s"' in out
    assert out.rstrip().endswith("</details>")
    moved = ct.ledger_markdown([claim(id="demo.a.s", status="holds")], chapter="demo",
                               renamed={"demo.a.old": "demo.a.s", "demo.b.gone": "demo.b.other"})
    assert '<span id="demo.a.old"></span><a id="demo.a.s"' in moved and "demo.b.gone" not in moved


def test_a_quote_shows_its_display_math_inline_and_closes_a_cut_one():
    assert ct.quote_math(r"provided $||W|| < 1$. Indeed, $$ a \le b $$ so") == \
        r"provided $||W|| < 1$. Indeed, $a \le b$ so"
    assert ct.quote_math(r"yields $$ \|h_t\| \le \lambda^k") == r"yields $\|h_t\| \le \lambda^k$"
    assert '<span class="math notranslate nohighlight">\\(a \\le b\\)</span>' in ct.quote_html(
        {"quote": r"Indeed, $$ a \le b $$ so it is", "type": "statement"})


def test_a_verdict_row_shows_the_value_of_the_profile_its_badge_names():
    """A row under a ``full`` badge shows the shipped full value, never the ``fast`` one (and the reverse);
    :func:`verdict_row_mismatches` is what the built-book test reads a page's table with."""
    rows = [claim(id="demo.a.s", status="holds", ref="Thm 1", measured=0.25, quantity="error"),
            claim(id="demo.a.x", status="partial", ref="Fig. 2", measured=0.5)]
    full = full_ledger([dict(rows[0], measured=0.9), dict(rows[1], status="reproduced", measured=0.75)])
    out = ct.verdicts_html(rows, full=full, profile="fast")
    assert "error = 0.90</td>" in out and "<td>0.75</td>" in out and "0.25" not in out
    assert ct.verdict_row_mismatches(out, rows, full) == []
    fast_under_full = out.replace("error = 0.90</td>", "error = 0.25</td>")
    assert ct.verdict_row_mismatches(fast_under_full, rows, full) == [
        "demo.a.s: shows 'error = 0.25' under a full badge, where the full value is 'error = 0.90'"]
    stale = dict(full, stale=True)
    at_fast = ct.verdicts_html(rows, full=stale, profile="fast")
    assert ct.verdict_row_mismatches(at_fast, rows, stale) == []
    assert ct.verdict_row_mismatches(at_fast.replace("<td>0.50</td>", "<td>0.75</td>"), rows, stale)


def test_the_verdict_table_says_which_profile_the_running_numbers_come_from():
    rows = [claim(id="demo.a.s", status="holds")]
    full = full_ledger([dict(rows[0], measured=0.9)])
    assert "come from the <code>fast</code> profile (this build's run); a verdict marked <code>full</code>" in \
        ct.verdicts_html(rows, full=full, profile="fast")
    assert "no current paper-scale <code>full</code> result is shipped" in ct.verdicts_html(rows, profile="fast")
    assert "no current paper-scale" in ct.verdicts_html(rows, full=dict(full, stale=True), profile="fast")
    assert "every verdict come from the paper-scale <code>full</code>" in ct.verdicts_html(rows, profile="full")
    assert "rnnrepro-profile-note" not in ct.verdicts_html(rows)
