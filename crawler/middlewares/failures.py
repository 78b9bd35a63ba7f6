"""Name and count every download that finally failed (after retries): timeouts, dropped
connections, bodies over DOWNLOAD_MAXSIZE, refused connections, unresolvable hosts.

Placed on the engine side of the retry middleware, it sees an error only once retries are
exhausted, so each lost page is one ``download_failure/<kind>`` stat and one WARNING line.
"""

from __future__ import annotations

import logging

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import (
    CannotResolveHostError,
    DownloadCancelledError,
    DownloadConnectionRefusedError,
    DownloadFailedError,
    DownloadTimeoutError,
    IgnoreRequest,
    NotConfigured,
    ResponseDataLossError,
)
from twisted.internet import defer
from twisted.internet import error as twisted_error
from twisted.web._newclient import ResponseFailed

logger = logging.getLogger(__name__)

#: Exception classes per failure kind, checked in order.
FAILURE_KINDS: tuple[tuple[str, tuple[type[BaseException], ...]], ...] = (
    ("timeout", (DownloadTimeoutError, twisted_error.TimeoutError, twisted_error.TCPTimedOutError,
                 defer.TimeoutError)),
    ("too_large", (DownloadCancelledError, defer.CancelledError)),
    ("connection_lost", (ResponseDataLossError, ResponseFailed, twisted_error.ConnectionLost,
                         twisted_error.ConnectionDone)),
    ("connection_refused", (DownloadConnectionRefusedError, twisted_error.ConnectionRefusedError)),
    ("dns", (CannotResolveHostError, twisted_error.DNSLookupError)),
    ("failed", (DownloadFailedError, twisted_error.ConnectError)),
)


def failure_kind(exception: BaseException) -> str:
    """Short name of a download error, ``other`` when unknown."""
    for kind, classes in FAILURE_KINDS:
        if isinstance(exception, classes):
            return kind
    return "other"


class DownloadFailureMiddleware:
    """Downloader middleware: one stat and one log line per download that failed for good."""

    def __init__(self, crawler: Crawler) -> None:
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DownloadFailureMiddleware:
        """Build; NotConfigured when DOWNLOAD_FAILURE_STATS is off."""
        if not crawler.settings.getbool("DOWNLOAD_FAILURE_STATS", True):
            raise NotConfigured("DOWNLOAD_FAILURE_STATS is off")
        return cls(crawler)

    def process_exception(self, request: Request, exception: Exception,
                          spider: Spider | None = None) -> None:
        """Count and log the failure; let the error continue to the request's errback."""
        if isinstance(exception, IgnoreRequest):
            return None  # a deliberate refusal, counted by the component that refused
        kind = failure_kind(exception)
        self.stats.inc_value("download_failure/count")
        self.stats.inc_value(f"download_failure/{kind}")
        retries = request.meta.get("retry_times", 0)
        logger.warning("Page lost: %s (%s after %d retr%s: %s)", request.url, kind, retries,
                       "y" if retries == 1 else "ies", str(exception)[:200] or type(exception).__name__)
        return None
