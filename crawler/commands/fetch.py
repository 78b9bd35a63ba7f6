"""Reading one page for the command line (``extract FILE_OR_URL``) under the crawl's limits.

A crawl bounds every download by ``DOWNLOAD_MAXSIZE`` (bytes received and bytes after
decompression) and ``DOWNLOAD_TIMEOUT`` (seconds), and refuses redirects into the machine's own
network (``crawler/middlewares/internal_addresses.py``). The command line reads the same
settings and applies the same rules, so a gzip bomb, a body that never ends, a server that
trickles a byte a second, or a redirect to ``169.254.169.254`` ends in one sentence, not in
gigabytes of memory, a hang, or an internal page printed. The whole download, headers and every
redirect included, must finish within ``DOWNLOAD_TIMEOUT``.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from crawler.middlewares.internal_addresses import is_internal, literal_address, resolve

CHUNK = 64 * 1024
GZIP_MAGIC = b"\x1f\x8b"
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


class FetchError(Exception):
    """The page cannot be read within the limits; the message is one sentence for the user."""


@dataclass(frozen=True)
class FetchLimits:
    """The crawl's download limits, read once from the project settings."""

    max_bytes: int
    timeout: float
    max_redirects: int
    allow_internal: bool
    user_agent: str

    @classmethod
    def from_project_settings(cls, user_agent: str, *, max_bytes: int | None = None,
                              timeout: float | None = None) -> FetchLimits:
        """``DOWNLOAD_MAXSIZE``, ``DOWNLOAD_TIMEOUT``, ``REDIRECT_MAX_TIMES`` and
        ``ALLOW_INTERNAL_ADDRESSES`` as a crawl would use them (0 turns a limit off);
        ``max_bytes`` and ``timeout`` replace the first two when given."""
        from scrapy.settings import Settings

        settings = Settings()
        settings.setmodule("crawler.settings", priority="project")
        return cls(max_bytes=settings.getint("DOWNLOAD_MAXSIZE") if max_bytes is None
                   else max_bytes,
                   timeout=settings.getfloat("DOWNLOAD_TIMEOUT") if timeout is None
                   else timeout,
                   max_redirects=settings.getint("REDIRECT_MAX_TIMES"),
                   allow_internal=settings.getbool("ALLOW_INTERNAL_ADDRESSES"),
                   user_agent=user_agent)


class _Budget:
    """What is left of the time and size limits while one page is read."""

    def __init__(self, source: str, max_bytes: int, timeout: float = 0) -> None:
        self.source = source
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.deadline = time.monotonic() + timeout if timeout > 0 else None

    def seconds_left(self) -> float | None:
        """Seconds until the deadline (None without a time limit); raises once it has passed."""
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise self.timed_out()
        return left

    def timed_out(self) -> FetchError:
        """The error of a download that outlived ``DOWNLOAD_TIMEOUT``."""
        return FetchError(f"{self.source} did not finish within DOWNLOAD_TIMEOUT "
                          f"({self.timeout:g} s); nothing extracted")

    def check_size(self, size: int, what: str = "") -> None:
        """Refuse once ``size`` bytes exceed ``DOWNLOAD_MAXSIZE``."""
        if self.max_bytes and size > self.max_bytes:
            raise FetchError(f"{self.source}{what} is larger than DOWNLOAD_MAXSIZE "
                             f"({self.max_bytes} bytes); nothing extracted")


def read_file(path: Path, max_bytes: int) -> bytes:
    """A local page's bytes (gunzipped when it is gzip), within ``max_bytes`` (0: no limit)."""
    budget = _Budget(str(path), max_bytes)
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1 if max_bytes else -1)
    except OSError as exc:
        raise FetchError(f"cannot read {path}: {exc.strerror or exc}") from None
    budget.check_size(len(data))
    if data[:2] == GZIP_MAGIC:
        inflated = _decompress([data], "gzip", budget)
        if not inflated:
            raise FetchError(f"{path} is not a valid gzip file: nothing in it decodes")
        data = inflated
    return data


def fetch_url(url: str, limits: FetchLimits) -> tuple[bytes, str]:
    """GET ``url`` following redirects; the body (decoded from gzip/deflate) and the final URL."""
    budget = _Budget(url, limits.max_bytes, limits.timeout)
    start_host = (urlsplit(url).hostname or "").lower()
    current = url
    for _ in range(limits.max_redirects + 1):
        status, location, encoding, chunks = _get(current, budget, limits.user_agent)
        if status in REDIRECT_STATUSES and location:
            target = urljoin(current, location)
            if urlsplit(target).scheme not in ("http", "https"):
                raise FetchError(f"{current} redirects to {target}, which is not an http(s) URL")
            _guard(target, start_host, limits, current)
            current = target
            continue
        if status >= 400:
            raise FetchError(f"cannot fetch {url}: HTTP {status}")
        body = _decompress(chunks, encoding, budget) if encoding else b"".join(chunks)
        if body[:2] == GZIP_MAGIC:
            body = _decompress([body], "gzip", budget)
        return body, current
    raise FetchError(f"cannot fetch {url}: more than REDIRECT_MAX_TIMES "
                     f"({limits.max_redirects}) redirects")


def _guard(target: str, start_host: str, limits: FetchLimits, origin: str) -> None:
    """Refuse a redirect to an internal address, as the crawl does (the start host is exempt)."""
    host = (urlsplit(target).hostname or "").lower()
    if limits.allow_internal or not host or host == start_host:
        return
    literal = literal_address(host)
    try:
        addresses = [literal] if literal is not None else resolve(host)
    except (OSError, UnicodeError):
        return  # unresolvable: the connection fails on its own
    internal = [a for a in addresses if is_internal(a)]
    if internal:
        raise FetchError(f"refused the redirect from {origin} to {target}: {host} is an "
                         f"internal address ({internal[0]}); set ALLOW_INTERNAL_ADDRESSES=True "
                         "in the settings to allow it")


def _get(url: str, budget: _Budget, user_agent: str) -> tuple[int, str | None, str, list[bytes]]:
    """One GET: status, Location, Content-Encoding and the body chunks (none for a redirect)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise FetchError(f"cannot fetch {url}: not an http(s) URL")
    timeout = budget.seconds_left()
    try:
        if parts.scheme == "https":
            conn: http.client.HTTPConnection = http.client.HTTPSConnection(
                parts.hostname, parts.port, timeout=timeout, context=ssl.create_default_context())
        else:
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    except (ValueError, http.client.HTTPException) as exc:  # a space in the host: InvalidURL
        raise FetchError(f"cannot fetch {url}: {exc}") from None
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        conn.request("GET", path, headers={"User-Agent": user_agent,
                                           "Accept-Encoding": "gzip, deflate"})
        response = conn.getresponse()
        if response.status in REDIRECT_STATUSES:
            return response.status, response.getheader("Location"), "", []
        length = response.getheader("Content-Length")
        if length and length.isdigit():
            budget.check_size(int(length), " (Content-Length)")
        encoding = (response.getheader("Content-Encoding") or "").strip().lower()
        chunks: list[bytes] = []
        received = 0
        while True:
            if conn.sock is not None:
                conn.sock.settimeout(budget.seconds_left())
            chunk = response.read1(CHUNK)
            if not chunk:
                break
            received += len(chunk)
            budget.check_size(received)
            chunks.append(chunk)
            budget.seconds_left()
        return response.status, None, encoding if encoding in ("gzip", "x-gzip", "deflate") \
            else "", chunks
    except (socket.timeout, TimeoutError):
        raise budget.timed_out() from None
    except (OSError, http.client.HTTPException, ssl.SSLError, UnicodeError) as exc:
        # UnicodeError: a host name no DNS name can be (a label over 63 characters)
        raise FetchError(f"cannot fetch {url}: {exc or type(exc).__name__}") from None
    finally:
        conn.close()


def _decompress(chunks: list[bytes], encoding: str, budget: _Budget) -> bytes:
    """Inflate gzip or deflate data, stopping as soon as the output passes ``DOWNLOAD_MAXSIZE``
    (a gzip bomb never expands in memory); concatenated gzip members are all read."""
    wbits = 47 if encoding in ("gzip", "x-gzip") else 15  # 47: gzip or zlib header
    out: list[bytes] = []
    size = 0
    inflater = zlib.decompressobj(wbits)
    try:
        for chunk in chunks:
            pending = chunk
            while pending:
                piece = inflater.decompress(pending, CHUNK)
                size += len(piece)
                budget.check_size(size, " (decompressed)")
                out.append(piece)
                pending = inflater.unconsumed_tail
                if inflater.eof:  # the member ended; what follows it may be another one
                    pending = inflater.unused_data
                    inflater = zlib.decompressobj(wbits)
                    if not pending.startswith(GZIP_MAGIC):
                        pending = b""
    except zlib.error as exc:
        raise FetchError(f"{budget.source} is not valid {encoding} data ({exc})") from None
    return b"".join(out)
