"""Redirects (HTTP and meta refresh) with loops and over-long chains named and counted.

Scrapy's RedirectMiddleware stops a chain after REDIRECT_MAX_TIMES with a DEBUG line, and a
loop (``a`` -> ``b`` -> ``a``) either runs to that limit or vanishes in the dupefilter. Here a
redirect back to a URL already in the chain ends it at once (``redirect/loop``) and an over-long
chain is counted (``redirect/max_reached``), each with a WARNING line; a redirect to another
host is counted (``redirect/other_host``) and logged before the scope filters decide on it.

A redirect to the same page under another URL (``/guide/index.html`` -> ``/guide/``, as static
hosts with "pretty URLs" answer) has the same canonical fingerprint as the request that was
just scheduled, so the dupefilter would drop it and lose the page: it is followed past the
dupefilter and counted (``redirect/same_page``). Loops are told by the exact URL, so such a
redirect is not one. That exemption is the same-page redirect's alone: Scrapy copies a
request's ``dont_filter`` onto the next redirect, so a later redirect of the chain gets its
flag back and meets the scope and duplicate filters like any other request.

A redirect to a URL longer than ``URLLENGTH_LIMIT`` is not followed (``redirect/url_too_long``),
as a link that long is not; a ``<meta http-equiv=refresh>`` to anything but http(s)
(``javascript:``, ``mailto:``) is no redirect: the page itself is kept
(``redirect/refresh_ignored``).
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urljoin, urlsplit

from scrapy import Request, Spider
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware, RedirectMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, Response
from scrapy.utils.response import get_meta_refresh
from w3lib.url import safe_url_string

from crawler.urls import canonicalize_url

logger = logging.getLogger(__name__)

#: ``request.meta`` key: this request's ``dont_filter`` was set here for a same-page redirect,
#: and holds the flag the chain had before.
SAME_PAGE_META = "same_page_redirect_dont_filter"


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
            result = super().process_response(request, response)  # type: ignore[misc]
        except IgnoreRequest as exc:
            if "max redirections" in str(exc):
                self.crawler.stats.inc_value("redirect/max_reached")
                first = (request.meta.get("redirect_urls") or [request.url])[0]
                logger.warning("Redirect chain too long: %s redirected %d times "
                               "(REDIRECT_MAX_TIMES "
                               "%d); gave up at %s", first, request.meta.get("redirect_times", 0),
                               self.max_redirect_times, request.url)
            raise
        if isinstance(result, Request) and result is not request:
            if SAME_PAGE_META in result.meta:  # the exemption was for the previous hop only
                result = result.replace(dont_filter=result.meta.pop(SAME_PAGE_META))
            limit = self._url_length_limit()
            if limit and len(result.url) > limit:
                self.crawler.stats.inc_value("redirect/url_too_long")
                logger.warning("Redirect to a URL of %d characters (URLLENGTH_LIMIT %d) from %s; "
                               "not followed", len(result.url), limit, request.url)
                raise IgnoreRequest("redirect URL too long")
            chain = result.meta.get("redirect_urls") or []
            target = _without_fragment(result.url)
            if any(_without_fragment(url) == target for url in chain):
                self.crawler.stats.inc_value("redirect/loop")
                logger.warning("Redirect loop: %s -> %s; not followed", " -> ".join(chain),
                               result.url)
                raise IgnoreRequest("redirect loop")
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


class LoopAwareRedirectMiddleware(RedirectChecks, RedirectMiddleware):
    """HTTP redirects (3xx with Location), with loops, long chains and same-page redirects
    handled."""


class LoopAwareMetaRefreshMiddleware(RedirectChecks, MetaRefreshMiddleware):
    """``<meta http-equiv=refresh>`` redirects, handled like HTTP ones (an old site's
    ``/docs/`` refreshing to ``/docs/index.html`` is the same page)."""

    def process_response(self, request: Request, response: Response,
                         spider: Spider | None = None) -> Request | Response:
        """Keep a page whose refresh points at ``javascript:``, ``mailto:`` or another
        non-web scheme; follow the others as HTTP redirects are followed."""
        if isinstance(response, HtmlResponse) and not request.meta.get("dont_redirect"):
            _, target = get_meta_refresh(response, ignore_tags=self._ignore_tags)
            if target and urlsplit(urljoin(response.url, target.strip())).scheme.lower() not in (
                    "http", "https"):
                self.crawler.stats.inc_value("redirect/refresh_ignored")
                logger.info("Ignored the meta refresh of %s to %s: not an http(s) URL; the page "
                            "is kept", response.url, target[:100])
                return response
        return super().process_response(request, response, spider)


def _without_fragment(url: str) -> str:
    """The URL as requested (escaped, no fragment), for telling a loop by exact URL."""
    return safe_url_string(url).split("#", 1)[0]
