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
import struct
import weakref
import zlib
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from enum import Enum
from typing import Any
from urllib.parse import urljoin, urlsplit

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import CloseSpider, DontCloseSpider, IgnoreRequest, StopDownload
from scrapy.settings import SETTINGS_PRIORITIES
from scrapy.http import Response, TextResponse
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.spidermiddlewares.referer import ReferrerPolicy, RefererMiddleware
from scrapy.utils.gz import gunzip
# Scrapy's signal that gunzip passed its size limit (not public API).
from scrapy.utils._compression import _DecompressionMaxSizeExceeded
from scrapy.utils.job import job_dir
from scrapy.utils.sitemap import Sitemap, sitemap_urls_from_robots
from twisted.internet.error import DNSLookupError
from twisted.python.failure import Failure

from crawler import signals as crawl_signals
from crawler.distributed.config import is_distributed
from crawler.exit_codes import (START_ANSWERED_STAT, START_FAILED, START_REQUESTS_STAT,
                                 START_TIMED_OUT, START_UNREACHABLE, failure_reason)
from crawler.extensions.content_type import STOPPED_TYPE_META
from crawler.extraction.addresses import is_web_url
from crawler.extraction.document import MAX_ATTRIBUTES, limit_attributes
from crawler.fingerprint import CANONICAL_URL_META
from crawler.items import PageItem
from crawler.links import PageLinks, scan_links
from crawler.middlewares.recrawl import META_LASTMOD, META_UNCHANGED, REFRESH_MODES
from crawler.middlewares.robots import REUSE_ROBOTS_META
from crawler.middlewares.traps import strip_session_ids
from crawler.rendering import (RENDER_MODES, RenderConfig, ShellVerdict, find_browser,
                               launch_options, looks_like_js_shell)
from crawler.sitemap_backlog import SitemapBacklog
from crawler.startup import SettingError, parse_truth, read_bool, read_number, stop_if_misconfigured
from crawler.unusable import UnusableResponse
from crawler.urls import (DEFAULT_PORTS, OFFSITE, OTHER_PORT, CrawlScope, canonicalize_routed_url,
                          canonicalize_url, has_non_html_extension, hash_route, host_of, port_of,
                          same_site_other_name)

logger = logging.getLogger(__name__)

PLAYWRIGHT_HANDLER = "crawler.playwright_handler.LazyPlaywrightDownloadHandler"

#: ``request.meta["crawl_role"]``: what a request is for (pages are stored, the rest are not).
ROLE_PAGE = "page"
ROLE_ROBOTS = "robots"
ROLE_SITEMAP = "sitemap"
#: ``request.meta`` key: why a page is fetched through the browser (copied to the item).
RENDER_REASON_META = "render_reason"
#: ``request.meta`` key: the page request was made from a sitemap's URL (not from a link).
SITEMAP_URL_META = "from_sitemap"
#: ``request.meta`` key: this start request was redirected out of scope (counted once).
START_LEFT_SCOPE_META = "start_left_scope"
#: The start URL a request was sent for (kept through redirects, retries and rendering); a
#: request holding it is a start request.
START_URL_META = "start_url"
#: Links of one page scheduled in one turn of the reactor (about 20 ms of work on a busy
#: machine: 5,000 links, LINKS_MAX_PER_PAGE, took 0.5 s of the reactor's CPU in one go).
REQUESTS_PER_TURN = 200
#: URLs of a sitemap checked (canonicalised, scoped) in one go in a thread before they join the
#: backlog: the crawl of a 50,000-URL sitemap starts after its first chunk, not after all.
SITEMAP_CHUNK = 1000


def _is_start(request: Request) -> bool:
    """Whether a request is a start request (or the redirect, retry or rendering carrying one
    on): it holds the start URL it was sent for."""
    return START_URL_META in request.meta


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


#: A start URL given with a scheme other than http(s) and no ``//`` (``mailto:``, ``javascript:``,
#: ``data:``): not a host to which ``https://`` is added (``localhost:8080`` is one, its port a number).
OTHER_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:(?![0-9])")


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
        render_mode = str(render).strip().lower()
        if render_mode not in RENDER_MODES:
            raise ValueError(f"-a render={render!r}: expected one of {', '.join(RENDER_MODES)}")
        # A start URL's hash route (#/guide) names the page asked for, as a link's does on a
        # rendered page; render=never shows no route's page, so there it is dropped, as links'.
        canonicalize = canonicalize_url if render_mode == "never" else canonicalize_routed_url
        canonical = []
        for given in urls:
            if "://" not in given and OTHER_SCHEME.match(given):
                raise ValueError(f"-a start={given!r}: not an http(s) URL")
            url = given if "://" in given else "https://" + given
            try:  # the port is read too: one out of range or not a number is no URL
                parts = urlsplit(url)
                readable = parts.port is None or parts.port > 0
                canonical_url = canonicalize(url)
            except ValueError as exc:  # an unclosed IPv6 bracket, a port that is no number
                raise ValueError(f"-a start={given!r}: not a URL ({exc})") from None
            if parts.scheme not in ("http", "https") or not host_of(url) or not readable:
                raise ValueError(f"-a start={given!r}: not an http(s) URL")
            canonical.append(canonical_url)
        refresh_mode = str(refresh).strip().lower()
        if refresh_mode not in REFRESH_MODES:
            raise ValueError(f"-a refresh={refresh!r}: expected one of {', '.join(REFRESH_MODES)}")
        scope = CrawlScope(
            hosts=frozenset(host_of(u) for u in canonical),
            include_subdomains=_parse_bool("subdomains", subdomains),
            allow=_parse_regex("allow", allow),
            deny=_parse_regex("deny", deny),
            ports=frozenset({*DEFAULT_PORTS.values(),
                             *(p for p in map(port_of, canonical) if p is not None)}),
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
    sitemap indexes may nest (``SITEMAP_MAX_DEPTH``; robots.txt and /sitemap.xml are depth 0),
    how many sitemaps one crawl fetches (``SITEMAP_MAX_COUNT``), how many of the URLs they list
    are requests in memory at once (``SITEMAP_QUEUE_MAX``; the others wait on disk) and how many
    one crawl takes in all (``SITEMAP_MAX_URLS``)."""

    max_depth: int
    max_count: int
    queue_max: int
    max_urls: int

    @classmethod
    def from_settings(cls, settings) -> SitemapLimits:  # noqa: ANN001 - Scrapy Settings
        """Read SITEMAP_MAX_DEPTH, SITEMAP_MAX_COUNT, SITEMAP_QUEUE_MAX and SITEMAP_MAX_URLS."""
        return cls(max_depth=read_number(settings, "SITEMAP_MAX_DEPTH", whole=True, minimum=0),
                   max_count=read_number(settings, "SITEMAP_MAX_COUNT", whole=True, minimum=0),
                   queue_max=read_number(settings, "SITEMAP_QUEUE_MAX", whole=True, minimum=0),
                   max_urls=read_number(settings, "SITEMAP_MAX_URLS", whole=True, minimum=0))


@dataclass
class PageReading:
    """What the spider reads from a page's markup, off the reactor thread: whether it looks like
    a JavaScript shell (when asked), how many elements had attributes cut before parsing, and
    its links (with the base URL they resolve against)."""

    shell: ShellVerdict | None
    attributes_cut: int
    links: PageLinks


#: A document type declaration with its internal subset, where a sitemap's entities (an
#: entity-expansion bomb, an external entity reading a local file) would be declared.
_DOCTYPE = re.compile(rb"<!DOCTYPE(?:[^\[>]|\[.*?\])*>", re.IGNORECASE | re.DOTALL)


def _without_doctype(body: bytes) -> tuple[bytes, bool]:
    """A sitemap's XML without its document type declaration (a sitemap needs none), and
    whether it had one. The parser never expands entities, but libxml2 stops reading a
    document whose entities it finds amplifying, and every URL after them would be lost."""
    root = min((i for i in (body.find(b"<urlset"), body.find(b"<sitemapindex")) if i >= 0),
               default=-1)
    prolog = body[:root] if root >= 0 else body[:64 * 1024]
    stripped, count = _DOCTYPE.subn(b"", prolog, count=1)
    if not count:
        return body, False
    return stripped + body[len(prolog):], True


class SitemapProblem(Enum):
    """Why a response is no sitemap: its stat (``sitemaps/<stat>``) and the level of its log
    line. A response that is no sitemap at all (an HTML page at a sitemap's address, broken XML)
    is common and costs nothing the site lists (INFO); a sitemap too large to decompress or a
    broken gzip loses the URLs it lists (WARNING)."""

    INVALID = ("invalid", logging.INFO)
    TOO_LARGE = ("too_large", logging.WARNING)
    BROKEN_GZIP = ("broken_gzip", logging.WARNING)

    def __init__(self, stat: str, level: int) -> None:
        self.stat = stat
        self.level = level


@dataclass
class SitemapReading:
    """What one sitemap lists, read off the reactor thread: its kind, the sitemaps of an index
    (absolute; their scope is checked as they are requested) and the page URLs of a urlset
    (absolute, with their lastmod, not yet checked).
    ``problem`` says why a response is no sitemap (then nothing else is set);
    ``doctype_removed``: it declared a document type (entities), removed before parsing;
    ``unreadable``: how many of its ``<loc>`` entries the parser could not read;
    ``problem_kind``: which problem it is (its stat and log level)."""

    kind: str
    problem: str | None = None
    problem_kind: SitemapProblem = SitemapProblem.INVALID
    sitemaps: list[str] = field(default_factory=list)
    pages: list[tuple[str, str]] = field(default_factory=list)
    doctype_removed: bool = False
    unreadable: int = 0


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
        #: Start requests sent, and how many of them ended in an error (after retries).
        self.start_requests_sent = 0
        self.start_requests_failed = 0
        #: Start URLs whose request got neither a response nor an error yet; at idle, those
        #: left were dropped before their download without a word (a middleware or a filter).
        self.start_urls_pending: set[str] = set()
        #: Off in a distributed crawl: another worker may answer this worker's start requests.
        self.tracks_start_answers = True
        #: Scrapy's CLOSESPIDER_TIMEOUT, named in the line of a crawl it stopped before any
        #: start URL answered; read in from_crawler.
        self.closespider_timeout = 0.0
        self.strip_session_ids = True  # TRAP_STRIP_SESSION_IDS, read in from_crawler
        self.sitemap_limits = SitemapLimits(0, 0, 0, 0)  # read in from_crawler
        self.link_limit = 0  # LINKS_MAX_PER_PAGE, read in from_crawler
        self.sitemaps_requested = 0
        #: Page URLs sitemaps list, waiting on disk until the scheduler has room for them.
        self.sitemap_backlog: SitemapBacklog | None = None  # opened in from_crawler
        #: The sitemap page requests alive (queued or downloading): the scheduler's share of
        #: sitemap URLs. A request leaves the set when Scrapy drops it, whatever the reason.
        self.sitemap_requests_alive: weakref.WeakSet[Request] = weakref.WeakSet()
        self.sitemap_urls_taken = 0
        #: The crawl's referrer policy (REFERRER_POLICY), for the sitemap page requests, which
        #: reach the scheduler past the spider middlewares; None when REFERER_ENABLED is off.
        self.sitemap_referrer: ReferrerPolicy | None = None  # set in from_crawler
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
            spider.allowed_domains = spider.config.scope.offsite_names
        spider.sitemap_backlog = SitemapBacklog(job_dir(crawler.settings))
        if crawler.settings.getbool("REFERER_ENABLED"):
            spider.sitemap_referrer = RefererMiddleware(crawler.settings).default_policy()
        crawler.signals.connect(spider.on_scheduler_empty, signal=signals.scheduler_empty)
        crawler.signals.connect(spider.on_spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(spider.on_request_scheduled, signal=signals.request_scheduled)
        crawler.signals.connect(spider.on_request_dropped, signal=signals.request_dropped)
        spider.tracks_start_answers = not is_distributed(crawler.settings)
        spider.closespider_timeout = crawler.settings.getfloat("CLOSESPIDER_TIMEOUT")
        return spider

    def _configure_rendering(self, crawler: Crawler) -> None:
        """Use scrapy-playwright only when rendering may happen, with Debian's chromium."""
        settings = crawler.settings
        if self.render_mode == "never" or self.startup_error:
            return
        configured = settings.getlist("CHROMIUM_PATH")
        browser = find_browser(configured)
        if browser is None:
            message = (f"render={self.render_mode} needs a browser, but none was found at "
                       f"{', '.join(map(repr, configured)) or 'an empty CHROMIUM_PATH'}; install "
                       "Debian's chromium-headless-shell or chromium, or set CHROMIUM_PATH "
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
            raise CloseSpider(START_UNREACHABLE)
        for url in reachable:
            self.start_requests_sent += 1
            if self.tracks_start_answers:
                self.start_urls_pending.add(url)
                self.crawler.stats.set_value(START_REQUESTS_STAT, self.start_requests_sent)
            yield self._page_request(url, depth=0, is_start=True)
        if self.config.sitemaps:
            for origin in dict.fromkeys(self._origin(url) for url in reachable):
                for request in self._sitemap_discovery(origin):
                    yield request

    def _sitemap_discovery(self, origin: str) -> Iterator[Request]:
        """The requests that find a host's sitemaps: its robots.txt (read for ``Sitemap:``
        lines; answered with the copy the robots.txt middleware fetched for the host's rules,
        not fetched again) and its /sitemap.xml."""
        yield Request(urljoin(origin, "/robots.txt"), callback=self.parse_robots,
                      errback=self.on_auxiliary_error,
                      meta={"crawl_role": ROLE_ROBOTS, REUSE_ROBOTS_META: True})
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
            meta[START_URL_META] = url
        if self.render_mode == "always":
            meta.update(self._render_meta())
            meta[RENDER_REASON_META] = "render_always"
        elif self.render_mode == "auto" and hash_route(url):
            # The server answers a route with the shell it answers for every route: only the
            # browser shows the route's page.
            meta.update(self._render_meta())
            meta[RENDER_REASON_META] = "hash_route"
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

    async def parse_page(self, response: Response) -> AsyncIterator[Any]:
        """Yield the page's item (or re-request it through the browser) and follow its links.

        The markup is read (JavaScript-shell check, links, canonical link) in a thread: its
        cost grows with the page, and on the reactor thread it would hold up every download.
        """
        stats = self.crawler.stats
        assert self.config is not None
        self._start_answered(response.request)
        if response.meta.get(SITEMAP_URL_META):
            self.refill_sitemap_queue()
        stopped_type = response.meta.get(STOPPED_TYPE_META)
        if stopped_type and "download_stopped" in response.flags:
            stats.inc_value("skipped/non_html_content_type")
            logger.info("Skipped %s: Content-Type %s is not HTML (body not downloaded)",
                        response.url, stopped_type)
            self._start_gave_no_page(response.request, f"Content-Type {stopped_type} is not HTML")
            return
        if not isinstance(response, TextResponse):
            declared = response.headers.get("Content-Type", b"").decode("latin-1") or "no type"
            stats.inc_value("skipped/non_html_response")
            logger.info("Skipped %s: the response is not text (%s)", response.url, declared)
            self._start_gave_no_page(response.request, f"the response is not text ({declared})")
            return
        if self.config.scope.origin_refused(response.url):
            # Whatever flags the request carried (a same-page redirect's dont_filter, a render
            # request), a page is the crawl's only if the URL it finally came from is in scope.
            stats.inc_value("offsite/final_url")
            chain = response.meta.get("redirect_urls") or []
            logger.warning("Not stored: %s is not in the crawl's scope%s", response.url,
                           f" (redirected from {chain[0]})" if chain else "")
            return
        if self._max_pages_reached():
            return
        if response.meta.get(META_UNCHANGED):
            # Unchanged since the last crawl (stored copy or same bytes): nothing to extract or
            # store, but its links still lead to the rest of the site.
            self.pages_yielded += 1
            reading = await asyncio.to_thread(self._read_page, response, False)
            async for request in self._paced(self._follow_links(response, reading)):
                yield request
            if self.config.max_pages is not None and self.pages_yielded >= self.config.max_pages:
                raise CloseSpider("max_pages")
            return
        rendered = bool(response.meta.get("playwright"))
        check_shell = self.render_mode == "auto" and not rendered
        reading = await asyncio.to_thread(self._read_page, response, check_shell)
        verdict = reading.shell
        if verdict is not None and verdict.is_shell:
            stats.inc_value(f"render/requested/{verdict.reason}")
            logger.debug("Rendering %s in the browser (%s)", response.url, verdict.reason)
            meta = dict(response.meta)
            meta.update(self._render_meta())
            meta[RENDER_REASON_META] = verdict.reason
            yield response.request.replace(meta=meta, dont_filter=True)
            return
        if rendered:
            stats.inc_value("pages/rendered")
        if reading.attributes_cut:
            stats.inc_value("response/attributes_cut")
            logger.info("%s has %d element(s) with more than %d attributes: only the first are "
                        "parsed", response.url, reading.attributes_cut, MAX_ATTRIBUTES)
        if self._max_pages_reached():  # again: other pages were yielded while this one was read
            return
        self.pages_yielded += 1
        yield self._page_item(response, rendered, reading)
        async for request in self._paced(self._follow_links(response, reading)):
            yield request
        if self.config.max_pages is not None and self.pages_yielded >= self.config.max_pages:
            raise CloseSpider("max_pages")

    def _max_pages_reached(self) -> bool:
        """Whether ``max_pages`` pages were yielded already (this one is then counted)."""
        assert self.config is not None
        if self.config.max_pages is None or self.pages_yielded < self.config.max_pages:
            return False
        self.crawler.stats.inc_value("skipped/max_pages")
        return True

    @staticmethod
    async def _paced(requests: Iterator[Request]) -> AsyncIterator[Request]:
        """The requests, letting the reactor run other work after every ``REQUESTS_PER_TURN``
        of them: a page's thousands of links are scheduled in many short turns, not one long
        one."""
        for count, request in enumerate(requests, 1):
            yield request
            if count % REQUESTS_PER_TURN == 0:
                await asyncio.sleep(0)

    def _follows_links(self, response: Response) -> bool:
        """Whether the links of this page are followed (``follow_links``, ``max_depth``)."""
        assert self.config is not None
        depth = int(response.meta.get("page_depth", 0))
        return self.config.follow_links and (self.config.max_depth is None
                                             or depth < self.config.max_depth)

    def _read_page(self, response: TextResponse, check_shell: bool) -> PageReading:
        """Read the page's markup (runs in a thread; touches no stats and no spider state).

        An element's attributes beyond MAX_ATTRIBUTES are dropped before parsing (libxml2 takes
        minutes over one element with 150,000 of them); the stored page keeps every byte. The
        links are read up to ``LINKS_MAX_PER_PAGE``, and only the head when they are not
        followed.
        """
        text = response.text
        if check_shell:
            verdict = looks_like_js_shell(text)
            if verdict.is_shell:
                return PageReading(verdict, 0, PageLinks(base=response.url))
        else:
            verdict = None
        text, cut = limit_attributes(text)
        links = scan_links(text, response.url, response.encoding,
                           limit=self.link_limit or None, anchors=self._follows_links(response),
                           routes=self._follows_routes(response))
        return PageReading(verdict, cut, links)

    def _page_item(self, response: TextResponse, rendered: bool,
                   reading: PageReading) -> PageItem:
        canonical = self._declared_canonical(response, reading)
        url = canonicalize_url(response.url)
        if self.strip_session_ids:
            url = strip_session_ids(url)  # a session id a redirect added is not the page's URL
        if rendered and response.request is not None:
            url += hash_route(response.request.url)  # the route asked for names the page
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

    def _declared_canonical(self, response: TextResponse, reading: PageReading) -> str | None:
        """The page's ``<link rel=canonical>``, canonicalised; None when absent, malformed or
        longer than ``URLLENGTH_LIMIT`` (a 100,000-character "URL" is no address; the
        extraction pipeline, which reads the same link, counts it)."""
        href = reading.links.canonical
        if not href:
            return None
        limit = self.crawler.settings.getint("URLLENGTH_LIMIT")
        try:
            canonical = canonicalize_url(urljoin(reading.links.base, href))
        except ValueError:
            canonical = None
        if canonical is None or (limit and len(canonical) > limit):
            logger.info("Ignored the canonical link of %s: %s", response.url,
                        "malformed" if canonical is None
                        else f"{len(canonical)} characters > URLLENGTH_LIMIT {limit}")
            return None
        if not is_web_url(canonical):
            # javascript:, data:, mailto: were stored as the page's canonical URL; the
            # extraction, which reads the same link with the same test, gives none for it, so
            # it is counted here
            self.crawler.stats.inc_value("canonical/dropped")
            logger.info("Ignored the canonical link of %s: %s is not an http(s) URL",
                        response.url, canonical[:100])
            return None
        return canonical

    @staticmethod
    def _header(response: Response, name: bytes) -> str | None:
        """A response header as text, or None when absent or empty (rendered pages have none)."""
        value = response.headers.get(name)
        return value.decode("latin-1").strip() or None if value else None

    def _follow_links(self, response: TextResponse, reading: PageReading) -> Iterator[Request]:
        """One request per page the links lead to (in scope), at the next depth."""
        if not self._follows_links(response):
            return
        depth = int(response.meta.get("page_depth", 0))
        links = reading.links
        if links.capped:
            self.crawler.stats.inc_value("links/capped_pages")
            level = logging.DEBUG if self.crawler.stats.get_value("links/capped_pages") > 1 \
                else logging.WARNING
            logger.log(level, "%s links to more pages than LINKS_MAX_PER_PAGE (%d): only the "
                              "first %d are followed (the rest of the page is not read for "
                              "links)", response.url, self.link_limit, self.link_limit)
        urls = links.anchors + links.relations
        routes = self._follows_routes(response)
        canonical = (self._canonical_link(url, routes) for url in dict.fromkeys(urls))
        # One request per page linked, however many anchors and fragments point at it.
        for url in dict.fromkeys(filter(None, canonical)):
            request = self._scoped_request(url, depth + 1)
            if request is not None:
                yield request

    def _canonical_link(self, url: str, routes: bool = False) -> str | None:
        """The canonical form of a discovered URL (with its client-side route, ``#/guide``,
        when ``routes``), or None (counted) when it is malformed."""
        try:
            return canonicalize_routed_url(url) if routes else canonicalize_url(url)
        except ValueError:
            self.crawler.stats.inc_value("links/filtered/malformed")
            return None

    def _follows_routes(self, response: Response) -> bool:
        """Whether the page's links keep their client-side routes (``#/guide``, ``#!/guide``):
        only a page the browser built routes by its fragment, and a route can be followed only
        where the crawl may render (``render=auto``; ``always`` renders every page anyway)."""
        return self.render_mode != "never" and bool(response.meta.get("playwright"))

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
        """A request for a sitemap at this index depth, or None (counted, logged once) for a
        sitemap on another site (a host outside the crawl's scope or a start host on another
        port, by the one test of a URL's site; an index or robots.txt may list any), and
        past SITEMAP_MAX_DEPTH or SITEMAP_MAX_COUNT: an index that links ever-new indexes
        ends."""
        assert self.config is not None
        limits = self.sitemap_limits
        over = None
        first_level = logging.WARNING  # a limit loses the URLs of the sitemaps past it
        refused = self.config.scope.origin_refused(url)
        if refused:
            # what it lists on other sites would not be crawled anyway (the offsite filter
            # reads host names only: a sitemap on a start host's other port would be fetched)
            over = ("out_of_scope", "its host is outside the crawl's scope" if refused == OFFSITE
                    else "its host on another port: another site")
            first_level = logging.INFO
        elif limits.max_depth and depth > limits.max_depth:
            over = ("depth_limited", f"nested {depth} indexes deep > SITEMAP_MAX_DEPTH "
                                     f"{limits.max_depth}")
        elif limits.max_count and self.sitemaps_requested >= limits.max_count:
            over = ("count_limited", f"{self.sitemaps_requested} sitemaps already requested "
                                     f"(SITEMAP_MAX_COUNT)")
        if over is not None:
            stat = f"sitemaps/{over[0]}"
            level = logging.DEBUG if self.crawler.stats.get_value(stat) else first_level
            self.crawler.stats.inc_value(stat)
            logger.log(level, "Sitemap %s not fetched: %s", url[:300], over[1])
            return None
        self.sitemaps_requested += 1
        return Request(url, callback=self.parse_sitemap, errback=self.on_auxiliary_error,
                       meta={"crawl_role": ROLE_SITEMAP, "sitemap_depth": depth})

    async def parse_sitemap(self, response: Response) -> AsyncIterator[Request]:
        """Read a sitemap or sitemap index (plain or gzipped): request the sitemaps an index
        lists, and put the pages a urlset lists in the backlog, from which the scheduler gets
        ``SITEMAP_QUEUE_MAX`` at a time. The XML, and then each ``SITEMAP_CHUNK`` of its URLs,
        are read in a thread (a sitemap holds up to 50,000 URLs): the crawl of the first URLs
        starts while the others are still being checked."""
        stats = self.crawler.stats
        reading = await asyncio.to_thread(self._read_sitemap, response)
        if reading.problem is not None:
            stats.inc_value(f"sitemaps/{reading.problem_kind.stat}")
            logger.log(reading.problem_kind.level, "Ignored %s: %s", response.url[:300],
                       reading.problem)
            return
        stats.inc_value("sitemaps/read")
        if reading.doctype_removed:
            stats.inc_value("sitemaps/doctype_removed")
            logger.warning("Sitemap %s declares a document type (entities); it was removed "
                           "before parsing, and no entity was expanded", response.url[:300])
        if reading.unreadable:
            stats.inc_value("sitemaps/entries_unreadable", reading.unreadable)
            logger.warning("Sitemap %s: %d of its <loc> entries could not be read (broken XML)",
                           response.url[:300], reading.unreadable)
        depth = int(response.meta.get("sitemap_depth", 0)) + 1
        for loc in reading.sitemaps:
            request = self._sitemap_request(loc, depth=depth)
            if request is not None:
                yield request
        for start in range(0, len(reading.pages), SITEMAP_CHUNK):
            chunk = reading.pages[start:start + SITEMAP_CHUNK]
            pages, rejected = await asyncio.to_thread(self._vet_sitemap_urls, chunk)
            for stat, count in rejected.items():
                stats.inc_value(stat, count)
            if pages:
                self._keep_sitemap_urls(response.url, pages, len(reading.pages))
                self.refill_sitemap_queue()

    def _read_sitemap(self, response: Response) -> SitemapReading:
        """What a sitemap lists, as written (runs in a thread; touches no stats and no spider
        state): the sitemaps of an index, the (URL, lastmod) pairs of a urlset."""
        assert self.config is not None
        body, problem = self._sitemap_body(response)
        if problem is not None:
            return SitemapReading("", problem=problem[1], problem_kind=problem[0])
        body, doctype_removed = _without_doctype(body)
        try:
            sitemap = Sitemap(body)
        except Exception as exc:  # lxml raises several kinds on broken XML
            return SitemapReading("", problem=f"unreadable sitemap ({exc})")
        reading = SitemapReading(str(sitemap.type), doctype_removed=doctype_removed)
        entries = 0
        for entry in sitemap:
            entries += 1
            loc = (entry.get("loc") or "").strip()
            if not loc:
                continue
            loc = urljoin(response.url, loc)
            if sitemap.type == "sitemapindex":
                reading.sitemaps.append(loc)
            elif sitemap.type == "urlset":
                reading.pages.append((loc, (entry.get("lastmod") or "").strip()))
        # lxml's recovering parser stops quietly where the XML breaks: count what it left
        reading.unreadable = max(0, body.count(b"<loc>") + body.count(b"<loc ") - entries)
        return reading

    def _vet_sitemap_urls(self, entries: list[tuple[str, str]],
                          ) -> tuple[list[tuple[str, str]], Counter[str]]:
        """The (canonical URL, lastmod) pairs of a urlset's entries that may be requested, and
        by stat how many may not (runs in a thread; touches no stats and no spider state). URLs
        are canonicalised, stripped of session ids, checked against the crawl's scope and
        URLLENGTH_LIMIT, and counted under the stats the links of a page would be."""
        assert self.config is not None
        pages: list[tuple[str, str]] = []
        rejected: Counter[str] = Counter()
        length_limit = self.crawler.settings.getint("URLLENGTH_LIMIT")
        for loc, lastmod in entries:
            try:
                url = canonicalize_url(loc)
            except ValueError:
                rejected["links/filtered/malformed"] += 1
                continue
            if self.strip_session_ids:
                url = strip_session_ids(url)
            accepted, reason = self.config.scope.accepts(url)
            if not accepted:
                rejected[f"links/filtered/{reason}"] += 1
            elif has_non_html_extension(url):
                rejected["skipped/non_html_extension"] += 1
            elif length_limit and len(url) > length_limit:
                rejected["sitemaps/urls_too_long"] += 1
            else:
                pages.append((url, lastmod))
        return pages, rejected

    def _keep_sitemap_urls(self, sitemap_url: str, pages: list[tuple[str, str]],
                           listed: int) -> None:
        """Put a urlset's pages in the backlog, up to SITEMAP_MAX_URLS per crawl (those beyond
        are counted and logged, never silently lost)."""
        assert self.sitemap_backlog is not None
        stats = self.crawler.stats
        limits = self.sitemap_limits
        room = len(pages) if not limits.max_urls else max(
            0, limits.max_urls - self.sitemap_urls_taken)
        for url, lastmod in pages[:room]:
            self.sitemap_backlog.push(url, lastmod, sitemap_url)
        taken = min(room, len(pages))
        self.sitemap_urls_taken += taken
        stats.inc_value("sitemaps/urls_read", taken)
        stats.max_value("sitemaps/urls_waiting_max", len(self.sitemap_backlog))
        if taken < len(pages):
            dropped = len(pages) - taken
            level = logging.DEBUG if stats.get_value("sitemaps/urls_dropped") else logging.WARNING
            stats.inc_value("sitemaps/urls_dropped", dropped)
            logger.log(level, "Sitemap %s: %d URL(s) not requested: the crawl has taken "
                              "SITEMAP_MAX_URLS (%d) URLs from sitemaps", sitemap_url[:300],
                       dropped, limits.max_urls)
        if limits.queue_max and listed > limits.queue_max \
                and not stats.get_value("sitemaps/queue_limited"):
            stats.set_value("sitemaps/queue_limited", 1)
            logger.info("Sitemap %s lists %d pages: they are requested %d at a time "
                        "(SITEMAP_QUEUE_MAX), the others wait on disk", sitemap_url[:300],
                        listed, limits.queue_max)

    def refill_sitemap_queue(self, *, idle: bool = False) -> int:
        """Hand sitemap URLs from the backlog to the scheduler until SITEMAP_QUEUE_MAX of them
        are alive (queued or downloading); all of them when it is 0. Called as the scheduler
        drains; ``idle``: the crawl has nothing else to do, so a full batch goes. Returns how
        many requests were scheduled."""
        backlog = self.sitemap_backlog
        if backlog is None or not len(backlog) or self.crawler.engine is None:
            return 0
        limit = self.sitemap_limits.queue_max
        if not limit:
            room = len(backlog)
        elif idle:
            room = limit
        else:
            room = limit - len(self.sitemap_requests_alive)
        scheduled = 0
        while scheduled < room:
            entry = backlog.pop()
            if entry is None:
                break
            url, lastmod, sitemap = entry
            request = self._page_request(url, depth=1)
            referrer = (self.sitemap_referrer.referrer(sitemap, url)
                        if sitemap and self.sitemap_referrer is not None else None)
            if referrer:  # the sitemap listing it, as a link's page is its Referer
                request.headers["Referer"] = referrer
            request.meta[SITEMAP_URL_META] = True
            if lastmod:
                request.meta[META_LASTMOD] = lastmod
            self.sitemap_requests_alive.add(request)
            self.crawler.engine.crawl(request)
            scheduled += 1
        self.crawler.stats.inc_value("sitemaps/urls", scheduled)
        self.crawler.stats.max_value("sitemaps/requests_alive_max",
                                     len(self.sitemap_requests_alive))
        return scheduled

    def on_scheduler_empty(self) -> None:
        """The scheduler had no request for a free download slot: refill it from sitemaps."""
        self.refill_sitemap_queue()

    def on_spider_idle(self, spider: Spider) -> None:
        """Keep the crawl open while sitemap URLs wait to be requested; end a crawl whose
        start pages all failed and that found no page any other way as ``start_failed``."""
        if self.refill_sitemap_queue(idle=True):
            raise DontCloseSpider
        self._count_dropped_starts()
        if (self.start_requests_sent and self.pages_yielded == 0
                and self.start_requests_failed >= self.start_requests_sent):
            self.crawler.stats.set_value("crawl/start_failed", self.start_requests_failed)
            logger.error("No start page could be fetched and no other page was found (see the "
                         "errors above); nothing was stored")
            raise CloseSpider(START_FAILED)

    def _start_answered(self, request: Request) -> None:
        """A start request (or the redirect, retry or rendering that carries it on) reached its
        callback or errback: its start URL did not vanish."""
        url = request.meta.get(START_URL_META)
        if url is not None and url in self.start_urls_pending:
            self.start_urls_pending.discard(url)
            self.crawler.stats.inc_value(START_ANSWERED_STAT)

    def on_request_dropped(self, request: Request, spider: Spider | None = None) -> None:
        """The scheduler's duplicate filter refused a start request: its page is another
        request's (two start URLs of one page, a start URL redirected to a page already
        requested, or a resumed job's start URLs, fetched in its first run). Not a failure,
        and no start of its own; said once."""
        url = request.meta.get(START_URL_META)
        if url is None or url not in self.start_urls_pending:
            return
        self.start_urls_pending.discard(url)
        self.start_requests_sent -= 1
        self.crawler.stats.set_value(START_REQUESTS_STAT, self.start_requests_sent)
        self.crawler.stats.inc_value("crawl/start_duplicate")
        logger.info("Start URL %s is a page already requested (duplicate filter): not fetched "
                    "again", url)

    def _count_dropped_starts(self) -> None:
        """At idle, a start request that got no response and no error was dropped before its
        download by something that said nothing (a downloader or spider middleware, the offsite
        filter): count it as a failed start, with one ERROR line each."""
        for url in sorted(self.start_urls_pending):
            self.start_requests_failed += 1
            self.crawler.stats.inc_value("errors/start_dropped")
            logger.error("Start URL %s was dropped before its download, with no response and no "
                         "error (a middleware or a filter of the crawl refused it without a "
                         "word): nothing was fetched from it", url)
        self.start_urls_pending.clear()

    def closed(self, reason: str) -> None:
        """Say why a limit that stopped the crawl before any start URL answered fails it; count
        (and keep under JOBDIR for the next run) the sitemap URLs never requested."""
        stats = self.crawler.stats
        if failure_reason(reason, stats.get_stats()) == START_TIMED_OUT:
            stats.set_value("crawl/start_timed_out", len(self.start_urls_pending))
            limit = reason
            if reason == "closespider_timeout":
                limit += f": CLOSESPIDER_TIMEOUT = {self.closespider_timeout:g} s"
            logger.error("The crawl stopped at its limit (%s) before any start URL answered "
                         "(%s): nothing was fetched or stored", limit,
                         ", ".join(sorted(self.start_urls_pending)) or "none left")
        backlog = self.sitemap_backlog
        if backlog is None:
            return
        left = len(backlog)
        if left:
            self.crawler.stats.set_value("sitemaps/urls_not_requested", left)
            logger.info("%d URL(s) read from sitemaps were not requested (the crawl stopped: "
                        "%s)%s", left, reason,
                        "; they are kept in JOBDIR for the next run" if backlog.jobdir else "")
        backlog.close()

    def _sitemap_body(self, response: Response
                      ) -> tuple[bytes, tuple[SitemapProblem, str] | None]:
        """The XML of a sitemap response, gunzipped if needed, or the problem that makes it no
        sitemap and a phrase saying it."""
        max_size = self.crawler.settings.getint("DOWNLOAD_MAXSIZE")
        body = response.body
        if body[:2] == b"\x1f\x8b":
            try:
                body = gunzip(body, max_size=max_size)
            except _DecompressionMaxSizeExceeded:
                return b"", (SitemapProblem.TOO_LARGE,
                             f"a gzipped sitemap of {len(body)} bytes that decompresses to "
                             f"more than DOWNLOAD_MAXSIZE ({max_size} bytes)")
            except (OSError, EOFError, struct.error, zlib.error):
                return b"", (SitemapProblem.BROKEN_GZIP,
                             f"a gzipped sitemap that does not decompress ({len(body)} bytes)")
        head = body[:512].lstrip()
        if head.startswith(b"<?xml") or b"<urlset" in head or b"<sitemapindex" in head:
            return body, None
        return b"", (SitemapProblem.INVALID, "not a sitemap")

    # -- errors -------------------------------------------------------------------------

    def on_page_error(self, failure: Failure) -> None:
        """Count a page that could not be fetched, by kind, with one clear log line."""
        request = failure.request  # type: ignore[attr-defined]
        self._start_answered(request)
        if request.meta.get(SITEMAP_URL_META):
            self.refill_sitemap_queue()
        if failure.check(UnusableResponse):
            # counted and logged by the component that found it; a start URL answered with no
            # page (a redirect loop, an empty or binary body) is a failed start
            self._start_gave_no_page(request, failure.getErrorMessage())
            return
        if failure.check(StopDownload) or (failure.check(IgnoreRequest)
                                           and not failure.check(HttpError)):
            # counted (and logged) by the component that stopped or refused it (robots.txt, a
            # redirect to an internal address): a start URL so refused gave no page
            self._start_gave_no_page(request, failure.getErrorMessage() or "refused")
            return
        kind = self._error_kind(failure)
        self.crawler.stats.inc_value(f"errors/{kind}")
        if _is_start(request):
            self.start_requests_failed += 1
        reason = failure.getErrorMessage() or kind
        if failure.check(HttpError):
            answer = failure.value.response
            reason = f"HTTP {answer.status}"
            if answer.status == 304:
                reason += " Not Modified to a request for the whole page: nothing to store"
            elif 300 <= answer.status < 400 and not answer.headers.get("Location"):
                reason += " without a Location header: a redirect to nowhere"
        if _is_start(request):
            logger.error("Start URL %s could not be fetched: %s", request.url, reason)
        else:
            logger.warning("Failed to fetch %s: %s", request.url, reason)

    def _start_gave_no_page(self, request: Request, why: str) -> None:
        """Count a start URL whose answer is no page, or which was refused before its download,
        as a failed start, with one ERROR line: a crawl whose every start URL so ends, and that
        finds no page any other way, ends as ``start_failed`` instead of finishing with nothing
        stored."""
        if not _is_start(request):
            return
        if request.meta.get(START_LEFT_SCOPE_META) and self.config is not None \
                and self.config.scope.origin_refused(request.url):
            return  # redirected out of the scope: counted and said when it was scheduled
        self.start_requests_failed += 1
        first = (request.meta.get("redirect_urls") or [request.url])[0]
        logger.error("Start URL %s gave no page: %s", first, why)

    def on_request_scheduled(self, request: Request, spider: Spider | None = None) -> None:
        """Catch a redirect out of the crawl's scope (:meth:`CrawlScope.origin_refused`, as for
        a link) as it is scheduled.

        A start URL redirected to a host outside the scope (the offsite filter would drop it
        there without a word, or, for a subdomain, the page would not be stored): to the site's
        other name (the bare domain to ``www.``, or back), the crawl follows: that host joins
        the scope, said once. Anywhere else it is a failed start, said in one sentence.

        A redirect to a host of the scope on another port (``redirect/other_port``) is another
        site's, as a link there is: the offsite filter reads host names only, so it is refused
        here, before any request (a start URL so sent is a failed start as above, any other
        redirect is said in one line). Followed, a page of the start host could bounce the
        crawl onto the services its host keeps on other ports. A robots.txt redirect
        (``allow_offsite``) is exempt, as it is from the offsite filter."""
        if not request.meta.get("redirect_urls") or self.config is None \
                or request.meta.get("allow_offsite"):
            return
        refused = self.config.scope.origin_refused(request.url)
        if not refused:
            return
        start = _is_start(request) and not request.meta.get(START_LEFT_SCOPE_META)
        if start:
            request.meta[START_LEFT_SCOPE_META] = True
            if self._start_left_scope(request, refused):
                return  # to the site's other name, which joined the scope
        if refused != OTHER_PORT:
            return  # another host: the offsite filter drops it
        self.crawler.stats.inc_value("redirect/other_port")
        if not start:  # a start URL's is said as a failed start
            logger.info("Redirect from %s to %s, its host on another port: another site, not "
                        "followed", request.meta["redirect_urls"][-1], request.url[:300])
        raise IgnoreRequest(f"Redirect to another port: {request.url[:300]}")

    def _start_left_scope(self, request: Request, refused: str) -> bool:
        """A start URL redirected out of the scope (``refused`` says how): whether it is
        followed, to the site's other name, which joins the scope; otherwise a failed start,
        counted and said."""
        assert self.config is not None
        first = request.meta["redirect_urls"][0]
        host = host_of(request.url)
        if (refused == OFFSITE and same_site_other_name(host_of(first), host)
                and not self.config.scope.with_host(host).origin_refused(request.url)):
            self._widen_scope(host, host_of(first), first, request.url)
            return True
        self.start_requests_failed += 1
        self._start_answered(request)  # the filters drop it next, without a word
        self.crawler.stats.inc_value("crawl/start_redirected_offsite")
        where = ("a host outside the crawl's scope" if refused == OFFSITE else
                 "its host on another port, another site outside the crawl's scope")
        logger.error("Start URL %s was redirected to %s, %s: nothing there is crawled; start "
                     "the crawl at that URL", first, request.url[:300], where)
        return False

    def _widen_scope(self, host: str, start_host: str, start_url: str, target: str) -> None:
        """Take ``host``, the start host's other name its start URL was redirected to, into the
        crawl's scope (the offsite filter reads ``allowed_domains`` again), and ask its
        robots.txt and /sitemap.xml for sitemaps as for a start host."""
        assert self.config is not None
        self._take_into_scope(host)
        self.crawler.stats.inc_value("crawl/scope_widened")
        logger.info("Start URL %s was redirected to %s, the same site under its other name: "
                    "the crawl's scope now includes %s", start_url, target[:300], host)
        self.crawler.signals.send_catch_log(crawl_signals.scope_widened, host=host,
                                            start_host=start_host)
        if self.config.sitemaps and self.crawler.engine is not None:
            for request in self._sitemap_discovery(self._origin(target)):
                self.crawler.engine.crawl(request)

    def _take_into_scope(self, host: str) -> None:
        """``host`` joins the crawl's scope (the offsite filter reads ``allowed_domains`` again)."""
        assert self.config is not None
        self.config = replace(self.config, scope=self.config.scope.with_host(host))
        self.allowed_domains = self.config.scope.offsite_names

    def host_in_scope(self, host: str) -> bool:
        """Whether the crawl's scope takes ``host`` in."""
        return self.config is not None and self.config.scope.host_in_scope(host)

    def adopt_other_name(self, host: str, start_host: str) -> bool:
        """Take ``host`` into the scope because another worker of a distributed crawl followed
        ``start_host``'s start URL there (``_widen_scope`` in that worker); whether it joined.
        Only a start host's other name (``www.`` or bare) of a host in scope is taken."""
        if (self.config is None or self.host_in_scope(host)
                or not self.host_in_scope(start_host)
                or not same_site_other_name(start_host, host)):
            return False
        self._take_into_scope(host)
        self.crawler.stats.inc_value("crawl/scope_learnt")
        logger.info("Another worker of the crawl followed a start URL of %s to %s, the same "
                    "site under its other name: the crawl's scope now includes %s",
                    start_host, host, host)
        self.crawler.signals.send_catch_log(crawl_signals.scope_widened, host=host,
                                            start_host=start_host)
        return True

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
