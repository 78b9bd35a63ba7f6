"""Redirects (HTTP and meta refresh) with loops and over-long chains named and counted.

Scrapy's RedirectMiddleware stops a chain after REDIRECT_MAX_TIMES with a DEBUG line, and a
loop (``a`` -> ``b`` -> ``a``) either runs to that limit or vanishes in the dupefilter. Here a
redirect back to a URL already in the chain ends it at once (``redirect/loop``) and an over-long
chain is counted (``redirect/max_reached``), each with a WARNING line; a redirect to another
host is counted (``redirect/other_host``) and logged before the scope filters decide on it (one
to a start host on another port is refused there too, ``redirect/other_port``: the spider's
scope decides a redirect's site as a link's).

A redirect to the same page under another URL (``/guide/index.html`` -> ``/guide/``, as static
hosts with "pretty URLs" answer) has the same canonical fingerprint as the request that was
just scheduled, so the dupefilter would drop it and lose the page: it is followed past the
dupefilter and counted (``redirect/same_page``). Loops are told by the exact URL, so such a
redirect is not one. That exemption is the same-page redirect's alone: Scrapy copies a
request's ``dont_filter`` onto the next redirect, so a later redirect of the chain gets its
flag back and meets the scope and duplicate filters like any other request.

A redirect to a URL longer than ``URLLENGTH_LIMIT`` is not followed (``redirect/url_too_long``),
as a link that long is not (a page whose meta refresh names one is kept: before, it was lost
with the redirect); an HTTP redirect whose ``Location`` is no web URL (``file:``,
``ftp:``, ``javascript:``, ``data:``, an unclosed IPv6 bracket, a port out of range) is not
followed either (``redirect/invalid_target``); a ``<meta http-equiv=refresh>`` to anything but
an http(s) URL (``javascript:``, ``mailto:``, an unreadable URL) is no redirect: the page
itself is kept (``redirect/refresh_ignored``), as is a page whose refresh names its own URL, a
page that reloads itself every minute (``redirect/refresh_self``; before, a redirect loop that
lost the page). An HTTP ``Refresh`` header (``Refresh: 0; url=/new/``), which browsers follow as
they follow the ``<meta>`` it stands for, is read the same way when the page declares no meta
refresh, with the same checks (``redirect/refresh_header``; before, its target was never
requested: a page moved that way was lost without a word). A refresh Scrapy's parser does not
read (``0; URL = "/x"``, spaces around ``=`` and quotes; ``0; /x``) is read as browsers read it
(:mod:`crawler.refresh_declaration`) and followed with the same checks
(``redirect/refresh_spaced``; before, the page was kept and its target never requested). A
redirect that is not followed raises
:class:`~crawler.unusable.UnusableResponse`: a start URL answered that way is a failed start.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urljoin, urlsplit
from weakref import WeakKeyDictionary

from scrapy import Request, Spider
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware, RedirectMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, Response
from scrapy.selector import Selector
from scrapy.utils.response import get_base_url, get_meta_refresh
from w3lib.url import safe_url_string

from crawler.refresh_declaration import parse_refresh
from crawler.unusable import EndlessRedirect, UnusableResponse
from crawler.urls import canonicalize_url, without_userinfo

logger = logging.getLogger(__name__)

#: ``request.meta`` key: this request's ``dont_filter`` was set here for a same-page redirect,
#: and holds the flag the chain had before.
SAME_PAGE_META = "same_page_redirect_dont_filter"

#: Characters of a page searched for a meta refresh: the span Scrapy's meta refresh reads.
REFRESH_SCAN_CHARS = 4096

#: HTTP statuses Scrapy follows as redirects (with a Location header).
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


class RedirectChecks:
    """Loop, chain-length, same-page and other-host handling around a Scrapy redirect
    middleware's ``process_response`` (HTTP 3xx and ``<meta http-equiv=refresh>`` alike)."""

    crawler: Any
    max_redirect_times: int

    def _url_length_limit(self) -> int:
        return self.crawler.settings.getint("URLLENGTH_LIMIT")

    def process_response(self, request: Request, response: Response,
                         spider: Spider | None = None) -> Request | Response:
        """Follow the redirect as Scrapy does, unless it loops or the chain is too long."""
        try:
            result = self._follow(request, response)
        except IgnoreRequest as exc:
            if "max redirections" in str(exc):
                self.crawler.stats.inc_value("redirect/max_reached")
                first = (request.meta.get("redirect_urls") or [request.url])[0]
                logger.warning("Redirect chain too long: %s redirected %d times "
                               "(REDIRECT_MAX_TIMES "
                               "%d); gave up at %s", first, request.meta.get("redirect_times", 0),
                               self.max_redirect_times, request.url)
                raise EndlessRedirect(str(exc)) from exc
            raise
        except ValueError as exc:  # a Location no URL parser reads: http://[::1, a bad port
            raise self._invalid_target(request, response, str(exc)) from exc
        if isinstance(result, Request) and result is not request:
            if not _is_web_url(request.url, result.url):
                raise self._invalid_target(request, response, "its port or host cannot be read")
            if without_userinfo(result.url) != result.url:
                self.crawler.stats.inc_value("redirect/userinfo_dropped")
                logger.info("Redirect from %s to a URL naming a user (user:password@): followed "
                            "without them", request.url)
                result = result.replace(url=without_userinfo(result.url))
            if SAME_PAGE_META in result.meta:  # the exemption was for the previous hop only
                result = result.replace(dont_filter=result.meta.pop(SAME_PAGE_META))
            limit = self._url_length_limit()
            if limit and len(result.url) > limit:
                self.crawler.stats.inc_value("redirect/url_too_long")
                logger.warning("Redirect to a URL of %d characters (URLLENGTH_LIMIT %d) from %s; "
                               "not followed", len(result.url), limit, request.url)
                raise UnusableResponse("redirect URL too long")
            chain = result.meta.get("redirect_urls") or []
            target = _without_fragment(result.url)
            if any(_without_fragment(url) == target for url in chain):
                self.crawler.stats.inc_value("redirect/loop")
                logger.warning("Redirect loop: %s -> %s; not followed", " -> ".join(chain),
                               result.url)
                raise EndlessRedirect("redirect loop")
            if canonicalize_url(result.url) == canonicalize_url(request.url):
                self.crawler.stats.inc_value("redirect/same_page")
                logger.debug("Redirect to the same page under another URL: %s -> %s",
                             request.url, result.url)
                result.meta[SAME_PAGE_META] = result.dont_filter
                result = result.replace(dont_filter=True)
            if urlsplit(result.url).hostname != urlsplit(request.url).hostname:
                self.crawler.stats.inc_value("redirect/other_host")
                logger.info("Redirect to another host: %s -> %s (followed only if that host is "
                            "in the crawl's scope)", request.url, result.url)
        return result

    def _follow(self, request: Request, response: Response) -> Request | Response:
        """The request the Scrapy middleware makes of the redirect (the response if none)."""
        return super().process_response(request, response)  # type: ignore[misc]

    def _invalid_target(self, request: Request, response: Response,
                        why: str) -> UnusableResponse:
        """Count and log a redirect whose target is no web URL; the exception to raise."""
        location = response.headers.get("Location", b"").decode("latin-1")
        self.crawler.stats.inc_value("redirect/invalid_target")
        logger.warning("Redirect from %s to %r, which is no http(s) URL (%s); not followed",
                       request.url, location[:200], why)
        return UnusableResponse("redirect to no http(s) URL")


class LoopAwareRedirectMiddleware(RedirectChecks, RedirectMiddleware):
    """HTTP redirects (3xx with Location), with loops, long chains, same-page redirects and
    targets that are no web URL handled."""

    def process_response(self, request: Request, response: Response,
                         spider: Spider | None = None) -> Request | Response:
        """Follow the redirect as Scrapy does; a redirect Scrapy hands back unfollowed because
        its target is not http(s) (``file:``, ``ftp:``, ``data:``) is refused here, with its
        reason, instead of failing later as an HTTP error status."""
        result = super().process_response(request, response, spider)
        if (result is response and response.status in REDIRECT_STATUSES
                and b"Location" in response.headers and not request.meta.get("dont_redirect")
                and response.status not in request.meta.get("handle_httpstatus_list", ())):
            raise self._invalid_target(request, response, "not an http(s) URL")
        return result


class LoopAwareMetaRefreshMiddleware(RedirectChecks, MetaRefreshMiddleware):
    """``<meta http-equiv=refresh>`` redirects, handled like HTTP ones (an old site's
    ``/docs/`` refreshing to ``/docs/index.html`` is the same page).

    Unlike a 3xx, a page that refreshes has a body. Two pages refreshing to each other (both
    linked, or one reached from the other) would each be followed to the other, whose request
    the dupefilter or the loop check then drops: both pages lost without a word. So the pages
    whose refresh was followed are remembered, and a page refreshing to one of them is kept
    (``redirect/refresh_loop``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Canonical URLs of the pages whose meta refresh was followed.
        self._refreshed: set[str] = set()
        #: Per response, the content of its refresh declaration (:meth:`_declared_content`),
        #: read once: a response's refresh is read by the check, by the follow and by the log
        #: line, as Scrapy keeps its own reading of a response's meta refresh.
        self._declarations: WeakKeyDictionary[Response, str | None] = WeakKeyDictionary()

    def process_response(self, request: Request, response: Response,
                         spider: Spider | None = None) -> Request | Response:
        """Keep a page whose refresh points at ``javascript:``, ``mailto:``, another non-web
        scheme, no readable URL or a page that refreshes itself; follow the others as HTTP
        redirects are followed."""
        if not isinstance(response, HtmlResponse) or request.meta.get("dont_redirect"):
            return super().process_response(request, response, spider)
        why = ""
        try:
            delay, target, _ = self._refresh(response)
            ignored = bool(target) and not _is_web_url(response.url, target.strip())
        except ValueError as exc:  # http://[::1 and a port out of range cannot be joined
            delay, target, ignored, why = None, self._declared_url(response), True, f" ({exc})"
        if ignored:
            self.crawler.stats.inc_value("redirect/refresh_ignored")
            logger.info("Ignored the meta refresh of %s to %s: not an http(s) URL%s; the page "
                        "is kept", response.url, target[:100], why)
            return response
        limit = self._url_length_limit()
        if target and limit and len(target) > limit:
            self.crawler.stats.inc_value("redirect/url_too_long")
            logger.warning("Meta refresh of %s to a URL of %d characters (URLLENGTH_LIMIT %d): "
                           "not followed; the page is kept", response.url, len(target), limit)
            return response
        if target and _without_fragment(target) == _without_fragment(response.url):
            self.crawler.stats.inc_value("redirect/refresh_self")
            logger.info("%s refreshes to itself after %s s (a page that reloads itself): no "
                        "redirect, the page is kept", response.url, delay)
            return response
        if target and delay is not None and delay < self._maxdelay \
                and canonicalize_url(target) in self._refreshed:
            self.crawler.stats.inc_value("redirect/refresh_loop")
            logger.warning("Meta refresh loop: %s refreshes to %s, which refreshes elsewhere; "
                           "the page is kept", response.url, target[:300])
            return response
        result = super().process_response(request, response, spider)
        if isinstance(result, Request) and result is not request:
            self._refreshed.add(canonicalize_url(response.url))
        return result

    def _refresh(self, response: HtmlResponse) -> tuple[float | None, str | None, str | None]:
        """The delay and absolute target of the page's refresh: its ``<meta
        http-equiv=refresh>``, else its HTTP ``Refresh`` header (whose value is a meta
        refresh's content, as browsers read it); and where it came from when Scrapy's middleware
        does not follow it itself: ``"header"``, or ``"meta"`` for a declaration only the
        standard's steps read (``0; URL = "/x"``), else None. Raises ValueError for a target no
        URL parser reads."""
        delay, target = get_meta_refresh(response, ignore_tags=self._ignore_tags)
        if target:
            return delay, target, None
        content, source = self._declaration(response)
        declared = parse_refresh(content) if content is not None else None
        if declared is None or declared[1] is None:
            return None, None, None
        base = get_base_url(response) if source == "meta" else response.url
        return declared[0], urljoin(base, safe_url_string(declared[1], response.encoding)), source

    def _declaration(self, response: HtmlResponse) -> tuple[str | None, str]:
        """The content of the page's refresh declaration and where it stands: its ``<meta>``
        (``"meta"``), else its HTTP ``Refresh`` header (``"header"``); None when neither holds
        one."""
        content = self._declared_content(response)
        if content is not None:
            return content, "meta"
        header = response.headers.get("Refresh")
        return (header.decode("latin-1") if header else None), "header"

    def _follow(self, request: Request, response: Response) -> Request | Response:
        """Scrapy's meta refresh, or the page's ``Refresh`` header followed as one (never for a
        request that asks for no redirect, as Scrapy's meta refresh is not)."""
        if not isinstance(response, HtmlResponse) or request.method == "HEAD" \
                or request.meta.get("dont_redirect"):
            return super()._follow(request, response)
        delay, target, source = self._refresh(response)
        if source is None or delay is None or target is None or delay >= self._maxdelay:
            return super()._follow(request, response)
        redirected = self._redirect_request_using_get(request, response, target)
        if urlsplit(redirected.url).scheme not in ("http", "https"):
            return response
        if source == "header":
            self.crawler.stats.inc_value("redirect/refresh_header")
            logger.info("%s has an HTTP Refresh header to %s: followed as a meta refresh",
                        response.url, target[:300])
            return self._redirect(redirected, request, "Refresh header")
        self.crawler.stats.inc_value("redirect/refresh_spaced")
        logger.info("%s has a meta refresh to %s written as browsers still read it (%r): "
                    "followed", response.url, target[:300],
                    (self._declared_content(response) or "")[:100])
        return self._redirect(redirected, request, "meta refresh")

    def _declared_content(self, response: HtmlResponse) -> str | None:
        """The content of the page's first ``<meta http-equiv=refresh>`` outside the tags
        Scrapy's meta refresh ignores (``script``, ``noscript``), None when it has none. Only
        the page's first REFRESH_SCAN_CHARS are read, as Scrapy's meta refresh reads them, and
        parsed only when they name a refresh: this runs for every page on the reactor thread,
        where a tree of a whole 8 MB page would hold the crawl; and once per response."""
        if response not in self._declarations:
            self._declarations[response] = self._read_declared_content(response)
        return self._declarations[response]

    def _read_declared_content(self, response: HtmlResponse) -> str | None:
        """:meth:`_declared_content`, read from the page."""
        head = response.text[:REFRESH_SCAN_CHARS]
        if "refresh" not in head.lower():
            return None
        for meta in Selector(text=head).css("meta"):
            if (meta.attrib.get("http-equiv") or "").strip().lower() == "refresh" \
                    and "content" in meta.attrib and not any(
                        meta.xpath(f"ancestor::{tag}") for tag in self._ignore_tags):
                return meta.attrib["content"]
        return None

    def _declared_url(self, response: HtmlResponse) -> str:
        """The URL of the page's refresh declaration (its ``<meta>``, else its ``Refresh``
        header) as written, for the log line of one no URL parser reads (before, the line
        quoted the whole content, ``0;url=http://host:99999/``)."""
        content, _ = self._declaration(response)
        declared = parse_refresh(content) if content is not None else None
        return declared[1] if declared and declared[1] else content or "(unreadable)"


def _is_web_url(base: str, target: str) -> bool:
    """Whether ``target``, made absolute against ``base``, is an http(s) URL whose host and
    port can be read (``http://[::1`` and ``http://host:99999/`` cannot)."""
    try:
        parts = urlsplit(urljoin(base, target))
        parts.port  # noqa: B018 - raises on a port out of range
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)


def _without_fragment(url: str) -> str:
    """The URL as requested (escaped, no fragment), for telling a loop by exact URL."""
    return safe_url_string(url).split("#", 1)[0]
