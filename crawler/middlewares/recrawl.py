"""Re-crawl only what changed: conditional requests, stored pages standing in for unchanged ones,
and pages that disappeared.

For a page URL already in the crawl database (and not marked gone), this downloader middleware:

- answers the request from storage, without downloading, when the URL came from a sitemap
  whose ``<lastmod>`` is not newer than the stored fetch (``recrawl/sitemap_unchanged``);
- otherwise sends the stored ``ETag`` / ``Last-Modified`` back as ``If-None-Match`` /
  ``If-Modified-Since``; a ``304 Not Modified`` is replaced by the stored page
  (``recrawl/not_modified``), and a ``200`` with the very bytes stored is recognised too
  (``recrawl/same_body``, for servers that ignore validators).

Either way the response carries ``meta["recrawl"]`` (the reason), the spider follows its links
but yields no item, so the page is neither extracted nor written again; its ``last_seen`` (and,
when the server confirmed it, ``fetched_at``) moves. A ``304`` to a request that carried no
validators (a broken cache, or a page not stored) is fetched again once without them
(``recrawl/unexpected_304``). A stored page answering 404 or 410 is marked gone
(``recrawl/gone``). With ``-a refresh=all`` every page is fetched and extracted again.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlite_utils
from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Response

from crawler.database_identity import DatabaseRefused
from crawler.fingerprint import CANONICAL_URL_META
from crawler.history import (known_page, mark_gone, parse_time, stored_page, touch_seen,
                             utc_now)
from crawler.storage import open_database
from crawler.urls import canonicalize_url

logger = logging.getLogger(__name__)

#: ``-a refresh=``: ``changed`` (default) re-fetches and re-extracts only what changed;
#: ``all`` fetches and extracts every page again.
REFRESH_CHANGED = "changed"
REFRESH_ALL = "all"
REFRESH_MODES = (REFRESH_CHANGED, REFRESH_ALL)

#: ``request.meta`` key set by the spider on pages listed in a sitemap: the entry's lastmod.
META_LASTMOD = "sitemap_lastmod"
#: ``response.meta`` key on a response that stands for an unchanged page: why it is unchanged.
META_UNCHANGED = "recrawl"
NOT_MODIFIED = "not_modified"
SITEMAP_UNCHANGED = "sitemap_unchanged"
SAME_BODY = "same_body"
#: Internal meta keys: validators were sent; the URL is stored; a wrong 304 is being refetched.
_META_VALIDATORS = "recrawl_validators"
_META_KNOWN = "recrawl_known"
_META_REFETCH = "recrawl_refetch"

CONDITIONAL_HEADERS = (b"If-None-Match", b"If-Modified-Since")
GONE_STATUSES = frozenset({404, 410})


@dataclass(frozen=True)
class RecrawlConfig:
    """Where the stored pages are."""

    db_path: Path


class RecrawlMiddleware:
    """Downloader middleware: conditional requests and stored stand-ins for unchanged pages."""

    def __init__(self, crawler: Crawler, config: RecrawlConfig) -> None:
        self.stats = crawler.stats
        self.config = config
        self.db: sqlite_utils.Database | None = None
        self.refresh_all = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RecrawlMiddleware:
        """Read ``SQLITE_PATH`` once; without a database there is nothing to compare with."""
        path = crawler.settings.get("SQLITE_PATH")
        if not path:
            raise NotConfigured("SQLITE_PATH is empty")
        middleware = cls(crawler, RecrawlConfig(db_path=Path(path)))
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def spider_opened(self, spider: Spider) -> None:
        """Open the database for reading what is stored; read the spider's ``refresh`` mode."""
        config = getattr(spider, "config", None)
        self.refresh_all = getattr(config, "refresh", REFRESH_CHANGED) == REFRESH_ALL
        if self.refresh_all:
            logger.info("refresh=all: every page is fetched and extracted again")
        try:
            self.db = open_database(self.config.db_path)
        except (OSError, sqlite3.Error, DatabaseRefused) as exc:
            logger.warning("Cannot read stored pages from %s (%s): every page is fetched again",
                           self.config.db_path, exc)
            self.db = None

    def spider_closed(self, spider: Spider) -> None:
        """Close the database."""
        if self.db is not None:
            self.db.conn.close()
            self.db = None

    # -- requests -----------------------------------------------------------------------

    def process_request(self, request: Request, spider: Spider | None = None,
                        ) -> Response | None:
        """Answer an unchanged sitemap page from storage, or add the stored validators."""
        if not self._is_page(request):
            return None
        if request.meta.pop(_META_VALIDATORS, None):  # a redirect copied the previous URL's
            for header in CONDITIONAL_HEADERS:
                request.headers.pop(header, None)
        request.meta.pop(_META_KNOWN, None)
        if self.refresh_all or request.meta.get("playwright") or request.meta.get(_META_REFETCH):
            return None
        url = self._stored_url(request)
        try:
            known = known_page(self.db, url)
            if known is None or not known.reusable:
                return None
            if self._sitemap_says_unchanged(request, known.fetched_at):
                response = self._stored_response(request, url, SITEMAP_UNCHANGED)
                if response is not None:
                    touch_seen(self.db, url, utc_now(), confirmed=False)
                    self._count_unchanged(SITEMAP_UNCHANGED)
                    return response
        except sqlite3.Error as exc:
            self._storage_failed(url, exc)
            return None
        request.meta[_META_KNOWN] = True
        if known.etag:
            request.headers[b"If-None-Match"] = known.etag
        if known.last_modified:
            request.headers[b"If-Modified-Since"] = known.last_modified
        if known.etag or known.last_modified:
            request.meta[_META_VALIDATORS] = True
        return None

    def _sitemap_says_unchanged(self, request: Request, fetched_at: str | None) -> bool:
        """Whether the request's sitemap ``lastmod`` is not newer than the stored fetch."""
        lastmod = request.meta.get(META_LASTMOD)
        if not lastmod:
            return False
        modified, fetched = parse_time(lastmod), parse_time(fetched_at)
        if modified is None:
            self.stats.inc_value("recrawl/sitemap_lastmod_unreadable")
            return False
        return fetched is not None and modified <= fetched

    # -- responses ----------------------------------------------------------------------

    def process_response(self, request: Request, response: Response,
                         spider: Spider | None = None) -> Request | Response:
        """Replace a 304 by the stored page, recognise unchanged bytes, mark 404/410 gone."""
        if not self._is_page(request) or request.meta.get(META_UNCHANGED):
            return response
        url = self._stored_url(request)
        try:
            if response.status == 304:
                if request.meta.get(_META_VALIDATORS):
                    stored = self._stored_response(request, url, NOT_MODIFIED)
                    if stored is not None:
                        touch_seen(self.db, url, utc_now(), confirmed=True)
                        self._count_unchanged(NOT_MODIFIED)
                        return stored
                return self._refetch(request, response, url)
            if response.status in GONE_STATUSES:
                if mark_gone(self.db, url, utc_now()):
                    self.stats.inc_value("recrawl/gone")
                    self.stats.inc_value(f"recrawl/gone/http_{response.status}")
                    logger.info("Gone: %s answered HTTP %d; its row is kept with gone_at set",
                                url, response.status)
                return response
            if 200 <= response.status < 300 and request.meta.get(_META_KNOWN):
                stored_copy = stored_page(self.db, url)
                if stored_copy is not None and stored_copy.raw_html == response.body:
                    touch_seen(self.db, url, utc_now(), confirmed=True)
                    request.meta[META_UNCHANGED] = SAME_BODY
                    self._count_unchanged(SAME_BODY)
        except sqlite3.Error as exc:
            self._storage_failed(url, exc)
        return response

    def _refetch(self, request: Request, response: Response, url: str) -> Request | Response:
        """A 304 nothing stored can stand for: fetch the page again once, without validators."""
        self.stats.inc_value("recrawl/unexpected_304")
        if request.meta.get(_META_REFETCH):
            logger.warning("%s answered 304 Not Modified again to a request without validators; "
                           "it cannot be stored", url)
            return response
        logger.info("%s answered 304 Not Modified although %s; fetching it again without "
                    "validators", url, "no validators were sent"
                    if not request.meta.get(_META_VALIDATORS) else "its stored copy is missing")
        retry = request.replace(dont_filter=True)
        for header in CONDITIONAL_HEADERS:
            retry.headers.pop(header, None)
        retry.headers[b"Cache-Control"] = b"no-cache"
        retry.headers[b"Pragma"] = b"no-cache"
        retry.meta.pop(_META_VALIDATORS, None)
        retry.meta.pop(_META_KNOWN, None)
        retry.meta[_META_REFETCH] = True
        return retry

    # -- helpers ------------------------------------------------------------------------

    def _is_page(self, request: Request) -> bool:
        return (self.db is not None and request.meta.get("crawl_role") == "page"
                and request.method == "GET")

    @staticmethod
    def _stored_url(request: Request) -> str:
        """The URL the page is stored under (the spider's canonical form)."""
        canonical = request.meta.get(CANONICAL_URL_META)
        if canonical and canonical == request.url:
            return canonical
        try:
            return canonicalize_url(request.url)
        except ValueError:
            return request.url

    def _stored_response(self, request: Request, url: str, reason: str) -> HtmlResponse | None:
        """The stored page as a response to ``request`` (meta says why), or None if none."""
        assert self.db is not None
        page = stored_page(self.db, url)
        if page is None:
            return None
        request.meta[META_UNCHANGED] = reason
        headers: dict[str, Any] = {"Content-Type": page.content_type or "text/html"}
        return HtmlResponse(url=request.url, status=200, headers=headers, body=page.raw_html,
                            encoding=page.encoding or "utf-8", request=request,
                            flags=["stored"])

    def _count_unchanged(self, reason: str) -> None:
        self.stats.inc_value(f"recrawl/{reason}")
        self.stats.inc_value("recrawl/unchanged")

    def _storage_failed(self, url: str, exc: Exception) -> None:
        """A failed read or write of the stored page: the page is fetched like a new one."""
        self.stats.inc_value("recrawl/storage_errors")
        logger.warning("Could not read or update the stored copy of %s (%s); it is handled as "
                       "a new page", url, exc)
