import pytest
from pybtex.database import parse_string

from rnnrepro.book import cite, cli
from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.errors import ConfigError
from rnnrepro.book.profiles import Chapter


@pytest.mark.parametrize("key", list(all_chapters()))
def test_bibtex_parses_and_names_the_chapter(key):
    chapter = all_chapters()[key]
    entry = parse_string(cite.chapter_bibtex(key, commit="abc123"), "bibtex").entries[f"rnnrepro-{key}"]
    assert entry.type == "incollection"
    assert entry.fields["title"] == chapter.title
    assert entry.fields["booktitle"] == cite.book_metadata()["title"]
    assert "commit abc123" in entry.fields["note"] and cite.book_metadata()["version"] in entry.fields["note"]
    assert entry.fields["url"].endswith(f"{chapter.notebook.removesuffix('.md')}.html")


def test_claim_reference_links_to_its_anchor():
    claim = cite.claim_ids("dynamics")[0]
    text = cite.chapter_text("dynamics", claim, commit="abc123")
    assert text.endswith(f"dynamics.html#{claim}") and f"claim {claim}" in text and "(commit abc123)" in text


@pytest.mark.parametrize("key", [k for k, ch in all_chapters().items() if ch.cites])
def test_replicated_papers_come_from_the_bibliography(key):
    refs = cite.paper_references(key)
    assert len(refs) == len(all_chapters()[key].cites) and all(len(r) > 40 for r in refs)


def test_unknown_bibliography_key_is_refused():
    ghost = Chapter(key="ghost", title="G", paper="p", notebook="book/chapters/ghost.md", cites=("nobody1999",))
    with pytest.raises(ConfigError, match="nobody1999"):
        cite.paper_references(ghost)


def test_cite_block_states_version_commit_profile_and_downloads():
    block = cite.cite_block_markdown("li", "full")
    assert cite.book_metadata()["version"] in block and "`full` profile" in block
    assert 'href="li.ledger.json"' in block and 'href="li.figures.zip"' in block and "```bibtex" in block


@pytest.mark.parametrize("argv, message", [
    (["cite", "nope"], "unknown chapter 'nope'"),
    (["cite", "li", "--claim", "li.no.such"], "has no claim 'li.no.such'"),
    (["cite", "li", "--format", "xml"], "unknown format 'xml'"),
])
def test_cli_refuses_bad_input_with_one_line(argv, message, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("fmt", cite.FORMATS)
def test_cli_prints_the_reference(fmt, capsys):
    assert cli.main(["cite", "ribeiro", "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert "Memory and smoothness" in out and ("@incollection" in out) == (fmt == "bibtex")


def test_versions_agree():
    import tomllib

    from rnnrepro.book.paths import REPO

    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    assert cite.book_metadata()["version"] == version


def test_build_commit_names_head_and_marks_changes(tmp_path, monkeypatch):
    import subprocess

    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "f.txt").write_text("a")
    git("add", "f.txt")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
    monkeypatch.setattr(cite, "REPO", tmp_path)
    clean = cite.build_commit()
    assert len(clean) == 12 and all(c in "0123456789abcdef" for c in clean)
    (tmp_path / "f.txt").write_text("b")
    assert cite.build_commit() == clean + "-dirty"
    monkeypatch.setattr(cite, "REPO", tmp_path / "nowhere")
    assert cite.build_commit() == "unknown"
