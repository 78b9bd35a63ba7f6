"""Refuse, without retrying, an answer that is not HTTP: a status line that is no status line
(``HELLO THERE``, ``HTTP/1.1 2OO OK``), a header line the client cannot parse, a header name
no header may have (a NUL byte), two ``Content-Length`` headers that disagree.

Twisted's HTTP client fails such an answer with a ``ParseError`` (or a ``ValueError``, which its
``InvalidHeaderName`` is) wrapped in ``ResponseFailed``; Scrapy retried it ``RETRY_TIMES`` and
logged the raw ``Failure`` list. A server that speaks no
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


#: What Twisted's response parser raises on an answer that breaks HTTP's syntax.
MALFORMED_ANSWER = (ParseError, ValueError)


def parse_error_of(exception: BaseException) -> Exception | None:
    """The parser's error behind a download error (Scrapy wraps Twisted's ``ResponseFailed``,
    which lists the failures it collected while reading the answer), or None."""
    seen = 0
    current: BaseException | None = exception
    while current is not None and seen < MAX_CAUSES:
        if isinstance(current, ResponseFailed):
            for reason in current.reasons:
                if isinstance(reason.value, MALFORMED_ANSWER):
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
        if isinstance(error, ParseError):
            reason, line = (error.args + (b"",))[:2]
        else:
            reason, line = type(error).__name__, (error.args or ("",))[0]
        quoted = line[:QUOTED_CHARS] if isinstance(line, bytes) else str(line)[:QUOTED_CHARS]
        self.stats.inc_value("response/not_http")
        logger.warning("Not an HTTP answer from %s (%s: %r); not retried", request.url,
                       reason, quoted)
        raise UnusableResponse(f"not an HTTP answer ({reason})")
