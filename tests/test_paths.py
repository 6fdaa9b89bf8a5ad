from rnnrepro.book import paths


def test_output_dir_default_is_beside_the_executed_notebook(monkeypatch):
    monkeypatch.delenv(paths.OUT_ENV, raising=False)
    out = paths.output_dir("book/chapters/dynamics.md")
    assert out == paths.REPO / "_build" / "jupyter_execute" / "book" / "chapters" and out.is_dir()


def test_output_dir_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(paths.OUT_ENV, str(tmp_path / "x"))
    assert paths.output_dir("book/chapters/dynamics.md") == tmp_path / "x"
    assert (tmp_path / "x").is_dir()


def test_toc_files_in_order():
    files = paths.toc_files()
    assert files[0] == "book/intro"
    assert files.index("book/chapters/dynamics") < files.index("book/scorecard")
    assert len(files) == len(set(files))


def test_last_ledgers_are_found_without_the_command_line():
    from rnnrepro.book.chapters import get_chapter

    chapter = get_chapter("dynamics")
    cli_out, build = paths.ledger_paths(chapter)
    assert cli_out == paths.DEFAULT_OUT / "dynamics.ledger.json"
    assert build.parent == paths.REPO / "_build" / "jupyter_execute" / "book" / "chapters"
    assert paths.last_ledger(chapter) in (cli_out, build)


def test_code_sha256_ignores_prose_comments_and_cell_splits(tmp_path):
    from rnnrepro.book.paths import code_sha256

    head = ("---\njupytext:\n  text_representation:\n    extension: .md\n    format_name: myst\n"
            "kernelspec:\n  display_name: Python 3\n  language: python\n  name: python3\n---\n")
    a = tmp_path / "a.md"
    a.write_text(head + "# Title\n\n```{code-cell}\nx = 1\n# a comment\ny = 2\n```\n")
    b = tmp_path / "b.md"
    b.write_text(head + "# Other title\n\nProse.\n\n```{code-cell}\n:tags: [hide-input]\nx = 1\n```\n\n"
                 "More prose.\n\n```{code-cell}\n\ny = 2\n```\n")
    c = tmp_path / "c.md"
    c.write_text(head + "# Title\n\n```{code-cell}\nx = 1\ny = 3\n```\n")
    assert code_sha256(a) == code_sha256(b) != code_sha256(c)
    prose_only = tmp_path / "prose.md"
    prose_only.write_text(head + "# Only prose\n")
    assert code_sha256(a) != code_sha256(prose_only)   # the code cells were read
    labelled = tmp_path / "labelled.md"                # a claim's quantity= label on its own line is presentation
    labelled.write_text(head + "# Title\n\n```{code-cell}\nx = 1\n    quantity=\"error / $k$\",\ny = 2\n```\n")
    inline = tmp_path / "inline.md"                    # ... but not code that merely mentions it on a line
    inline.write_text(head + "# Title\n\n```{code-cell}\nx = 1\ny = 2; quantity=3\n```\n")
    assert code_sha256(labelled) == code_sha256(a) != code_sha256(inline)
