import time

from rnnrepro.book.paths import OUT_ENV
from rnnrepro.site.sphinxext.heartbeat import Heartbeat, chapter_section


def test_heartbeat_names_the_page_being_read_until_stopped():
    said = []
    beat = Heartbeat(said.append, every=0.05)
    beat.reading("book/chapters/ribeiro")
    time.sleep(0.18)
    beat.reading("book/chapters/li")
    time.sleep(0.12)
    beat.stop()
    time.sleep(0.1)
    n = len(said)
    time.sleep(0.1)
    assert len(said) == n, "no lines after stop"
    assert said[0].startswith("still reading book/chapters/ribeiro: ")
    assert said[-1].startswith("still reading book/chapters/li: ")


def test_no_line_before_a_page_is_read():
    said = []
    beat = Heartbeat(said.append, every=0.02)
    time.sleep(0.06)
    beat.stop()
    assert said == []


def test_a_page_just_begun_is_not_reported():
    said = []
    beat = Heartbeat(said.append, every=0.2)
    beat.reading("book/intro")            # starts the ticks: 0.2 s, 0.4 s, ...
    time.sleep(0.15)
    beat.reading("book/chapters/li")
    time.sleep(0.1)                       # the tick at 0.2 s finds li 0.05 s old: no line
    beat.stop()
    assert said == []


def test_the_line_names_the_section_being_executed():
    said = []
    beat = Heartbeat(said.append, every=0.05, section_of=lambda page: "thm51" if "li" in page else "")
    beat.reading("book/chapters/li")
    time.sleep(0.12)
    beat.stop()
    assert said and said[-1].startswith("still reading book/chapters/li: ") and said[-1].endswith(", section thm51")


def test_chapter_section_reads_what_the_ledger_wrote(tmp_path, monkeypatch):
    monkeypatch.setenv(OUT_ENV, str(tmp_path))
    assert chapter_section("book/chapters/li") == ""
    (tmp_path / "li.section").write_text("thm51\n")
    assert chapter_section("book/chapters/li") == "thm51"
    assert chapter_section("book/intro") == ""
