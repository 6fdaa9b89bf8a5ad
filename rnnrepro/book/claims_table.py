"""Claims tables as HTML: every character of a statement shown as written, ``$…$`` typeset, the
status a badge, and the shipped paper-scale (``full``) verdict beside the ``fast`` one.

The tables are raw HTML blocks (no blank line inside) in the markdown that a chapter's last cell and
the scorecard display, so no character of a statement, criterion or value (``|``, ``<eos>``,
``[gap](60)``) can shift a column. Inline math becomes MathJax's own markup (``\\(…\\)`` in a
``span.math``), which the page's MathJax typesets; the style sheet is
``rnnrepro/site/sphinxext/static/rnnrepro.css``, the scorecard's filter ``…/rnnrepro.js``.
"""

from __future__ import annotations

import html
import re

from rnnrepro.book.rows import KIND_TITLES, OBSERVED, STATUSES, VERIFIED, show

#: Every status a row can show, in the order the filters list them.
ALL_STATUSES = (*STATUSES, OBSERVED, VERIFIED)
COLUMNS = ("claim", "statement", "paper", "ours", "status")
#: ``$…$``: opens before a non-space, closes after one, not followed by a digit (``$5 or $6`` is text).
_MATH = re.compile(r"\$(?=[^\s$])((?:[^$\\\n]|\\.)+?)(?<=[^\s\\])\$(?!\d)|`([^`\n]+)`")


def inline_html(text) -> str:
    """``text`` as HTML shown as written: ``$…$`` as inline math for MathJax, ```…``` as code,
    everything else escaped (``<eos>``, ``|``, ``[gap](60)`` appear literally); lines joined; a quote
    escaped inside a raw Python string (``r"… \\"closely\\" …"``) shown as the quote it means."""
    text, out, at = str(text).replace("\n", " ").replace('\\"', '"'), [], 0
    for m in _MATH.finditer(text):
        out.append(html.escape(text[at:m.start()], quote=False))
        if m.group(1) is not None:
            tex = html.escape(m.group(1), quote=False)
            out.append(f'<span class="math notranslate nohighlight">\\({tex}\\)</span>')
        else:
            out.append(f"<code>{html.escape(m.group(2), quote=False)}</code>")
        at = m.end()
    out.append(html.escape(text[at:], quote=False))
    return "".join(out)


def status_class(status: str) -> str:
    """CSS class suffix of a status: ``not reproduced`` → ``not-reproduced``."""
    return status.replace(" ", "-")


def status_badge(status: str, profile: str = "", *, headline: bool = True) -> str:
    """A status as a badge (colour and text); ``profile`` prefixes it (``full · partial``); a badge
    that is not the headline one is drawn muted."""
    label = f'<span class="rnnrepro-profile">{profile}</span> ' if profile else ""
    muted = "" if headline else " rnnrepro-badge-aside"
    return f'<span class="rnnrepro-badge status-{status_class(status)}{muted}">{label}{html.escape(status)}</span>'


def claim_anchor(claim_id: str, href: str = "", aliases: tuple[str, ...] = ()) -> str:
    """A claims-table cell that is the claim's anchor (``id``, the full claim id) and links to ``href``
    (default: itself); it shows the id without its chapter prefix, breakable after dots and underscores.
    ``aliases``: earlier ids of the same claim, each an empty anchor before it (old links land here)."""
    short = re.sub(r"([._])", r"\1<wbr>", html.escape(claim_id.split(".", 1)[1]))
    old = "".join(f'<span id="{html.escape(a)}"></span>' for a in aliases)
    return f'{old}<a id="{html.escape(claim_id)}" href="{html.escape(href or "#" + claim_id)}"><code>{short}</code></a>'


def headline(claim: dict, full_claim: dict | None, full_usable: bool) -> tuple[str, str]:
    """(status, profile) the headline counts use: the shipped ``full`` row where it exists and is
    current (``full_usable``), else the ``fast`` one."""
    if full_claim is not None and full_usable:
        return full_claim["status"], "full"
    return claim["status"], "fast"


def full_rows(full: dict | None) -> tuple[dict[str, dict], bool]:
    """The rows of a shipped full ledger by id, and whether it is current (not stale)."""
    if full is None:
        return {}, False
    return {c["id"]: c for c in full["claims"]}, not full.get("stale", False)


def _control(c: dict) -> str:
    if c.get("control") is None:
        return f"none: {c.get('no_control') or 'not given'}"
    note = f" ({c['control_note']})" if c.get("control_note") else ""
    return f"{show(c['control'], c.get('fmt', '.4g'))}{note} fails it"


def _row(c: dict, *, chapter: str, page: str, statements: bool, full_by_id: dict | None, usable: bool,
         aliases: tuple[str, ...] = ()) -> str:
    fmt = c.get("fmt", ".4g")
    ref = inline_html(c["ref"])
    text = f"<strong>{ref}.</strong> {inline_html(c['statement'])}" if statements else ref
    meta = (f'<span class="claim-meta">criterion {inline_html(c["criterion"])} · control: '
            f'{inline_html(_control(c))}</span>')
    ours, status = inline_html(show(c["measured"], fmt)), status_badge(c["status"])
    shown_status = c["status"]
    if full_by_id is not None:
        f = full_by_id.get(c["id"])
        top_status, top = headline(c, f, usable)
        shown_status = top_status
        ours = (f'<span class="rnnrepro-profile">fast</span> {ours}<br><span class="rnnrepro-profile">full</span> '
                + (inline_html(show(f["measured"], f.get("fmt", fmt))) if f else "—"))
        status = (status_badge(c["status"], "fast", headline=top == "fast") + "<br>"
                  + (status_badge(f["status"], "full", headline=top == "full") if f else
                     '<span class="rnnrepro-badge rnnrepro-badge-aside"><span class="rnnrepro-profile">full</span> '
                     'no row</span>'))
    href = f"{page}#{c['id']}" if page else ""
    cells = [claim_anchor(c["id"], href, aliases), f"{text}<br>{meta}", inline_html(show(c["paper"], fmt)) + quote_html(c),
             ours, status]
    classes = ("claim-id", "claim-text", "claim-paper", "claim-ours", "claim-status")
    tds = "".join(f'<td class="{k}">{v}</td>' for k, v in zip(classes, cells, strict=True))
    return (f'<tr data-chapter="{html.escape(chapter)}" data-status="{status_class(shown_status)}" '
            f'data-kind="{c.get("kind", "paper")}" data-type="{c.get("type") or ""}">{tds}</tr>')


def quote_html(c: dict) -> str:
    """A paper claim's quote of the paper, in a ``details`` block that is open on a wide screen and
    closed on a phone (``rnnrepro.js``); empty for a row without one."""
    if not c.get("quote"):
        return ""
    kind = f"{c['type']} · " if c.get("type") else ""
    return (f'<details class="claim-quote" open><summary>{kind}the paper says</summary>'
            f'<q>{inline_html(quote_math(c["quote"]))}</q></details>')


def quote_math(quote: str) -> str:
    """A quote's math as inline ``$…$``: a display ``$$…$$`` becomes inline, and one the excerpt cuts off
    (an opening ``$`` without its closing one) is closed at the quote's end."""
    parts = quote.split("$$")                  # odd parts are display math, the last one maybe cut off
    text = "".join(f"${part.strip()}$" if i % 2 and part.strip() else part for i, part in enumerate(parts))
    return text + "$" if len(re.findall(r"(?<!\\)\$", text)) % 2 else text


def full_note(full: dict) -> str:
    """One line naming the shipped full run beside a table (commit, date, wall time, CPU), and
    whether the headline uses it."""
    m = full.get("manifest", {})
    wall = m.get("runs", {}).get("native", {}).get("wall_time_s")
    machine = m.get("machine", {}).get("model", "?")
    commit, date = html.escape(str(m.get("commit", "?"))[:12]), html.escape(str(m.get("created_utc", "?"))[:10])
    when = f"commit <code>{commit}</code>, {date}"
    run = f"{when}, {wall:.0f} s on {html.escape(machine)}" if isinstance(wall, (int, float)) else when
    if full.get("stale"):
        return (f'<p class="rnnrepro-full-note">Paper-scale <code>full</code> results shipped ({run}) but '
                "<strong>stale</strong>: the notebook changed since they were made, so the headline uses "
                "<code>fast</code> until they are shipped again.</p>")
    return (f'<p class="rnnrepro-full-note">Paper-scale <code>full</code> results shipped ({run}): each row '
            "shows the <code>full</code> value and status beside the <code>fast</code> ones; the headline "
            "(solid badge) is the <code>full</code> one.</p>")


def claims_html(claims: list[dict], *, chapter: str = "", page: str = "", statements: bool = True,
                full: dict | None = None, renamed: dict[str, str] | None = None) -> str:
    """The claims tables (dicts as in the ledger JSON) as HTML: paper claims, our own findings,
    integrity checks, each a ``div.rnnrepro-claims`` (id ``claims-<kind>``, or ``<chapter>-claims-<kind>``
    when ``page`` is given) with a five-column table.

    Columns: claim (its anchor; a link to ``page#id`` when ``page`` is given), the reference (with the
    statement when ``statements``) with the criterion and the negative control (or why there is none)
    in small print beneath; the paper's value; ours; the status as a badge. ``full``: the chapter's
    shipped full ledger (:func:`rnnrepro.book.full.shipped_full`), shown beside. ``renamed``: old claim
    id → the id now holding it (:attr:`rnnrepro.book.profiles.Chapter.renamed`), an anchor on that row.
    No blank line inside.
    """
    full_by_id, usable = full_rows(full)
    head = "".join(f"<th>{'paper ref.' if name == 'statement' and not statements else name}</th>"
                   for name in COLUMNS)
    parts = []
    for kind, title in KIND_TITLES.items():
        rows = [c for c in claims if c.get("kind", "paper") == kind]
        if not rows:
            continue
        div_id = f"{chapter}-claims-{kind}" if page else f"claims-{kind}"
        body = "\n".join(_row(c, chapter=chapter or c["id"].split(".")[0], page=page, statements=statements,
                              full_by_id=full_by_id if full is not None else None, usable=usable,
                              aliases=tuple(old for old, new in (renamed or {}).items() if new == c["id"]))
                         for c in rows)
        parts.append(f'<div class="rnnrepro-claims" id="{div_id}" data-kind="{kind}">\n'
                     f'<p class="rnnrepro-claims-title"><strong>{title}</strong> ({len(rows)})</p>\n'
                     + (full_note(full) + "\n" if full is not None and kind == "paper" else "")
                     + '<table class="rnnrepro-claims-table">\n<colgroup><col class="c-claim"><col class="c-text">'
                     '<col class="c-paper"><col class="c-ours"><col class="c-status"></colgroup>\n'
                     f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>\n</div>")
    return "\n\n".join(parts)


def claims_markdown(claims: list[dict], page: str = "", statements: bool = True, *, chapter: str = "",
                    full: dict | None = None) -> str:
    """:func:`claims_html` as markdown: raw HTML blocks separated by blank lines (MyST passes them
    through untouched)."""
    return claims_html(claims, chapter=chapter, page=page, statements=statements, full=full)


def ledger_markdown(claims: list[dict], *, chapter: str, full: dict | None = None,
                    renamed: dict[str, str] | None = None) -> str:
    """A chapter's claims ledger behind one click: :func:`claims_markdown` inside a ``details`` block
    (``#claims``, closed; ``rnnrepro.js`` opens it when the address names a claim inside), its summary
    counting the rows of each kind; ``renamed`` as in :func:`claims_html`."""
    n = {kind: sum(c.get("kind", "paper") == kind for c in claims) for kind in KIND_TITLES}
    summary = (f"The claims ledger: {n['paper']} paper claims, {n['finding']} findings of ours and "
               f"{n['integrity']} integrity checks, each with the paper's sentence, our criterion, its "
               "negative control and both profiles' values")
    return (f'<details class="rnnrepro-apparatus" id="claims">\n<summary>{summary}</summary>\n\n'
            + claims_html(claims, chapter=chapter, full=full, renamed=renamed) + "\n\n</details>")


def shipped_full_ledger(key: str) -> dict | None:
    """The shipped full ledger of chapter ``key`` (:func:`rnnrepro.book.full.shipped_full`), or None."""
    from rnnrepro.book.full import shipped_full

    return shipped_full(key)


def measured_cell(c: dict, shown: dict | None = None) -> str:
    """``quantity = value`` (HTML) for a row: the measured value of ``shown`` (the row itself by default,
    or its shipped full twin) named by the row's ``quantity``; the bare value where none is given."""
    shown = shown or c
    value = inline_html(show(shown["measured"], shown.get("fmt", c.get("fmt", ".4g"))))
    return f"{inline_html(c['quantity'])} = {value}" if c.get("quantity") else value


def profile_note(profile: str, full: dict | None = None) -> str:
    """One line saying which profile the numbers in a chapter page's text come from (the run that
    executed the page, ``profile``) and which the verdicts come from (:func:`headline`); "" without
    a profile."""
    if not profile:
        return ""
    _, usable = full_rows(full)
    if profile == "full":
        said = ("The numbers in this page's text and every verdict come from the paper-scale "
                "<code>full</code> profile.")
    elif full is not None and usable:
        said = (f"The numbers in this page's text come from the <code>{html.escape(profile)}</code> profile "
                "(this build's run); a verdict marked <code>full</code>, and the value beside it, come from the "
                "paper-scale run shipped with the book, so they can differ from the text.")
    else:
        said = (f"The numbers in this page's text and every verdict come from the <code>{html.escape(profile)}"
                "</code> profile (this build's run): no current paper-scale <code>full</code> result is shipped.")
    return f'<p class="rnnrepro-full-note rnnrepro-profile-note">{said}</p>'


def verdicts_html(claims: list[dict], *, full: dict | None = None, profile: str = "") -> str:
    """The chapter-top verdict table (HTML, one block), generated from the ledger's paper claims: per
    kind (statements, then experiments) a count line and one row per claim: its reference linked to its
    row in the claims ledger (its evidence), what we measured in the terms of the paper's value
    (``quantity = ours``, :func:`measured_cell`), the paper's value and the headline verdict (the shipped
    ``full`` one where current, else ``fast``; :func:`headline`), with the profile it comes from.
    ``profile``: the run's profile; its :func:`profile_note` ends the block (which profile the page's
    running numbers come from)."""
    from rnnrepro.book.rows import CLAIM_TYPES, claim_type, type_counts_text

    full_by_id, usable = full_rows(full)
    parts = []
    for name, statuses in CLAIM_TYPES.items():
        rows, counts = [], dict.fromkeys(statuses, 0)
        for c in claims:
            if c.get("kind", "paper") != "paper":
                continue
            f = full_by_id.get(c["id"]) if full is not None else None
            status, decided_by = headline(c, f, usable)
            if claim_type(status) != name:
                continue
            counts[status] += 1
            cells = (f'<a href="#{html.escape(c["id"])}">{inline_html(c["ref"])}</a>',
                     measured_cell(c, f if decided_by == "full" else c),
                     inline_html(show(c["paper"], c.get("fmt", ".4g"))),
                     status_badge(status, decided_by))
            rows.append(f'<tr data-status="{status_class(status)}">' + "".join(f"<td>{v}</td>" for v in cells) + "</tr>")
        if not rows:
            continue
        head = "".join(f"<th>{h}</th>" for h in (name, "ours (what we measure)", "paper", "verdict"))
        parts.append(f'<p class="rnnrepro-claims-title"><strong>{name.capitalize()}s</strong> '
                     f'({len(rows)}: {type_counts_text(counts).split(": ", 1)[1]})</p>\n'
                     f'<table class="table rnnrepro-verdicts" data-type="{name}">\n'
                     f"<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>")
    if not parts:
        return '<p class="rnnrepro-claims-title">No paper claims.</p>'
    note = profile_note(profile, full)
    return '<div class="rnnrepro-verdicts-block">\n' + "\n".join(parts + ([note] if note else [])) + "\n</div>"


_VERDICT_ROW = re.compile(r'<tr data-status="[a-z-]+"><td><a href="#([^"]+)">.*?</a></td><td>(.*?)</td>'
                          r'<td>.*?</td><td>(.*?)</td></tr>', re.S)


def verdict_row_mismatches(table: str, claims: list[dict], full: dict | None) -> list[str]:
    """Rows of a verdict table (HTML as :func:`verdicts_html` writes it, e.g. cut from a built page) whose
    measured value is not the one of the profile their badge names: a ``full`` badge over the ``fast``
    value, or the reverse. ``claims``: the page's ledger rows (the ``fast`` run's); ``full``: the shipped
    full ledger (:func:`shipped_full_ledger`). Empty when every row agrees with itself."""
    full_by_id, _ = full_rows(full)
    by_id = {c["id"]: c for c in claims}
    problems = []
    for claim_id, ours, badge in _VERDICT_ROW.findall(table):
        c, profile = by_id.get(claim_id), re.search(r'class="rnnrepro-profile">([a-z]+)<', badge)
        profile = profile.group(1) if profile else ""
        if c is None:
            problems.append(f"{claim_id}: a verdict row with no row in the page's ledger")
            continue
        source = full_by_id.get(claim_id) if profile == "full" else c
        if source is not None and source.get("measured") in ("inf", "-inf", "nan"):   # the JSON's non-finite
            source = {**source, "measured": float(source["measured"])}
        if source is None:
            problems.append(f"{claim_id}: a full badge, but the shipped full ledger has no such row")
        elif ours != measured_cell(c, source):
            problems.append(f"{claim_id}: shows {ours!r} under a {profile or '(no profile)'} badge, where the "
                            f"{profile or 'fast'} value is {measured_cell(c, source)!r}")
    return problems


def headline_text(claims: list[dict], *, full: dict | None = None) -> str:
    """The chapter's result in words from its paper claims' headline verdicts (:func:`headline`):
    ``"of 22 printed statements, 18 hold and 4 are errata; of 10 experiments, 7 are partial and 3 are
    not reproduced"`` (a kind with no claims is left out)."""
    full_by_id, usable = full_rows(full)
    counts: dict[str, int] = {}
    for c in claims:
        if c.get("kind", "paper") == "paper":
            status, _ = headline(c, full_by_id.get(c["id"]) if full is not None else None, usable)
            counts[status] = counts.get(status, 0) + 1
    verbs = {"holds": ("holds", "hold"), "erratum": ("is an erratum", "are errata"),
             "reproduced": ("is reproduced", "are reproduced"), "partial": ("is partial", "are partial"),
             "not reproduced": ("is not reproduced", "are not reproduced")}
    parts = []
    for name, plural, statuses in (("printed statement", "printed statements", STATUSES[:2]),
                                   ("experiment", "experiments", STATUSES[2:])):
        total = sum(counts.get(s, 0) for s in statuses)
        if not total:
            continue
        if total == 1:
            parts.append(f"the one {name} " + next(verbs[s][0] for s in statuses if counts.get(s)))
            continue
        items = [f"{counts[s]} {verbs[s][counts[s] != 1]}" for s in statuses if counts.get(s)]
        said = items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
        parts.append(f"of {total} {plural}, {said}")
    return "; ".join(parts) or "no paper claims"
