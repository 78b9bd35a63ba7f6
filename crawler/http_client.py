"""The crawl's HTTP/1.1 client: Scrapy's, with the header section of an answer bounded as
``DOWNLOAD_MAXSIZE`` bounds its body, and a body that ends with its connection told cut when the
connection was reset rather than closed.

Twisted's HTTP client limits each header line (16 KiB) but not how many lines come: a server
that sends header lines forever, fast, filled the crawl's memory until ``DOWNLOAD_TIMEOUT``
(half a gigabyte in 3 s from a local server), and ``DOWNLOAD_MAXSIZE`` counts only the body.
Here the bytes of the status line and header lines of each answer are counted as they arrive;
past ``RESPONSE_HEADERS_MAX_SIZE`` (1 MiB; chromium gives up at 256 KiB with
``ERR_RESPONSE_HEADERS_TOO_BIG``, curl at 300 KiB, and sites that set a hundred cookies of 4 kB
on a page send 400 kB) the connection is closed and the answer fails with
:class:`HeadersTooLarge`, a parse error that :mod:`crawler.middlewares.protocol_errors` counts
(``response/headers_too_large``), logs once and does not retry. ``0`` turns the bound off.

An answer with neither a ``Content-Length`` nor chunks ends when its server closes the
connection. Twisted hands such a body over as whole however the connection ended, so a server
that reset the connection half-way (``ECONNRESET``) had its half page stored as the page. On a
plain connection a reset is told from a close, and such a body is failed as cut short (Scrapy's
``ResponseDataLossError``: counted in ``response/data_loss`` and retried like a body shorter
than its ``Content-Length``). Over TLS it is not: many servers close without TLS's closing
message, which Twisted reports as the same kind of failure as a reset.

A body longer than its ``Content-Length`` (a server that counted the characters of a UTF-8
page instead of its bytes, or sent a second page after the first) is read as far as its length,
as browsers and curl read it; the bytes past it were dropped without a word, so the page's end
was lost silently. The bytes that arrive with the end of the announced body are counted here and
the answer is flagged ``excess_body``, which :mod:`crawler.middlewares.body_checks` logs and
counts (``response/excess_body``); bytes sent after a pause, in a later read, are not seen.

The parser is Scrapy's lenient one (it skips header lines without a colon) with the count
added; Scrapy's handler swaps its class in the same way, the only way Twisted leaves to choose
the parser of a request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scrapy.core.downloader.handlers.http11 import (
    HTTP11DownloadHandler,
    _LenientHTTP11ClientFactory,
    _LenientHTTP11ClientProtocol,
    _LenientHTTPClientParser,
    _ResultT,
    _ScrapyAgent,
    get_dataloss_msg,
    wrap_twisted_exceptions,
)
from scrapy.core.downloader.handlers.http11 import logger as scrapy_handler_logger
from scrapy.exceptions import ResponseDataLossError
from scrapy.http import Request, Response
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.crawler import Crawler
from scrapy.settings import BaseSettings
from twisted.internet.error import ConnectionDone
from twisted.internet.interfaces import ISSLTransport
from twisted.python.failure import Failure
from twisted.web._newclient import ParseError
from twisted.web.client import HTTPConnectionPool
from twisted.web.http import _IdentityTransferDecoder

from crawler.startup import read_number, read_or_refuse

#: Flag of a response whose server sent more bytes than its Content-Length announced.
EXCESS_BODY_FLAG = "excess_body"
#: Attribute of Twisted's response holding how many bytes came past its Content-Length.
_EXCESS_ATTRIBUTE = "_crawler_excess_bytes"

#: Bytes of the header line at which the answer was given up, kept in the error (and the log).
QUOTED_BYTES = 120


class HeadersTooLarge(ParseError):
    """The status line and header lines of an answer passed RESPONSE_HEADERS_MAX_SIZE."""


@dataclass(frozen=True)
class ResponseHeadersConfig:
    """The bound on an answer's header section, read once."""

    #: Bytes of status line and header lines (with their line ends) an answer may have; 0: any.
    max_size: int

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> ResponseHeadersConfig:
        """Read RESPONSE_HEADERS_MAX_SIZE."""
        return cls(max_size=read_number(settings, "RESPONSE_HEADERS_MAX_SIZE", whole=True,
                                        minimum=0))


class _BoundedHeadersParser(_LenientHTTPClientParser):
    """Scrapy's lenient parser, counting the bytes of the lines it receives: the status line
    and header lines only (the body is read in raw mode, never as lines)."""

    header_limit: int
    header_bytes: int

    def lineReceived(self, line: bytes) -> None:  # noqa: N802 - Twisted's name
        """Count the line (and its CR LF); fail the answer once past the limit."""
        self.header_bytes += len(line) + 2
        if self.header_bytes > self.header_limit:
            raise HeadersTooLarge(f"header section larger than RESPONSE_HEADERS_MAX_SIZE "
                                  f"({self.header_limit} bytes)", line[:QUOTED_BYTES])
        super().lineReceived(line)


class _BoundedHeadersProtocol(_LenientHTTP11ClientProtocol):
    """A connection whose every answer is read by :class:`_BoundedHeadersParser`."""

    header_limit: int = 0

    def request(self, request: Any) -> Any:
        """Send the request; the parser its answer gets counts the header bytes."""
        deferred = super().request(request)
        parser = self._parser
        assert parser is not None  # request() always makes one (see Scrapy's protocol)
        parser.__class__ = _BoundedHeadersParser
        parser.header_limit = self.header_limit  # type: ignore[attr-defined]
        parser.header_bytes = 0  # type: ignore[attr-defined]
        return deferred

    def connectionLost(self, reason: Failure) -> None:  # noqa: N802 - Twisted's name
        """A body without a length of its own that ends with a reset of a plain connection
        is cut short: its decoder is told it expected more, so the answer fails with data
        loss instead of being handed over as whole."""
        parser = self._parser
        decoder = getattr(parser, "bodyDecoder", None)
        if (isinstance(decoder, _IdentityTransferDecoder) and decoder.contentLength is None
                and not reason.check(ConnectionDone)
                and not ISSLTransport.providedBy(self.transport)):
            decoder.contentLength = 1  # bytes still expected: Twisted's data-loss failure
        super().connectionLost(reason)

    def _finishResponse(self, rest: bytes) -> None:  # noqa: N802 - Twisted's name
        """The answer's body is complete: bytes past it (``rest``, which Twisted drops: it reads
        one answer per request) are counted on the response, so that its page is not taken
        for whole without a word. Blank bytes (a stray line end) are none."""
        parser = self._parser
        response = getattr(parser, "response", None)
        if rest.strip() and response is not None:
            setattr(response, _EXCESS_ATTRIBUTE, len(rest))
        super()._finishResponse(rest)


class _BoundedHeadersFactory(_LenientHTTP11ClientFactory):
    """Builds :class:`_BoundedHeadersProtocol` connections with the crawl's limit."""

    def __init__(self, quiescentCallback: Any, metadata: Any, *,  # noqa: N803 - Twisted's name
                 header_limit: int) -> None:
        super().__init__(quiescentCallback, metadata)
        self.header_limit = header_limit

    def buildProtocol(self, addr: Any) -> _BoundedHeadersProtocol:  # noqa: N802
        """A connection that bounds its answers' headers."""
        protocol = _BoundedHeadersProtocol(self._quiescentCallback)
        protocol.header_limit = self.header_limit
        return protocol


class _FactoryWithLimit:
    """What the connection pool calls to make a factory: one with the crawl's limit."""

    def __init__(self, header_limit: int) -> None:
        self.header_limit = header_limit

    def __call__(self, quiescent: Any, metadata: Any) -> _BoundedHeadersFactory:
        """The factory of one endpoint's connections."""
        return _BoundedHeadersFactory(quiescent, metadata, header_limit=self.header_limit)


def bound_response_headers(pool: HTTPConnectionPool, crawler: Crawler) -> None:
    """Make the connections of ``pool`` bound their answers' header sections (unless
    RESPONSE_HEADERS_MAX_SIZE is 0); a bad value stops the crawl as it opens."""
    config = read_or_refuse(crawler, ResponseHeadersConfig.from_settings)
    if config.max_size:
        pool._factory = _FactoryWithLimit(config.max_size)  # noqa: SLF001 - Twisted's hook


class _ExcessFlaggingAgent(_ScrapyAgent):
    """Scrapy's agent, flagging a response whose server sent more than its Content-Length."""

    def _cb_bodydone(self, result: _ResultT, url: str) -> Response:
        response = super()._cb_bodydone(result, url)
        if getattr(result["txresponse"], _EXCESS_ATTRIBUTE, 0):
            response.flags.append(EXCESS_BODY_FLAG)
        return response


class BoundedHeadersDownloadHandler(HTTP11DownloadHandler):
    """Scrapy's HTTP/1.1 download handler, its answers' header sections bounded and a body
    longer than its Content-Length flagged."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        bound_response_headers(self._pool, crawler)

    async def download_request(self, request: Request) -> Response:
        """Scrapy's download, through :class:`_ExcessFlaggingAgent` (Scrapy's handler names
        its agent class inside this method, the only place to choose it); a cut body fails
        as it does there, with Scrapy's hint to turn the check off once, on Scrapy's logger
        (:mod:`crawler.quiet_logs` keeps it out of the log and counts it)."""
        agent = _ExcessFlaggingAgent(
            contextFactory=self._contextFactory, bindAddress=self._bind_address,
            pool=self._pool, maxsize=self._default_maxsize, warnsize=self._default_warnsize,
            fail_on_dataloss=self._fail_on_dataloss, crawler=self._crawler,
            tls_verbose_logging=self._tls_verbose_logging)
        try:
            with wrap_twisted_exceptions():
                return await maybe_deferred_to_future(agent.download_request(request))
        except ResponseDataLossError:
            if not self._fail_on_dataloss_warned:
                scrapy_handler_logger.warning(get_dataloss_msg(request.url))
                self._fail_on_dataloss_warned = True
            raise
