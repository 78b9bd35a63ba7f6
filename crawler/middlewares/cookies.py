"""Cookies kept as browsers keep them: a bounded number per host, each of bounded size, and the
public suffix list read from the copy shipped with ``tldextract``, never downloaded.

Scrapy's CookiesMiddleware keeps every cookie a server sets and sends them all back: a server
setting 300 cookies of 4 kB on every page grows the ``Cookie`` header of each request to
megabytes. It also asks ``tldextract`` whether a cookie's domain is a public suffix, and
``tldextract`` downloads the suffix list from the internet the first time (traffic outside the
crawl; a traceback per cookie on a machine without internet). Here:

- ``COOKIES_MAX_SIZE`` (4096 bytes, RFC 6265's minimum a browser must keep): a larger cookie
  (name and value) is not kept (``cookies/dropped/too_large``).
- ``COOKIES_MAX_PER_HOST`` (50, RFC 6265's minimum per domain) and ``COOKIES_MAX_HOST_BYTES``
  (8192: Apache and nginx refuse a request header line longer than about 8 kB by default):
  a cookie that would take a host past either is not kept (``cookies/dropped/too_many``).
  The first of each kind per host is logged at INFO.
- The suffix list is the snapshot in the installed ``tldextract`` package.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from http.cookiejar import Cookie

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.downloadermiddlewares.cookies import CookiesMiddleware
from scrapy.http.cookies import CookieJar
from scrapy.utils.httpobj import urlparse_cached

from crawler.urls import is_public_suffix, offline_suffix_list

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class CookieLimits:
    """Per-host cookie limits, read once (0 turns a limit off)."""

    max_size: int
    max_per_host: int
    max_host_bytes: int

    @classmethod
    def from_settings(cls, settings) -> CookieLimits:  # noqa: ANN001 - Scrapy Settings
        """Read COOKIES_MAX_SIZE, COOKIES_MAX_PER_HOST and COOKIES_MAX_HOST_BYTES."""
        return cls(max_size=max(0, settings.getint("COOKIES_MAX_SIZE")),
                   max_per_host=max(0, settings.getint("COOKIES_MAX_PER_HOST")),
                   max_host_bytes=max(0, settings.getint("COOKIES_MAX_HOST_BYTES")))


def _size(cookie: Cookie) -> int:
    """Bytes a cookie adds to the Cookie header (name and value)."""
    return len(cookie.name or "") + len(cookie.value or "")


class BoundedCookiesMiddleware(CookiesMiddleware):
    """CookiesMiddleware with browser-like limits and an offline public suffix list."""

    def __init__(self, debug: bool = False, limits: CookieLimits | None = None) -> None:
        super().__init__(debug)
        self.limits = limits or CookieLimits(max_size=4096, max_per_host=50, max_host_bytes=8192)
        # The snapshot shipped with the package: no suffix_list_urls, no cache directory.
        self._split_domain = offline_suffix_list()
        self._logged: set[tuple[str, str]] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoundedCookiesMiddleware:
        """Build from settings (NotConfigured when COOKIES_ENABLED is off, as Scrapy's)."""
        middleware = super().from_crawler(crawler)
        middleware.limits = CookieLimits.from_settings(crawler.settings)
        return middleware

    def _is_public_domain(self, domain: str) -> bool:
        """Whether a cookie domain is a public suffix (``co.uk``): no site may set it."""
        return is_public_suffix(domain, self._split_domain)

    def _process_cookies(self, cookies: Iterable[Cookie], *, jar: CookieJar,
                         request: Request) -> None:
        """Keep each cookie the jar accepts, unless it is too large or its host has too many."""
        hostname = urlparse_cached(request).hostname
        if hostname is None:
            return
        request_domain = hostname.lower()
        for cookie in cookies:
            cookie_domain = cookie.domain.removeprefix(".")
            if cookie_domain and self._is_public_domain(cookie_domain):
                if cookie_domain != request_domain:
                    continue
                cookie.domain = request_domain
            if not self._within_limits(cookie, jar, request_domain):
                continue
            jar.set_cookie_if_ok(cookie, request)

    def _within_limits(self, cookie: Cookie, jar: CookieJar, host: str) -> bool:
        """Whether the cookie may be kept (counted and logged when not)."""
        limits = self.limits
        size = _size(cookie)
        if limits.max_size and size > limits.max_size:
            return self._drop("too_large", host, f"{size} bytes > COOKIES_MAX_SIZE "
                                                 f"{limits.max_size}")
        if limits.max_per_host or limits.max_host_bytes:
            domain = cookie.domain.removeprefix(".") or host
            kept = [c for c in jar.jar if c.domain.removeprefix(".") == domain
                    and not (c.name == cookie.name and c.path == cookie.path)]
            if limits.max_per_host and len(kept) >= limits.max_per_host:
                return self._drop("too_many", host, f"{domain} already has "
                                                    f"{len(kept)} (COOKIES_MAX_PER_HOST)")
            total = sum(map(_size, kept)) + size
            if limits.max_host_bytes and total > limits.max_host_bytes:
                return self._drop("too_many", host, f"{domain} would hold {total} bytes > "
                                                    f"COOKIES_MAX_HOST_BYTES "
                                                    f"{limits.max_host_bytes}")
        return True

    def _drop(self, kind: str, host: str, why: str) -> bool:
        """Count a cookie not kept; the first of each kind per host is logged at INFO."""
        self.crawler.stats.inc_value(f"cookies/dropped/{kind}")
        level = logging.DEBUG if (kind, host) in self._logged else logging.INFO
        self._logged.add((kind, host))
        logger.log(level, "Cookie from %s not kept: %s", host, why)
        return False
