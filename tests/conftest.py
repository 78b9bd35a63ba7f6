"""Shared test fixtures: static sites served on 127.0.0.1, and crawls run as a user runs them."""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SITES_DIR = Path(__file__).resolve().parent / "sites"

#: Placeholder in served .xml and .txt files, replaced by the server's origin.
ORIGIN_PLACEHOLDER = "__ORIGIN__"


class StaticSiteHandler(SimpleHTTPRequestHandler):
    """Serves a folder; fills in the origin in sitemaps/robots.txt and gzips ``X.xml`` as
    ``X.xml.gz`` on request; records every request path."""

    server: StaticSiteServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
        """Quiet: the request log is kept in memory instead."""

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        """Record the request, then serve templated or static content."""
        self.server.record(self.path)
        relative = self.path.split("?", 1)[0].split("#", 1)[0].lstrip("/")
        target = Path(self.directory) / relative
        if relative.endswith((".xml", ".txt")) and target.is_file():
            return self._send(self._templated(target), "application/xml"
                              if relative.endswith(".xml") else "text/plain")
        if relative.endswith(".xml.gz") and not target.exists():
            source = target.with_suffix("")
            if source.is_file():
                return self._send(gzip.compress(self._templated(source)), "application/gzip")
        return super().do_GET()

    def _templated(self, path: Path) -> bytes:
        return path.read_bytes().replace(ORIGIN_PLACEHOLDER.encode(), self.server.origin.encode())

    def _send(self, body: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class StaticSiteServer(ThreadingHTTPServer):
    """A threaded HTTP server for one folder, with a log of the paths requested."""

    daemon_threads = True

    def __init__(self, root: Path) -> None:
        super().__init__(("127.0.0.1", 0), partial(StaticSiteHandler, directory=str(root)))
        self.root = root
        self.requests: list[str] = []
        self._lock = threading.Lock()

    @property
    def origin(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.server_address[1]}"

    def url(self, path: str = "/") -> str:
        """Absolute URL of a path on this server."""
        return self.origin + path

    def record(self, path: str) -> None:
        """Remember one request path (thread-safe)."""
        with self._lock:
            self.requests.append(path)

    def request_counts(self) -> Counter[str]:
        """How often each path was requested."""
        with self._lock:
            return Counter(self.requests)


def start_static_server(root: Path | str) -> StaticSiteServer:
    """Serve a folder (or a test site by name) on 127.0.0.1 in a background thread."""
    root = Path(root)
    if not root.is_absolute():
        root = SITES_DIR / root / "public"
    server = StaticSiteServer(root)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def stop_static_server(server: StaticSiteServer) -> None:
    """Stop a server started by :func:`start_static_server` and free its port."""
    server.shutdown()
    server.server_close()


@contextmanager
def static_servers() -> Iterator[Any]:
    """A ``start(folder)`` function whose servers all stop when the block ends."""
    servers: list[StaticSiteServer] = []

    def start(root: Path | str) -> StaticSiteServer:
        server = start_static_server(root)
        servers.append(server)
        return server

    try:
        yield start
    finally:
        for server in servers:
            stop_static_server(server)


@pytest.fixture
def serve_site() -> Iterator[Any]:
    """Factory fixture: ``serve_site(folder)`` serves a folder on 127.0.0.1 until the test ends."""
    with static_servers() as start:
        yield start


@dataclass
class CrawlResult:
    """What a user sees after ``scrapy crawl``: exit code, log, feed items, stats, database."""

    returncode: int
    log: str
    items: list[dict[str, Any]]
    stats: dict[str, Any]
    db_path: Path
    feed_path: Path
    extra: dict[str, Any] = field(default_factory=dict)

    def rows(self, columns: str = "*") -> list[dict[str, Any]]:
        """Rows of the `pages` table."""
        if not self.db_path.exists():
            return []
        conn = sqlite3.connect(self.db_path)
        conn.row_factory = sqlite3.Row
        try:
            return [dict(r) for r in conn.execute(f"SELECT {columns} FROM pages ORDER BY url")]
        finally:
            conn.close()

    def urls(self) -> list[str]:
        """URLs of the items in the feed, in feed order."""
        return [item["url"] for item in self.items]


def crawl_command(start: str, workdir: Path, *, spider_args: dict[str, Any] | None = None,
                  settings: dict[str, Any] | None = None, feed_name: str = "items.jsonl",
                  db_name: str = "crawl.db", overwrite_feed: bool = True) -> list[str]:
    """The ``scrapy crawl domain`` command line a test runs (quiet, unthrottled, local).

    With ``overwrite_feed`` false there is no ``-O``: the project's default feed applies.
    """
    command = [sys.executable, "-m", "scrapy", "crawl", "domain", "-a", f"start={start}"]
    if overwrite_feed:
        command += ["-O", str(workdir / feed_name)]
    for name, value in (spider_args or {}).items():
        command += ["-a", f"{name}={value}"]
    merged = {
        "SQLITE_PATH": str(workdir / db_name),
        "CRAWL_STATS_PATH": str(workdir / (feed_name + ".stats.json")),
        "AUTOTHROTTLE_ENABLED": "false",
        "LOG_LEVEL": "INFO",
        "DOWNLOAD_TIMEOUT": "20",
    }
    merged.update({k: str(v) for k, v in (settings or {}).items()})
    for name, value in merged.items():
        command += ["-s", f"{name}={value}"]
    return command


def read_crawl(returncode: int, log: str, workdir: Path, feed_name: str = "items.jsonl",
               db_name: str = "crawl.db") -> CrawlResult:
    """Collect the outputs of a finished crawl."""
    feed = workdir / feed_name
    items = [json.loads(line) for line in feed.read_text().splitlines()] if feed.exists() else []
    stats_file = workdir / (feed_name + ".stats.json")
    stats = json.loads(stats_file.read_text()) if stats_file.exists() else {}
    return CrawlResult(returncode, log, items, stats, workdir / db_name, feed)


def run_crawl(start: str, workdir: Path, *, timeout: float = 240, env: dict[str, str] | None = None,
              **kwargs: Any) -> CrawlResult:
    """Run ``scrapy crawl domain`` in a subprocess from the project root and collect its output."""
    workdir.mkdir(parents=True, exist_ok=True)
    command = crawl_command(start, workdir, **kwargs)
    process_env = dict(os.environ, **(env or {}))
    completed = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True,
                               timeout=timeout, env=process_env)
    return read_crawl(completed.returncode, completed.stdout + completed.stderr, workdir,
                      kwargs.get("feed_name", "items.jsonl"), kwargs.get("db_name", "crawl.db"))


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Path of the browser a crawl renders with by default (CHROMIUM_PATH's first executable):
    rendering tests need a real one, and render with the one the crawl chooses."""
    from crawler.rendering import find_browser
    from crawler.settings import CHROMIUM_PATH

    path = find_browser(CHROMIUM_PATH)
    if path is None:
        pytest.fail(f"rendering tests need a browser at {CHROMIUM_PATH}; run the test command "
                    "from the README, which installs it")
    return path


@pytest.fixture(scope="session")
def crawled_docs_site(tmp_path_factory: pytest.TempPathFactory) -> CrawlResult:
    """A real crawl of the Hugo Book test site (37 pages, no rendering), made once per test
    session for the commands that read a crawl database; copy ``db_path`` before changing it."""
    workdir = tmp_path_factory.mktemp("docs-crawl")
    with static_servers() as start:
        server = start("hugo-book")
        crawl = run_crawl(server.url("/"), workdir, spider_args={"render": "never"})
    assert crawl.returncode == 0, crawl.log[-3000:]
    return crawl


def project_settings(**overrides: Any) -> dict[str, Any]:
    """The project's own settings (those Scrapy does not define) with ``overrides``: what a
    component built alone with ``get_crawler(settings_dict=...)`` reads in a real crawl, since
    their defaults live in ``crawler/settings.py`` only."""
    from scrapy.settings import default_settings

    from crawler import settings as module

    values = {name: value for name, value in vars(module).items()
              if name.isupper() and not hasattr(default_settings, name)}
    values.update(overrides)
    return values
