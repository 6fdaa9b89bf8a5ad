"""Every paper claim quotes the paper: each ``quote=`` of a chapter's ``ledger.claim`` calls, and of its
shipped ``full`` ledger, is found verbatim in the paper's text (whitespace, line-break hyphenation,
ligatures, typographic quotes and markdown emphasis normalised), and the shipped rows say their kind."""

import unicodedata

import pytest

from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.full import shipped_full
from rnnrepro.book.paths import papers_root
from rnnrepro.book.quotes import (ClaimCall, claim_problems, normalise, notebook_quotes, paper_texts,
                                  quote_problem)
from rnnrepro.book.rows import CLAIM_TYPES, claim_type

CHAPTERS = list(all_chapters())
TEXT = normalise("The net-\nwork ﬁnds a “stable” *fixed point*   quickly,\nand it stays there — forever.")


def test_normalise_forgives_layout_only():
    assert TEXT == 'The network finds a "stable" fixed point quickly, and it stays there - forever.'
    assert normalise("a\u00a0b\u2013c \u2019d\u2019") == "a b-c 'd'"
    assert normalise("non-linear map") == "non-linear map"      # a hyphen inside a line stays


def test_quote_problem_finds_or_names_why_not():
    texts = {"doe.txt": TEXT}
    assert quote_problem("network finds a \u201cstable\u201d fixed point", texts) is None
    assert quote_problem("it stays there -\nforever.", texts).startswith("has 5 words")
    assert "not found verbatim in doe.txt" in quote_problem("the network finds a stable fixed point", texts)
    assert quote_problem("finds a stable fixed point quickly, and", texts) is not None   # quotes dropped: not verbatim


def test_quote_problem_refuses_a_changed_word_case_or_tail():
    """The matcher forgives layout only: one word changed (anywhere), a change of case, a quote that agrees
    with the paper only in its first words, or one that starts or ends inside a word is refused."""
    texts = {"doe.txt": TEXT}
    verbatim = 'network finds a "stable" fixed point quickly, and it stays there'
    assert quote_problem(verbatim, texts) is None
    for mutant in _mutants(verbatim) + ['work finds a "stable" fixed point quickly,',
                                        'network finds a "stable" fixed poin']:
        assert quote_problem(mutant, texts) is not None, mutant


def test_quote_problem_names_the_first_word_that_differs_with_the_paper_around_it():
    texts = {"doe.txt": TEXT}
    why = quote_problem('network finds a "stable" fixed point slowly, and it stays', texts)
    assert why == ("is not found verbatim in doe.txt; word 7 is 'slowly,' where doe.txt has 'quickly,' "
                   "(the paper: ... a \"stable\" fixed point quickly, and it stays ...)")
    assert "word 1 is 'the' where doe.txt has 'The'" in quote_problem('the network finds a "stable" fixed', texts)
    assert "word 1 is 'work' where doe.txt has 'network'" in quote_problem('work finds a "stable" fixed point', texts)
    assert quote_problem("six words nowhere in this text", texts) == "is not found verbatim in doe.txt"


def _mutants(quote):
    """Quotes that differ from ``quote`` as a careless copy would: one word changed in the middle or at
    the end, the first letter's case or every letter's case changed, the first six words kept and the
    seventh changed (or one word added after them)."""
    words = normalise(quote).split()
    first = next(i for i, c in enumerate(quote) if c.isalpha())
    changed = [words[:i] + ["frobnicated"] + words[i + 1:] for i in (len(words) // 2, len(words) - 1)]
    tail = words[:6] + ["frobnicated"] + words[7:]
    return ([" ".join(w) for w in changed + [tail]]
            + [quote[:first] + quote[first].swapcase() + quote[first + 1:], quote.swapcase()])


def _plain(text):
    """Unicode compatibility forms and whitespace only: a reference independent of :func:`normalise`."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _mutants_that_pass(quotes, texts, key):
    """The mutants of ``quotes`` that the matcher accepts, leaving out any that the paper holds anyway (e.g.
    "The …" and "the …" both occur in it: no mutation), found by a plain test independent of the matcher."""
    raw = [_plain((papers_root() / name).read_text(encoding="utf-8")) for name in all_chapters()[key].texts]
    passed = []
    for quote in quotes:
        for mutant in _mutants(quote):
            if not any(_plain(mutant) in text for text in raw) and quote_problem(mutant, texts) is None:
                passed.append(f"{mutant[:60]!r} (from {quote[:40]!r}...)")
    return passed


def test_claim_type_follows_status():
    assert claim_type("holds") == claim_type("erratum") == "statement"
    assert {claim_type(s) for s in CLAIM_TYPES["experiment"]} == {"experiment"}
    with pytest.raises(ValueError):
        claim_type("verified")


def _texts(key):
    root = papers_root()
    if not root.is_dir():
        pytest.skip(f"no papers folder at {root} (set RNNREPRO_PAPERS): the quotes cannot be checked here")
    return paper_texts(all_chapters()[key].texts, root)


@pytest.mark.parametrize("key", CHAPTERS)
def test_every_claim_in_the_notebook_quotes_its_paper(key):
    texts, bad = _texts(key), []
    for call in notebook_quotes(all_chapters()[key].notebook):
        where = call.id or f"the claim at line {call.line} of its cell"
        if call.draft and not call.quote:
            continue                       # a draft may not have its sentence yet; once it quotes one, it is checked
        if call.quote is None:
            bad.append(f"{where}: " + ("quote= is not a string literal" if call.has_quote else "no quote="))
        elif (why := quote_problem(call.quote, texts)) is not None:
            bad.append(f"{where}: quote {why}")
    assert not bad, f"{len(bad)} paper claims of {key} do not quote the paper:\n" + "\n".join(bad)


@pytest.mark.parametrize("key", CHAPTERS)
def test_shipped_full_rows_quote_the_paper_and_say_their_kind(key):
    full = shipped_full(key)
    if full is None:
        pytest.skip(f"{key} has no shipped full result")
    texts, bad = _texts(key), []
    for row in full["claims"]:
        if row.get("kind", "paper") != "paper":
            continue
        if row.get("type") not in CLAIM_TYPES or row["status"] not in CLAIM_TYPES[row["type"]]:
            bad.append(f"{row['id']}: status {row['status']!r} without its kind (statement or experiment)")
        elif (why := quote_problem(row.get("quote") or "", texts)) is not None:
            bad.append(f"{row['id']}: quote {why}")
    assert not bad, (f"the shipped full ledger of {key} has {len(bad)} paper rows without a checked quote "
                     f"(re-ship it: python -m rnnrepro ship-full {key} --lower-isa):\n" + "\n".join(bad))


@pytest.mark.parametrize("key", CHAPTERS)
def test_chapter_top_shows_the_generated_verdict_table_not_a_typed_one(key):
    """The verdicts at the top of a chapter are the table ``ledger.finish`` generates (``{glue:md}``), before
    the first section; no hand-typed table of statuses anywhere in the chapter's text."""
    import re

    from rnnrepro.book.paths import REPO

    text = (REPO / all_chapters()[key].notebook).read_text(encoding="utf-8")
    assert f"```{{glue:md}} {key}.verdicts\n:format: myst\n```" in text.split("\n## ", 1)[0], \
        f"{key}: put the generated verdict table (```{{glue:md}} {key}.verdicts) before the first section"
    typed = [line[:80] for line in text.splitlines() if line.startswith("|")
             and re.search(r"\|\s*(reproduced|partial|not reproduced|erratum|holds)\s*\|", line)]
    assert not typed, f"{key} has hand-typed verdicts: {typed[:3]}"


@pytest.mark.parametrize("key", CHAPTERS)
def test_no_paper_claim_is_an_identity_or_a_duplicate(key):
    problems = claim_problems(notebook_quotes(all_chapters()[key].notebook))
    assert not problems, f"{key}:\n" + "\n".join(problems)


def test_claim_problems_names_identities_and_duplicates():
    calls = [ClaimCall(1, "d.a.b", "the network finds a stable fixed point", True, "identity (autograd)", "Thm 1"),
             ClaimCall(2, "d.a.c", "the network  finds a stable fixed point", True, None, "Thm 1"),
             ClaimCall(3, "d.a.e", "the network finds a stable fixed point", True, None, "Table 1, row 2"),
             ClaimCall(4, "d.a.d", "it stays there - forever, it is known", True, "an upper bound nothing violates")]
    problems = claim_problems(calls)
    assert len(problems) == 2 and problems[0].startswith("d.a.b: no_control=")
    assert problems[1].startswith("d.a.c: the same quote as d.a.b")


def _notebook_quotes(key, texts):
    """The chapter's literal quotes that its paper holds (the others fail the test above)."""
    return [c.quote for c in notebook_quotes(all_chapters()[key].notebook)
            if c.quote and quote_problem(c.quote, texts) is None]


@pytest.mark.parametrize("key", CHAPTERS)
def test_the_quote_check_refuses_every_chapter_quote_miscopied(key):
    """The check of a chapter's quotes can fail: each of its quotes with one word changed, its case changed,
    or only its first six words kept, is refused by the matcher the book uses."""
    texts = _texts(key)
    quotes = _notebook_quotes(key, texts)
    assert quotes, f"{key} has no paper claim with a quote: nothing to check"
    passed = _mutants_that_pass(quotes, texts, key)
    assert not passed, f"the quote check of {key} accepts {len(passed)} miscopied quotes:\n" + "\n".join(passed)


@pytest.mark.parametrize("key", CHAPTERS)
def test_the_quote_check_refuses_every_shipped_full_quote_miscopied(key):
    full = shipped_full(key)
    if full is None:
        pytest.skip(f"{key} has no shipped full result")
    texts = _texts(key)
    quotes = [row["quote"] for row in full["claims"] if row.get("kind", "paper") == "paper" and row.get("quote")
              and quote_problem(row["quote"], texts) is None]
    assert quotes, f"the shipped full ledger of {key} has no quoted paper row: nothing to check"
    passed = _mutants_that_pass(quotes, texts, key)
    assert not passed, (f"the quote check of {key}'s shipped full ledger accepts {len(passed)} miscopied "
                        f"quotes:\n" + "\n".join(passed))
