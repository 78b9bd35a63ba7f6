"""Refuse, without retrying, an answer that is not HTTP: a status line that is no status line
(``HELLO THERE``, ``HTTP/1.1 2OO OK``), a header line the client cannot parse, a header name
no header may have (a NUL byte), two ``Content-Length`` headers that disagree, a chunked body
whose chunk-size line is no size (``zz``, ``-5``), a ``Transfer-Encoding`` other than chunked
(``gzip``, ``gzip, chunked``: see ``TRANSFER_CODING_REFUSED`` for why it is not decoded).

Twisted's HTTP client fails such an answer with a ``ParseError`` (or a ``ValueError``, which its
``InvalidHeaderName`` is) wrapped in ``ResponseFailed``; Scrapy retried it ``RETRY_TIMES`` and
logged the raw ``Failure`` list. A malformed chunk ends the body early, so Scrapy reports it as a
body cut short (the parse error behind it): it was retried and said to be a connection closed
before the end of its body. A server that speaks no
HTTP on the crawl's port answers the same way the next time, so here it is counted
(``response/not_http``), logged once (WARNING, with the line that failed) and dropped as an
:class:`~crawler.unusable.UnusableResponse` (a start URL answered so fails the crawl).

Other failures Twisted collects while reading an answer (the connection closed before the answer
was complete: a server that hangs up, or a header line longer than the client reads) are left to
the retry middleware, but their message, which Scrapy prints as a list of ``Failure`` objects,
is rewritten as their kinds and messages, so the retry and error lines read as one sentence.

A body cut short (the connection closed before the Content-Length or the last chunk it
announced: Scrapy's ``ResponseDataLossError``, ``DOWNLOAD_FAIL_ON_DATALOSS`` being on) is never
stored as if it were whole: it is counted (``response/data_loss``, each answer so cut) and
retried like a dropped connection, and its message, which Scrapy leaves empty, says what
happened (Scrapy's hint to turn ``DOWNLOAD_FAIL_ON_DATALOSS`` off, which would store the cut
page, is kept out of the log: :mod:`crawler.quiet_logs`).
"""

from __future__ import annotations

import logging

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import ResponseDataLossError
from twisted.web._newclient import ParseError, ResponseFailed
from twisted.web.http import _MalformedChunkedDataError

from crawler.http_client import HeadersTooLarge
from crawler.unusable import UnusableResponse

logger = logging.getLogger(__name__)

#: Characters of the offending line quoted in the log.
QUOTED_CHARS = 120
#: Exceptions followed along a cause chain (Scrapy's wrapper, Twisted's, the parse error).
MAX_CAUSES = 10


#: The message of a body cut short (Scrapy's ResponseDataLossError has none).
DATA_LOSS_MESSAGE = ("the answer was cut short: the connection closed before the end of the body "
                     "its headers announced (Content-Length or chunks); nothing of it is stored")


#: Why an answer in a transfer coding other than chunked is refused, not decoded: the crawl's
#: requests send no ``TE`` header, so HTTP forbids a server to use one (RFC 9110, section
#: 10.1.4), and chromium, the crawl's renderer, shows such a body as the bytes it came in (curl
#: decodes it).
TRANSFER_CODING_REFUSED = ("a Transfer-Encoding other than chunked, which the crawl never asks "
                           "for and does not decode")

#: What Twisted's response parser raises on an answer that breaks HTTP's syntax (a KeyError:
#: a Transfer-Encoding it has no decoder for, such as ``gzip``; only ``chunked`` is one).
MALFORMED_ANSWER = (ParseError, ValueError, _MalformedChunkedDataError, KeyError)


def response_failed_of(exception: BaseException) -> ResponseFailed | None:
    """Twisted's ``ResponseFailed`` behind a download error (Scrapy wraps it), or None."""
    seen = 0
    current: BaseException | None = exception
    while current is not None and seen < MAX_CAUSES:
        if isinstance(current, ResponseFailed):
            return current
        current = current.__cause__ or current.__context__
        seen += 1
    return None


def describe_failures(failed: ResponseFailed) -> str:
    """The failures Twisted collected, as ``Kind: message`` joined by ``; ``."""
    return "; ".join(f"{type(reason.value).__name__}: {reason.getErrorMessage()}"
                     for reason in failed.reasons) or "the answer could not be read"


def parse_error_of(exception: BaseException) -> Exception | None:
    """The parser's error behind a download error (Scrapy wraps Twisted's ``ResponseFailed``,
    which lists the failures it collected while reading the answer), or None."""
    failed = response_failed_of(exception)
    for reason in failed.reasons if failed is not None else ():
        if isinstance(reason.value, MALFORMED_ANSWER):
            return reason.value
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
        """Raise UnusableResponse for a parse error of the answer; give other failures of the
        answer a readable message and leave them to the retry middleware."""
        error = parse_error_of(exception)
        if isinstance(exception, ResponseDataLossError) and error is None:
            self.stats.inc_value("response/data_loss")
            logger.info("Answer of %s cut short (the connection closed before the end of the "
                        "body it announced): not stored, left to the retries", request.url)
            exception.args = (DATA_LOSS_MESSAGE,)
            return None
        if error is None:
            failed = response_failed_of(exception)
            if failed is not None and exception is not failed and exception.args:
                # Scrapy's wrapper holds str() of Twisted's list of Failure objects
                exception.args = (f"the answer could not be read ({describe_failures(failed)})",)
            return None
        if isinstance(error, ParseError):
            reason, line = (error.args + (b"",))[:2]
        elif isinstance(error, _MalformedChunkedDataError):
            reason, line = "a malformed chunked body", (error.args or ("",))[0]
        elif isinstance(error, KeyError):  # before: retried, "KeyError: b'gzip'" in an ERROR
            reason = TRANSFER_CODING_REFUSED
            line = (error.args or ("",))[0]
        else:
            reason, line = type(error).__name__, (error.args or ("",))[0]
        quoted = line[:QUOTED_CHARS] if isinstance(line, bytes) else str(line)[:QUOTED_CHARS]
        if isinstance(error, HeadersTooLarge):
            self.stats.inc_value("response/headers_too_large")
            logger.warning("Answer of %s not read: its %s (the last line read began %r); "
                           "not retried", request.url, reason, quoted)
            raise UnusableResponse(str(reason))
        self.stats.inc_value("response/not_http")
        logger.warning("Not an HTTP answer from %s (%s: %r); not retried", request.url,
                       reason, quoted)
        raise UnusableResponse(f"not an HTTP answer ({reason})")
