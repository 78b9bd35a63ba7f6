"""A threaded HTTP server on 127.0.0.1 that serves every hostile case the crawler must survive.

Run it by hand with ``python -m tests.hostile.server [PORT]``; tests start it in-process.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import logging
import os
import socket
import struct
import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable
from urllib.parse import parse_qs, urlsplit

import brotli
from backports import zstd

from tests.hostile import pages

logger = logging.getLogger(__name__)

#: Size of the huge bodies: streamed in chunks, never held in memory.
HUGE_BODY_SIZE = 50 * 1024 * 1024
#: Sitemaps robots.txt lists unless a test says otherwise: the sitemap traps.
DEFAULT_SITEMAP_PATHS = ("/sitemaps/deep/0.xml", "/sitemaps/wide.xml")
CHUNK = 64 * 1024


@dataclass(frozen=True)
class Hit:
    """One request the server received."""

    path: str
    host: str
    at: float
    cookie_bytes: int = 0
    referer: str = ""


class HostileServer(ThreadingHTTPServer):
    """Threaded server dispatching on path; keeps a log of every request it received."""

    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def __init__(self, port: int = 0, *, site_pages: int = 60, site_fanout: int = 2,
                 site_delay: float = 0.0, robots: str = "allow", host: str = "127.0.0.1") -> None:
        #: The address listened on (``::1``: IPv6 loopback).
        self.host = host
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        super().__init__((host, port), HostileHandler)
        self.robots_mode = robots
        #: Sitemaps robots.txt lists (in the "allow" mode).
        self.sitemap_paths = list(DEFAULT_SITEMAP_PATHS)
        self.site_pages = site_pages
        self.site_fanout = site_fanout
        self.site_delay = site_delay
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._hits: list[Hit] = []
        self._counts: Counter[str] = Counter()
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The port the server listens on."""
        return self.server_address[1]

    @property
    def base(self) -> str:
        """Base URL of the server by IP address."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def record(self, path: str, host: str, cookie_bytes: int = 0, referer: str = "") -> int:
        """Log one request; return how many times this path (with query) was requested so far."""
        with self._lock:
            self._hits.append(Hit(path, host, time.monotonic(), cookie_bytes, referer))
            self._counts[path] += 1
            return self._counts[path]

    def hits(self, prefix: str = "") -> list[Hit]:
        """Requests received so far whose path starts with ``prefix``."""
        with self._lock:
            return [h for h in self._hits if h.path.startswith(prefix)]

    def start(self) -> HostileServer:
        """Serve in a daemon thread."""
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.1},
                                        name="hostile-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; release handlers that hang on purpose."""
        self.stopping.set()
        self.shutdown()
        self.server_close()

    def handle_error(self, request, client_address) -> None:  # noqa: ANN001 - socketserver API
        """Clients hanging up mid-body are expected here; log them quietly."""
        logger.debug("client %s went away", client_address)


class HostileHandler(BaseHTTPRequestHandler):
    """Dispatches a GET on its path prefix to the case that serves it."""

    server: HostileServer
    protocol_version = "HTTP/1.0"

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - stdlib signature
        """Keep test output quiet; the server records hits itself."""
        logger.debug(format, *args)

    # -- helpers ---------------------------------------------------------------------------

    def send(self, status: int, body: bytes | str = b"",
             content_type: str = "text/html; charset=utf-8",
             headers: dict[str, str] | None = None) -> None:
        """Send a complete response with a Content-Length."""
        if isinstance(body, str):
            body = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def redirect(self, location: str, status: int = 302) -> None:
        """Send a redirect to ``location``."""
        self.send(status, b"", headers={"Location": location})

    @property
    def host_name(self) -> str:
        """Host header without port."""
        return (self.headers.get("Host") or "").rsplit(":", 1)[0]

    # -- dispatch --------------------------------------------------------------------------

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        """Record the hit and dispatch on the longest matching route."""
        if self.path.startswith(("http://", "https://")):
            # asked through a proxy (absolute form): served as its origin would serve it
            absolute = urlsplit(self.path)
            self.path = absolute.path + (f"?{absolute.query}" if absolute.query else "")
        count = self.server.record(self.path, self.headers.get("Host") or "",
                                   len(self.headers.get("Cookie") or ""),
                                   self.headers.get("Referer") or "")
        split = urlsplit(self.path)
        for prefix, handler in ROUTES:
            if split.path == prefix or (prefix.endswith("/") and prefix != "/"
                                        and split.path.startswith(prefix)):
                try:
                    handler(self, split.path[len(prefix):], parse_qs(split.query), count)
                except (BrokenPipeError, ConnectionResetError):
                    logger.debug("client hung up on %s", self.path)
                return
        self.send(404, pages.article("Not found", ["No such page on the hostile server."]))

    # -- cases -----------------------------------------------------------------------------

    def index(self, rest: str, query: dict, count: int) -> None:
        """Entry page linking every case and the control pages."""
        self.send(200, pages.control_page("index", links=INDEX_LINKS))

    def robots(self, rest: str, query: dict, count: int) -> None:
        """Allow everything but ``/private/`` and list the sitemap traps (``robots="allow"``);
        or never answer (``"hang"``), answer 503 (``"error"``), send 20 MB whose first
        lines forbid ``/private/`` (``"huge"``), or forbid ``/private/`` and then list 1.5 MB
        of rules, the last of which forbids ``/ok/past-limit`` (``"long"``), or forbid both in
        UTF-16 (``"utf-16"``, with a byte-order mark; ``"utf-16-be"``, without), or redirect to
        the same server under the name ``localhost``, which forbids ``/private/``
        (``"offhost"``), or redirect to itself (``"loop"``), or forbid both with a NUL byte
        ending each line (``"nul"``)."""
        rules = "User-agent: *\nDisallow: /private/\nAllow: /\n"
        mode = self.server.robots_mode
        if mode == "offhost" and self.host_name == "127.0.0.1":
            self.redirect(f"http://localhost:{self.server.port}/robots.txt", status=301)
        elif mode == "offhost":
            self.send(200, rules, "text/plain")
        elif mode == "loop":
            self.redirect("/robots.txt", status=301)
        elif mode == "hang":
            self.server.stopping.wait(3600)
        elif mode == "error":
            self.send(503, "maintenance", "text/plain")
        elif mode in ("utf-16", "utf-16-be"):
            self.send(200, (rules + "Disallow: /ok/past-limit\n").encode(mode), "text/plain")
        elif mode == "nul":
            self.send(200, (rules + "Disallow: /ok/past-limit\n").replace("\n", "\0\n"),
                      "text/plain")
        elif mode == "long":
            many = "".join(f"Disallow: /never/{i}/*.php$\n" for i in range(60_000))
            self.send(200, rules + many + "Disallow: /ok/past-limit\n", "text/plain")
        elif mode == "huge":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(rules.encode())
            filler = b"# " + b"x" * 1022 + b"\n"
            for _ in range(20 * 1024):
                if self.server.stopping.is_set():
                    break
                self.wfile.write(filler)
        else:
            sitemaps = "".join(f"Sitemap: {path}\n" for path in self.server.sitemap_paths)
            self.send(200, rules + sitemaps, "text/plain")

    def private(self, rest: str, query: dict, count: int) -> None:
        """A page robots.txt forbids."""
        self.send(200, pages.control_page("private"))

    def sitemaps(self, rest: str, query: dict, count: int) -> None:
        """``deep/<name>.xml``: an index linking one new index with a random name, forever;
        ``wide.xml``: an index of 30 indexes with random names; each of those lists one page;
        ``self.xml``: an index listing itself (twice, once with a fragment) and a sitemap;
        ``entities.xml``: a urlset declaring an entity-expansion bomb and an external entity
        (a local file) used in its first ``<loc>``, then a page; ``broken.xml``: a urlset whose
        XML breaks after its first entry, then lists two pages more; ``elsewhere.xml``: an
        index listing a sitemap of this server under the name ``localhost`` (another host) and
        ``here.xml``, which lists ``/ok/from-here``."""
        def index(locs: list[str]) -> str:
            entries = "".join(f"<sitemap><loc>{'' if '://' in loc else self.origin}{loc}</loc>"
                              "</sitemap>" for loc in locs)
            return ('<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.'
                    f'sitemaps.org/schemas/sitemap/0.9">{entries}</sitemapindex>')
        if rest.startswith("deep/"):
            body = index([f"/sitemaps/deep/{os.urandom(6).hex()}.xml"])
        elif rest == "wide.xml":
            body = index([f"/sitemaps/wide/{os.urandom(6).hex()}.xml" for _ in range(30)])
        elif rest == "self.xml":
            body = index(["/sitemaps/self.xml", "/sitemaps/self.xml#again", "/sitemaps/one.xml"])
        elif rest == "elsewhere.xml":
            body = index([f"http://localhost:{self.server.port}/sitemaps/there.xml",
                          "/sitemaps/here.xml"])
        elif rest == "bomb.xml.gz":
            self.send(200, gzip_bomb(b"<url><loc>" + self.origin.encode() + b"/ok/bomb</loc></url>",
                                     head=b'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns='
                                          b'"http://www.sitemaps.org/schemas/sitemap/0.9">'),
                      "application/x-gzip")
            return
        elif rest in ("entities.xml", "broken.xml"):
            body = pages.hostile_sitemap(rest.removesuffix(".xml"), self.origin)
        else:
            body = ('<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org'
                    f'/schemas/sitemap/0.9"><url><loc>{self.origin}/ok/'
                    f'{"from-here" if rest == "here.xml" else 1}</loc></url></urlset>')
        self.send(200, body, "application/xml")

    @property
    def origin(self) -> str:
        """This server's origin as the client addressed it."""
        return f"http://{self.headers.get('Host') or self.server.base.split('//', 1)[1]}"

    def ok(self, rest: str, query: dict, count: int) -> None:
        """Control pages."""
        self.send(200, pages.control_page(rest or "root"))

    def redirect_loop(self, rest: str, query: dict, count: int) -> None:
        """``a`` -> ``b`` -> ``a``; ``self`` -> ``self``."""
        target = {"a": "b", "b": "a", "self": "self"}.get(rest, "a")
        self.redirect(f"/redirect/loop/{target}")

    def redirect_chain(self, rest: str, query: dict, count: int) -> None:
        """``/redirect/chain/N`` redirects N times before a page."""
        n = int(rest or 0)
        if n > 0:
            self.redirect(f"/redirect/chain/{n - 1}")
        else:
            self.send(200, pages.control_page("end of redirect chain"))

    def redirect_same_page(self, rest: str, query: dict, count: int) -> None:
        """A server that sends directories to their index file: ``/redirect/pretty/guide/``
        answers 301 to ``/redirect/pretty/guide/index.html`` (one page under two URLs), and
        ``/redirect/pretty/refresh/`` does it with a meta refresh."""
        if rest.endswith("index.html"):
            self.send(200, pages.control_page(f"index page of /{rest}"))
        elif rest.startswith("refresh"):
            self.send(200, '<html><head><meta http-equiv="refresh" content="0; url=index.html">'
                           '</head><body></body></html>')
        else:
            self.redirect(f"/redirect/pretty/{rest}index.html", status=301)

    def redirect_offhost(self, rest: str, query: dict, count: int) -> None:
        """Redirect to the same server under another host name."""
        self.redirect(f"http://localhost:{self.server.port}/ok/offhost")

    def canonical_host(self, rest: str, query: dict, count: int) -> None:
        """A site that lives under one of its two names and sends the other there with a 301,
        as most sites do: ``/canonical-host/www/`` under ``www.`` + the name asked for,
        ``/canonical-host/bare/`` under the name without ``www.``; ``/canonical-host/other/``
        sends every name to another domain (``other.test``), ``/canonical-host/loop/`` each of the
        two names to the other. Asked through a proxy (the names
        are not in DNS): a page links two more pages by path and one by its other name."""
        kind, _, page = rest.partition("/")
        asked = self.host_name
        bare = asked.removeprefix("www.")
        home = {"www": f"www.{bare}", "bare": bare, "other": "other.test",
                "loop": bare if asked.startswith("www.") else f"www.{bare}"}.get(kind)
        if home is None:
            self.send(404, pages.article("Not found", ["No such case."]))
        elif kind == "loop":  # each name sends to the other: no name answers
            self.redirect(f"http://{home}/canonical-host/{rest}", status=301)
        elif asked != home:
            self.redirect(f"http://{home}/canonical-host/{rest}", status=301)
        elif page:
            self.send(200, pages.control_page(f"{kind}-host {page}"))
        else:
            other = f"http://{bare if kind == 'www' else 'www.' + bare}/canonical-host/{kind}/c"
            self.send(200, pages.control_page(f"{kind}-host home",
                                              links=[f"/canonical-host/{kind}/a",
                                                     f"/canonical-host/{kind}/b", other]))

    def redirect_escape(self, rest: str, query: dict, count: int) -> None:
        """``/redirect/escape/<target>/`` -> 301 to its ``index.html`` (the same page) -> 302 to
        another host's page: ``localhost``, ``127.0.0.2``, ``0``, ``2130706434``,
        ``[::ffff:127.0.0.2]``, all this server (or none) under another name."""
        target, _, tail = rest.partition("/")
        if tail != "index.html":
            self.redirect(f"/redirect/escape/{target}/index.html", status=301)
            return
        port = self.server.port
        hosts = {"localhost": "localhost", "loopback2": "127.0.0.2", "zero": "0",
                 "integer": "2130706434", "mapped": "[::ffff:127.0.0.2]"}
        self.redirect(f"http://{hosts[target]}:{port}/ok/escaped-{target}")

    def redirect_nowhere(self, rest: str, query: dict, count: int) -> None:
        """A redirect whose Location is no web URL: another scheme, an unclosed IPv6 bracket,
        a port out of range."""
        self.redirect(NOWHERE_TARGETS[rest])

    def redirect_without_location(self, rest: str, query: dict, count: int) -> None:
        """A 302 with a page as its body and no Location header."""
        self.send(302, pages.control_page("redirect without a location"))

    def redirect_long(self, rest: str, query: dict, count: int) -> None:
        """A redirect to a URL of about 3,000 characters."""
        self.redirect(f"/ok/long-{'y' * 3000}")

    def refresh(self, rest: str, query: dict, count: int) -> None:
        """A page whose meta refresh points at ``javascript:``, ``mailto:``, no readable URL
        (``unreadable``), at the other of two pages refreshing to each other (``loop-a``,
        ``loop-b``), or at itself: every minute by its absolute URL (``self``), at once by its
        path (``self-now``), as pages that reload themselves do; a page moved by an HTTP
        ``Refresh`` header instead (``header``), to a page nothing links; or at a URL longer
        than any the crawl follows (``long``)."""
        if rest == "header":
            self.send(200, pages.control_page("refresh header"),
                      headers={"Refresh": "0; url=/ok/refresh-header-target"})
            return
        target = {"javascript": "javascript:alert(1)", "mailto": "mailto:team@example.org",
                  "unreadable": "http://[::1", "loop-a": "/refresh/loop-b",
                  "loop-b": "/refresh/loop-a", "self": f"{self.origin}/refresh/self",
                  "self-now": "/refresh/self-now", "long": f"/ok/long-{'y' * 3000}"}[rest]
        delay = 60 if rest == "self" else 0
        head = f'<meta http-equiv="refresh" content="{delay}; url={target}">'
        self.send(200, pages.article(f"Refresh to {rest}", [f"Refresh page {rest}. "
                                                           + pages.FILLER], head=head))

    def spellings(self, rest: str, query: dict, count: int) -> None:
        """Links to one page under 8 spellings: dot segments, doubled slashes, escapes of
        unreserved characters."""
        links = ["/ok/dots", "/ok/./dots", "/ok/x/../dots", "/ok//dots", "//ok/dots",
                 "/ok/%64ots", "/%6Fk/d%6Fts", "/ok/x/y/../../dots"]
        self.send(200, pages.article("Spellings", ["Spellings. " + pages.FILLER], links=links))

    def canonical(self, rest: str, query: dict, count: int) -> None:
        """A page whose canonical link is 100,000 characters long (``long``), or a
        ``javascript:`` URL (``javascript``)."""
        target = "javascript:alert(1)" if rest == "javascript" else f"/ok/{'c' * 100_000}"
        self.send(200, pages.article(f"{rest.capitalize()} canonical",
                                     [f"{rest.capitalize()} canonical. " + pages.FILLER],
                                     head=f'<link rel="canonical" href="{target}">'))

    def calendar(self, rest: str, query: dict, count: int) -> None:
        """``/cal/YYYY/MM`` links the previous and next month, forever."""
        try:
            year, month = (int(p) for p in rest.strip("/").split("/")[:2])
        except ValueError:
            year, month = 2026, 11
        prev_y, prev_m = (year, month - 1) if month > 1 else (year - 1, 12)
        next_y, next_m = (year, month + 1) if month < 12 else (year + 1, 1)
        links = [f"/cal/{prev_y}/{prev_m:02d}", f"/cal/{next_y}/{next_m:02d}"]
        self.send(200, pages.article(f"Calendar {year}-{month:02d}",
                                     [f"Events of {year}-{month:02d}. " + pages.FILLER],
                                     links=links))

    def pagination(self, rest: str, query: dict, count: int) -> None:
        """``/list?page=N`` links page N+1, forever."""
        page = int((query.get("page") or ["1"])[0])
        self.send(200, pages.article(f"List page {page}",
                                     [f"Items of page {page}. " + pages.FILLER],
                                     links=[f"/list?page={page + 1}"]))

    def repeated(self, rest: str, query: dict, count: int) -> None:
        """A relative link ``a/`` that makes ``/rep/a/a/a/...`` forever."""
        self.send(200, pages.article(f"Repeated {rest}",
                                     [f"Depth {rest.count('a/')}. " + pages.FILLER],
                                     links=["a/"]))

    def grow(self, rest: str, query: dict, count: int) -> None:
        """Each page links a URL 200 characters longer than its own."""
        self.send(200, pages.article("Growing URL", [pages.FILLER],
                                     links=[f"/grow/{rest}{'x' * 200}"]))

    def session(self, rest: str, query: dict, count: int) -> None:
        """Every render links the same two items under fresh session ids."""
        sid = os.urandom(8).hex()
        links = [f"/session/item?PHPSESSID={sid}&id=1", f"/session/item;jsessionid={sid}?id=2",
                 f"/session/item?id=3&sid={sid}"]
        if rest.startswith("login") and "PHPSESSID" not in query:
            self.redirect(f"/session/login?PHPSESSID={sid}")  # a session id added by a redirect
            return
        item = (query.get("id") or [""])[0]
        title = {"item": f"Session item {item}", "login": "Session login"}.get(
            rest.split("?")[0], "Session start")
        self.send(200, pages.article(title, [f"{title}. " + pages.FILLER], links=links))

    def token_session(self, rest: str, query: dict, count: int) -> None:
        """Like ``/session/``, with session ids under names no list knows (``s``, ``token``,
        ``sessionkey``), fresh on every render."""
        def token() -> str:
            return os.urandom(10).hex()
        links = [f"/tsession/item?id=1&s={token()}", f"/tsession/item?id=2&token={token()}",
                 f"/tsession/item?id=3&sessionkey={token()}"]
        item = (query.get("id") or [""])[0]
        title = f"Token session item {item}" if rest == "item" else "Token session start"
        self.send(200, pages.article(title, [f"{title}. " + pages.FILLER], links=links))

    def query_growth(self, rest: str, query: dict, count: int) -> None:
        """Each page links its own URL with one more parameter (a new name each time)."""
        names = sorted(query, key=lambda k: int(k[1:]) if k[1:].isdigit() else 0)
        extra = f"p{len(names) + 1}=1"
        target = self.path + ("&" if "?" in self.path else "?") + extra
        self.send(200, pages.article("Growing query", ["Growing query. " + pages.FILLER],
                                     links=[target]))

    def query_names(self, rest: str, query: dict, count: int) -> None:
        """Each page links two pages of the same path under a parameter name never seen before
        (letters only, so no digit is abstracted): every link a new URL shape and pattern."""
        def name() -> str:
            return "".join("bdfgklmnprstvz"[b % 14] + "aeiou"[b % 5] for b in os.urandom(4))
        self.send(200, pages.article("Query names", ["Query names. " + pages.FILLER],
                                     links=[f"/qnames?{name()}=1", f"/qnames?{name()}=1"]))

    def path_growth(self, rest: str, query: dict, count: int) -> None:
        """Each page links a relative ``sN/``: ``/pgrow/s1/s2/s3/...`` with distinct segments."""
        depth = rest.count("/")
        self.send(200, pages.article("Growing path", ["Growing path. " + pages.FILLER],
                                     links=[f"s{depth + 1}/"]))

    def case_insensitive(self, rest: str, query: dict, count: int) -> None:
        """``/ci/<anything>`` answers like a case-insensitive server: ``/ci/page`` in any
        letter case is one page, which links itself under two other case variants."""
        if rest.lower() != "page":
            self.send(404, "")
            return
        variants = {"".join(c.upper() if (hash((rest, i, n)) >> 3) & 1 else c
                            for i, c in enumerate("page")) for n in range(6)}
        self.send(200, pages.article("Case-insensitive page", ["One page, any case. "
                                                               + pages.FILLER],
                                     links=[f"/ci/{v}" for v in sorted(variants)]))

    def many(self, rest: str, query: dict, count: int) -> None:
        """``links/<n>``: a page of n links; ``sitemap/<n>.xml``: a sitemap of n URLs; both to
        ``t/<i>``, small pages."""
        kind, _, arg = rest.partition("/")
        if kind == "links":
            n = int(arg)
            links = "".join(f'<a href="/many/t/{i}">item {i}</a>\n' for i in range(n))
            self.send(200, f"<html><head><title>{n} links</title></head><body><main><p>"
                           f"{pages.FILLER}</p>{links}</main></body></html>")
        elif kind == "sitemap":
            n = int(arg.removesuffix(".xml"))
            entries = "".join(f"<url><loc>{self.origin}/many/t/{i}</loc></url>" for i in range(n))
            self.send(200, '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.'
                           f'sitemaps.org/schemas/sitemap/0.9">{entries}</urlset>',
                      "application/xml")
        else:
            self.send(200, pages.article(f"Item {arg}", [f"Item {arg}. " + pages.FILLER]))

    def status(self, rest: str, query: dict, count: int) -> None:
        """Error statuses; some recover after a number of hits."""
        if rest in ("404", "410", "500"):
            self.send(int(rest), pages.article(f"Status {rest}", [pages.FILLER]))
        elif rest == "429-retry-after":
            if count == 1:
                self.send(429, "slow down", headers={"Retry-After": "1"})
            else:
                self.send(200, pages.control_page("after 429"))
        elif rest == "429-always":
            self.send(429, "slow down", headers={"Retry-After": "1"})
        elif rest == "503-retry-after-long":
            self.send(503, "maintenance", headers={"Retry-After": "3600"})
        elif rest in ("503-text-then-ok", "500-json-then-ok", "429-empty-then-ok"):
            if count == 1:
                code, body, kind = {"503-text-then-ok": (503, "busy", "text/plain"),
                                    "500-json-then-ok": (500, '{"error": 1}', "application/json"),
                                    "429-empty-then-ok": (429, "", "text/plain")}[rest]
                self.send(code, body, kind)
            else:
                self.send(200, pages.control_page(f"after {rest}"))
        elif rest in ("206", "206-whole"):
            # a part of a page to a request that asked for no range; or, honestly, all of it
            body = pages.article(f"Status {rest}", [f"Partial {rest}. " + pages.FILLER * 3])
            whole = body.encode()
            part = whole if rest == "206-whole" else whole[:len(whole) // 2]
            self.send(206, part, headers={"Content-Range": f"bytes 0-{len(part) - 1}/{len(whole)}"})
        elif rest == "304":
            self.send(304, "")
        elif rest == "503-then-ok":
            if count <= 2:
                self.send(503, "busy")
            else:
                self.send(200, pages.control_page("after 503"))
        else:
            self.send(404, "")

    def script(self, rest: str, query: dict, count: int) -> None:
        """A page whose script opens three windows of pages like itself (``popups``), each of
        which would open three more; one whose script starts the download of an endless file
        (``download``; ``endless`` streams it until the client hangs up), and one whose script
        does so before the page has loaded (``download-early``); a page served as an
        attachment (``attachment``)."""
        if rest == "endless":
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Disposition", 'attachment; filename="endless.bin"')
            self.end_headers()
            while not self.server.stopping.is_set():
                self.wfile.write(b"\0" * CHUNK)
            return
        script = {"popups": 'for (let n = 0; n < 3; n++) window.open("/script/popups?" '
                            "+ Math.random());",
                  "download": 'setTimeout(() => { location.href = "/script/endless"; }, 10);',
                  "download-early": 'location.href = "/script/endless";'
                  }.get(rest, "")
        headers = ({"Content-Disposition": 'attachment; filename="page.html"'}
                   if rest == "attachment" else None)
        self.send(200, pages.article(f"Script {rest}", [f"Script page {rest}. " + pages.FILLER],
                                     head=f"<script>{script}</script>"), headers=headers)

    def hang(self, rest: str, query: dict, count: int) -> None:
        """Accept the connection and never answer."""
        self.server.stopping.wait(3600)

    def drip(self, rest: str, query: dict, count: int) -> None:
        """An answer trickled a byte a second, so no wait between two reads is long: after
        headers sent at once (``body``), or from its status line on (``headers``)."""
        page = pages.control_page(f"drip {rest}").encode()
        head = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: "
                + str(len(page)).encode() + b"\r\n\r\n")
        if rest == "body":
            self.wfile.write(head)
        for byte in (page if rest == "body" else head + page):
            if self.server.stopping.wait(1.0):
                break
            self.wfile.write(bytes([byte]))
            self.wfile.flush()
        self.close_connection = True

    def drop(self, rest: str, query: dict, count: int) -> None:
        """Promise 100 kB, send 2 kB, drop the connection."""
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", "100000")
        self.end_headers()
        self.wfile.write(pages.control_page("dropped").encode()[:2000])
        self.wfile.flush()
        self.close_connection = True

    def drop_kinds(self, rest: str, query: dict, count: int) -> None:
        """Answers cut short otherwise: ``chunked``, a chunked body whose last chunk never
        comes; ``keep-alive``, an HTTP/1.1 answer on a connection it says stays open, whose
        Content-Length is ten times the body it sends before closing; ``then-ok``, cut so the
        first time, whole afterwards; ``reset``, an answer without Content-Length or chunks (it
        ends when the connection does) whose connection is reset half-way; ``close``, the same
        whole, its connection closed cleanly."""
        body = pages.control_page(f"cut {rest}").encode()
        if rest == "then-ok" and count > 1:
            self.send(200, body)
            return
        half = body[:len(body) // 2]
        if rest in ("reset", "close"):
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                             b"Connection: close\r\n\r\n" + (half if rest == "reset" else body))
            self.wfile.flush()
            if rest == "reset":  # no lingering: the close sends a reset (RST), not a FIN
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                           struct.pack("ii", 1, 0))
                self.connection.close()
            self.close_connection = True
            return
        if rest == "chunked":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                             b"Transfer-Encoding: chunked\r\n\r\n"
                             + f"{len(half):x}\r\n".encode() + half + b"\r\n")
        else:
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                             b"Connection: keep-alive\r\n"
                             + f"Content-Length: {len(body) * 10}\r\n\r\n".encode() + half)
        self.wfile.flush()
        self.close_connection = True

    def userinfo(self, rest: str, query: dict, count: int) -> None:
        """URLs naming a user and password (``user:secret@``): ``/userinfo/`` links a page
        so, and ``/userinfo/redirect``, which redirects to another page so."""
        named = f"http://user:secret@{self.origin.split('//', 1)[1]}"
        if rest == "redirect":
            self.redirect(f"{named}/ok/userinfo-redirect")
        else:
            self.send(200, pages.control_page("userinfo", links=[
                f"{named}/ok/userinfo-link", "/userinfo/redirect"]))

    def ports(self, rest: str, query: dict, count: int) -> None:
        """``/ports/``: links to this host on 20 other ports (nothing listens there) and on its
        own port, and to pages redirecting to this host on another port (``/ports/redirect``,
        ``/ports/refresh``, a meta refresh) and on its own (``/ports/redirect-own``)."""
        host = self.origin.split("//", 1)[1].rsplit(":", 1)[0]
        if rest == "redirect":
            self.redirect(f"http://{host}:1/ok/other-port-redirect")
        elif rest == "refresh":
            self.send(200, '<html><head><meta http-equiv="refresh" content="0; '
                           f'url=http://{host}:2/ok/other-port-refresh"></head><body></body>'
                           '</html>')
        elif rest == "redirect-own":
            self.redirect(f"{self.origin}/ok/own-port-redirect")
        else:
            others = [f"http://{host}:{port}/" for port in range(1, 21)]
            self.send(200, pages.control_page("ports", links=[
                *others, f"{self.origin}/ok/own-port", "/ports/redirect", "/ports/refresh",
                "/ports/redirect-own"]))

    def half_dead(self, rest: str, query: dict, count: int) -> None:
        """``/half-dead/<n>/``: an index linking ten pages ``/half-dead/<n>/<i>``, of which
        the first n fail every time, alternately with a 503 and a reset connection; the others
        and the index answer (a server that is half dead when n is large)."""
        failing, _, page = rest.partition("/")
        if not page:
            self.send(200, pages.control_page(
                f"half dead {failing}", links=[f"/half-dead/{failing}/{i}" for i in range(1, 11)]))
        elif int(page) > int(failing):
            self.send(200, pages.article(f"Half dead {page}", [f"Page {page}. " + pages.FILLER]))
        elif int(page) % 2:
            self.send(503, "busy", "text/plain")
        else:  # no lingering: the close sends a reset (RST) before any answer
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True

    def huge(self, rest: str, query: dict, count: int) -> None:
        """50 MB of HTML (``?bytes=N``: N bytes), generated while sent; ``/huge/chunked`` has no
        Content-Length."""
        size = int((query.get("bytes") or [str(HUGE_BODY_SIZE)])[0])
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        if rest != "chunked":
            self.send_header("Content-Length", str(size))
        self.end_headers()
        unit = (b"<p>" + pages.FILLER.encode() + b"</p>\n")
        block = (unit * (CHUNK // len(unit) + 1))[:CHUNK]
        self.wfile.write(b"<html><body>")
        sent = 12
        while sent < size and not self.server.stopping.is_set():
            piece = block[:size - sent]
            self.wfile.write(piece)
            sent += len(piece)

    def binary(self, rest: str, query: dict, count: int) -> None:
        """PDF, PNG and zip bytes served as text/html."""
        body = {"pdf": pages.pdf_bytes, "png": pages.png_bytes, "zip": pages.zip_bytes}[rest]()
        self.send(200, body, "text/html")

    def typed(self, rest: str, query: dict, count: int) -> None:
        """A 200 whose declared media type is no page: ``octet-stream`` (an HTML page served as
        ``application/octet-stream``), ``json``, ``two-types`` (``text/html``, then a second
        ``Content-Type: application/pdf``, which the client reads)."""
        page = pages.control_page(f"typed {rest}").encode()
        if rest == "two-types":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                             b"Content-Type: application/pdf\r\nContent-Length: "
                             + str(len(page)).encode() + b"\r\n\r\n" + page)
            self.close_connection = True
            return
        body, kind = {"octet-stream": (page, "application/octet-stream"),
                      "json": (b'{"page": 1}', "application/json")}[rest]
        self.send(200, body, kind)

    def gzipped(self, rest: str, query: dict, count: int) -> None:
        """``broken``: garbage after a gzip magic number; ``truncated``: half a real stream."""
        real = gzip.compress(pages.control_page("gzip").encode())
        body = {"broken": b"\x1f\x8b\x08\x00" + os.urandom(16) + b"not gzip at all" * 20,
                "truncated": real[: len(real) // 2], "ok": real}[rest]
        self.send(200, body, headers={"Content-Encoding": "gzip"})

    def brotli(self, rest: str, query: dict, count: int) -> None:
        """``broken``: not brotli at all; ``ok``: a real brotli stream."""
        body = {"broken": b"\x1b\x80" + bytes(range(256)) + b"<html>not brotli</html>" * 30,
                "ok": brotli.compress(pages.control_page("brotli").encode())}[rest]
        self.send(200, body, headers={"Content-Encoding": "br"})

    def coding(self, rest: str, query: dict, count: int) -> None:
        """Content codings beyond one broken gzip: ``zstd-broken``, ``deflate-broken`` (not that
        coding at all), ``zstd-ok``; ``gzip-gzip`` (declared ``gzip, gzip``, both real),
        ``gzip-gzip-broken`` (declared twice, the inner one garbage), ``bomb`` (50 MB of HTML
        gzipped to about 100 kB); a coding no client knows (``x-snappy``) over the page as it is
        (``unknown-text``) or over brotli bytes (``unknown-binary``); ``identity`` over the page
        as it is (``identity``), ``gzip, identity`` over the page gzipped (``gzip-identity``)."""
        page = pages.control_page(f"coding {rest}").encode()
        garbage = bytes(range(256)) + b"<html>not compressed</html>" * 30
        bodies: dict[str, tuple[Callable[[], bytes], str]] = {
            "zstd-broken": (lambda: b"\x28\xb5\x2f\xfd" + garbage, "zstd"),
            "zstd-ok": (lambda: zstd.compress(page), "zstd"),
            "deflate-broken": (lambda: garbage, "deflate"),
            "gzip-gzip": (lambda: gzip.compress(gzip.compress(page)), "gzip, gzip"),
            "gzip-gzip-broken": (lambda: gzip.compress(b"\x1f\x8b\x08\x00" + garbage),
                                 "gzip, gzip"),
            "bomb": (gzip_bomb, "gzip"),
            "unknown-text": (lambda: page, "x-snappy"),
            "unknown-binary": (lambda: brotli.compress(page * 20), "x-snappy"),
            "identity": (lambda: page, "identity"),
            "gzip-identity": (lambda: gzip.compress(page), "gzip, identity"),
        }
        make, coding = bodies[rest]
        self.send(200, make(), headers={"Content-Encoding": coding})

    def bad_answer(self, rest: str, query: dict, count: int) -> None:
        """An answer that breaks HTTP, then a page: a status line that is no status line
        (``garbage``: text; ``code``: a status that is not a number), a header name holding a
        NUL byte (``nul-header``), two Content-Length headers that disagree
        (``two-lengths``), a chunked body whose chunk-size line is no size (``bad-chunk``:
        ``zz``), a ``Transfer-Encoding: gzip`` over plain HTML (``transfer-gzip``), the page gzipped and
        chunked under ``Transfer-Encoding: gzip, chunked`` (``te-gzip-chunked``); or a header line of 200 kB, longer than the client reads
        (``long-header``); or a Content-Length of half the body sent whole, its end a
        paragraph of its own (``long-body``); or header lines of 8 kB, sent as fast as the client reads them, up to
        256 MB (``endless-headers``)."""
        if rest == "endless-headers":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n")
            line = b": " + b"h" * 8000 + b"\r\n"
            for n in range(32 * 1024):
                if self.server.stopping.is_set():
                    break
                self.wfile.write(b"X-Header-%d" % n + line)
            self.close_connection = True
            return
        body = pages.control_page("bad answer").encode()
        if rest == "long-body":
            body = pages.article("Longer than announced", [
                "The start of a page whose server announced half of its bytes.",
                "The end of the page past its Content-Length."]).encode()
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close"
                             b"\r\nContent-Length: %d\r\n\r\n" % (len(body) // 2) + body)
            self.close_connection = True
            return
        if rest == "bad-chunk":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: "
                             b"chunked\r\n\r\nzz\r\n" + body + b"\r\n0\r\n\r\n")
            self.close_connection = True
            return
        if rest == "transfer-gzip":  # a transfer coding no client decodes, over plain HTML
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: "
                             b"gzip\r\nConnection: close\r\n\r\n" + body)
            self.close_connection = True
            return
        if rest == "te-gzip-chunked":  # the page gzipped, then chunked, as curl decodes it
            packed = gzip.compress(body)
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: "
                             b"gzip, chunked\r\nConnection: close\r\n\r\n"
                             + b"%x\r\n" % len(packed) + packed + b"\r\n0\r\n\r\n")
            self.close_connection = True
            return
        length = b"Content-Length: " + str(len(body)).encode() + b"\r\n"
        status = {"garbage": b"HELLO THERE\r\n", "code": b"HTTP/1.1 2OO OK\r\n"}.get(
            rest, b"HTTP/1.1 200 OK\r\n")
        extra = {"nul-header": b"X-Bad\x00: v\r\n", "two-lengths": b"Content-Length: 5\r\n",
                 "long-header": b"X-Long: " + b"a" * 200_000 + b"\r\n"}.get(rest, b"")
        self.wfile.write(status + b"Content-Type: text/html\r\n" + length + extra + b"\r\n"
                         + body)
        self.close_connection = True

    def metadata(self, rest: str, query: dict, count: int) -> None:
        """``huge``: 1 MB title, author, description, site name and JSON-LD values."""
        self.send(200, pages.huge_metadata_page())

    def cookies(self, rest: str, query: dict, count: int) -> None:
        """Every page sets 100 new cookies of 4 kB and one of 8 kB, and links the next page."""
        n = int(rest or 0)
        self.send_response(200)
        body = pages.control_page(f"cookies {n}", links=[f"/cookies/{n + 1}"] if n < 4 else [])
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body.encode())))
        for i in range(100):
            self.send_header("Set-Cookie", f"c{n}x{i}={'v' * 4000}; Path=/")
        self.send_header("Set-Cookie", f"big{n}={'w' * 8000}; Path=/")
        self.end_headers()
        self.wfile.write(body.encode())

    def empty(self, rest: str, query: dict, count: int) -> None:
        """200 with an empty body; ``/empty/bom``: a UTF-8 byte-order mark and a line end,
        ``/empty/bom16``: a UTF-16 one and a line end in UTF-16, nothing else."""
        self.send(200, {"bom": b"\xef\xbb\xbf\r\n", "bom16": b"\xff\xfe\n\x00"}.get(rest, b""))

    def charset(self, rest: str, query: dict, count: int) -> None:
        """``/charset/<charset>/<mode>`` and ``/charset/utf-8-as-latin-1``."""
        if rest == "utf-8-as-latin-1":
            body, content_type = pages.utf8_declared_latin1_page()
        elif rest.startswith("conflict/"):
            body, content_type, _ = pages.conflicting_charset_page(rest.split("/", 1)[1])
        else:
            name, mode = rest.split("/")
            body, content_type = pages.charset_page(name, mode)
        self.send(200, body, content_type)

    def malformed(self, rest: str, query: dict, count: int) -> None:
        """Unclosed tags, deep tables, a 5 MB single line, NUL bytes, links or a ``<base>`` that
        are no URLs, hostile JSON-LD."""
        makers: dict[str, Callable[[], str | bytes]] = {
            "unclosed": pages.unclosed_tags_page, "tables": pages.nested_tables_page,
            "long-line": pages.long_line_page, "nulls": pages.null_bytes_page,
            "attributes": pages.many_attributes_page, "deep": pages.deep_block_page,
            "cards": pages.many_cards_page,
            "unreadable-urls": pages.unreadable_urls_page,
            "unreadable-base": pages.unreadable_base_page,
            "json-ld-surrogates": lambda: pages.json_ld_page("surrogates"),
            "json-ld-deep": lambda: pages.json_ld_page("deep"),
            "huge-script": pages.huge_script_page, "huge-text": pages.huge_text_page}
        self.send(200, makers[rest]())

    def quirks(self, rest: str, query: dict, count: int) -> None:
        """Answers browsers read in spite of an oddity: a page followed by 200 kB of NUL bytes
        (``nul-padded``), beside a PDF so padded (``nul-padded-pdf``) and a page with NULs
        through it and at its end (``nul-spread``), which stay binary."""
        if rest == "nul-padded":
            self.send(200, pages.article("NUL padded", [
                "A page its server pads with NUL bytes. " + pages.FILLER]).encode()
                + b"\x00" * 200_000)
        elif rest == "latin1-redirect":
            self.redirect("/ok/caf\xe9?q=\xe9")  # sent as Latin-1 bytes by send_header
        elif rest == "refresh-spaced":
            self.send(200, '<html><head><meta http-equiv="refresh" content=\'0; URL = '
                           '"/ok/refresh-spaced-target"\'></head><body><p>Moved.</p></body>'
                           '</html>')
        elif rest == "refresh-bad-port":
            self.send(200, pages.article("Refresh to a bad port", [pages.FILLER], head=(
                '<meta http-equiv="refresh" content="0;url=http://127.0.0.1:99999/ok/bad-port">')))
        elif rest == "nul-spread":
            page = pages.article("NUL spread", ["NULs through the page. " + pages.FILLER]).encode()
            self.send(200, b"".join(page[i:i + 8] + b"\x00\x00" for i in range(0, len(page), 8))
                      + b"\x00" * 1000)
        elif rest == "nul-padded-pdf":
            self.send(200, pages.pdf_bytes() + b"\x00" * 200_000, "text/html")
        else:
            self.send(404, "")

    def xss(self, rest: str, query: dict, count: int) -> None:
        """The XSS corpus inside an article."""
        self.send(200, pages.xss_page(int(rest or 1), pages.xss_payloads()))

    def internal(self, rest: str, query: dict, count: int) -> None:
        """Links and redirects to loopback, private, link-local and metadata addresses."""
        port = self.server.port
        targets = {
            "metadata": "http://169.254.169.254/latest/meta-data/",
            "private": "http://10.255.255.1/admin",
            "localhost": f"http://localhost:{port}/ok/by-name",
            "ipv6": f"http://[::1]:{port}/ok/ipv6",
            "decimal": f"http://2130706433:{port}/ok/decimal",
        }
        if rest.startswith("redirect/"):
            self.redirect(targets[rest.split("/", 1)[1]])
            return
        links = [*targets.values(), "http://192.168.0.1/", "http://172.16.0.1/",
                 f"http://0.0.0.0:{port}/ok/zero", "http://[fe80::1]/", "http://100.64.0.1/"]
        self.send(200, pages.article("Internal links", [pages.FILLER], links=links))

    def group(self, rest: str, query: dict, count: int) -> None:
        """``/group/<name>``: an entry page linking one group of cases and a control page."""
        links = GROUPS.get(rest)
        if links is None:
            self.send(404, "")
            return
        self.send(200, pages.control_page(f"group {rest}", links=[*links, "/ok/1"]))

    def site(self, rest: str, query: dict, count: int) -> None:
        """``/site/N``: a tree of ``site_pages`` pages, ``site_fanout`` children each."""
        n = int(rest or 0)
        if self.server.site_delay:
            time.sleep(self.server.site_delay)
        fanout = self.server.site_fanout
        children = [f"/site/{c}" for c in range(fanout * n + 1, fanout * n + fanout + 1)
                    if c < self.server.site_pages]
        self.send(200, pages.article(f"Site page {n}", [f"Site page {n}. " + pages.FILLER],
                                     links=children))


ROUTES: list[tuple[str, Callable[..., None]]] = [
    ("/", HostileHandler.index),
    ("/robots.txt", HostileHandler.robots),
    ("/ok/", HostileHandler.ok),
    ("/redirect/loop/", HostileHandler.redirect_loop),
    ("/redirect/chain/", HostileHandler.redirect_chain),
    ("/redirect/offhost", HostileHandler.redirect_offhost),
    ("/redirect/escape/", HostileHandler.redirect_escape),
    ("/canonical-host/", HostileHandler.canonical_host),
    ("/redirect/long", HostileHandler.redirect_long),
    ("/redirect/no-location", HostileHandler.redirect_without_location),
    ("/redirect/nowhere/", HostileHandler.redirect_nowhere),
    ("/refresh/", HostileHandler.refresh),
    ("/canonical/", HostileHandler.canonical),
    ("/spellings", HostileHandler.spellings),
    ("/private/", HostileHandler.private),
    ("/sitemaps/", HostileHandler.sitemaps),
    ("/brotli/", HostileHandler.brotli),
    ("/cookies/", HostileHandler.cookies),
    ("/coding/", HostileHandler.coding),
    ("/bad-answer/", HostileHandler.bad_answer),
    ("/metadata/", HostileHandler.metadata),
    ("/redirect/pretty/", HostileHandler.redirect_same_page),
    ("/cal/", HostileHandler.calendar),
    ("/list", HostileHandler.pagination),
    ("/rep/", HostileHandler.repeated),
    ("/grow/", HostileHandler.grow),
    ("/session/", HostileHandler.session),
    ("/status/", HostileHandler.status),
    ("/script/", HostileHandler.script),
    ("/tsession/", HostileHandler.token_session),
    ("/qgrow", HostileHandler.query_growth),
    ("/qnames", HostileHandler.query_names),
    ("/pgrow/", HostileHandler.path_growth),
    ("/ci/", HostileHandler.case_insensitive),
    ("/many/", HostileHandler.many),
    ("/hang", HostileHandler.hang),
    ("/drip/", HostileHandler.drip),
    ("/drop", HostileHandler.drop),
    ("/drop/", HostileHandler.drop_kinds),
    ("/half-dead/", HostileHandler.half_dead),
    ("/ports/", HostileHandler.ports),
    ("/userinfo/", HostileHandler.userinfo),
    ("/huge", HostileHandler.huge),
    ("/huge/", HostileHandler.huge),
    ("/binary/", HostileHandler.binary),
    ("/typed/", HostileHandler.typed),
    ("/gzip/", HostileHandler.gzipped),
    ("/empty", HostileHandler.empty),
    ("/empty/", HostileHandler.empty),
    ("/charset/", HostileHandler.charset),
    ("/malformed/", HostileHandler.malformed),
    ("/quirks/", HostileHandler.quirks),
    ("/xss/", HostileHandler.xss),
    ("/internal/", HostileHandler.internal),
    ("/site/", HostileHandler.site),
    ("/group/", HostileHandler.group),
]

@functools.cache
def gzip_bomb(unit: bytes = b"<p>" + pages.FILLER.encode() + b"</p>", *, head: bytes = b"",
              size: int = HUGE_BODY_SIZE) -> bytes:
    """``head`` then ``unit`` repeated to ``size`` bytes, gzipped (about 1/200 of that; made
    once per argument list)."""
    compressor = zlib.compressobj(1, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = unit * (CHUNK // len(unit) + 1)
    parts = [compressor.compress(head)]
    for _ in range(size // len(block)):
        parts.append(compressor.compress(block))
    parts.append(compressor.flush())
    return b"".join(parts)


#: Redirect targets that are no web URL, by name.
NOWHERE_TARGETS: dict[str, str] = {
    "file": "file:///etc/passwd", "ftp": "ftp://127.0.0.1/pub/", "data": "data:text/html,<p>x",
    "javascript": "javascript:alert(1)", "bracket": "http://[::1",
    "port": "http://127.0.0.1:99999/",
}

#: Every case the index page links, so one crawl from ``/`` meets them all.
INDEX_LINKS: list[str] = [
    *(f"/ok/{n}" for n in range(1, 6)),
    "/redirect/loop/a", "/redirect/loop/self", "/redirect/chain/5", "/redirect/chain/30",
    "/redirect/offhost", "/redirect/pretty/", "/redirect/pretty/guide/",
    "/redirect/pretty/refresh/",
    "/cal/2026/11", "/list?page=1", "/rep/", "/grow/", "/session/", "/session/login",
    "/tsession/", "/qgrow", "/pgrow/", "/ci/page",
    "/status/404", "/status/410", "/status/500", "/status/429-retry-after", "/status/429-always",
    "/status/503-retry-after-long", "/status/503-then-ok",
    "/status/503-text-then-ok", "/status/500-json-then-ok", "/status/429-empty-then-ok",
    "/status/206", "/status/206-whole", "/status/304", "/refresh/header",
    "/redirect/escape/localhost/", "/redirect/long", "/redirect/no-location",
    "/refresh/javascript", "/refresh/mailto",
    "/refresh/unreadable", "/refresh/loop-a", "/refresh/loop-b", "/refresh/self",
    "/refresh/self-now", "/refresh/long",
    *(f"/redirect/nowhere/{kind}" for kind in ("file", "ftp", "data", "javascript", "bracket",
                                                "port")),
    "/canonical/long", "/canonical/javascript", "/spellings", "/private/page", "/brotli/broken", "/brotli/ok", "/cookies/0",
    "/hang", "/drip/body", "/drip/headers", "/drop", "/drop/chunked", "/drop/keep-alive",
    "/drop/then-ok", "/drop/reset", "/drop/close", "/huge",
    "/huge/chunked",
    "/binary/pdf", "/binary/png", "/binary/zip", "/gzip/broken", "/gzip/truncated", "/gzip/ok",
    "/empty",
    *(f"/charset/{c}/{m}" for c in pages.CHARSET_TEXTS for m in pages.CHARSET_MODES),
    "/charset/utf-8-as-latin-1",
    *(f"/charset/conflict/{c}" for c in pages.CONFLICTING_CHARSET_CASES),
    "/malformed/unclosed", "/malformed/tables", "/malformed/long-line", "/malformed/nulls",
    "/malformed/unreadable-urls", "/malformed/json-ld-surrogates", "/malformed/json-ld-deep",
    "/malformed/unreadable-base",
    "/xss/1",
    "/internal/links", *(f"/internal/redirect/{t}" for t in
                         ("metadata", "private", "localhost", "ipv6", "decimal")),
]


#: Smaller entry pages for crawls that need only some cases.
GROUPS: dict[str, list[str]] = {
    # Content codings beyond one gzip and brotli, an answer that is no HTTP, huge metadata.
    "codings": [f"/coding/{kind}" for kind in ("zstd-broken", "zstd-ok", "deflate-broken",
                                               "gzip-gzip", "gzip-gzip-broken", "bomb",
                                               "unknown-text", "unknown-binary", "identity",
                                               "gzip-identity")]
               + [f"/bad-answer/{kind}" for kind in ("garbage", "code", "nul-header",
                                                      "two-lengths", "bad-chunk", "long-header",
                                                      "endless-headers", "transfer-gzip",
                                                      "te-gzip-chunked", "long-body")]
               + ["/metadata/huge", "/malformed/huge-script", "/malformed/huge-text"],
    "malformed": ["/malformed/unclosed", "/malformed/tables", "/malformed/long-line",
                  "/malformed/nulls"],
    # No metadata address here: this group is also crawled with the guard turned off.
    "internal": [f"/internal/redirect/{t}" for t in ("private", "localhost", "ipv6")],
    # A page that takes seconds to extract beside two that take milliseconds (the time limit).
    "slow": ["/malformed/cards", "/malformed/nulls", "/ok/1"],
    # Pages that are slow to parse: crawled on their own, away from the 50 MB bodies.
    "heavy": ["/malformed/attributes", "/malformed/deep"],
    # What robots.txt forbids, early in it and past ROBOTSTXT_MAX_SIZE.
    "robots": ["/private/page", "/ok/past-limit"],
    # Answers browsers read in spite of an oddity.
    "quirks": ["/quirks/nul-padded", "/quirks/nul-padded-pdf", "/quirks/nul-spread",
               "/quirks/latin1-redirect", "/quirks/refresh-spaced", "/quirks/refresh-bad-port"],
    # Same-page redirects that end on other hosts: crawled with the guard turned off too.
    "escape": [f"/redirect/escape/{t}/" for t in
               ("localhost", "loopback2", "zero", "integer", "mapped")],
}


def main() -> None:
    """Serve until interrupted, printing the base URL."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("port", nargs="?", type=int, default=8765)
    args = parser.parse_args()
    server = HostileServer(args.port).start()
    print(f"hostile server on {server.base}/", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
