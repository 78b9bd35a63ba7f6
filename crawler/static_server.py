"""A folder served on a free 127.0.0.1 port, without an access log: the demo crawls a bundled
site from it, and benchmarks serve their pages from it."""

from __future__ import annotations

import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves files without a log line per request (the terminal is the crawl's)."""

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        """No access log."""


def serve_folder(folder: Path) -> ThreadingHTTPServer:
    """Serve ``folder`` on a free 127.0.0.1 port from a daemon thread; the caller stops it with
    ``shutdown()`` and ``server_close()``. Its origin is ``http://127.0.0.1:PORT`` with PORT
    ``server.server_address[1]``."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(folder)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
