"""Every glue id a chapter's text quotes is glued by its code cells (rnnrepro.book.glue_ids), checked without
executing anything: a typo fails here in a second instead of in the book build."""

import pytest

from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.glue_ids import glued_names, quoted_ids, unglued_ids
from rnnrepro.book.paths import REPO

CODE = '''
%matplotlib inline
ledger.claim("demo.fig1.rate", "...", quote="the paper says so in six words", ref="Fig. 1", measured=1.0,
             criterion=c, status="reproduced")
ledger.check(
    "demo.fig1.replay", "...", measured=0.0, criterion=c, no_control="identity")
ledger.figure("fig1", fig, x=x)
for name, val in (("propc.level", 1.0), ("lemmac1.r2", r2)):
    ledger.value(f"demo.{name}", val)
for prof in ("fast", "full"):
    for k in ("n", "m"):
        ledger.value(f"demo.meta.{prof}_{k}", 1)
for param in chapter.params:
    ledger.value(f"demo.meta.fast_{param.name}", param.fast)
ledger.value(f"demo.tab1.x_{a:g}", a)
'''


def test_glued_names_expands_loops_over_literals_and_keeps_patterns_for_the_rest():
    exact, patterns = glued_names("demo", [CODE])
    assert exact == {"demo.fig1.rate", "demo.fig1.replay", "demo.fig1", "demo.propc.level", "demo.lemmac1.r2",
                     "demo.meta.fast_n", "demo.meta.fast_m", "demo.meta.full_n", "demo.meta.full_m"}
    assert len(patterns) == 2
    for name in ("demo.meta.fast_n_hidden", "demo.tab1.x_05"):
        assert sum(bool(p.fullmatch(name)) for p in patterns) == 1, name
    for name in ("demo.meta.fats_n", "demo.tab1.x_0.5", "demo.tab1.y_05", "demo.meta.fast_"):
        assert not any(p.fullmatch(name) for p in patterns), name


def test_quoted_ids_reads_every_glue_role_and_the_figure_directive():
    text = ("$\\lambda =$ {glue:text}`demo.fig1.rate:.3f`, {glue}`demo.fig1.replay` and {glue:md}`demo.meta.fast_n`"
            "\n\n```{glue:figure} demo.fig1\n:name: x\n```\n")
    assert quoted_ids([text]) == {"demo.fig1.rate", "demo.fig1.replay", "demo.meta.fast_n", "demo.fig1"}


def _notebook(tmp_path, quoted: str):
    path = tmp_path / "demo.md"
    header = (REPO / "book" / "chapters" / "dynamics.md").read_text().split("\n---\n")[0] + "\n---\n"
    path.write_text(header + "\n# Demo\n\n```{code-cell} ipython3\n" + CODE.strip() + "\n```\n\n" + quoted + "\n")
    return path


def test_a_typo_in_a_quoted_id_is_found(tmp_path):
    good = "{glue:text}`demo.fig1.rate:.3f`, {glue:text}`demo.meta.fast_n_hidden`, {glue:text}`demo.lemmac1.r2`"
    assert unglued_ids("demo", _notebook(tmp_path, good)) == []
    typos = (good.replace("fig1.rate", "fig1.rte").replace("meta.fast_", "meta.fats_")
             .replace("lemmac1.r2", "lemmac1.r3"))
    assert unglued_ids("demo", _notebook(tmp_path, typos)) == ["demo.fig1.rte", "demo.lemmac1.r3",
                                                              "demo.meta.fats_n_hidden"]


@pytest.mark.parametrize("key", list(all_chapters()))
def test_every_quoted_glue_id_is_glued(key):
    chapter = all_chapters()[key]
    missing = unglued_ids(key, REPO / chapter.notebook)
    assert not missing, (f"{chapter.notebook} quotes glue ids that no code cell glues (a typo, or a value "
                         f"never recorded with ledger.value): {missing}")


def test_a_typo_in_a_claim_link_is_found(tmp_path):
    """A link to ``#<claim id>`` in the text must land on a row: a claim, finding or check of that chapter (or
    an id it lists as renamed); a value's id is no anchor."""
    from rnnrepro.book.glue_ids import unanchored_links
    from rnnrepro.book.profiles import Chapter

    header = (REPO / "book" / "chapters" / "dynamics.md").read_text().split("\n---\n")[0] + "\n---\n"
    text = (header + '# Demo\n\n'
            '```{code-cell} ipython3\nledger.claim("demo.lemma1.window", "s")\nledger.value("demo.lemma1.k", 3)\n'
            'for n in ("a", "b"):\n    ledger.finding(f"demo.fig1.{n}", "s")\n```\n\n'
            'See <a href="#demo.lemma1.window">the row</a>, [that](#demo.fig1.b), [old](#demo.lemma1.old) and '
            '[this](#demo.lemma1.windw), <a href="#demo.lemma1.k">k</a>, [x](demo.html#demo.fig1.c).\n')
    notebook = tmp_path / "demo.md"
    notebook.write_text(text)
    demo = Chapter(key="demo", title="D", paper="p", notebook="book/chapters/demo.md",
                   renamed=(("demo.lemma1.old", "demo.lemma1.window"),))
    assert unanchored_links(notebook, {"demo": demo}) == ["demo.fig1.c", "demo.lemma1.k", "demo.lemma1.windw"]


@pytest.mark.parametrize("key", list(all_chapters()))
def test_every_claim_link_in_the_text_lands_on_a_row(key):
    """A claim id in a prose link (``[words](#id)``, ``<a href="#id">``) names a row of the chapter's
    ledger; a typo there would otherwise pass every quick test (only the built book's link check sees it)."""
    from rnnrepro.book.glue_ids import unanchored_links

    broken = unanchored_links(REPO / all_chapters()[key].notebook, all_chapters())
    assert not broken, f"{key}: the text links to claim ids that no row carries (a typo, or a renamed claim): {broken}"
