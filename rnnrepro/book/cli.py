"""Command line: ``python -m rnnrepro list``, ``run CHAPTER [--explore]``, ``value CHAPTER [ID]``,
``params CHAPTER``, ``cite CHAPTER``,
``fetch-data``, ``sensitivity CHAPTER``, ``ship-full CHAPTER`` and ``generate``.

Only light modules are imported at start (the chapter registry, the profiles, the paths); papermill,
torch, the ledger and the citations are imported by the subcommand that needs them, so that a bad
argument is refused in a fraction of a second."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

from rnnrepro.book.chapters import all_chapters, get_chapter
from rnnrepro.errors import ConfigError, RnnreproError
from rnnrepro.book.paths import DEFAULT_OUT, REPO, last_ledger, ledger_paths
from rnnrepro.book.runner import checked_notebook, run_chapter, writable_out
from rnnrepro.book.profiles import PROFILES, check_profile


def parse_overrides(chapter, pairs) -> dict:
    """``[[name, text], ...]`` from ``-p NAME VALUE`` → checked values by name."""
    overrides = {}
    for name, text in pairs or []:
        overrides[name] = chapter.param(name).parse(text)
    return overrides


#: LaTeX macros that claims' statements and criteria use, as the characters a terminal shows.
_MACROS = {
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈", "sim": "~", "ll": "≪",
    "gg": "≫", "times": "×", "cdot": "·", "pm": "±", "infty": "∞", "to": "→", "in": "∈", "propto": "∝",
    "partial": "∂", "nabla": "∇", "sum": "Σ", "prod": "Π", "|": "‖", "ell": "ℓ", "dots": "…",
    "ldots": "…", "cdots": "…", "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε",
    "varepsilon": "ε", "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "θ", "kappa": "κ", "lambda": "λ",
    "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "varphi": "φ",
    "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ",
    "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    ",": " ", ";": " ", ":": " ", "!": "", " ": " ", "quad": " ", "qquad": " ", "left": "", "right": "",
    "big": "", "Big": "", "bigl": "", "bigr": "", "Bigl": "", "Bigr": "", "{": "{", "}": "}", "%": "%", "_": "_",
}
#: ``$NAME_OF_A_VARIABLE`` in a message is the shell's, not math: kept as it is.
_ENV_VAR = re.compile(r"\$(?=[A-Z]{2,}[A-Z0-9]*(?:_[A-Z0-9]+)*\b)")


def without_latex(text: str) -> str:
    """``text`` as a terminal shows it: ``$…$`` math without the dollars and with its macros as characters
    (``$W = 1.05 Q$`` → ``W = 1.05 Q``, ``$k \\le 60$`` → ``k ≤ 60``, ``\\lambda^{k-1}`` → ``λ^(k-1)``,
    ``\\frac{a}{b}`` → ``a/b``, ``\\mathrm{x}`` → ``x``); an unknown macro loses its backslash. A shell
    variable (``$RNNREPRO_DATA``) keeps its dollar."""
    text = _ENV_VAR.sub("\0ENV\0", text)
    text = re.sub(r"\$\$?([^$]*?)\$\$?", r"\1", text)           # paired dollars only ("costs $5" keeps it)
    text = re.sub(r"\\(?:mathrm|mathbf|mathit|mathcal|mathbb|operatorname|text|textrm|textbf|boldsymbol|bm|"
                  r"hat|tilde|bar|overline|widehat|widetilde)\s*\{([^{}]*)\}", r"\1", text)
    text = re.sub(r"\\([A-Za-z]+|[^A-Za-z])", lambda m: _MACROS.get(m[1], m[0]), text)   # known macros
    for _ in range(3):                                    # nested fractions and roots, inside out
        text = re.sub(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}",
                      lambda m: f"{_group(m[1])}/{_group(m[2])}", text)
        text = re.sub(r"\\sqrt\s*\{([^{}]*)\}", lambda m: "√" + _group(m[1]), text)
    text = re.sub(r"\\([A-Za-z]+)", r"\1", text)           # an unknown macro: its name
    text = re.sub(r"([_^])\{([^{}]*)\}", lambda m: m[1] + _group(m[2]), text)
    return text.replace("\0ENV\0", "$")


def _group(inner: str) -> str:
    """A sub- or superscript, fraction part: as it is when it is one token, else in parentheses."""
    inner = inner.strip()
    return inner if re.fullmatch(r"[\w.′'·]+", inner) else f"({inner})"


def failed_path(ledger_path: Path) -> Path:
    """The ``<key>.failed.txt`` beside ``<key>.ledger.json``: what a failed or interrupted run leaves."""
    return ledger_path.with_name(ledger_path.name.removesuffix(".ledger.json") + ".failed.txt")


def last_run(chapter, out: str | None = None) -> Path:
    """The ledger path of the chapter's last run: in ``out`` when given, else in whichever of the CLI's and
    the book build's folders holds the newest run, a failed one (its ``failed.txt``) counted as a run (so that
    a user's failed ``run`` is not hidden by the book build's older passing one)."""
    if out is not None:
        return last_ledger(chapter, out)

    def when(path: Path) -> float:
        return max((p.stat().st_mtime for p in (path, failed_path(path)) if p.is_file()), default=-1.0)

    return max(ledger_paths(chapter), key=when)


def ledger_status(path: Path) -> str:
    """Status of a chapter's last run from its ledger file: counts per status, 'FAILED …' (the
    ``<key>.failed.txt`` beside it, when it is newer than the ledger or there is none), or 'not run'."""
    failed = failed_path(path)
    if failed.is_file() and (not path.is_file() or failed.stat().st_mtime >= path.stat().st_mtime):
        return f"FAILED {without_latex(failed.read_text().strip())}"
    if not path.is_file():
        return "not run"
    from rnnrepro.book.ledger import counts_line

    ledger = json.loads(path.read_text())
    return f"{ledger['profile']}: {counts_line(ledger)} ({ledger['created_utc']})"


def run_parameters(chapter, path: Path) -> str:
    """The parameters of the run whose ledger is ``path``, those differing from its profile marked
    ``*``, e.g. ``seed=3* n_hidden=16 …``; empty when there is no ledger."""
    if not path.is_file() or ledger_status(path).startswith("FAILED"):
        return ""
    ledger = json.loads(path.read_text())
    params = dict(ledger.get("parameters", {}))
    profile = params.pop("profile", ledger.get("profile", "fast"))
    names = {p.name: p for p in chapter.params}
    return " ".join(f"{name}={value}" + ("*" if name in names and profile in PROFILES
                                           and getattr(names[name], profile) != value else "")
                    for name, value in params.items())


def _cmd_list(args) -> int:
    for chapter in all_chapters().values():
        path = last_run(chapter, args.out)
        status, params = ledger_status(path), run_parameters(chapter, path)
        print(f"{chapter.key:10s} {chapter.title}\n{'':10s} profiles: {', '.join(PROFILES)}; "
              f"{len(chapter.params)} parameters (`params {chapter.key}`); "
              f"data: {', '.join(chapter.data) or 'none'}; last run: {status}")
        if params:
            print(f"{'':10s} last run's parameters (* = not the profile's value): {params}")
    return 0


def params_table(chapter) -> str:
    """The chapter's parameters: name, meaning, value in each profile and valid range, one per line."""
    rows = [("name", *PROFILES, "valid values", "meaning")]
    rows += [(p.name, *(repr(getattr(p, prof)) for prof in PROFILES), p.describe(), p.help) for p in chapter.params]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1] for row in rows]
    head = (f"{chapter.key}: {chapter.title}\n"
            f"override one with `python -m rnnrepro run {chapter.key} --profile PROFILE -p NAME VALUE`")
    return head + "\n\n" + "\n".join(line.rstrip() for line in lines)


def _cmd_params(args) -> int:
    print(params_table(get_chapter(args.chapter)))
    return 0


def _cmd_run(args) -> int:
    chapter = get_chapter(args.chapter)
    check_profile(args.profile)
    overrides = parse_overrides(chapter, args.param)
    if args.explore:
        return _explore(chapter, args.profile, overrides, args.out, args.only)
    if args.only is not None:                     # one section: not the chapter's result, so beside the explorations
        from rnnrepro.book.explore import EXPLORE_OUT
        args.out = args.out or str(EXPLORE_OUT)
    args.out = args.out or str(DEFAULT_OUT)
    checked_notebook(chapter.key, args.profile, overrides, args.only)   # a bad section, missing data: one line, now
    writable_out(Path(args.out))
    import papermill

    from rnnrepro.book.ledger import counts_line
    print(f"running {chapter.key} ({chapter.notebook}) with profile {args.profile}"
          + (f" and {overrides}" if overrides else "") + (f", section {args.only} only" if args.only else "")
          + f" → {args.out}", flush=True)
    if args.only is None and (note := stale_full_note(chapter.key)):
        print(note, flush=True)
    t0 = time.perf_counter()
    try:
        ledger = run_chapter(chapter.key, args.profile, overrides, Path(args.out), only=args.only)
    except papermill.PapermillExecutionError as exc:
        print(f"FAILED {chapter.key} after {time.perf_counter() - t0:.0f} s: {exc.ename}: "
              f"{without_latex(exc.evalue.splitlines()[0]) if exc.evalue else ''}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # Ctrl-C between nbclient's creating a cell's coroutine and awaiting it leaves the coroutine unawaited:
        # Python would print a RuntimeWarning about it when this handler ends; the one line below says it all.
        import warnings

        warnings.filterwarnings("ignore", message=r"coroutine .* was never awaited", category=RuntimeWarning,
                                module=r"rnnrepro\.book\.cli")              # only the one this handler's end raises
        print(f"interrupted: {chapter.key} stopped after {time.perf_counter() - t0:.0f} s; its partial outputs "
              f"were removed from {args.out} (run it again for a result)", file=sys.stderr)
        return 130
    wall = time.perf_counter() - t0
    for claim in ledger["claims"]:
        print(f"  {claim.get('type') or claim['kind']:10s} {claim['status']:15s} {claim['id']}")
    print(f"{chapter.key}" + (f", section {args.only}" if args.only else "") + f": {counts_line(ledger)}; "
          f"every criterion held; {wall:.1f} s (CPU: {ledger['environment']['cpu']['capability']})")
    return 0


def _explore(chapter, profile: str, overrides: dict, out: str | None, only: str | None) -> int:
    """``run KEY --explore``: run past failing rows, print every row's measured value, criterion and verdict."""
    from rnnrepro.book.explore import EXPLORE_OUT, explore_chapter, rows_table

    out = Path(out or EXPLORE_OUT)
    print(f"exploring {chapter.key} ({chapter.notebook}) with profile {profile}"
          + (f" and {overrides}" if overrides else "") + (f", section {only} only" if only else "")
          + f" → {out} (failing rows are reported, not raised)", flush=True)
    t0 = time.perf_counter()
    result = explore_chapter(chapter.key, profile, overrides, out, only=only)
    wall = time.perf_counter() - t0
    ledger = result["ledger"]
    for index, name, message in result["errors"]:
        print(f"  cell {index} raised {name}: {without_latex(message)}")
    if ledger is None:
        print(f"{chapter.key}: no ledger was written (the chapter's first cells raised); the executed notebook "
              f"{result['notebook']} shows where", file=sys.stderr)
        return 1
    print(rows_table(ledger))
    failed = list(dict.fromkeys(row_id for _, row_id, _ in ledger["failures"]))
    print(f"{chapter.key}: {len(ledger['claims'])} rows, {len(failed)} failing"
          + (f" ({', '.join(i.removeprefix(chapter.key + '.') for i in failed)})" if failed else "")
          + f", {len(result['errors'])} cells raised; {wall:.1f} s\nnotebook: {result['notebook']}\n"
          f"ledger:   {result['ledger_path']} (read a number back: python -m rnnrepro value {chapter.key} ROW_ID)")
    return 0


def _cmd_value(args) -> int:
    from rnnrepro.book.explore import newest_ledger, recorded_value, rows_table

    chapter = get_chapter(args.chapter)
    path = newest_ledger(chapter.key, args.out)
    ledger = json.loads(path.read_text())
    if args.id is None:
        print(f"{path} ({'exploration' if ledger.get('explore') else ledger['profile']} run, "
              f"{ledger['created_utc']})")
        print(rows_table(ledger))
        for name, value in ledger.get("values", {}).items():
            print(f"value  {name.removeprefix(chapter.key + '.')} = {value}")
        return 0
    print(recorded_value(ledger, args.id))
    return 0


def _cmd_scaffold_claim(args) -> int:
    from rnnrepro.book.scaffold import scaffold_claim

    chapter = get_chapter(args.chapter)
    written = scaffold_claim(chapter.key, args.name)
    for path in written:
        print(f"wrote {path.relative_to(REPO)}")
    print(f"next: python -m pytest -q {written[1].relative_to(REPO)}; then "
          f"python -m rnnrepro run {chapter.key} --explore --only draft_{args.name} (the row shows marked draft; "
          f"CONTRIBUTING, 'Adding one claim', says how it becomes a claim)")
    return 0


#: The student edition's configuration, written beside _config.yml for the build (its local paths resolve from there).
STUDENT_CONFIG = "_config.student.yml"


def student_config(config: dict, cache: Path | None = None) -> dict:
    """The book's configuration (``_config.yml`` read as a dict) for a student edition: the same, with
    sphinx-exercise's ``hide_solutions`` on, so that every ``{solution}`` block is left out of the pages; with
    ``cache``, Jupyter Book's execution cache is that folder (``execute.cache``: the book build's, so that a
    chapter the book build executed is not executed again)."""
    import copy

    student = copy.deepcopy(config)
    sphinx = student.setdefault("sphinx", {}) or {}
    student["sphinx"] = sphinx
    sphinx.setdefault("config", {})
    sphinx["config"] = dict(sphinx["config"] or {}, hide_solutions=True)
    if cache is not None:
        student["execute"] = dict(student.get("execute") or {}, cache=str(cache))
    return student


#: The book build's execution cache (Jupyter Book's default for ``jupyter-book build .``), which the student
#: edition shares: its pages take every chapter's outputs from it (rnnrepro.site.sphinxext.execution_cache keeps
#: it true to the code: a chapter whose code, package or shipped results changed executes again).
BOOK_CACHE = REPO / "_build" / ".jupyter_cache"


def _cmd_student_edition(args) -> int:
    """Build the book without the exercises' solutions into ``--out``. It shares the book build's execution cache
    (:data:`BOOK_CACHE`): after ``jupyter-book build .`` no chapter executes again (the scorecard and the
    environment page, which read the chapters' ledgers, always do); without one, it executes the chapters and
    fills that cache."""
    import subprocess

    import yaml

    out = Path(args.out).resolve()
    path = REPO / STUDENT_CONFIG
    path.write_text("# written by `python -m rnnrepro student-edition` for one build, then removed\n"
                    + yaml.safe_dump(student_config(yaml.safe_load((REPO / "_config.yml").read_text()), BOOK_CACHE),
                                     sort_keys=False, allow_unicode=True))
    command = [sys.executable, "-c", "import sys; from jupyter_book.cli.main import main; sys.exit(main())",
               "build", str(REPO), "--config", str(path), "--path-output", str(out), *(["-W", "-n", "--keep-going"]
                                                                                      if args.strict else [])]
    print("building the student edition (no solutions) → " + str(out / "_build" / "html"), flush=True)
    try:
        result = subprocess.run(command, cwd=REPO)
    finally:
        path.unlink(missing_ok=True)
    return result.returncode


def stale_full_note(key: str) -> str:
    """One line when the chapter's shipped ``full`` result is stale (its code cells changed since it was
    shipped) or damaged, saying how to re-ship it; empty when it is current or none is shipped."""
    from rnnrepro.book.chapter_lists import ship_command
    from rnnrepro.book.full import shipped_full

    try:
        full = shipped_full(key)
    except RnnreproError as exc:
        return f"note: {exc}"
    if full is None or not full["stale"]:
        return ""
    return (f"note: the shipped full result of {key} is stale (the chapter's code cells changed since commit "
            f"{full['manifest'].get('commit', '?')[:12]}): after your last code change, commit, then run "
            f"{ship_command(key)} and commit book/artifacts/{key}/full")


def _cmd_cite(args) -> int:
    from rnnrepro.book.cite import check_claim, cited_profile, reference

    key = get_chapter(args.chapter).key
    text = reference(key, args.claim, args.format, args.profile, paper=args.paper)
    if args.format == "text":
        text = without_latex(text)      # a terminal shows no TeX: "$t_0 = 12$" as "t_0 = 12"
    if not args.paper and args.claim and cited_profile(key, check_claim(key, args.claim), args.profile) != args.profile:
        print(f"note: no {args.profile} run of {key} here: the reference cites the shipped full result (run "
              f"`python -m rnnrepro run {key}` first to cite {args.profile} numbers)", file=sys.stderr)
    print(text)
    return 0


def _cmd_fetch_data(args) -> int:
    from rnnrepro.data.fetch import fetch_wikitext2

    kwargs = {"base_url": args.base_url} if args.base_url else {}
    for split, what in fetch_wikitext2(args.to, **kwargs).items():
        print(f"wikitext-2/{split}.txt: {what}")
    return 0


def _cmd_ship_full(args) -> int:
    from rnnrepro.book.full import full_dir, ship_full

    chapter = get_chapter(args.chapter)
    manifest = ship_full(chapter.key, lower_isa=args.lower_isa)
    walls = ", ".join(f"{name} {run['wall_time_s']:.0f} s" for name, run in manifest["runs"].items())
    print(f"{chapter.key}: full passed ({walls}); shipped to {full_dir(chapter.key)}")
    _regenerate()
    return 0


def _regenerate() -> None:
    """Rewrite the generated lists of chapters (README, intro, sensitivity page) and say which changed."""
    from rnnrepro.book.chapter_lists import write_generated

    changed = [str(path.relative_to(REPO)) for path in write_generated()]
    print(f"regenerated {', '.join(changed)}: commit them with the result" if changed
          else "the generated lists of chapters were already up to date")


def _cmd_generate(args) -> int:
    from rnnrepro.book.chapter_lists import COMMAND, out_of_date

    if args.check:
        stale = out_of_date()
        for path in stale:
            print(f"{path.relative_to(REPO)} is out of date with the registry and the results: run `{COMMAND}`",
                  file=sys.stderr)
        return 1 if stale else 0
    _regenerate()
    return 0


def _cmd_sensitivity(args) -> int:
    from rnnrepro.book.sensitivity import FACTORS, record_results, resolve, sensitivity_run, source_commit

    chapter = get_chapter(args.chapter)
    helpers = args.helper or list(chapter.helpers)
    if not helpers:
        raise ConfigError(f"chapter {chapter.key} lists no numerical helpers (Chapter.helpers); name one with --helper")
    for helper in helpers:
        resolve(helper)
    factors = args.factor or list(FACTORS)
    out = Path(args.out) / chapter.key
    commit = source_commit()          # the code the runs come from, read before anything runs
    results, missed = [], 0
    for helper in helpers:
        for factor in factors:
            result = sensitivity_run(chapter.key, helper, factor, out=out / f"{helper.replace(':', '.')}-{factor:g}")
            print(result.line(), flush=True)
            results.append(result)
            missed += not result.detected
    out.mkdir(parents=True, exist_ok=True)
    (out / "sensitivity.json").write_text(json.dumps([vars(r) for r in results], indent=1) + "\n")
    print(f"{chapter.key}: {len(results) - missed} of {len(results)} perturbations fail a paper claim "
          f"(details: {out / 'sensitivity.json'}; recorded in {record_results(chapter.key, results, commit=commit)})")
    _regenerate()
    return 1 if missed else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m rnnrepro",
                                     description="Run the chapters of the rnnrepro book, cite them, fetch their data.")
    sub = parser.add_subparsers(dest="command", required=True,
                                metavar="{list,run,value,params,cite,sensitivity,ship-full,generate,"
                                        "scaffold-claim,student-edition,fetch-data}")
    p_list = sub.add_parser("list", help="the chapters, their profiles and the status of their last ledger")
    p_list.add_argument("--out", default=None,
                        help="folder of the runs (default: the newer of _build/runs and the book build)")
    p_list.set_defaults(func=_cmd_list)
    p_run = sub.add_parser("run", help="execute a chapter with papermill and check its claims")
    p_run.add_argument("chapter", help="chapter key (see `list`)")
    p_run.add_argument("--profile", default="fast", help=f"one of {', '.join(PROFILES)} (default: fast)")
    p_run.add_argument("-p", "--param", nargs=2, action="append", metavar=("NAME", "VALUE"),
                       help="override one parameter (repeatable)")
    p_run.add_argument("--out", default=None,
                       help="output folder (default: _build/runs; with --explore or --only, _build/explore)")
    p_run.add_argument("--explore", action="store_true",
                       help="exploration run: go on past failing rows and cells that raise, always write the "
                            "executed notebook and the ledger, print every row's measured value, criterion and "
                            "verdict, exit 0 (the default run stops at the first failing row)")
    p_run.add_argument("--only", default=None, metavar="SECTION",
                       help="run one section (a name the chapter's cells pass to ledger.section) and the cells "
                            "it needs: strictly (it stops at the section's first failing row), or with --explore")
    p_run.set_defaults(func=_cmd_run)
    p_value = sub.add_parser("value", help="print a number recorded by a chapter's last run (a row's measured "
                                           "value or a value in the prose); without ID, all of them")
    p_value.add_argument("chapter", help="chapter key (see `list`)")
    p_value.add_argument("id", nargs="?", default=None,
                         help="row or value id, in full or without the chapter's key (contraction.banach_steps)")
    p_value.add_argument("--out", default=None, help="folder of the run (default: the newest of _build/explore, "
                                                     "_build/runs and the book build)")
    p_value.set_defaults(func=_cmd_value)
    p_params = sub.add_parser("params", help="a chapter's parameters: meaning, value in each profile, valid range")
    p_params.add_argument("chapter", help="chapter key (see `list`)")
    p_params.set_defaults(func=_cmd_params)
    p_cite = sub.add_parser("cite", help="print how to cite a chapter, or one claim of it")
    p_cite.add_argument("chapter", help="chapter key (see `list`)")
    p_cite.add_argument("--claim", default=None,
                        help="a claim id of the chapter, as the page shows it (fig1.band_upper_edge) or in full "
                             "(ribeiro.fig1.band_upper_edge)")
    p_cite.add_argument("--format", default="bibtex", help="bibtex (default) or text")
    p_cite.add_argument("--profile", default="fast", help="the profile the cited numbers come from (default: fast; "
                                                          "full names the commit its shipped result was made at)")
    p_cite.add_argument("--paper", action="store_true",
                        help="the replicated paper(s) instead, from book/references.bib")
    p_cite.set_defaults(func=_cmd_cite)
    p_sens = sub.add_parser("sensitivity", help="perturb each numerical helper of a chapter by 10 %% and check "
                                                 "that a paper claim fails (slow: one chapter run per helper)")
    p_sens.add_argument("chapter", help="chapter key (see `list`)")
    p_sens.add_argument("--helper", action="append", help="package.module:function (default: the chapter's helpers)")
    p_sens.add_argument("--factor", type=float, action="append", help="scale factor (default: 0.9 and 1.1)")
    p_sens.add_argument("--out", default=str(REPO / "_build" / "sensitivity"), help="output folder")
    p_sens.set_defaults(func=_cmd_sensitivity)
    p_ship = sub.add_parser("ship-full", help="run a chapter's full profile and ship its ledger and figure data "
                                              "to book/artifacts/<key>/full (slow)")
    p_ship.add_argument("chapter", help="chapter key (see `list`)")
    p_ship.add_argument("--lower-isa", action="store_true",
                        help="also run full with torch's kernels forced one instruction set lower (both must pass)")
    p_ship.set_defaults(func=_cmd_ship_full)
    p_gen = sub.add_parser("generate", help="rewrite every generated list of chapters (README's tables, the intro's "
                                            "table, results/sensitivity.md) from the registry and the results")
    p_gen.add_argument("--check", action="store_true", help="rewrite nothing; exit 1 naming each out-of-date file")
    p_gen.set_defaults(func=_cmd_generate)
    p_scaffold = sub.add_parser("scaffold-claim", help="add a draft row to a chapter: its module, its unit test and "
                                                       "a draft cell (shown marked draft; never stops the run)")
    p_scaffold.add_argument("chapter", help="chapter key (see `list`)")
    p_scaffold.add_argument("name", help="the draft's name: lowercase letters, digits, _ (row id <key>.draft.<name>)")
    p_scaffold.set_defaults(func=_cmd_scaffold_claim)
    p_student = sub.add_parser("student-edition", help="build the book without the exercises' solutions "
                                                       "(sphinx-exercise's hide_solutions), for a course")
    p_student.add_argument("--out", default=str(REPO / "_build" / "student"),
                           help="output folder (default: _build/student; the site is in its _build/html)")
    p_student.add_argument("--strict", action="store_true",
                           help="fail on any warning, as the book build in CI does (-W -n --keep-going)")
    p_student.set_defaults(func=_cmd_student_edition)
    p_fetch = sub.add_parser("fetch-data", help="download WikiText-2 (all three splits) and check every file")
    p_fetch.add_argument("--to", default=None, help="data root (default: $RNNREPRO_DATA, else ~/.local/share/rnnrepro)")
    p_fetch.add_argument("--base-url", default=None, help="where the files are (default: their public source)")
    p_fetch.set_defaults(func=_cmd_fetch_data)
    return parser


def main(argv=None) -> int:
    for stream in (sys.stdout, sys.stderr):      # a console or pipe without UTF-8 (Windows' cp1252) prints ≤ as ?
        if hasattr(stream, "reconfigure") and (stream.encoding or "").lower().replace("-", "") != "utf8":
            stream.reconfigure(errors="replace")
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ConfigError, RnnreproError) as exc:
        print(f"error: {without_latex(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:          # Ctrl-C outside a chapter's execution (`run` handles its own)
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:            # `python -m rnnrepro list | head`: the reader has what it wanted
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())   # no second BrokenPipeError when Python flushes stdout
        return 0
