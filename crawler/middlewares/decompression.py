"""Scrapy's decompression, with a body that decodes to more than DOWNLOAD_MAXSIZE (a
decompression bomb) counted and refused as an unusable response.

Scrapy stops decoding at ``DOWNLOAD_MAXSIZE`` and raises ``IgnoreRequest`` with a WARNING, but
counts nothing and the crawl cannot tell the page from one it chose to skip. Here the same
limit gives ``response/decompressed_too_large``, one WARNING naming both sizes, and
:class:`~crawler.unusable.UnusableResponse` (a start URL answered so fails the crawl). A body
the content-coding check let through that still fails to decode (a coding no probe reaches) is
``response/broken_content_encoding``, like the ones the check drops. A coding no decoder knows
(``x-snappy``) is counted (``response/unknown_content_encoding``) with one WARNING and its body
read as it came, for the body checks to judge; ``identity``, which is no coding, is left out.
"""

from __future__ import annotations

import logging
import zlib

import brotli
from backports import zstd
from scrapy import Request, Spider
from scrapy.downloadermiddlewares.httpcompression import HttpCompressionMiddleware
from scrapy.http import Response
# Scrapy's own signal that decoding passed the limit (raised by its decoders, not public API).
from scrapy.utils._compression import _DecompressionMaxSizeExceeded

from crawler.middlewares.content_coding import refuse_broken_body
from crawler.unusable import UnusableResponse

logger = logging.getLogger(__name__)

#: The content coding that is none (RFC 9110): nothing to decode, nothing to warn about.
IDENTITY = b"identity"
#: What the zlib, brotli and zstd decoders raise on a body that is not their coding.
DECODING_ERRORS = (zlib.error, brotli.error, zstd.ZstdError, OSError, EOFError)


class _Undecodable(Exception):
    """A body Scrapy's decoders gave up on: ``too_large`` (with the size reached) or broken."""

    def __init__(self, too_large: bool, size: int = 0) -> None:
        super().__init__()
        self.too_large = too_large
        self.size = size


class BoundedDecompressionMiddleware(HttpCompressionMiddleware):
    """Downloader middleware replacing Scrapy's HttpCompressionMiddleware at its place."""

    @staticmethod
    def _split_encodings(content_encoding: list[bytes]) -> tuple[list[bytes], list[bytes]]:
        """Scrapy's split into the codings to decode and those kept, ``identity`` (no coding
        at all, which Scrapy warned it could not decode) left out."""
        named = [b", ".join(coding for coding in (part.strip() for part in value.split(b","))
                            if coding and coding.lower() != IDENTITY)
                 for value in content_encoding]
        return HttpCompressionMiddleware._split_encodings([value for value in named if value])

    def _warn_unknown_encoding(self, response: Response, encodings: list[bytes]) -> None:
        """A coding no decoder here knows (``x-snappy``): counted, and one WARNING saying the
        body is read as it came, so the body checks judge it (dropped if it is binary)."""
        assert self.stats is not None
        self.stats.inc_value("response/unknown_content_encoding")
        logger.warning("Content-Encoding %r of %s is no coding the crawl can decode: the body is "
                       "read as it came", b", ".join(encodings).decode("latin-1")[:100],
                       response.url)

    def _handle_encoding(self, body: bytes, content_encoding: list[bytes],
                         max_size: int) -> tuple[bytes, list[bytes]]:
        """Scrapy's decoding; its failures become :class:`_Undecodable`, which the parent's
        handler does not catch, so it reaches :meth:`process_response` below unlogged."""
        try:
            return super()._handle_encoding(body, content_encoding, max_size)
        except _DecompressionMaxSizeExceeded as exc:
            raise _Undecodable(True, exc.decompressed_size) from exc
        except DECODING_ERRORS as exc:
            raise _Undecodable(False) from exc

    def process_response(self, request: Request, response: Response,
                         spider: Spider | None = None) -> Request | Response:
        """Decode as Scrapy does; count and refuse a body over the limit or undecodable."""
        try:
            return super().process_response(request, response)
        except _Undecodable as exc:
            assert self.stats is not None
            coding = b", ".join(response.headers.getlist("Content-Encoding")).decode("latin-1")
            if exc.too_large:
                self.stats.inc_value("response/decompressed_too_large")
                max_size = request.meta.get("download_maxsize", self._max_size)
                logger.warning("Compressed body too large: %s (%d bytes of %s decode to more "
                               "than DOWNLOAD_MAXSIZE, %d bytes); dropped", response.url,
                               len(response.body), coding, max_size)
                raise UnusableResponse("body too large once decompressed") from None
            refuse_broken_body(self.stats, response, coding)
