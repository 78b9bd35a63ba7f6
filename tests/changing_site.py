"""A small site that changes between crawls (a switch, not files edited by hand), served on
127.0.0.1 with ``ETag`` / ``Last-Modified`` validators, robots.txt and a sitemap with lastmod.

Version 1 and version 2 of the site differ as a re-crawl meets real sites:

========== ================================== ==================================================
path       version 1                          version 2
========== ================================== ==================================================
``/``      links to a, b, d                   links to a, b, e (navigation only: same main text)
``/a``     links to c                         the same bytes (answers 304 to its validators)
``/b``     text B1                            text B2 (edited)
``/c``     a page                             404 (still linked from ``/a``)
``/d``     a page                             served but no longer linked: not reached
``/e``     (none)                             a new page
``/s``     sitemap only, old lastmod          unchanged, old lastmod (never fetched again)
``/t``     sitemap only, old lastmod          edited, lastmod today
========== ================================== ==================================================

``honour_validators = False`` makes the server ignore validators (always 200); paths in
``wrong_304`` get a 304 to any request that does not say ``Cache-Control: no-cache``, as a broken
cache answers for a URL it never saw.
"""

from __future__ import annotations

import hashlib
import random
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime, parsedate_to_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

WORDS = ("harbour lantern orchard granite meadow copper valley ember signal thunder quarry "
         "willow beacon compass marble glacier timber falcon prairie canyon summit cedar voyage "
         "anchor meridian crystal horizon pebble saffron tundra juniper basalt monsoon").split()
OLD_DATE = datetime(2020, 1, 1, tzinfo=UTC)
EDIT_DATE = datetime(2021, 6, 1, tzinfo=UTC)


def _text(seed: str, paragraphs: int = 3) -> str:
    """Paragraphs of seeded prose, different for every seed."""
    rng = random.Random(seed)
    return "\n".join(
        "<p>" + " ".join(" ".join(rng.choice(WORDS) for _ in range(12)).capitalize() + "."
                         for _ in range(4)) + "</p>" for _ in range(paragraphs))


def _page(title: str, body_seed: str, nav: list[str], links: list[str] = ()) -> bytes:
    nav_html = " ".join(f'<a href="{p}">{p}</a>' for p in nav)
    link_html = "".join(f'<p>See also <a href="{p}">the page at {p}</a>.</p>' for p in links)
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
            f"</head><body><header><nav>{nav_html}</nav></header><main><article><h1>{title}</h1>"
            f"{_text(body_seed)}{link_html}</article></main>"
            f"<footer><p>Changing site footer.</p></footer></body></html>").encode()


@dataclass
class Version:
    """One version of the site: path -> (body, last modified, sitemap lastmod or None)."""

    pages: dict[str, tuple[bytes, datetime, str | None]]


def site_versions() -> dict[int, Version]:
    """The two versions described in the module docstring."""
    today = datetime.now(UTC).date().isoformat()
    nav1, nav2 = ["/", "/a", "/b", "/d"], ["/", "/a", "/b", "/e"]
    common = {
        "/a": (_page("Page A", "a", ["/", "/b"], ["/c"]), OLD_DATE, None),
        "/s": (_page("Page S", "s", []), OLD_DATE, OLD_DATE.date().isoformat()),
    }
    one = Version({
        **common,
        "/": (_page("Home", "home", nav1), OLD_DATE, None),
        "/b": (_page("Page B", "b1", nav1), OLD_DATE, None),
        "/c": (_page("Page C", "c", nav1), OLD_DATE, None),
        "/d": (_page("Page D", "d", nav1), OLD_DATE, None),
        "/t": (_page("Page T", "t1", []), OLD_DATE, OLD_DATE.date().isoformat()),
    })
    two = Version({
        **common,
        "/": (_page("Home", "home", nav2), EDIT_DATE, None),
        "/b": (_page("Page B", "b2", nav2), EDIT_DATE, None),
        "/d": (_page("Page D", "d", nav1), OLD_DATE, None),
        "/e": (_page("Page E", "e", nav2), EDIT_DATE, None),
        "/t": (_page("Page T", "t2", []), EDIT_DATE, today),
    })
    return {1: one, 2: two}


def etag_of(body: bytes) -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:16] + '"'


@dataclass(frozen=True)
class Hit:
    """One request the server answered."""

    path: str
    status: int
    bytes_sent: int
    if_none_match: str | None
    if_modified_since: str | None


@dataclass
class SiteState:
    """The switch and the log, shared with the handler threads."""

    version: int = 1
    honour_validators: bool = True
    wrong_304: set[str] = field(default_factory=set)
    hits: list[Hit] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class ChangingSiteHandler(BaseHTTPRequestHandler):
    """Serves the current version with validators, robots.txt and sitemap.xml."""

    server: ChangingSiteServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
        """Quiet: requests are kept in the state's log."""

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        """Answer from the current version of the site."""
        state = self.server.state
        path = self.path.split("?", 1)[0]
        version = self.server.versions[state.version]
        if path == "/robots.txt":
            return self._send(200, f"User-agent: *\nAllow: /\nSitemap: {self.server.origin}"
                                   "/sitemap.xml\n".encode(), "text/plain")
        if path == "/sitemap.xml":
            entries = "".join(f"<url><loc>{self.server.origin}{p}</loc><lastmod>{lastmod}"
                              f"</lastmod></url>" for p, (_, _, lastmod) in version.pages.items()
                              if lastmod)
            return self._send(200, ('<?xml version="1.0" encoding="UTF-8"?><urlset xmlns='
                                    '"http://www.sitemaps.org/schemas/sitemap/0.9">'
                                    f"{entries}</urlset>").encode(), "application/xml")
        if path not in version.pages:
            return self._send(404, b"<html><body>Not found</body></html>", "text/html")
        body, modified, _ = version.pages[path]
        if path in state.wrong_304 and "no-cache" not in (self.headers.get("Cache-Control") or ""):
            return self._send(304, b"", None)
        etag = etag_of(body)
        if state.honour_validators and self._not_modified(etag, modified):
            return self._send(304, b"", None, etag=etag, modified=modified)
        return self._send(200, body, "text/html; charset=utf-8", etag=etag, modified=modified)

    def _not_modified(self, etag: str, modified: datetime) -> bool:
        match = self.headers.get("If-None-Match")
        if match is not None:
            return etag in [m.strip() for m in match.split(",")]
        since = self.headers.get("If-Modified-Since")
        if since:
            try:
                return modified <= parsedate_to_datetime(since)
            except (TypeError, ValueError):
                return False
        return False

    def _send(self, status: int, body: bytes, content_type: str | None, *,
              etag: str | None = None, modified: datetime | None = None) -> None:
        state = self.server.state
        with state.lock:
            state.hits.append(Hit(self.path, status, len(body),
                                  self.headers.get("If-None-Match"),
                                  self.headers.get("If-Modified-Since")))
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        if etag:
            self.send_header("ETag", etag)
        if modified:
            self.send_header("Last-Modified", format_datetime(modified, usegmt=True))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class ChangingSiteServer(ThreadingHTTPServer):
    """The changing site on 127.0.0.1; flip ``state.version`` between crawls."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), ChangingSiteHandler)
        self.state = SiteState()
        self.versions = site_versions()
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def hits_since(self, start: int) -> list[Hit]:
        """Requests answered after the first ``start`` ones."""
        with self.state.lock:
            return list(self.state.hits[start:])

    def hit_count(self) -> int:
        with self.state.lock:
            return len(self.state.hits)

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
