"""The book's Sphinx extension (``extra_extensions: [rnnrepro.sphinxext]`` in ``_config.yml``).

- :mod:`.downloads`: each chapter's ledger JSON and figure data beside its page;
- :mod:`.mathjax`: MathJax served from the book itself, so math typesets offline;
- :mod:`.scripts`: each page's scripts loaded once (sphinx-thebe registers its configuration twice).
"""

from . import downloads, mathjax, scripts


def setup(app):
    for module in (downloads, mathjax, scripts):
        module.setup(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
