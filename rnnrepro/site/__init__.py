"""The built website: the book's Sphinx extension (``sphinxext``) and the offline check of the built
pages in a headless browser (``browser_check``, served by ``local_server``)."""
