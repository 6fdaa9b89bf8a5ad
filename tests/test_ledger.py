import json
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from rnnrepro.book.criteria import AtMost, Within
from rnnrepro.book.ledger import (SCHEMA_VERSION, STATUSES, VERIFIED, ClaimFailed, ControlPassed, Ledger,
                                  SectionOverrun, counts_line, plain)
from rnnrepro.book.plotting import new_figure
from rnnrepro.book.profiles import Chapter, Param

Q = "the paper says so in six words"   # a quote of the paper (six words)

CH = Chapter(key="demo", title="Demo", paper="A paper", notebook="book/chapters/demo.md",
             params=(Param("seed", int, fast=3, full=3),))


@pytest.fixture
def ledger(tmp_path):
    published = {}
    led = Ledger(CH, CH.resolve("fast"), seeds={"seed": 3}, publish=published.__setitem__, out=tmp_path)
    led.published = published
    return led


def test_claim_records_and_glues(ledger):
    with ledger.section("s1"):
        c = ledger.claim("demo.thm1.bound", "x is small", quote=Q, ref="Thm 1", measured=np.float64(0.1),
                         criterion=AtMost(0.5), status="reproduced", paper=0.2, control=torch.tensor(0.9))
    assert c.holds and c.control_holds is False and c.section == "s1"
    assert isinstance(c.measured, float) and isinstance(c.control, float)
    assert ledger.published["demo.thm1.bound"] == pytest.approx(0.1)
    assert "s1" in ledger.sections


def test_failing_claim_raises(ledger):
    with pytest.raises(ClaimFailed, match="demo.thm1.bound: measured 0.9"):
        ledger.claim("demo.thm1.bound", "x is small", quote=Q, ref="Thm 1", measured=0.9, criterion=AtMost(0.5),
                     status="reproduced", no_control="identity")


def test_a_failure_is_recorded_for_list_and_ci(ledger, tmp_path):
    with pytest.raises(ClaimFailed):
        ledger.claim("demo.thm1.bound", "x is small", quote=Q, ref="Thm 1", measured=0.9, criterion=AtMost(0.5),
                     status="reproduced", no_control="identity")
    assert "fast: ClaimFailed: demo.thm1.bound: measured 0.9" in (tmp_path / "demo.failed.txt").read_text()
    ledger.claim("demo.thm1.other", "y", quote=Q, ref="Thm 1", measured=0.1, criterion=AtMost(0.5), status="reproduced",
                 no_control="identity")
    ledger.finish()
    assert not (tmp_path / "demo.failed.txt").exists()


def test_control_that_passes_raises(ledger):
    with pytest.raises(ControlPassed, match="cannot fail"):
        ledger.claim("demo.thm1.bound", "x is small", quote=Q, ref="Thm 1", measured=0.1, criterion=AtMost(0.5),
                     status="reproduced", control=0.2, control_note="a case that should fail")


@pytest.mark.parametrize("kwargs, error", [
    (dict(id="thm1.bound"), ValueError),
    (dict(id="other.thm1.bound"), ValueError),
    (dict(id="demo.Thm1.bound"), ValueError),
    (dict(status="replicated"), ValueError),
    (dict(measured=[1.0]), TypeError),
    (dict(no_control=""), ValueError),                    # neither a control nor a reason
    (dict(control=2.0, control_note="c"), ValueError),    # both
    (dict(quote="too short a quote"), ValueError),         # fewer than six words
    (dict(status="verified"), ValueError),                # not a paper claim's status
])
def test_bad_claims_are_refused(ledger, kwargs, error):
    args = dict(id="demo.thm1.bound", statement="s", quote=Q, ref="r",
                measured=0.1, criterion=AtMost(1.0), status="reproduced", no_control="identity") | kwargs
    with pytest.raises(error):
        ledger.claim(args.pop("id"), args.pop("statement"), **args)


def test_ids_are_unique(ledger):
    ledger.claim("demo.a.b", "s", quote=Q, ref="r", measured=1, criterion=AtMost(2),
                 status="partial", control=3)
    with pytest.raises(ValueError, match="used twice"):
        ledger.check("demo.a.b", "s", measured=1, criterion=AtMost(2), control=3)
    ledger.value("demo.a.n", 3)
    with pytest.raises(ValueError, match="used twice"):
        ledger.value("demo.a.n", 4)
    with pytest.raises(ValueError, match="used twice"):
        ledger.value("demo.a.b", 4)   # a value may not take a claim's glue name


def test_figure_data_saved_and_axes_must_be_labelled(ledger, tmp_path):
    fig, ax = new_figure(1)
    ax.plot([0, 1], [1, 2])
    with pytest.raises(ValueError, match="without x/y labels"):
        ledger.figure("fig1", fig, x=[0, 1])
    ax.set(xlabel="x", ylabel="y")
    ledger.figure("fig1", fig, x=np.arange(2), y=torch.tensor([1.0, 2.0]))
    path = tmp_path / "demo.figures" / "fig1.npz"
    assert np.load(path)["y"].tolist() == [1.0, 2.0]
    assert ledger.figures["fig1"]["file"] == "demo.figures/fig1.npz" and len(ledger.figures["fig1"]["sha256"]) == 64
    assert ledger.published["demo.fig1"].figure is fig
    with pytest.raises(ValueError):
        ledger.figure("fig1", fig, x=[0])


@pytest.mark.parametrize("book_build", [False, True])
def test_a_figure_gets_its_phone_variant_in_a_book_build_only(ledger, tmp_path, monkeypatch, book_build):
    """The phone variant is read only by the book build (rnnrepro.site.sphinxext.phone_figures, which sets
    RNNREPRO_PHONE_FIGURES=1 for the chapters it executes): a run outside one makes none."""
    from rnnrepro.book.plotting import PHONE_FIGURES_ENV

    monkeypatch.delenv(PHONE_FIGURES_ENV, raising=False)
    if book_build:
        monkeypatch.setenv(PHONE_FIGURES_ENV, "1")
    fig, axes = new_figure(1, 3)
    for ax in axes:
        ax.plot([0, 1], [1, 2])
        ax.set(xlabel="x", ylabel="y")
    ledger.figure("fig1", fig, x=np.arange(2))
    assert (tmp_path / "demo.figures" / "fig1.phone.svg").is_file() == book_build
    assert (tmp_path / "demo.figures" / "fig1.npz").is_file()


def test_a_figure_is_drawn_once_for_its_glue_and_its_cell(monkeypatch):
    """In a kernel the glued figure and the cell's output are one SVG, made by the kernel's formatter once;
    the figure is closed after it is shown, so the inline backend does not draw it again."""
    import IPython
    import IPython.display
    import matplotlib.pyplot as plt

    from rnnrepro.book.ledger import ShownFigure

    calls, shown = [], []

    class Formatter:
        def format(self, obj):
            calls.append(obj)
            return {"image/svg+xml": "<svg/>", "text/plain": repr(obj)}, {}

    monkeypatch.setattr(IPython, "get_ipython", lambda: SimpleNamespace(display_formatter=Formatter(), kernel=object()))
    monkeypatch.setattr(IPython.display, "display", shown.append)
    fig, ax = new_figure(1)
    figure = ShownFigure(fig)
    assert figure._repr_mimebundle_() == {"image/svg+xml": "<svg/>", "text/plain": repr(fig)}
    assert figure.show_in_cell() and shown == [figure]
    assert figure._repr_mimebundle_()["image/svg+xml"] == "<svg/>" and calls == [fig]     # drawn once
    assert not plt.fignum_exists(fig.number) and repr(figure) == repr(fig)
    monkeypatch.setattr(IPython, "get_ipython", lambda: None)
    assert not ShownFigure(new_figure(1)[0]).show_in_cell()                             # outside a kernel


def test_finish_writes_the_json_schema(ledger, tmp_path):
    ledger.claim("demo.eq1.value", "v", quote=Q, ref="Eq. 1", measured=1.0, criterion=Within(1.0, atol=0.1),
                 status="reproduced", paper=1.02, fmt=".2f", no_control="identity")
    ledger.claim("demo.eq2.sign", "v", quote=Q, ref="Eq. 2", measured=2.0, criterion=AtMost(3.0), status="erratum",
                 control=4.0, control_note="the printed sign")
    ledger.check("demo.art.reverified", "w", measured=1e-7, criterion=AtMost(1e-5), no_control="artefact")
    ledger.value("demo.eq1.n", 5)
    table = ledger.finish()
    data = json.loads((tmp_path / "demo.ledger.json").read_text())
    assert data["schema"] == SCHEMA_VERSION and data["chapter"] == "demo" and data["profile"] == "fast"
    assert data["parameters"] == {"profile": "fast", "seed": 3} and data["seeds"] == {"seed": 3}
    assert set(data["counts"]) == set(STATUSES) and data["counts"]["erratum"] == 1
    assert sum(data["counts"].values()) == 2 and data["integrity_checks"] == 1
    assert {"python", "platform", "cpu", "packages"} <= set(data["environment"])
    assert {"model", "capability"} <= set(data["environment"]["cpu"])
    assert data["environment"]["packages"]["torch"]
    assert "fallbacks" not in data["environment"]                # nothing ran in a fallback form
    assert set(data["wall_time_s"]) == {"total", "sections"}
    claim = data["claims"][0]
    assert {"id", "statement", "ref", "paper", "measured", "criterion", "status", "holds", "control",
            "kind", "no_control", "quote", "type"} <= set(claim)
    assert [c["kind"] for c in data["claims"]] == ["paper", "paper", "integrity"]
    assert data["claims"][2]["status"] == VERIFIED
    assert data["values"] == {"demo.eq1.n": 5}
    assert "demo.eq1.value: reproduced; measured 1.00" in repr(table)
    assert ("2 paper claims (statements: 1 erratum; experiments: 1 reproduced); 0 findings of ours; "
            "1 integrity checks") in repr(table)
    assert [c.get("type") for c in data["claims"]] == ["experiment", "statement", ""]
    assert data["claims"][0]["quote"] == "the paper says so in six words"
    md = table._repr_markdown_()
    assert ('<td class="claim-id"><a id="demo.eq1.value" href="#demo.eq1.value"><code>eq1.<wbr>value</code></a></td>'
            '<td class="claim-text"><strong>Eq. 1.</strong> v<br><span class="claim-meta">criterion = 1 ± 0.1 · '
            'control: none: identity</span></td><td class="claim-paper">1.02<details class="claim-quote" open><summary>'
            'experiment · the paper says</summary><q>the paper says so in six words</q></details></td>'
            '<td class="claim-ours">1.00</td>'
            '<td class="claim-status"><span class="rnnrepro-badge status-reproduced">reproduced</span></td>') in md
    assert "control: 4 (the printed sign) fails it</span>" in md and '<div class="rnnrepro-claims"' in md
    assert "**Cite this chapter.**" in md and "`fast` profile" in md
    assert md.index("<strong>Paper claims</strong> (2)") < md.index("<strong>Integrity checks</strong> (1)")
    assert counts_line(data) == ("statements: 1 erratum; experiments: 1 reproduced; 0 findings of ours; "
                                 "1 integrity check")


def test_the_glued_headline_and_verdicts_read_the_shipped_full_statuses(ledger, monkeypatch, tmp_path):
    """A stub shipped ``full`` ledger whose statuses differ from the ``fast`` run's changes the glued In-short
    headline and the verdict table (the headline counts the paper-scale verdicts); a ``full`` run shows itself."""
    from rnnrepro.book import claims_table

    def rows(led):
        led.claim("demo.eq1.value", "v", quote=Q, ref="Eq. 1", measured=1.0, criterion=AtMost(2.0),
                  status="reproduced", no_control="identity")
        led.claim("demo.eq2.sign", "v", quote=Q, ref="Eq. 2", measured=1.5, criterion=AtMost(2.0), status="erratum",
                  no_control="identity")
        led.finish()
        return led.published

    stub = {"stale": False, "manifest": {"commit": "0123456789ab"},
            "claims": [{"id": "demo.eq1.value", "status": "not reproduced", "measured": 3.0, "fmt": ".4g"},
                       {"id": "demo.eq2.sign", "status": "holds", "measured": 0.5, "fmt": ".4g"}]}
    monkeypatch.setattr(claims_table, "shipped_full_ledger", lambda key: stub if key == "demo" else None)
    published = rows(ledger)
    assert published["demo.headline"] == "the one printed statement holds; the one experiment is not reproduced"
    verdicts = published["demo.verdicts"].markdown
    assert '<span class="rnnrepro-profile">full</span> not reproduced' in verdicts and "<td>3</td>" in verdicts
    assert ledger.shipped_full() is stub
    full_run = Ledger(CH, CH.resolve("full"), seeds={"seed": 3}, publish={}.__setitem__, out=tmp_path)
    full_run.published = {}
    full_run._publish = full_run.published.__setitem__
    fast_verdicts = "the one printed statement is an erratum; the one experiment is reproduced"
    assert rows(full_run)["demo.headline"] == fast_verdicts
    monkeypatch.setattr(claims_table, "shipped_full_ledger", lambda key: None)
    fast_only = Ledger(CH, CH.resolve("fast"), seeds={"seed": 3}, publish={}.__setitem__, out=tmp_path)
    fast_only.published = {}
    fast_only._publish = fast_only.published.__setitem__
    assert rows(fast_only)["demo.headline"] == fast_verdicts


def test_the_cite_block_is_glued_for_the_pages_cite_section(tmp_path):
    """finish() glues the cite block as ``<key>.cite``; a page with its "Cite this chapter" section shows it
    there only, a page without one after the claims table."""
    from rnnrepro.book.cite import cite_section_markdown

    for text, inline in (("# Demo\n", True), ("# Demo\n\n" + cite_section_markdown("demo"), False)):
        notebook = tmp_path / "demo.md"
        notebook.write_text(text)
        chapter = Chapter(key="demo", title="Demo", paper="A paper", notebook=str(notebook),
                          params=(Param("seed", int, fast=3, full=3),))
        published = {}
        led = Ledger(chapter, chapter.resolve("fast"), publish=published.__setitem__, out=tmp_path)
        led.claim("demo.a.b", "s", quote=Q, ref="r", measured=0.5, criterion=AtMost(1), status="reproduced",
                  no_control="identity")
        md = led.finish()._repr_markdown_()
        block = published["demo.cite"]._repr_markdown_()
        assert "`fast` profile" in block and repr(published["demo.cite"]) == "<cite block>"
        assert (block in md) is inline and ("**Cite this chapter.**" in md) is inline


def test_summary_is_deterministic(ledger):
    ledger.claim("demo.a.b", "s", quote=Q, ref="r", measured=0.123456789, criterion=AtMost(1), status="reproduced",
                 no_control="identity")
    assert ledger.summary() == ledger.summary()
    assert "0.1235" in ledger.summary() and "time" not in ledger.summary()


def test_finish_needs_claims(ledger):
    with pytest.raises(ValueError, match="no claims"):
        ledger.finish()


def test_plain_converts_scalars():
    assert plain(np.bool_(True)) is True
    assert plain(torch.tensor(2)) == 2 and isinstance(plain(torch.tensor(2.5)), float)
    assert plain("x") == "x"


def test_check_is_an_integrity_row_that_can_fail(ledger):
    c = ledger.check("demo.art.ok", "re-evaluated", measured=1e-7, criterion=AtMost(1e-5), control=1.0,
                     control_note="another artefact")
    assert c.kind == "integrity" and c.status == VERIFIED and c.paper is None
    with pytest.raises(ClaimFailed):
        ledger.check("demo.art.bad", "re-evaluated", measured=1e-3, criterion=AtMost(1e-5), no_control="artefact")
    assert ledger.counts() == dict.fromkeys(STATUSES, 0) and ledger.n_checks() == 2


def test_table_markdown_shows_every_kind_as_html(ledger):
    ledger.claim("demo.r.ratio", "R = [gap](60) | both", quote=Q, ref="Fig. 1", measured=0.4, criterion=AtMost(1),
                 status="partial", paper="a|b", no_control="identity")
    ledger.check("demo.r.art", "re-evaluated", measured=0.0, criterion=AtMost(1e-5), no_control="artefact")
    md = ledger.table_markdown()
    assert '<a id="demo.r.ratio" href="#demo.r.ratio">' in md and "R = [gap](60) | both" in md
    assert md.index("<strong>Paper claims</strong> (1)") < md.index("<strong>Integrity checks</strong> (1)")
    assert "\n\n" not in md.split("\n\n<div", 1)[0]   # each table one raw HTML block


def test_findings_are_a_third_kind_outside_the_counts(tmp_path):
    from rnnrepro.book.criteria import AtMost
    from rnnrepro.book.ledger import OBSERVED, Ledger
    from rnnrepro.book.profiles import Chapter

    chapter = Chapter(key="demo", title="Demo", paper="P", notebook="book/chapters/demo.md")
    ledger = Ledger(chapter, chapter.resolve("fast"), publish=lambda *a: None, out=tmp_path)
    ledger.finding("demo.eq1.tight", "The bound is attained within 10 %.", ref="Eq. 1", measured=1.05,
                   criterion=AtMost(1.1), no_control="tightness of a bound")
    assert ledger.claims[0].kind == "finding" and ledger.claims[0].status == OBSERVED
    assert sum(ledger.counts().values()) == 0 and ledger.n_findings() == 1
    assert "<strong>Our own findings</strong> (1)" in ledger.table_markdown()


def test_sensitivity_runs_collect_failures(tmp_path, monkeypatch):
    from rnnrepro.book.criteria import AtMost
    from rnnrepro.book.ledger import PERTURB_ENV, ClaimFailed, Ledger
    from rnnrepro.book.profiles import Chapter

    monkeypatch.setenv(PERTURB_ENV, "x.y:f*1.1")
    chapter = Chapter(key="demo", title="Demo", paper="P", notebook="book/chapters/demo.md")
    ledger = Ledger(chapter, chapter.resolve("fast"), publish=lambda *a: None, out=tmp_path)
    ledger.claim("demo.eq1.a", "a", quote=Q, ref="Eq. 1", measured=2.0, criterion=AtMost(1.0), status="reproduced",
                 no_control="test")
    ledger.check("demo.eq1.b", "b", measured=2.0, criterion=AtMost(1.0), no_control="test")
    assert [f[:2] for f in ledger.failures] == [("paper", "demo.eq1.a"), ("integrity", "demo.eq1.b")]
    with pytest.raises(ClaimFailed, match="2 rows failed in a sensitivity run"):
        ledger.finish()


def test_the_section_being_run_is_written_for_the_heartbeat_and_removed_at_finish(ledger, tmp_path):
    path = tmp_path / "demo.section"
    with ledger.section("outer"):
        assert path.read_text() == "outer"
        with ledger.section("inner"):
            assert path.read_text() == "inner"
        assert path.read_text() == "outer"
        ledger.claim("demo.thm1.bound", "x is small", quote=Q, ref="Thm 1", measured=0.1, criterion=AtMost(0.5),
                     status="reproduced", control=0.9)
    assert path.read_text() == ""
    ledger.finish()
    assert not path.exists()


def test_a_row_left_as_a_cells_last_value_displays_nothing(ledger):
    from IPython.core.interactiveshell import InteractiveShell

    row = ledger.claim("demo.thm1.bound", "x is small", quote=Q, ref="Thm 1", measured=0.1, criterion=AtMost(0.5),
                       status="reproduced", control=0.9)
    data, metadata = InteractiveShell.instance().display_formatter.format(row)
    assert data == {} and metadata == {}


def test_the_prose_reads_a_boolean_as_yes_or_no(monkeypatch):
    import IPython
    import myst_nb

    from rnnrepro.book import ledger as ledger_module

    glued = {}
    monkeypatch.setattr(IPython, "get_ipython", lambda: object())
    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display: glued.update({name: value}))
    for name, value in (("a", True), ("b", False), ("c", 0.5), ("d", 3)):
        ledger_module._default_publish(name, value)
    assert glued == {"a": "yes", "b": "no", "c": 0.5, "d": 3}


def test_a_section_that_runs_away_fails_naming_itself(ledger, monkeypatch):
    import time

    monkeypatch.setenv("RNNREPRO_SECTION_LIMIT_S", "0.2")
    assert ledger.section_limit() == 0.2
    with pytest.raises(SectionOverrun, match="section 'loop' of chapter demo .* ran past its bound of 0.2 s"):
        with ledger.section("loop"):
            while True:
                time.sleep(0.01)
    with ledger.section("quick"):
        pass
    time.sleep(0.3)                          # disarmed when a section ends: nothing fires outside one
    monkeypatch.delenv("RNNREPRO_SECTION_LIMIT_S")
    assert ledger.section_limit() == 1800.0


def test_each_execution_is_logged_when_it_starts_and_when_it_finishes(tmp_path, monkeypatch):
    log = tmp_path / "executions.jsonl"
    monkeypatch.setenv("RNNREPRO_EXECUTION_LOG", str(log))
    led = Ledger(CH, CH.resolve("fast"), seeds={"seed": 3}, publish=lambda *a: None, out=tmp_path)
    led.claim("demo.thm1.bound", "x is small", quote=Q, ref="Thm 1", measured=0.1, criterion=AtMost(0.5),
              status="reproduced", no_control="identity")
    led.finish()
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(r["chapter"], r["profile"], r["event"]) for r in records] == [("demo", "fast", "started"),
                                                                           ("demo", "fast", "finished")]
    assert records[1]["capability"] and records[1]["wall_s"] >= 0
    assert records[0]["overrides"] == [] and records[0]["explore"] is False
    Ledger(CH, CH.resolve("fast", {"seed": 4}), seeds={"seed": 4}, publish=lambda *a: None, out=tmp_path)
    assert json.loads(log.read_text().splitlines()[2])["overrides"] == ["seed"]     # an exercise's run
    monkeypatch.delenv("RNNREPRO_EXECUTION_LOG")
    Ledger(CH, CH.resolve("fast"), seeds={"seed": 3}, publish=lambda *a: None, out=tmp_path)
    assert len(log.read_text().splitlines()) == 3        # unset: nothing logged


def test_the_environment_names_what_ran_in_a_fallback_form(ledger, tmp_path, monkeypatch):
    """A part of the package that ran in its fallback form (the pure-PyTorch trainer where the fused C++ one
    cannot be built) is named in the ledger's environment with why: a test and a reader can tell which code ran."""
    from rnnrepro.book import machine

    monkeypatch.setattr(machine, "_FALLBACKS", {})
    machine.note_fallback("demo.extension", "no C++ compiler (cc) on the PATH")
    ledger.check("demo.art.reverified", "w", measured=1e-7, criterion=AtMost(1e-5), no_control="artefact")
    ledger.finish()
    data = json.loads((tmp_path / "demo.ledger.json").read_text())
    assert data["environment"]["fallbacks"] == {"demo.extension": "no C++ compiler (cc) on the PATH"}
