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
    assert entry.type == "misc"
    assert entry.fields["title"] == "{" + cite.bibtex_title_escape(cite.page_title(chapter)) + "}"
    assert entry.fields["booktitle"] == cite.bibtex_escape(cite.book_metadata()["title"])
    note = entry.fields["note"]
    assert "commit abc123" in note and cite.book_metadata()["version"] in note and "fast profile" in note
    assert "publisher" not in entry.fields      # the authors are not also the publisher
    assert "unpublished" not in note.lower()
    if cite.published():
        assert entry.fields["url"].endswith(f"{chapter.notebook.removesuffix('.md')}.html")
    else:
        assert "url" not in entry.fields and note.startswith("In: ")


@pytest.mark.parametrize("key", list(all_chapters()))
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
\usepackage{url}
\usepackage{natbib}
\begin{document}
CITES
\bibliographystyle{STYLE}
\bibliography{refs}
\end{document}
"""
needs_latex = pytest.mark.skipif(not (shutil.which("latex") and shutil.which("bibtex")),
                                 reason="latex/bibtex not installed (Debian: apt-get install --no-install-recommends "
                                        "texlive-latex-base; .ci/run installs it)")


def compile_with_bibtex(folder, bib: str, cites: str, style: str = "plain") -> str:
    """Write ``refs.bib`` and a document with ``cites``; run latex, bibtex, latex, latex; return the .bbl.
    Fails on any BibTeX warning or error (a repeated key is an error) and on an undefined citation."""
    (folder / "refs.bib").write_text(bib)
    (folder / "doc.tex").write_text(LATEX_DOC.replace("CITES", cites).replace("STYLE", style))

    def run(*cmd):
        res = subprocess.run(list(cmd), cwd=folder, capture_output=True, text=True, timeout=60)
        assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]
        return res.stdout

    latex = ("latex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex")
    run(*latex)
    bibtex = run("bibtex", "doc")
    assert "Warning" not in bibtex and "error" not in bibtex.lower(), bibtex
    run(*latex)
    log = run(*latex)
    assert "undefined" not in log, log[-3000:]
    return (folder / "doc.bbl").read_text()


@needs_latex
def test_every_chapter_entry_compiles_under_bibtex_and_latex(tmp_path):
    """A real BibTeX run and a LaTeX run over every chapter's entry, a claim's and every replicated
    paper's: an unescaped ``&`` stops LaTeX with "Misplaced alignment tab", a stray ``{`` stops BibTeX."""
    entries = [cite.chapter_bibtex(key, commit="abc123") for key in all_chapters()]
    entries.append(cite.chapter_bibtex("dynamics", cite.claim_ids("dynamics")[0], commit="abc123"))
    entries += paper_entries(all_chapters().values())
    n_papers = len({key for chapter in all_chapters().values() for key in chapter.cites})
    bbl = compile_with_bibtex(tmp_path, "\n\n".join(entries) + "\n", r"\nocite{*}")
    assert bbl.count("\\bibitem") == len(all_chapters()) + 1 + n_papers and r"E \& Li" in bbl


def paper_entries(chapters) -> list[str]:
    """The replicated papers' BibTeX entries of ``chapters``, each paper once however many chapters cite it."""
    entries = {}
    for chapter in chapters:
        for key in chapter.cites:
            entries.setdefault(key, cite.paper_bibtex(Chapter(key="x", title="x", paper="x", notebook="x.md",
                                                              cites=(key,))))
    return list(entries.values())


def test_a_paper_two_chapters_cite_enters_the_bibliography_once():
    """A seventh chapter that replicates a paper another chapter already cites (the newcomer's case: the
    compile test used to write the paper twice, and BibTeX stopped at the repeated entry)."""
    first = next(ch for ch in all_chapters().values() if ch.cites)
    twin = Chapter(key="twin", title="T", paper="p", notebook="book/chapters/twin.md", cites=first.cites)
    entries = paper_entries([first, twin])
    assert len(entries) == len(first.cites)
    assert len(parse_string("\n\n".join(entries), "bibtex").entries) == len(first.cites)


@needs_latex
def test_a_chapter_and_its_claims_compile_together_as_the_cli_prints_them(tmp_path, capsys):
    """What a student does: `cite ribeiro`, `cite ribeiro --claim ...` (two claims), `cite ribeiro
    --paper`, all into one .bib, cited together (each claim used to reuse the chapter's key, and
    bibtex dropped it as a repeated entry)."""
    claims = [c for c in cite.claim_ids("ribeiro") if "." in c.removeprefix("ribeiro.")][:2]
    bib = []
    for argv in (["cite", "ribeiro"], *(["cite", "ribeiro", "--claim", c] for c in claims),
                 ["cite", "ribeiro", "--paper"]):
        assert cli.main(argv) == 0
        bib.append(capsys.readouterr().out)
    keys = ["rnnrepro-ribeiro", *(f"rnnrepro-{c}" for c in claims), *all_chapters()["ribeiro"].cites]
    bbl = compile_with_bibtex(tmp_path, "\n".join(bib), r"\cite{" + ",".join(keys) + "}")
    assert bbl.count("\\bibitem") == len(keys)
    text = " ".join(bbl.replace("\\_", "_").split())        # BibTeX wraps long notes anywhere
    assert all(f"claim {c}" in text for c in claims)
    assert "https://arxiv.org/abs/1906.08482" in bbl.replace("\\_", "_") or "1906.08482" in bbl


def test_claim_keys_differ_from_the_chapter_key():
    claim = cite.claim_ids("dynamics")[0]
    chapter_entry = parse_string(cite.chapter_bibtex("dynamics", commit="x"), "bibtex")
    claim_entry = parse_string(cite.chapter_bibtex("dynamics", claim, commit="x"), "bibtex")
    assert list(chapter_entry.entries) == ["rnnrepro-dynamics"]
    assert list(claim_entry.entries) == [f"rnnrepro-{claim}"] == [cite.bibtex_key("dynamics", claim)]


def test_full_profile_names_the_commit_its_shipped_result_was_made_at():
    import json

    from rnnrepro.book.full import MANIFEST, full_dir

    for key in all_chapters():
        manifest = full_dir(key) / MANIFEST
        if not manifest.is_file():
            continue
        made_at = json.loads(manifest.read_text())["commit"][:12]
        for fmt in cite.FORMATS:
            text = cite.reference(key, fmt=fmt, profile="full")
            assert f"full profile made at commit {made_at}" in text, text
            assert f"commit {cite.build_commit()}" in text   # and the commit the reference is printed from
        assert "made at commit" not in cite.reference(key, fmt="text", profile="fast")
    with pytest.raises(ConfigError, match="ghost has no shipped full result"):
        cite.full_commit("ghost")


@pytest.mark.parametrize("key", [k for k, ch in all_chapters().items() if ch.cites])
def test_replicated_papers_are_offered_as_bibtex_with_links_for_arxiv(key):
    entries = parse_string(cite.paper_bibtex(key), "bibtex").entries
    assert list(entries) == list(all_chapters()[key].cites)
    for bibkey, entry in entries.items():
        arxiv = re.search(r"arXiv:(\d{4}\.\d{4,5}(v\d+)?)", " ".join(entry.fields.values()))
        if arxiv:
            assert entry.fields["url"] == f"https://arxiv.org/abs/{arxiv.group(1)}", bibkey
    block = cite.cite_block_markdown(key, "fast")
    assert block.count("```bibtex") == 2 and cite.paper_bibtex(key) in block


def test_public_address_is_one_setting():
    """CITATION.cff's url/repository-code is the setting; _config.yml's buttons follow it."""
    config = yaml.safe_load((cite.REPO / "_config.yml").read_text())
    theme = config["sphinx"]["config"]["html_theme_options"]
    buttons = [config["html"]["use_repository_button"], config["html"]["use_issues_button"],
               theme["use_repository_button"], theme["use_issues_button"]]
    repository = cite.book_metadata()["repository"]
    if repository is None:
        assert not any(buttons), "repository/issue buttons shown while the public address is unset"
        assert "names no public address" in cite.cite_block_markdown("li", "fast")
    else:
        assert all(buttons) and config["repository"]["url"] == theme["repository_url"] == repository


def test_claim_reference_names_the_claim_and_links_to_its_anchor():
    claim = cite.claim_ids("dynamics")[0]
    text = cite.chapter_text("dynamics", claim, commit="abc123")
    assert f"Claim {claim} of the chapter" in text and "(commit abc123;" in text
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
    (["cite", "li", "--claim", "thm41.densty"], "did you mean 'thm41.density'?"),
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
    assert "Memory and smoothness" in out and ("@misc" in out) == (fmt == "bibtex")


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


ADDRESS = "https://owner.github.io/rnnrepro"


@pytest.fixture
def address(monkeypatch):
    """The address the publishing workflow passes at build time."""
    monkeypatch.setenv(cite.BASE_URL_ENV, ADDRESS + "/")
    return ADDRESS


@pytest.fixture
def no_address(monkeypatch):
    monkeypatch.delenv(cite.BASE_URL_ENV, raising=False)
    monkeypatch.setattr(cite, "_cff", lambda: {**_cff(), "url": None})


def _cff():
    return yaml.safe_load((REPO / "CITATION.cff").read_text())


def test_the_address_is_one_setting_read_at_build_time(monkeypatch, address):
    assert cite.public_url() == ADDRESS == cite.book_metadata()["url"]
    monkeypatch.setattr(cite, "_cff", lambda: {**_cff(), "url": "https://example.org/fixed"})
    assert cite.public_url() == ADDRESS                      # the build's address wins
    monkeypatch.delenv(cite.BASE_URL_ENV)
    assert cite.public_url() == "https://example.org/fixed"  # else CITATION.cff's
    monkeypatch.setattr(cite, "_cff", lambda: {**_cff(), "url": "https://OWNER.github.io/REPO"})
    assert cite.public_url() is None                         # a placeholder is no address
    monkeypatch.setenv(cite.BASE_URL_ENV, "owner.github.io/rnnrepro")
    with pytest.raises(ConfigError, match="not an http"):
        cite.public_url()


def test_with_an_address_every_reference_carries_it(address):
    claim = "li.thm41.density"
    page = f"{address}/book/chapters/li.html"
    entry = parse_string(cite.chapter_bibtex("li", claim, commit="abc123"), "bibtex").entries[f"rnnrepro-{claim}"]
    assert entry.fields["url"] == f"{page}#{claim}"
    assert entry.fields["howpublished"] == r"\url{" + f"{page}#{claim}" + "}"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", entry.fields["urldate"])
    text = cite.chapter_text("li", commit="abc123")
    assert f"{page} (accessed " in text and "unpublished" not in text.lower()
    block = cite.cite_block_markdown("li", "fast")
    assert f"`{page}#<claim id>`" in block and f"url          = {{{page}}}" in block


def test_without_an_address_references_name_version_commit_and_repository(no_address, monkeypatch):
    text = cite.chapter_text("li", commit="abc123")
    bib = cite.chapter_bibtex("li", commit="abc123")
    for reference in (text, bib, cite.cite_block_markdown("li", "fast")):
        assert "unpublished" not in reference.lower() and "not yet published" not in reference.lower()
        assert "abc123" in reference or "commit `" in reference
        assert cite.book_metadata()["version"] in reference
    assert "url " not in bib and "howpublished" not in bib
    monkeypatch.setattr(cite, "_cff", lambda: {**_cff(), "url": None, "repository-code": "https://github.com/o/r"})
    assert cite.chapter_text("li", commit="abc123").endswith("Source: https://github.com/o/r.")
    assert "source https://github.com/o/r" in cite.chapter_bibtex("li", commit="abc123")


def test_zenodo_metadata_agrees_with_citation_cff():
    """The archive's record (.zenodo.json) names the book, its authors and its code licence as CITATION.cff
    does, and the papers it replicates."""
    import json

    zenodo, cff = json.loads((REPO / ".zenodo.json").read_text()), _cff()
    assert zenodo["title"] == cff["title"]
    assert [c["name"] for c in zenodo["creators"]] == cite.book_metadata()["authors"]
    assert zenodo["license"] in cff["license"] and zenodo["upload_type"] == "software"
    papers = {r["identifier"] for r in zenodo["related_identifiers"]}
    assert len(papers) == len(zenodo["related_identifiers"]), ".zenodo.json names a paper twice"
    assert "arXiv:1906.08482" in papers
    # one record per distinct paper a chapter replicates (its first cited key): two chapters on one paper
    # need one entry, a chapter on a new paper adds its own
    replicated = {_identifier(ch.cites[0]) for ch in all_chapters().values() if ch.cites}
    assert replicated == papers, (f".zenodo.json's related_identifiers must name each replicated paper once: "
                                  f"add {sorted(replicated - papers)}, remove {sorted(papers - replicated)}")


def test_citation_cff_references_each_replicated_paper_once():
    """CITATION.cff's ``references`` name the papers the chapters replicate (by their titles in
    references.bib): each chapter that cites a paper has one of its papers there, each paper once."""
    from pybtex.database import parse_file

    bib = parse_file(str(cite.BIBFILE)).entries

    def title(text: str) -> str:
        return re.sub(r"[^a-z0-9]+", " ", re.sub(r"[{}]", "", text).lower()).strip()

    listed = [title(r["title"]) for r in _cff().get("references", [])]
    assert len(listed) == len(set(listed)), "CITATION.cff lists a paper twice"
    cited = {key: {title(bib[k].fields["title"]) for k in ch.cites} for key, ch in all_chapters().items() if ch.cites}
    missing = sorted(key for key, titles in cited.items() if not titles & set(listed))
    assert not missing, (f"CITATION.cff's references lack the paper of {missing}: add its type, title, authors, year "
                         f"(as book/references.bib gives them)")
    strays = sorted(t for t in listed if not any(t in titles for titles in cited.values()))
    assert not strays, f"CITATION.cff references papers no chapter cites: {strays}"


def _identifier(bibkey: str) -> str:
    """A paper's identifier as .zenodo.json writes it (``arXiv:1906.08482`` or its DOI), from references.bib."""
    text = cite.BIBFILE.read_text()
    entry = re.search(rf"^@\w+\{{{re.escape(bibkey)},.*?^\}}", text, re.M | re.S).group(0)
    arxiv = re.search(r"arXiv[:.]\s*(?:org/abs/)?(\d{4}\.\d{4,5})|arxiv\.org/abs/(\d{4}\.\d{4,5})", entry, re.I)
    if arxiv:
        return "arXiv:" + (arxiv.group(1) or arxiv.group(2))
    return re.search(r"doi\s*=\s*\{([^}]+)\}", entry).group(1)


def test_a_placeholder_doi_is_no_doi(monkeypatch):
    monkeypatch.setattr(cite, "_cff", lambda: {**_cff(), "doi": "10.5281/zenodo.NNNNNNN"})
    assert cite.book_metadata()["doi"] is None


def test_a_release_doi_enters_every_reference(monkeypatch):
    monkeypatch.setattr(cite, "_cff", lambda: {**_cff(), "doi": "10.5281/zenodo.1234567"})
    entry = parse_string(cite.chapter_bibtex("li", commit="abc123"), "bibtex").entries["rnnrepro-li"]
    assert entry.fields["doi"] == "10.5281/zenodo.1234567"
    assert cite.chapter_text("li", commit="abc123").endswith("doi:10.5281/zenodo.1234567.")


def test_a_claim_reference_names_its_statement_and_verdict():
    """A claim's reference is not its chapter's with an id appended: its title says what the claim
    states (its paper item and statement, short), its note the claim's chapter and its verdict."""
    from rnnrepro.book.full import shipped_full

    row = next(c for c in shipped_full("li")["claims"] if c["kind"] == "paper")
    entry = parse_string(cite.reference("li", row["id"], profile="full"), "bibtex").entries[f"rnnrepro-{row['id']}"]
    title = entry.fields["title"]
    assert title != "{" + cite.bibtex_escape(cite.page_title("li")) + "}"
    assert title.startswith("{" + cite.bibtex_escape(row["ref"]) + ": ")
    assert cite.short_statement(row["statement"])[:40] in cite.reference_title("li", row["id"], "full")
    note = entry.fields["note"]
    assert f"verdict: {row['type']}, {row['status']}" in note
    assert cite.bibtex_escape(cite.page_title("li")) in note
    text = cite.reference("li", row["id"], fmt="text", profile="full")
    assert f"verdict: {row['type']}, {row['status']}" in text and row["ref"] in text


def test_short_statement_cuts_at_a_word_outside_formulas():
    assert cite.short_statement("The map contracts. It then converges.") == "The map contracts"
    long = "The error of the fit decays like $k \\lambda^k$ in the depth of the unrolled recurrence for every seed"
    cut = cite.short_statement(long, limit=40)
    assert cut.endswith("...") and len(cut) <= 40 and cut.count("$") % 2 == 0
    assert cut == "The error of the fit decays like..."
    assert cite.short_statement("e.g. 3.5 units hold", limit=90) == "e.g. 3.5 units hold"


def test_title_formulas_stay_formulas_only_when_plain_latex_has_them():
    assert cite.bibtex_title_escape("near $s \\approx 1.45$ & more") == r"near $s \approx 1.45$ \& more"
    assert cite.bibtex_title_escape("in $\\mathbb{R}^n$") == r"in \$\textbackslash{}mathbb\{R\}\textasciicircum{}n\$"


@needs_latex
def test_a_published_claim_reference_compiles_with_its_address(tmp_path, address):
    """With natbib's plainnat (which prints ``url``), a claim's entry with a formula in its title and an
    address with ``#`` in it compiles, and the reference shows the address."""
    from rnnrepro.book.full import shipped_full

    row = next(c for c in shipped_full("ribeiro")["claims"] if "$" in c["statement"])
    bib = cite.reference("ribeiro", row["id"], profile="full")
    bbl = compile_with_bibtex(tmp_path, bib + "\n", r"\cite{rnnrepro-" + row["id"] + "}", style="plainnat")
    assert f"{address}/book/chapters/ribeiro.html" in bbl


def test_a_claim_title_is_whole_phrases_and_its_quotes_are_latex_quotes():
    """The newcomer's entry: the title of miller's Fig. 1(a) row ends with the quoted sentence, not
    mid-phrase, and every double quote of a BibTeX field is LaTeX's (two backquotes, two apostrophes)."""
    from rnnrepro.book.full import shipped_full

    row = next(c for c in shipped_full("miller")["claims"] if c["id"] == "miller.fig1a.paper_setup")
    title = cite.reference_title("miller", row["id"], "full")
    assert title.endswith("\u201cthe error closely matches the $k\\lambda^k$ scaling\u201d") and "..." not in title
    bib = cite.reference("miller", row["id"], profile="full")
    fields = parse_string(bib, "bibtex").entries[f"rnnrepro-{row['id']}"].fields
    assert "``the error closely matches" in fields["title"] and "scaling''" in fields["title"]
    assert '"' not in fields["note"] and "\u201c" not in bib and "of the chapter ``" in fields["note"]
    assert cite.latex_quotes('a "b" (“c”) d"') == "a ``b'' (``c'') d''"


def test_a_long_statement_ends_at_a_whole_phrase():
    text = ("Not reproduced: \u201cthe error closely matches the $k\\lambda^k$ scaling\u201d \u2014 with the paper's "
            "construction the gap decays faster than $\\lambda^k$, in every one of the forty seeds of the sweep")
    assert cite.short_statement(text, limit=60) == \
        "Not reproduced: \u201cthe error closely matches the $k\\lambda^k$ scaling\u201d"
    assert cite.short_statement("A (b, c) d, e f g h i j k l m n o p", limit=12) == "A (b, c) d"


def test_in_a_fresh_clone_a_claim_is_cited_with_the_profile_its_numbers_come_from(monkeypatch, capsys):
    """With no fast run, the claim's row comes from the shipped full ledger: the reference says full."""
    from rnnrepro.book.full import shipped_full

    row = next(c for c in shipped_full("li")["claims"] if c["kind"] == "paper")
    real = cite._ledger
    monkeypatch.setattr(cite, "_ledger", lambda key, profile: real(key, profile) if profile == "full" else None)
    assert cite.cited_profile("li", row["id"], "fast") == "full" and cite.cited_profile("li", None, "fast") == "fast"
    text = cite.reference("li", row["id"], fmt="text")
    assert "numbers from the full profile made at commit" in text and "fast profile" not in text
    assert cli.main(["cite", "li", "--claim", row["id"]]) == 0
    out = capsys.readouterr()
    assert "full profile" in out.out and "fast profile" not in out.out and "no fast run of li" in out.err
    assert cli.main(["cite", "li", "--claim", "fig1.airy_plateau", "--format", "text"]) == 0
    assert "$" not in capsys.readouterr().out          # the plain-text format prints no raw TeX
    monkeypatch.setattr(cite, "_ledger", lambda key, profile: {"claims": [row]})
    assert cite.cited_profile("li", row["id"], "fast") == "fast"


def test_the_cite_block_is_a_headed_section_the_chapter_glues():
    section = cite.cite_section_markdown("li")
    assert section == "## Cite this chapter\n\n```{glue:md} li.cite\n:format: myst\n```\n"
    assert "**Cite this chapter" not in cite.cite_block_markdown("li", "fast")


def test_the_paper_address_in_the_cite_block_is_a_link():
    assert cite.autolink("Miller. 2018. URL: https://arxiv.org/abs/1805.10369v1.") == \
        "Miller. 2018. URL: <https://arxiv.org/abs/1805.10369v1>."
    assert cite.autolink("see <https://x.org/a> and [x](https://y.org)") == "see <https://x.org/a> and [x](https://y.org)"
    block = cite.cite_block_markdown("miller", "fast")
    assert "<https://arxiv.org/abs/1805.10369v1>" in block
