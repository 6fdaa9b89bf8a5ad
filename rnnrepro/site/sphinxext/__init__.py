"""The book's Sphinx extension (``extra_extensions: [rnnrepro.site.sphinxext]`` in ``_config.yml``).

- :mod:`.alt_text`: each figure's image described by its caption's first sentence;
- :mod:`.data_check`: every chapter's data fetched or found before any chapter executes, else one line;
- :mod:`.downloads`: each chapter's ledger JSON and figure data beside its page;
- :mod:`.phone_figures`: on a phone, each wide figure's phone variant (its panels stacked in one column);
- :mod:`.printed`: each chapter's PDF, the whole book's and a zip of the executed notebooks, made by the
  build (the PDFs when Chromium and poppler are present; otherwise one line and no page offers them);
- :mod:`.launch`: the executed .ipynb in every page's download menu; a Binder launch button only once
  the public address is set; no thebe configuration naming an example repository;
- :mod:`.mathjax`: MathJax served from the book itself, so math typesets offline;
- :mod:`.scripts`: each page's scripts loaded once (sphinx-thebe registers its configuration twice);
- :mod:`.style`: the book's style sheet and scripts (claims tables that fit the page, status badges,
  the scorecard's filter), MathJax on every page, a valid default colour mode for the theme;
- :mod:`.book_table`: the ``rnnrepro-book-table`` directive (the book-wide table on the intro, made
  when the page is written, after the chapters ran);
- :mod:`.bibliography`: author–year labels in the bibliography, as the text cites;
- :mod:`.heartbeat`: a line every 30 s while a chapter executes, naming it, how long it has run and its section;
- :mod:`.ipc_kernels`: the chapters' kernels talk over local IPC sockets, not TCP;
- :mod:`.execution_cache`: Jupyter Book's execution cache re-executes what the package, a lost ledger or a
  page reading other pages makes stale;
- :mod:`.parallel_execution`: the chapters execute side by side before any page is read, one per core,
  into the execution cache, so a build takes about as long as its longest chapter where cores allow;
- :mod:`.publish`: with the book's public address, each page's canonical link and Open Graph preview, and
  ``sitemap.xml``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rnnrepro.site.sphinxext import (alt_text, bibliography, book_table, data_check, downloads, heartbeat, ipc_kernels,
                                    launch, mathjax, phone_figures, printed, scripts, style)
from rnnrepro.site.sphinxext import execution_cache, parallel_execution, publish

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def setup(app: Sphinx) -> dict:
    for module in (alt_text, bibliography, book_table, data_check, downloads, heartbeat, ipc_kernels, launch, mathjax,
                   phone_figures, printed, scripts, style, publish, execution_cache, parallel_execution):
        module.setup(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
