"""Sphinx extension: serve MathJax 3 from the built book itself, so math typesets with no network.

MathJax comes from the pinned PyPI package ``django-static-mathjax`` (MathJax 3.2.2, its ``es5``
build; nothing is fetched at build time). After an HTML build the components the pages use are
copied to ``_static/mathjax/``; ``mathjax_path`` in ``_config.yml`` points there.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rnnrepro.errors import RnnreproError
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: What the pages load: the combined TeX/MathML → CommonHTML component and what it loads on demand.
COMPONENTS = ("tex-mml-chtml.js", "input", "output/chtml", "ui", "a11y")
MATHJAX_PATH = "mathjax/tex-mml-chtml.js"   # relative to _static (the value of mathjax_path)


def packaged_mathjax() -> Path:
    """The ``es5`` folder of the installed MathJax; RnnreproError when the package is missing."""
    try:
        import mathjax
    except ImportError:
        raise RnnreproError("MathJax is not installed: run `bash .ci/venv` (it installs requirements.txt, "
                            "which pins django-static-mathjax)") from None
    return Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"


def copy_mathjax(static_dir: Path) -> int:
    """Copy :data:`COMPONENTS` into ``<static_dir>/mathjax``; return the number of files copied."""
    source, target = packaged_mathjax(), Path(static_dir) / "mathjax"
    for part in COMPONENTS:
        src, dst = source / part, target / part
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True)
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    return sum(1 for f in target.rglob("*") if f.is_file())


def _check_config(app, config) -> None:
    if config.mathjax_path != MATHJAX_PATH:
        raise RnnreproError(f"_config.yml must set sphinx.config.mathjax_path to {MATHJAX_PATH!r} "
                            f"(the local copy), not {config.mathjax_path!r}")


def _on_build_finished(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        copy_mathjax(Path(app.outdir) / "_static")


def setup(app: Sphinx) -> dict:
    packaged_mathjax()   # fail at once, with what to do, when the package is missing
    app.connect("config-inited", _check_config)
    app.connect("build-finished", _on_build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
