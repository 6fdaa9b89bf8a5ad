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
