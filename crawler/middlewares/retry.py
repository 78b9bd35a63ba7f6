"""Retries with backoff: waits out ``Retry-After`` on 429/503, backs off exponentially otherwise.

Replaces Scrapy's RetryMiddleware (same RETRY_* settings and ``retry/*`` stats) and adds:

- ``RETRY_BACKOFF_BASE`` (1.0 s) and ``RETRY_BACKOFF_MAX`` (60 s): the n-th retry of a failed
  request waits ``base * 2**(n-1)`` seconds, at most the maximum (``retry/backoff_seconds``).
- ``Retry-After`` (seconds or an HTTP date) on a 429 or 503 is honoured instead
  (``retry/retry_after_honoured``); one longer than ``RETRY_AFTER_MAX`` (120 s) ends the retries
  at once (``retry/retry_after_too_long``) rather than holding the crawl.
- A page request given up (its retries spent, or a ``Retry-After`` too long) is counted in
  ``pages/failed``: a page lost to the server's trouble, which
  ``crawler.extensions.failed_pages`` weighs against the pages found.

The wait is per request: other requests keep flowing while one waits.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.downloadermiddlewares.retry import RetryMiddleware
from scrapy.http import Response
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.response import response_status_message
from twisted.internet import reactor, task
from crawler.startup import read_number, read_or_refuse

logger = logging.getLogger(__name__)

RETRY_AFTER_STATUSES = frozenset({429, 503})


def parse_retry_after(value: str | bytes | None, *, now: float | None = None) -> float | None:
    """Seconds a ``Retry-After`` header asks to wait (seconds or HTTP-date); None if unusable."""
    if value is None:
        return None
    text = value.decode("latin-1") if isinstance(value, bytes) else value
    text = text.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


@dataclass(frozen=True)
class BackoffConfig:
    """Backoff settings, read once."""

    base: float
    maximum: float
    retry_after_max: float

    @classmethod
    def from_settings(cls, settings) -> BackoffConfig:  # noqa: ANN001 - Scrapy Settings
        """Read and validate RETRY_BACKOFF_BASE, RETRY_BACKOFF_MAX and RETRY_AFTER_MAX."""
        return cls(base=read_number(settings, "RETRY_BACKOFF_BASE", minimum=0),
                   maximum=read_number(settings, "RETRY_BACKOFF_MAX", minimum=0),
                   retry_after_max=read_number(settings, "RETRY_AFTER_MAX", minimum=0))


class BackoffRetryMiddleware(RetryMiddleware):
    """RetryMiddleware that waits before each retry: the server's Retry-After, else backoff."""

    def __init__(self, settings, backoff: BackoffConfig) -> None:  # noqa: ANN001 - Scrapy Settings
        super().__init__(settings)
        self.backoff = backoff

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BackoffRetryMiddleware:
        """Build from settings (NotConfigured when RETRY_ENABLED is off, as Scrapy's)."""
        backoff = read_or_refuse(crawler, BackoffConfig.from_settings)
        middleware = cls(crawler.settings, backoff)
        middleware.crawler = crawler
        return middleware

    def _retries_left(self, request: Request) -> bool:
        """Whether one more retry is allowed for this request."""
        allowed = request.meta.get("max_retry_times", self.max_retry_times)
        return request.meta.get("retry_times", 0) + 1 <= allowed

    def _retry(self, request: Request, reason: str | Exception | type[Exception]
               ) -> Request | None:
        """Scrapy's retry, or None when the request is given up (then counted if a page)."""
        retry = super()._retry(request, reason)
        if retry is None:
            self._count_lost(request)
        return retry

    def _count_lost(self, request: Request) -> None:
        """Count a page request given up: a page lost to the server's trouble."""
        if request.meta.get("crawl_role") == "page":
            self.crawler.stats.inc_value("pages/failed")

    def _backoff_delay(self, request: Request) -> float:
        """Exponential backoff for the next retry of this request."""
        attempt = request.meta.get("retry_times", 0)
        return min(self.backoff.base * (2 ** attempt), self.backoff.maximum)

    async def _wait(self, seconds: float) -> None:
        """Wait without blocking the reactor."""
        if seconds > 0:
            self.crawler.stats.inc_value("retry/backoff_seconds", round(seconds, 3))
            await maybe_deferred_to_future(task.deferLater(reactor, seconds, lambda: None))

    async def process_response(self, request: Request, response: Response,
                               spider: Spider | None = None) -> Request | Response:
        """Retry a retryable status after the wait the server asked for, or after backoff."""
        if request.meta.get("dont_retry", False) or response.status not in self.retry_http_codes:
            return response
        if not self._retries_left(request):
            return self._retry(request, response_status_message(response.status)) or response
        delay = self._backoff_delay(request)
        retry_after = (parse_retry_after(response.headers.get("Retry-After"))
                       if response.status in RETRY_AFTER_STATUSES else None)
        if retry_after is not None and retry_after > self.backoff.retry_after_max:
            self.crawler.stats.inc_value("retry/retry_after_too_long")
            logger.warning("Giving up %s: HTTP %d asks to retry after %.0f s > "
                           "RETRY_AFTER_MAX %.0f s",
                           request.url, response.status, retry_after, self.backoff.retry_after_max)
            self._count_lost(request)
            return response
        if retry_after is not None:
            self.crawler.stats.inc_value("retry/retry_after_honoured")
            logger.info("HTTP %d on %s: retrying after %.1f s (Retry-After)",
                        response.status, request.url, retry_after)
            delay = retry_after
        else:
            logger.info("HTTP %d on %s: retry %d of %d in %.1f s (backoff)", response.status,
                        request.url, request.meta.get("retry_times", 0) + 1,
                        request.meta.get("max_retry_times", self.max_retry_times), delay)
        await self._wait(delay)
        return self._retry(request, response_status_message(response.status)) or response

    async def process_exception(self, request: Request, exception: Exception,
                                spider: Spider | None = None) -> Request | Response | None:
        """Retry a retryable download error after backoff."""
        if (not isinstance(exception, self.exceptions_to_retry)
                or request.meta.get("dont_retry", False)):
            return None
        if self._retries_left(request):
            await self._wait(self._backoff_delay(request))
        return self._retry(request, exception)
