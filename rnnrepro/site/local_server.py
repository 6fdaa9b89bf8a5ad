"""A folder served over HTTP on 127.0.0.1 for the duration of a ``with`` block (tests and the
browser check of the built book; never a public address). The browser check adds a probe script to
every HTML page it serves (``inject``); the files on disk are not changed."""

from __future__ import annotations

import functools
import http.server
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_HEAD = re.compile(rb"<head(\s[^>]*)?>", re.IGNORECASE)
#: Content types of the extra files served from memory (by their path's suffix).
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".json": "application/json"}


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    inject = b""
    extra: dict[str, bytes] = {}

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        if self.path.split("?")[0] in self.extra:
            name = self.path.split("?")[0]
            return self._send(self.extra[name], _TYPES.get(Path(name).suffix, _TYPES[".html"]))
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if not self.inject or path.suffix != ".html" or not path.is_file():
            return super().do_GET()
        self._send(inject_after_head(path.read_bytes(), self.inject))

    def _send(self, body: bytes, content_type: str = "text/html; charset=utf-8") -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def inject_after_head(page: bytes, snippet: bytes) -> bytes:
    """``page`` with ``snippet`` right after its ``<head>`` tag (first thing to run), or at its start."""
    m = _HEAD.search(page)
    at = m.end() if m else 0
    return page[:at] + snippet + page[at:]


@contextmanager
def serve(folder: Path, inject: str = "", extra: dict[str, str] | None = None) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 (a free port) for the duration; yield the base URL. ``inject``:
    HTML put right after the ``<head>`` tag of every ``.html`` page served; ``extra``: HTML pages served
    at these paths (``/__screen__.html``, ``/__axe__.js``), not on disk, typed by their suffix."""
    pages = {path: html.encode() for path, html in (extra or {}).items()}
    handler_class = type("Handler", (_QuietHandler,), {"inject": inject.encode(), "extra": pages})
    handler = functools.partial(handler_class, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
