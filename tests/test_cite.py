import re
import shutil
import subprocess

import pytest
import yaml
from pybtex.database import parse_string

from rnnrepro.book import cite, cli
from rnnrepro.book.paths import REPO
from rnnrepro.book.chapters import all_chapters
from rnnrepro.errors import ConfigError
from rnnrepro.book.profiles import Chapter


@pytest.mark.parametrize("key", list(all_chapters()))
def test_bibtex_parses_and_names_the_chapter(key):
    chapter = all_chapters()[key]
    entry = parse_string(cite.chapter_bibtex(key, commit="abc123"), "bibtex").entries[f"rnnrepro-{key}"]
    assert entry.type == "incollection"
    assert entry.fields["title"] == "{" + cite.bibtex_escape(cite.page_title(chapter)) + "}"
    assert entry.fields["booktitle"] == cite.bibtex_escape(cite.book_metadata()["title"])
    note = entry.fields["note"]
    assert "commit abc123" in note and cite.book_metadata()["version"] in note and "fast profile" in note
    if cite.published():
        assert entry.fields["url"].endswith(f"{chapter.notebook.removesuffix('.md')}.html")
    else:
        assert "url" not in entry.fields and note.startswith("unpublished")


@pytest.mark.parametrize("key", ["flynn", "cayci", "li"])
def test_title_is_the_page_heading(key):
    heading = next(line[2:] for line in (cite.REPO / all_chapters()[key].notebook).read_text().splitlines()
                   if line.startswith("# "))
    assert cite.page_title(key) == heading.strip()
    assert cite.page_title(key) in cite.chapter_text(key, commit="abc123")


def test_escape_covers_latex_specials():
    assert cite.bibtex_escape("Li, Han, E & Li: 50% of $x_1$ #2 {a} ~^\\") == (
        r"Li, Han, E \& Li: 50\% of \$x\_1\$ \#2 \{a\} \textasciitilde{}\textasciicircum{}\textbackslash{}")


def test_profile_is_named_in_both_formats():
    assert "full profile" in cite.chapter_bibtex("li", commit="abc123", profile="full")
    assert "full profile" in cite.chapter_text("li", commit="abc123", profile="full")


LATEX_DOC = r"""\documentclass{article}
\begin{document}
\nocite{*}
\bibliographystyle{plain}
\bibliography{refs}
\end{document}
"""


@pytest.mark.skipif(not (shutil.which("latex") and shutil.which("bibtex")),
                    reason="latex/bibtex not installed (Debian: apt-get install --no-install-recommends "
                           "texlive-latex-base; .ci/run installs it)")
def test_every_chapter_entry_compiles_under_bibtex_and_latex(tmp_path):
    """A real BibTeX run and a LaTeX run over every chapter's entry (one with a claim): an unescaped
    ``&`` stops LaTeX with "Misplaced alignment tab", a stray ``{`` stops BibTeX."""
    entries = [cite.chapter_bibtex(key, commit="abc123") for key in all_chapters()]
    claim = cite.claim_ids("dynamics")[0]
    entries.append(cite.chapter_bibtex("dynamics", claim, commit="abc123").replace("rnnrepro-dynamics",
                                                                                   "rnnrepro-dynamics-claim"))
    (tmp_path / "refs.bib").write_text("\n\n".join(entries) + "\n")
    (tmp_path / "doc.tex").write_text(LATEX_DOC)

    def run(*cmd):
        res = subprocess.run(list(cmd), cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]
        return res.stdout

    latex = ("latex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex")
    run(*latex)
    bibtex = run("bibtex", "doc")
    assert "Warning" not in bibtex and "error" not in bibtex.lower(), bibtex
    run(*latex)
    bbl = (tmp_path / "doc.bbl").read_text()
    assert bbl.count("\\bibitem") == len(entries) and r"E \& Li" in bbl


def test_public_address_is_one_setting():
    """CITATION.cff's url/repository-code is the setting; _config.yml's buttons follow it."""
    config = yaml.safe_load((cite.REPO / "_config.yml").read_text())
    theme = config["sphinx"]["config"]["html_theme_options"]
    buttons = [config["html"]["use_repository_button"], config["html"]["use_issues_button"],
               theme["use_repository_button"], theme["use_issues_button"]]
    repository = cite.book_metadata()["repository"]
    if repository is None:
        assert not any(buttons), "repository/issue buttons shown while the public address is unset"
        assert "not yet published" in cite.cite_block_markdown("li", "fast")
    else:
        assert all(buttons) and config["repository"]["url"] == theme["repository_url"] == repository


def test_claim_reference_names_the_claim_and_links_to_its_anchor():
    claim = cite.claim_ids("dynamics")[0]
    text = cite.chapter_text("dynamics", claim, commit="abc123")
    assert f"claim {claim}" in text and "(commit abc123;" in text
    if cite.published():
        assert text.endswith(f"dynamics.html#{claim}")


def test_short_claim_ids_are_accepted():
    claim = cite.claim_ids("dynamics")[0]
    short = claim.removeprefix("dynamics.")
    assert cite.check_claim("dynamics", short) == cite.check_claim("dynamics", claim) == claim
    assert cite.chapter_text("dynamics", short, commit="x") == cite.chapter_text("dynamics", claim, commit="x")


@pytest.mark.parametrize("key", [k for k, ch in all_chapters().items() if ch.cites])
def test_replicated_papers_come_from_the_bibliography(key):
    refs = cite.paper_references(key)
    assert len(refs) == len(all_chapters()[key].cites)
    bib = (REPO / "book" / "references.bib").read_text()
    for bibkey, ref in zip(all_chapters()[key].cites, refs):
        entry = bib[bib.index("{" + bibkey + ","):]
        entry = entry[:entry.index("\n}")]
        fields = dict(re.findall(r"^\s*(\w+)\s*=\s*\{(.*)\},?\s*$", entry, re.M))
        first_author = fields["author"].split(" and ")[0].split(",")[0].strip()
        title = re.sub(r"[{}]", "", fields["title"])
        assert first_author in ref and fields["year"] in ref, (bibkey, ref)
        assert title.lower().rstrip(".") in ref.lower(), (bibkey, title, ref)


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
    (["cite", "li", "--claim", "no.such"], "has no claim 'no.such'"),
    (["cite", "li", "--profile", "medium"], "unknown profile 'medium'"),
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
