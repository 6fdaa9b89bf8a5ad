"""Download and launch buttons (rnnrepro.site.sphinxext.launch), with stand-ins for Sphinx's objects:
the executed notebook in every page's download menu, launch buttons only once the public address
is set, and no thebe configuration naming an example repository."""

from types import SimpleNamespace

import pytest
import yaml
from docutils import nodes

from rnnrepro.book import cite
from rnnrepro.book.paths import REPO
from rnnrepro.site.sphinxext import launch


@pytest.fixture
def published(monkeypatch):
    meta = dict(cite.book_metadata(), url="https://example.org/book", repository="https://github.com/owner/book")
    monkeypatch.setattr(cite, "book_metadata", lambda: meta)


@pytest.fixture
def unpublished(monkeypatch):
    meta = dict(cite.book_metadata(), url=None, repository=None)
    monkeypatch.setattr(cite, "book_metadata", lambda: meta)


def _config():
    return SimpleNamespace(html_theme_options={"launch_buttons": {"notebook_interface": "classic",
                                                                  "binderhub_url": launch.BINDERHUB}})


def _executed(tmp_path):
    """A build folder with an executed chapter notebook; returns (app, html folder)."""
    (tmp_path / "jupyter_execute" / "book" / "chapters").mkdir(parents=True)
    (tmp_path / "jupyter_execute" / "book" / "chapters" / "li.ipynb").write_text('{"cells": []}')
    return SimpleNamespace(outdir=str(tmp_path / "html")), tmp_path / "html"


def test_no_launch_button_until_the_public_address_is_set(unpublished, tmp_path):
    config = _config()
    launch.configure_launch(None, config)
    assert "binderhub_url" not in config.html_theme_options["launch_buttons"]
    app, _ = _executed(tmp_path)
    context = {"header_buttons": []}
    launch.offer_executed_notebook(app, "book/chapters/li", "page.html", context, None)
    assert context["header_buttons"] == []


def test_binder_once_the_address_is_set_and_no_colab(published, tmp_path):
    config = _config()
    config.html_theme_options["launch_buttons"].pop("binderhub_url")
    launch.configure_launch(None, config)
    assert config.html_theme_options["launch_buttons"]["binderhub_url"] == "https://mybinder.org"
    assert config.html_theme_options["repository_url"] == "https://github.com/owner/book"
    assert "colab_url" not in config.html_theme_options["launch_buttons"], "no branch holds the executed .ipynb"


def test_every_executed_page_offers_its_notebook_for_download(tmp_path):
    app, html = _executed(tmp_path)
    context = {}
    launch.offer_executed_notebook(app, "book/chapters/li", "page.html", context, None)
    assert context["ipynb_source"] == "book/chapters/li.ipynb"
    assert (html / "_sources" / "book" / "chapters" / "li.ipynb").read_text() == '{"cells": []}'
    other = {}
    launch.offer_executed_notebook(app, "book/references", "page.html", other, None)    # not executed
    assert "ipynb_source" not in other


def test_thebe_configuration_is_removed_and_nothing_else():
    doc = nodes.document(None, None)
    doc += nodes.paragraph(text="text")
    doc += nodes.raw(text='<script type="text/x-thebe-config">{ binderOptions: { repo: '
                          '"binder-examples/jupyter-stacks-datascience" } }</script>', format="html")
    doc += nodes.raw(text="<script>kernelName = 'python3'</script>", format="html")
    doc += nodes.raw(text="<div>kept</div>", format="html")
    launch.drop_thebe_config(None, doc, "book/chapters/li")
    assert [n.astext() for n in doc.children] == ["text", "<div>kept</div>"]


def test_config_names_no_launch_service_or_example_repository():
    """_config.yml: no Binder/Colab button of its own (the extension adds them once the address is
    set), no thebe, and no example repository anywhere."""
    text = (REPO / "_config.yml").read_text()
    config = yaml.safe_load(text)
    theme = config["sphinx"]["config"]["html_theme_options"]
    for buttons in (config["launch_buttons"], theme["launch_buttons"]):
        assert not {"binderhub_url", "colab_url", "jupyterhub_url", "thebe"} & set(buttons), buttons
    assert "binder-examples" not in text and "thebe_config" not in text
    assert "rnnrepro.site.sphinxext" in config["sphinx"]["extra_extensions"]


def test_in_a_small_build_the_page_offers_its_executed_notebook_and_no_launch_or_thebe(tmp_path, unpublished):
    """A real Sphinx build with the book's theme, myst-nb and sphinx-thebe: one executed MyST notebook."""
    from sphinx.application import Sphinx

    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        'extensions = ["myst_nb", "sphinx_thebe", "rnnrepro.site.sphinxext.launch"]\n'
        'html_theme = "sphinx_book_theme"\nnb_execution_mode = "force"\n'
        'html_theme_options = {"use_download_button": True, "repository_url": "https://github.com/rnnrepro/rnnrepro",'
        ' "launch_buttons": {"notebook_interface": "classic", "binderhub_url": "https://mybinder.org"}}\n')
    (src / "index.md").write_text("---\njupytext:\n  text_representation:\n    format_name: myst\n"
                                  "kernelspec:\n  name: python3\n  display_name: Python 3\n---\n# Page\n\n"
                                  "```{code-cell} ipython3\nprint(6 * 7)\n```\n")
    out = tmp_path / "_build"
    app = Sphinx(str(src), str(src), str(out / "html"), str(out / "doctrees"), "html", status=None, warning=None,
                 freshenv=True)
    app.build()
    page = (out / "html" / "index.html").read_text()
    assert 'href="_sources/index.ipynb"' in page and "42" in (out / "html" / "_sources" / "index.ipynb").read_text()
    assert "mybinder.org" not in page and "colab.research.google.com" not in page
    assert "x-thebe-config" not in page and "binder-examples" not in page
