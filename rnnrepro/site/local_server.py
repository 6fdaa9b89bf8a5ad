"""A folder served over HTTP on 127.0.0.1 for the duration of a ``with`` block (tests and the
browser check of the built book; never a public address)."""

from __future__ import annotations

import functools
import http.server
import threading
from contextlib import contextmanager
from pathlib import Path


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@contextmanager
def serve(folder: Path):
    """Serve ``folder`` on 127.0.0.1 (a free port) for the duration; yield the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
