"""Catch bodies whose Content-Encoding (gzip, deflate) cannot be decoded, before decompression.

A response that says ``Content-Encoding: gzip`` and is not gzip would make the decompression
middleware raise; here it is dropped with ``response/broken_content_encoding`` and a WARNING.
A stream that starts well and is cut short is left to the decompression middleware (which
keeps what it could decode) and counted as ``response/truncated_content_encoding``.
"""

from __future__ import annotations

import logging
import zlib

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Response

logger = logging.getLogger(__name__)

#: zlib window bits per content coding: gzip header, zlib header; raw deflate tried as fallback.
WBITS = {b"gzip": 16 + zlib.MAX_WBITS, b"x-gzip": 16 + zlib.MAX_WBITS, b"deflate": zlib.MAX_WBITS}


def decoding_state(body: bytes, coding: bytes, *, probe: int = 64 * 1024) -> str:
    """``ok``, ``truncated`` or ``broken`` for a body in a zlib-based content coding.

    Decodes at most ``probe`` bytes of output, so a decompression bomb costs nothing here.
    """
    candidates = [WBITS[coding]] + ([-zlib.MAX_WBITS] if coding == b"deflate" else [])
    for wbits in candidates:
        decoder = zlib.decompressobj(wbits)
        try:
            decoder.decompress(body, probe)
        except zlib.error:
            continue
        if decoder.eof or decoder.unconsumed_tail:
            return "ok"
        return "truncated"
    return "broken"


class ContentCodingCheckMiddleware:
    """Downloader middleware (before decompression): drops and counts undecodable bodies."""

    def __init__(self, crawler: Crawler) -> None:
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ContentCodingCheckMiddleware:
        """Build; NotConfigured when COMPRESSION_ENABLED or CONTENT_CODING_CHECK is off."""
        if not (crawler.settings.getbool("COMPRESSION_ENABLED", True)
                and crawler.settings.getbool("CONTENT_CODING_CHECK", True)):
            raise NotConfigured("no decompression to guard")
        return cls(crawler)

    def process_response(self, request: Request, response: Response,
                         spider: Spider | None = None) -> Response:
        """Pass decodable bodies on; raise IgnoreRequest for a broken one."""
        codings = [c.strip().lower() for value in response.headers.getlist("Content-Encoding")
                   for c in value.split(b",") if c.strip()]
        if not codings or request.method == "HEAD" or not response.body:
            return response
        coding = codings[-1]  # the outermost coding is listed last
        if coding not in WBITS:
            return response
        state = decoding_state(response.body, coding)
        if state == "broken":
            self.stats.inc_value("response/broken_content_encoding")
            logger.warning("Broken %s body: %s (HTTP %d, %d bytes cannot be decoded); dropped",
                           coding.decode(), response.url, response.status, len(response.body))
            raise IgnoreRequest(f"broken {coding.decode()} body")
        if state == "truncated":
            self.stats.inc_value("response/truncated_content_encoding")
            logger.warning("Truncated %s body: %s; keeping the part that decodes",
                           coding.decode(), response.url)
        return response
