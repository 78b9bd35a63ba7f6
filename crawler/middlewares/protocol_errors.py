"""Refuse, without retrying, an answer that is not HTTP: a status line that is no status line
(``HELLO THERE``, ``HTTP/1.1 2OO OK``) or a header line the client cannot parse.

Twisted's HTTP client fails such an answer with a ``ParseError`` wrapped in ``ResponseFailed``;
Scrapy retried it ``RETRY_TIMES`` and logged the raw ``Failure`` list. A server that speaks no
HTTP on the crawl's port answers the same way the next time, so here it is counted
(``response/not_http``), logged once (WARNING, with the line that failed) and dropped as an
:class:`~crawler.unusable.UnusableResponse` (a start URL answered so fails the crawl).
"""

from __future__ import annotations

import logging

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from twisted.web._newclient import ParseError, ResponseFailed

from crawler.unusable import UnusableResponse

logger = logging.getLogger(__name__)

#: Characters of the offending line quoted in the log.
QUOTED_CHARS = 120
#: Exceptions followed along a cause chain (Scrapy's wrapper, Twisted's, the parse error).
MAX_CAUSES = 10


def parse_error_of(exception: BaseException) -> ParseError | None:
    """The ``ParseError`` behind a download error (Scrapy wraps Twisted's ``ResponseFailed``,
    which lists the failures it collected), or None."""
    seen = 0
    current: BaseException | None = exception
    while current is not None and seen < MAX_CAUSES:
        if isinstance(current, ParseError):
            return current
        if isinstance(current, ResponseFailed):
            for reason in current.reasons:
                if isinstance(reason.value, ParseError):
                    return reason.value
        current = current.__cause__ or current.__context__
        seen += 1
    return None


class ProtocolErrorMiddleware:
    """Downloader middleware: an answer that is not HTTP is dropped, counted, not retried.
    Sits closer to the downloader than the retry middleware, so it sees the error first."""

    def __init__(self, crawler: Crawler) -> None:
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ProtocolErrorMiddleware:
        """Scrapy's factory hook."""
        return cls(crawler)

    def process_exception(self, request: Request, exception: Exception,
                          spider: Spider | None = None) -> None:
        """Raise UnusableResponse for a parse error of the answer; leave other errors alone."""
        error = parse_error_of(exception)
        if error is None:
            return None
        reason, line = (error.args + (b"",))[:2]
        quoted = line[:QUOTED_CHARS] if isinstance(line, bytes) else str(line)[:QUOTED_CHARS]
        self.stats.inc_value("response/not_http")
        logger.warning("Not an HTTP answer from %s (%s: %r); not retried", request.url,
                       reason, quoted)
        raise UnusableResponse(f"not an HTTP answer ({reason})")
