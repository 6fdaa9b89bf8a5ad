"""Download and launch buttons that go somewhere.

- Every executed page offers its executed notebook (``.ipynb``, with outputs) in the download menu:
  the build's ``jupyter_execute/<page>.ipynb``, copied to ``_sources/`` (the theme copies it only when
  a launch service is configured, and none is until the book has a public address).
- A launch button only once the public address is set (``repository-code`` in ``CITATION.cff``, a
  GitHub repository: :func:`rnnrepro.book.cite.book_metadata`): Binder, which builds ``binder/``'s
  environment from the repository and opens the chapter's MyST source as a notebook. Until then no
  launch button at all: a button to a placeholder leads nowhere. No Colab button: Colab opens notebooks
  from a GitHub branch, and the publishing workflow deploys the site as a Pages artifact, not to a
  branch, so no branch holds the executed ``.ipynb`` (readers download it from the page and upload it).
- sphinx-thebe's per-page configuration is removed: the book does not use thebe, and its default
  names an example repository.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx

BINDERHUB = "https://mybinder.org"


def github_repository() -> tuple[str, str] | None:
    """``(owner, name)`` of the book's public GitHub repository, or None while it is not set."""
    from rnnrepro.book.cite import book_metadata

    repository = book_metadata()["repository"]
    if not repository or not repository.startswith("https://github.com/"):
        return None
    owner, name = repository.removeprefix("https://github.com/").split("/")[:2]
    return owner, name


def configure_launch(app: Sphinx, config) -> None:
    """``config-inited``: Binder's launch button (and the theme's repository address) only when the
    public address is set; none otherwise."""
    options = config.html_theme_options
    launch = dict(options.get("launch_buttons") or {})
    repository = github_repository()
    if repository is None:
        launch.pop("binderhub_url", None)
    else:
        launch["binderhub_url"] = BINDERHUB
        options["repository_url"] = "https://github.com/{}/{}".format(*repository)
    options["launch_buttons"] = launch


def offer_executed_notebook(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """``html-page-context``: copy the page's executed notebook beside its sources and list it in the
    download menu (before the theme builds that menu)."""
    executed = Path(app.outdir).parent / "jupyter_execute" / f"{pagename}.ipynb"
    if not executed.is_file():
        return
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(executed, target)
    context["ipynb_source"] = f"{pagename}.ipynb"


def drop_thebe_config(app: Sphinx, doctree, docname: str) -> None:
    """``doctree-resolved`` (after sphinx-thebe's): remove its configuration blocks from the page."""
    for node in list(doctree.findall(nodes.raw)):
        if "text/x-thebe-config" in node.astext() or "kernelName = " in node.astext():
            node.parent.remove(node)


def setup(app: Sphinx) -> None:
    app.connect("config-inited", configure_launch)
    app.connect("html-page-context", offer_executed_notebook, priority=400)
    app.connect("doctree-resolved", drop_thebe_config, priority=900)
