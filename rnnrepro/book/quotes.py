"""Every paper claim quotes the paper: finding a claim's ``quote`` in the paper's text.

A quote is matched after :func:`normalise` (on both sides): unicode compatibility forms (ligatures),
typographic quotes and dashes, markdown emphasis, line-break hyphenation and whitespace. Nothing else
is forgiven (not case, not a word cut short: a quote is found as whole words), so a quote must be copied
from the text; when it is not found, :func:`quote_problem` names the quote's first word that differs from the
paper and shows a few of the paper's words around it. :func:`notebook_quotes` reads every
``ledger.claim(...)`` call of a MyST notebook without running it (``tests/test_quotes.py``).
"""

from __future__ import annotations

import ast
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

#: The fewest words a quote may have.
MIN_WORDS = 6
_TYPOGRAPHIC = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2010": "-",
                              "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
                              "\u00a0": " ", "*": None})


def normalise(text: str) -> str:
    """``text`` with ligatures and typographic characters made plain, markdown ``*`` dropped, words
    hyphenated across a line break joined, and every run of whitespace one space."""
    text = unicodedata.normalize("NFKC", text).translate(_TYPOGRAPHIC)
    text = re.sub(r"(\w)-[ \t]*\n[ \t]*(\w)", r"\1\2", text)
    return re.sub(r"\s+", " ", text).strip()


def quote_problem(quote: str, texts: dict[str, str]) -> str | None:
    """Why ``quote`` is not a quote of one of ``texts`` (name → normalised text), or None when it is."""
    words = normalise(quote).split()
    if len(words) < MIN_WORDS:
        return f"has {len(words)} words; a quote has at least {MIN_WORDS}"
    if all(_at(words, text) < 0 for text in texts.values()):
        return f"is not found verbatim in {', '.join(texts) or 'any paper text'}" + _first_difference(words, texts)
    return None


def _at(words: list[str], text: str) -> int:
    """Where ``words`` first occur in ``text`` as whole words ("work" is not in "network"), or -1."""
    needle = " ".join(words)
    if needle not in text:                     # the fast test first
        return -1
    match = re.search((r"(?<!\w)" if words[0][0].isalnum() else "") + re.escape(needle)
                      + (r"(?!\w)" if words[-1][-1].isalnum() else ""), text)
    return match.start() if match else -1


def _first_difference(words: list[str], texts: dict[str, str]) -> str:
    """Where a quote that is not found parts from the paper: its longest run of words found in one of
    ``texts``, and the first word of the quote, before or after that run, that differs from the paper's
    word at the same place, with a few words of the paper around it (empty when no two words agree)."""
    best = (1, 0, "", -1)                      # (run length, start word, paper name, offset in its text)
    for start in range(len(words)):
        for name, text in texts.items():
            lo, hi = best[0], len(words) - start   # a run must beat the best one so far
            while lo < hi:                          # the longest prefix of words[start:] found in text
                mid = (lo + hi + 1) // 2
                if _at(words[start:start + mid], text) >= 0:
                    lo = mid
                else:
                    hi = mid - 1
            at = _at(words[start:start + lo], text) if lo > best[0] else -1
            if at >= 0:
                best = (lo, start, name, at)
    run, start, name, at = best
    if at < 0:
        return ""
    before, after = texts[name][:at].split(), texts[name][at:].split()
    if start > 0:                              # the quote's words before the run are not the paper's
        index, theirs = start - 1, before[-1] if before else "(the start of the text)"
        context = before[-5:] + after[:3]
    else:                                      # the first word after the run that is not the paper's
        index = next(i for i, word in enumerate(words) if i >= len(after) or after[i] != word)
        theirs = after[index] if index < len(after) else "(the end of the text)"
        context = after[max(0, index - 4):index + 4]
    return (f"; word {index + 1} is {words[index]!r} where {name} has {theirs!r}"
            f" (the paper: ... {_short(' '.join(context))} ...)")


def _short(text: str, width: int = 70) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def paper_texts(names: tuple[str, ...], root: Path) -> dict[str, str]:
    """The normalised text of each file ``names`` under ``root`` (FileNotFoundError names a missing one)."""
    return {name: normalise((root / name).read_text(encoding="utf-8")) for name in names}


@dataclass(frozen=True)
class ClaimCall:
    """One ``ledger.claim(...)`` call of a notebook (or ``ledger.draft(...)``, ``draft``): its id and quote (None
    when they are not literals)."""

    line: int
    id: str | None
    quote: str | None
    has_quote: bool
    no_control: str | None = None
    ref: str | None = None
    draft: bool = False


def notebook_quotes(notebook: Path) -> list[ClaimCall]:
    """Every ``<x>.claim(...)`` and ``<x>.draft(...)`` call in the code cells of a MyST notebook, in order, with its
    id and ``quote=`` when they are string literals (``line`` counts from its cell's first line)."""
    import jupytext

    from rnnrepro.book.glue_ids import parse_cell

    calls = []
    for cell in jupytext.read(notebook).cells:
        if cell.cell_type != "code":
            continue
        for node in ast.walk(parse_cell(cell.source)):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("claim", "draft")):
                continue
            quote = next((k.value for k in node.keywords if k.arg == "quote"), None)
            reason = next((k.value for k in node.keywords if k.arg == "no_control"), None)
            calls.append(ClaimCall(line=node.lineno, id=_literal(node.args[0]) if node.args else None,
                                   quote=_literal(quote) if quote is not None else None,
                                   has_quote=quote is not None,
                                   no_control=_literal(reason) if reason is not None else None,
                                   ref=next((_literal(k.value) for k in node.keywords if k.arg == "ref"), None),
                                   draft=node.func.attr == "draft"))
    return calls


#: A paper claim whose reason for having no control says this is an identity of our code with itself: an
#: integrity check (``ledger.check``), not a paper claim.
IDENTITY = re.compile(r"\b(identity|identities|autograd|chain rule|by construction|tautolog\w*)\b", re.I)


def claim_problems(calls: list[ClaimCall]) -> list[str]:
    """What is wrong with a notebook's paper claims, statically: a claim whose no-control reason calls it
    an identity (an integrity check), and two claims with the same quote and the same ``ref`` (one statement
    counted twice; the entries of one table share its caption but not their ``ref``)."""
    problems, seen = [], {}
    for call in calls:
        where = call.id or f"the claim at line {call.line} of its cell"
        if call.no_control and IDENTITY.search(call.no_control):
            problems.append(f"{where}: no_control={call.no_control!r} says it is an identity of our code: make it "
                            f"an integrity check (ledger.check)")
        if call.quote:
            key = (normalise(call.quote), call.ref)
            if key in seen:
                problems.append(f"{where}: the same quote as {seen[key]}: one statement of the paper is one row "
                                f"(merge them, quote the part each tests, or give each table entry its own ref=)")
            seen.setdefault(key, where)
    return problems


def _literal(node: ast.AST) -> str | None:
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return None
    return value if isinstance(value, str) else None
