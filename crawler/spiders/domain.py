"""The ``domain`` spider: crawl every HTML page of one site through links and sitemaps.

``scrapy crawl domain -a start=https://site.example/[,URL...]`` with optional arguments
``subdomains``, ``max_pages``, ``max_depth``, ``allow``, ``deny``, ``render``, ``sitemaps``,
``follow_links`` and ``refresh``. Pages are yielded as :class:`~crawler.items.PageItem`;
extraction and storage happen in the item pipelines. A page found unchanged since the last crawl
(see :mod:`crawler.middlewares.recrawl`) yields no item; its links are followed all the same.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any
from urllib.parse import urljoin, urlsplit

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import CloseSpider, IgnoreRequest, StopDownload
from scrapy.settings import SETTINGS_PRIORITIES
from scrapy.http import Response, TextResponse
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.gz import gunzip
from scrapy.utils.response import get_base_url
from scrapy.utils.sitemap import Sitemap, sitemap_urls_from_robots
from twisted.internet.error import DNSLookupError
from twisted.python.failure import Failure

from crawler.extensions.content_type import STOPPED_TYPE_META
from crawler.extraction.document import MAX_ATTRIBUTES, limit_attributes
from crawler.fingerprint import CANONICAL_URL_META
from crawler.items import PageItem
from crawler.links import anchor_links, page_relation_links
from crawler.middlewares.recrawl import META_LASTMOD, META_UNCHANGED, REFRESH_MODES
from crawler.middlewares.traps import strip_session_ids
from crawler.rendering import (RENDER_MODES, RenderConfig, find_browser, launch_options,
                               looks_like_js_shell)
from crawler.startup import SettingError, parse_truth, read_bool, read_number, stop_if_misconfigured
from crawler.urls import CrawlScope, canonicalize_url, has_non_html_extension, host_of

logger = logging.getLogger(__name__)

PLAYWRIGHT_HANDLER = "crawler.playwright_handler.LazyPlaywrightDownloadHandler"

#: ``request.meta["crawl_role"]``: what a request is for (pages are stored, the rest are not).
ROLE_PAGE = "page"
ROLE_ROBOTS = "robots"
ROLE_SITEMAP = "sitemap"
#: ``request.meta`` key: why a page is fetched through the browser (copied to the item).
RENDER_REASON_META = "render_reason"

def _parse_bool(name: str, value: Any) -> bool:
    truth = parse_truth(value)
    if truth is not None:
        return truth
    raise ValueError(f"-a {name}={value!r}: expected true or false")


def _parse_limit(name: str, value: Any) -> int | None:
    if value in (None, ""):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"-a {name}={value!r}: expected a whole number") from None
    if number < 0:
        raise ValueError(f"-a {name}={value!r}: must not be negative")
    return number


def _parse_regex(name: str, value: Any) -> re.Pattern[str] | None:
    if value in (None, ""):
        return None
    try:
        return re.compile(str(value))
    except re.error as exc:
        raise ValueError(f"-a {name}={value!r}: not a valid regular expression ({exc})") from None


@dataclass(frozen=True)
class DomainCrawlConfig:
    """The spider's arguments, validated once."""

    start_urls: tuple[str, ...]
    scope: CrawlScope
    max_pages: int | None
    max_depth: int | None
    render: str
    sitemaps: bool
    follow_links: bool
    refresh: str = REFRESH_MODES[0]

    @classmethod
    def from_arguments(cls, start: str | None, subdomains: Any = "false", max_pages: Any = None,
                       max_depth: Any = None, allow: Any = None, deny: Any = None,
                       render: Any = "auto", sitemaps: Any = "true",
                       follow_links: Any = "true", refresh: Any = REFRESH_MODES[0],
                       ) -> DomainCrawlConfig:
        """Validate spider arguments; a ValueError names the argument that is wrong."""
        urls = [u.strip() for u in (start or "").split(",") if u.strip()]
        if not urls:
            raise ValueError("no start URL: use -a start=https://site.example/")
        canonical = []
        for url in urls:
            if "://" not in url:
                url = "https://" + url
            if urlsplit(url).scheme not in ("http", "https") or not host_of(url):
                raise ValueError(f"-a start={url!r}: not an http(s) URL")
            canonical.append(canonicalize_url(url))
        render_mode = str(render).strip().lower()
        if render_mode not in RENDER_MODES:
            raise ValueError(f"-a render={render!r}: expected one of {', '.join(RENDER_MODES)}")
        refresh_mode = str(refresh).strip().lower()
        if refresh_mode not in REFRESH_MODES:
            raise ValueError(f"-a refresh={refresh!r}: expected one of {', '.join(REFRESH_MODES)}")
        scope = CrawlScope(
            hosts=frozenset(host_of(u) for u in canonical),
            include_subdomains=_parse_bool("subdomains", subdomains),
            allow=_parse_regex("allow", allow),
            deny=_parse_regex("deny", deny),
        )
        return cls(
            start_urls=tuple(dict.fromkeys(canonical)),
            scope=scope,
            max_pages=_parse_limit("max_pages", max_pages),
            max_depth=_parse_limit("max_depth", max_depth),
            render=render_mode,
            sitemaps=_parse_bool("sitemaps", sitemaps),
            follow_links=_parse_bool("follow_links", follow_links),
            refresh=refresh_mode,
        )


@dataclass(frozen=True)
class SitemapLimits:
    """Bounds on sitemap discovery, read once from settings (0 turns a bound off): how deep
    sitemap indexes may nest (``SITEMAP_MAX_DEPTH``; robots.txt and /sitemap.xml are depth 0)
    and how many sitemaps one crawl fetches (``SITEMAP_MAX_COUNT``)."""

    max_depth: int = 3
    max_count: int = 1000

    @classmethod
    def from_settings(cls, settings) -> SitemapLimits:  # noqa: ANN001 - Scrapy Settings
        """Read SITEMAP_MAX_DEPTH and SITEMAP_MAX_COUNT."""
        return cls(max_depth=read_number(settings, "SITEMAP_MAX_DEPTH", whole=True, minimum=0),
                   max_count=read_number(settings, "SITEMAP_MAX_COUNT", whole=True, minimum=0))


class DomainSpider(Spider):
    """Crawl one site (its start hosts) and yield one PageItem per HTML page."""

    name = "domain"

    def __init__(self, start: str | None = None, subdomains: Any = "false",
                 max_pages: Any = None, max_depth: Any = None, allow: Any = None,
                 deny: Any = None, render: Any = "auto", sitemaps: Any = "true",
                 follow_links: Any = "true", refresh: Any = REFRESH_MODES[0], *args: Any,
                 **kwargs: Any) -> None:
        # Arguments whose name starts with "_" come from deployment tools (Scrapyd's _job).
        unknown = sorted(name for name in kwargs if not name.startswith("_"))
        super().__init__(*args, **{k: v for k, v in kwargs.items() if k.startswith("_")})
        self.startup_error: str | None = None
        self.config: DomainCrawlConfig | None = None
        self.browser_missing = False  # render=auto without a browser: counted at start
        if unknown:
            self.startup_error = (
                f"unknown spider argument{'s' if len(unknown) > 1 else ''} "
                f"{', '.join('-a ' + name for name in unknown)}; valid arguments: "
                f"{', '.join(self.argument_names())}")
        else:
            try:
                self.config = DomainCrawlConfig.from_arguments(
                    start, subdomains, max_pages, max_depth, allow, deny, render, sitemaps,
                    follow_links, refresh)
            except ValueError as exc:
                self.startup_error = str(exc)
        self.render_mode = self.config.render if self.config else "never"
        self.pages_yielded = 0
        self.strip_session_ids = True  # TRAP_STRIP_SESSION_IDS, read in from_crawler
        self.sitemap_limits = SitemapLimits()  # read in from_crawler
        self.link_limit = 0  # LINKS_MAX_PER_PAGE, read in from_crawler
        self.sitemaps_requested = 0
        self.render_config: RenderConfig | None = None  # RENDER_*, read in from_crawler

    @classmethod
    def argument_names(cls) -> list[str]:
        """The spider arguments (``-a NAME=value``) this spider accepts."""
        return [name for name, parameter in inspect.signature(cls.__init__).parameters.items()
                if name != "self" and parameter.kind is parameter.POSITIONAL_OR_KEYWORD]

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> DomainSpider:
        """Create the spider and, before settings freeze, install the browser only if needed."""
        spider: DomainSpider = super().from_crawler(crawler, *args, **kwargs)
        spider._configure_rendering(crawler)
        try:
            spider.strip_session_ids = read_bool(crawler.settings, "TRAP_STRIP_SESSION_IDS")
            spider.sitemap_limits = SitemapLimits.from_settings(crawler.settings)
            spider.link_limit = read_number(crawler.settings, "LINKS_MAX_PER_PAGE", whole=True,
                                            minimum=0)
            spider.render_config = RenderConfig.from_settings(crawler.settings)
        except SettingError as exc:
            spider.startup_error = spider.startup_error or str(exc)
        if spider.config is not None:
            spider.allowed_domains = sorted(spider.config.scope.hosts)
        return spider

    def _configure_rendering(self, crawler: Crawler) -> None:
        """Use scrapy-playwright only when rendering may happen, with Debian's chromium."""
        settings = crawler.settings
        if self.render_mode == "never" or self.startup_error:
            return
        configured = settings.get("CHROMIUM_PATH")
        browser = find_browser(configured)
        if browser is None:
            message = (f"render={self.render_mode} needs a browser, but none was found at "
                       f"{configured!r}; install Debian's chromium or set CHROMIUM_PATH "
                       "(or the CRAWLER_CHROMIUM_PATH environment variable)")
            if self.render_mode == "always":
                self.startup_error = message
                return
            logger.warning("%s; JavaScript pages will be stored unrendered", message)
            self.browser_missing = True  # the stats exist once the crawl starts
            self.render_mode = "never"
            return
        handlers = dict(settings.getdict("DOWNLOAD_HANDLERS"))
        handlers.update({"http": PLAYWRIGHT_HANDLER, "https": PLAYWRIGHT_HANDLER})
        # At least the priority the user's own value has (-s on the command line), so that the
        # browser's path and flags are added to it rather than lost under it.
        try:
            renderers = read_number(settings, "RENDER_RENDERER_PROCESSES", whole=True,
                                    minimum=0, maximum=64)
        except SettingError as exc:
            self.startup_error = str(exc)
            return
        options = launch_options(browser, settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS"), renderers)
        for name, value in (("DOWNLOAD_HANDLERS", handlers), ("PLAYWRIGHT_LAUNCH_OPTIONS", options)):
            settings.set(name, value, priority=max(settings.getpriority(name) or 0,
                                                   SETTINGS_PRIORITIES["spider"]))

    # -- start --------------------------------------------------------------------------

    async def start(self) -> AsyncIterator[Any]:
        """Start pages, then robots.txt and /sitemap.xml of each start host."""
        stop_if_misconfigured(self.crawler.stats, self.startup_error)
        assert self.config is not None
        if self.browser_missing:
            self.crawler.stats.set_value("render/browser_missing", 1)
        reachable = [url for url in self.config.start_urls if await self._is_reachable(url)]
        if not reachable:
            self.crawler.stats.set_value("crawl/start_unreachable", len(self.config.start_urls))
            raise CloseSpider("start_unreachable")
        for url in reachable:
            yield self._page_request(url, depth=0, is_start=True)
        if self.config.sitemaps:
            for origin in dict.fromkeys(self._origin(url) for url in reachable):
                yield Request(urljoin(origin, "/robots.txt"), callback=self.parse_robots,
                              errback=self.on_auxiliary_error, meta={"crawl_role": ROLE_ROBOTS})
                sitemap = self._sitemap_request(urljoin(origin, "/sitemap.xml"), depth=0)
                if sitemap is not None:
                    yield sitemap

    async def _is_reachable(self, url: str) -> bool:
        """Whether the start URL's server accepts connections; logs a clear line when not.

        Skipped (assumed reachable) when a proxy is configured in the environment.
        """
        if any(os.environ.get(v) for v in ("http_proxy", "https_proxy", "HTTP_PROXY",
                                           "HTTPS_PROXY", "all_proxy", "ALL_PROXY")):
            return True
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        timeout = self.crawler.settings.getfloat("DOWNLOAD_TIMEOUT")
        try:
            _, writer = await asyncio.wait_for(
                asyncio.open_connection(parts.hostname, port), timeout=min(timeout, 15))
        except (OSError, asyncio.TimeoutError) as exc:
            reason = "timed out" if isinstance(exc, asyncio.TimeoutError) else (
                exc.strerror or str(exc) or type(exc).__name__)
            logger.error("Start URL %s is unreachable (%s); nothing will be crawled from it",
                         url, reason)
            return False
        writer.close()
        return True

    @staticmethod
    def _origin(url: str) -> str:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc}/"

    def _page_request(self, url: str, *, depth: int, is_start: bool = False) -> Request:
        """A request for a page at a canonical URL (said so in its meta, so that the request
        fingerprinter need not canonicalise it again)."""
        meta: dict[str, Any] = {"crawl_role": ROLE_PAGE, "page_depth": depth,
                                CANONICAL_URL_META: url}
        if is_start:
            meta["is_start"] = True
        if self.render_mode == "always":
            meta.update(self._render_meta())
            meta[RENDER_REASON_META] = "render_always"
        return Request(url, callback=self.parse_page, errback=self.on_page_error, meta=meta)

    def render_again(self, item: PageItem, reason: str) -> Request:
        """A browser request for a page whose plain copy turned out to need one (the copy is
        dropped, so it does not count towards ``max_pages``)."""
        self.pages_yielded -= 1
        request = self._page_request(item.url, depth=item.depth)
        meta = dict(request.meta)
        meta.update(self._render_meta())
        meta[RENDER_REASON_META] = reason
        return request.replace(meta=meta, dont_filter=True)

    def _render_meta(self) -> dict[str, Any]:
        assert self.render_config is not None
        return self.render_config.request_meta()

    # -- pages --------------------------------------------------------------------------

    def parse_page(self, response: Response) -> Iterator[Any]:
        """Yield the page's item (or re-request it through the browser) and follow its links."""
        stats = self.crawler.stats
        assert self.config is not None
        stopped_type = response.meta.get(STOPPED_TYPE_META)
        if stopped_type and "download_stopped" in response.flags:
            stats.inc_value("skipped/non_html_content_type")
            logger.info("Skipped %s: Content-Type %s is not HTML (body not downloaded)",
                        response.url, stopped_type)
            return
        if not isinstance(response, TextResponse):
            stats.inc_value("skipped/non_html_response")
            logger.info("Skipped %s: the response is not text (%s)", response.url,
                        response.headers.get("Content-Type", b"").decode("latin-1") or "no type")
            return
        if not self.config.scope.host_in_scope(host_of(response.url)):
            # Whatever flags the request carried (a same-page redirect's dont_filter, a render
            # request), a page is the crawl's only if the URL it finally came from is in scope.
            stats.inc_value("offsite/final_url")
            chain = response.meta.get("redirect_urls") or []
            logger.warning("Not stored: %s is not in the crawl's scope%s", response.url,
                           f" (redirected from {chain[0]})" if chain else "")
            return
        if self.config.max_pages is not None and self.pages_yielded >= self.config.max_pages:
            stats.inc_value("skipped/max_pages")
            return
        if response.meta.get(META_UNCHANGED):
            # Unchanged since the last crawl (stored copy or same bytes): nothing to extract or
            # store, but its links still lead to the rest of the site.
            self.pages_yielded += 1
            yield from self._follow_links(response)
            if self.config.max_pages is not None and self.pages_yielded >= self.config.max_pages:
                raise CloseSpider("max_pages")
            return
        rendered = bool(response.meta.get("playwright"))
        if self.render_mode == "auto" and not rendered:
            verdict = looks_like_js_shell(response.text)
            if verdict.is_shell:
                stats.inc_value(f"render/requested/{verdict.reason}")
                logger.debug("Rendering %s in the browser (%s)", response.url, verdict.reason)
                meta = dict(response.meta)
                meta.update(self._render_meta())
                meta[RENDER_REASON_META] = verdict.reason
                yield response.request.replace(meta=meta, dont_filter=True)
                return
        if rendered:
            stats.inc_value("pages/rendered")
        self.pages_yielded += 1
        parseable = self._parseable(response)
        yield self._page_item(response, rendered, parseable)
        yield from self._follow_links(parseable)
        if self.config.max_pages is not None and self.pages_yielded >= self.config.max_pages:
            raise CloseSpider("max_pages")

    def _parseable(self, response: TextResponse) -> TextResponse:
        """The response as the spider parses it for links: an element's attributes beyond
        MAX_ATTRIBUTES are dropped first (libxml2 takes minutes over one element with 150,000
        of them, and this runs on the reactor thread). The stored page keeps every byte."""
        text, cut = limit_attributes(response.text)
        if not cut:
            return response
        self.crawler.stats.inc_value("response/attributes_cut")
        logger.info("%s has %d element(s) with more than %d attributes: only the first are "
                    "parsed", response.url, cut, MAX_ATTRIBUTES)
        return response.replace(body=text.encode("utf-8"), encoding="utf-8")

    def _page_item(self, response: TextResponse, rendered: bool,
                   parseable: TextResponse) -> PageItem:
        canonical = self._declared_canonical(parseable)
        url = canonicalize_url(response.url)
        if self.strip_session_ids:
            url = strip_session_ids(url)  # a session id a redirect added is not the page's URL
        return PageItem(
            url=url,
            domain=urlsplit(url).netloc,
            status=response.status,
            fetched_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            rendered=rendered,
            content_type=response.headers.get("Content-Type", b"").decode("latin-1"),
            encoding=response.encoding,
            canonical_url=canonical,
            depth=int(response.meta.get("page_depth", 0)),
            render_reason=response.meta.get(RENDER_REASON_META) if rendered else None,
            etag=self._header(response, b"ETag"),
            last_modified=self._header(response, b"Last-Modified"),
            raw_html=response.body,
        )

    def _declared_canonical(self, response: TextResponse) -> str | None:
        """The page's ``<link rel=canonical>``, canonicalised; None when absent, malformed or
        longer than ``URLLENGTH_LIMIT`` (a 100,000-character "URL" is no address; the
        extraction pipeline, which reads the same link, counts it)."""
        href = response.xpath("//head/link[@rel='canonical']/@href").get()
        if not href:
            return None
        limit = self.crawler.settings.getint("URLLENGTH_LIMIT")
        try:
            canonical = canonicalize_url(response.urljoin(href))
        except ValueError:
            canonical = None
        if canonical is None or (limit and len(canonical) > limit):
            logger.info("Ignored the canonical link of %s: %s", response.url,
                        "malformed" if canonical is None
                        else f"{len(canonical)} characters > URLLENGTH_LIMIT {limit}")
            return None
        return canonical

    @staticmethod
    def _header(response: Response, name: bytes) -> str | None:
        """A response header as text, or None when absent or empty (rendered pages have none)."""
        value = response.headers.get(name)
        return value.decode("latin-1").strip() or None if value else None

    def _follow_links(self, response: TextResponse) -> Iterator[Request]:
        assert self.config is not None
        if not self.config.follow_links:
            return
        depth = int(response.meta.get("page_depth", 0))
        if self.config.max_depth is not None and depth >= self.config.max_depth:
            return
        root, base_url = response.selector.root, get_base_url(response)
        limit = self.link_limit or None
        urls = anchor_links(root, response.url, base_url, response.encoding, limit=limit)
        if limit is not None and len(urls) >= limit:
            self.crawler.stats.inc_value("links/capped_pages")
            level = logging.DEBUG if self.crawler.stats.get_value("links/capped_pages") > 1 \
                else logging.WARNING
            logger.log(level, "%s links to more pages than LINKS_MAX_PER_PAGE (%d): only the "
                              "first %d are followed", response.url, limit, limit)
        urls += page_relation_links(root, base_url)
        # One request per page linked, however many anchors and fragments point at it.
        for url in dict.fromkeys(filter(None, map(self._canonical_link, dict.fromkeys(urls)))):
            request = self._scoped_request(url, depth + 1)
            if request is not None:
                yield request

    def _canonical_link(self, url: str) -> str | None:
        """The canonical form of a discovered URL, or None (counted) when it is malformed."""
        try:
            return canonicalize_url(url)
        except ValueError:
            self.crawler.stats.inc_value("links/filtered/malformed")
            return None

    def _discovered_request(self, url: str, depth: int) -> Request | None:
        """A page request for a discovered URL, or None (counted) when it is malformed or out
        of scope."""
        canonical = self._canonical_link(url)
        return None if canonical is None else self._scoped_request(canonical, depth)

    def _scoped_request(self, url: str, depth: int) -> Request | None:
        """A page request for a canonical URL, or None (counted) when it is out of scope."""
        assert self.config is not None
        stats = self.crawler.stats
        accepted, reason = self.config.scope.accepts(url)
        if not accepted:
            stats.inc_value(f"links/filtered/{reason}")
            return None
        if has_non_html_extension(url):
            stats.inc_value("skipped/non_html_extension")
            return None
        return self._page_request(url, depth=depth)

    # -- robots.txt and sitemaps -------------------------------------------------------

    def parse_robots(self, response: Response) -> Iterator[Request]:
        """Follow the ``Sitemap:`` lines of robots.txt."""
        if not isinstance(response, TextResponse):
            return
        for url in sitemap_urls_from_robots(response.body, base_url=response.url):
            self.crawler.stats.inc_value("sitemaps/from_robots")
            request = self._sitemap_request(url, depth=0)
            if request is not None:
                yield request

    def _sitemap_request(self, url: str, depth: int) -> Request | None:
        """A request for a sitemap at this index depth, or None (counted, logged once) past
        SITEMAP_MAX_DEPTH or SITEMAP_MAX_COUNT: an index that links ever-new indexes ends."""
        limits = self.sitemap_limits
        over = None
        if limits.max_depth and depth > limits.max_depth:
            over = ("depth_limited", f"nested {depth} indexes deep > SITEMAP_MAX_DEPTH "
                                     f"{limits.max_depth}")
        elif limits.max_count and self.sitemaps_requested >= limits.max_count:
            over = ("count_limited", f"{self.sitemaps_requested} sitemaps already requested "
                                     f"(SITEMAP_MAX_COUNT)")
        if over is not None:
            stat = f"sitemaps/{over[0]}"
            level = logging.DEBUG if self.crawler.stats.get_value(stat) else logging.WARNING
            self.crawler.stats.inc_value(stat)
            logger.log(level, "Sitemap %s not fetched: %s", url[:300], over[1])
            return None
        self.sitemaps_requested += 1
        return Request(url, callback=self.parse_sitemap, errback=self.on_auxiliary_error,
                       meta={"crawl_role": ROLE_SITEMAP, "sitemap_depth": depth})

    def parse_sitemap(self, response: Response) -> Iterator[Request]:
        """Read a sitemap or sitemap index (plain or gzipped) and request what it lists."""
        stats = self.crawler.stats
        body = self._sitemap_body(response)
        if body is None:
            stats.inc_value("sitemaps/invalid")
            logger.info("Ignored %s: not a sitemap", response.url)
            return
        try:
            sitemap = Sitemap(body)
        except Exception as exc:  # lxml raises several kinds on broken XML
            stats.inc_value("sitemaps/invalid")
            logger.info("Ignored %s: unreadable sitemap (%s)", response.url, exc)
            return
        stats.inc_value("sitemaps/read")
        for entry in sitemap:
            loc = (entry.get("loc") or "").strip()
            if not loc:
                continue
            loc = response.urljoin(loc)
            if sitemap.type == "sitemapindex":
                if self.config is not None and self.config.scope.host_in_scope(host_of(loc)):
                    request = self._sitemap_request(
                        loc, depth=int(response.meta.get("sitemap_depth", 0)) + 1)
                    if request is not None:
                        yield request
            elif sitemap.type == "urlset":
                request = self._discovered_request(loc, depth=1)
                if request is not None:
                    stats.inc_value("sitemaps/urls")
                    lastmod = (entry.get("lastmod") or "").strip()
                    if lastmod:
                        request.meta[META_LASTMOD] = lastmod
                    yield request

    def _sitemap_body(self, response: Response) -> bytes | None:
        """The XML of a sitemap response, gunzipped if needed; None if it is not XML."""
        max_size = self.crawler.settings.getint("DOWNLOAD_MAXSIZE")
        body = response.body
        if body[:2] == b"\x1f\x8b":
            try:
                body = gunzip(body, max_size=max_size)
            except Exception:  # broken or oversized gzip
                return None
        head = body[:512].lstrip()
        if head.startswith(b"<?xml") or b"<urlset" in head or b"<sitemapindex" in head:
            return body
        return None

    # -- errors -------------------------------------------------------------------------

    def on_page_error(self, failure: Failure) -> None:
        """Count a page that could not be fetched, by kind, with one clear log line."""
        request = failure.request  # type: ignore[attr-defined]
        if failure.check(StopDownload) or (failure.check(IgnoreRequest)
                                           and not failure.check(HttpError)):
            return  # counted (and logged) by the component that stopped or refused it
        kind = self._error_kind(failure)
        self.crawler.stats.inc_value(f"errors/{kind}")
        reason = failure.getErrorMessage() or kind
        if failure.check(HttpError):
            reason = f"HTTP {failure.value.response.status}"
        if request.meta.get("is_start"):
            logger.error("Start URL %s could not be fetched: %s", request.url, reason)
        else:
            logger.warning("Failed to fetch %s: %s", request.url, reason)

    def on_auxiliary_error(self, failure: Failure) -> None:
        """robots.txt or a sitemap that is missing is normal: count it, log at debug level."""
        request = failure.request  # type: ignore[attr-defined]
        role = request.meta.get("crawl_role", "auxiliary")
        self.crawler.stats.inc_value(f"{role}/unavailable")
        logger.debug("No %s at %s: %s", role, request.url, failure.getErrorMessage())

    @staticmethod
    def _error_kind(failure: Failure) -> str:
        if failure.check(HttpError):
            return f"http_{failure.value.response.status}"
        if failure.check(DNSLookupError):
            return "dns"
        return type(failure.value).__name__
