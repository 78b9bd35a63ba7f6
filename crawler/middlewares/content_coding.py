"""Catch bodies whose Content-Encoding (gzip, deflate, br) cannot be decoded, before decompression.

A response that says ``Content-Encoding: gzip`` (or ``br``) and is not would make the
decompression middleware raise, or keep the undecoded bytes as the page's text; here it is
dropped with ``response/broken_content_encoding`` and a WARNING.
A stream that starts well and is cut short is left to the decompression middleware (which
keeps what it could decode) and counted as ``response/truncated_content_encoding``.
"""

from __future__ import annotations

import codecs
import logging
import zlib

import brotli

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from crawler.startup import read_switch
from crawler.unusable import UnusableResponse

logger = logging.getLogger(__name__)

#: zlib window bits per content coding: gzip header, zlib header; raw deflate tried as fallback.
WBITS = {b"gzip": 16 + zlib.MAX_WBITS, b"x-gzip": 16 + zlib.MAX_WBITS, b"deflate": zlib.MAX_WBITS}


#: Content codings checked here: the zlib-based ones and brotli.
CHECKED_CODINGS = frozenset(WBITS) | {b"br"}


def brotli_state(body: bytes, *, probe: int) -> str:
    """``ok``, ``truncated`` or ``broken`` for a brotli body (at most ``probe`` bytes decoded).

    Brotli has no header to recognise it by, and random bytes often read as the start of a
    stream: an unfinished stream counts as truncated only when what it decoded to is text.
    """
    decoder = brotli.Decompressor()
    try:
        decoded = decoder.process(body, output_buffer_limit=probe)
        while not decoder.is_finished() and len(decoded) < probe:
            more = decoder.process(b"", output_buffer_limit=probe)
            if not more:
                break
            decoded += more
    except brotli.error:
        return "broken"
    if decoder.is_finished() or len(decoded) >= probe:
        return "ok"
    return "truncated" if _looks_like_text(decoded) else "broken"


def _looks_like_text(data: bytes) -> bool:
    """Whether decoded bytes read as text: valid UTF-8 (a character may be cut at the end).
    Random bytes, which brotli often "decodes", are not; a cut page in a legacy charset is
    dropped with them (the price of brotli having no header to check)."""
    if not data:
        return False
    try:
        codecs.getincrementaldecoder("utf-8")().decode(data, final=False)
    except UnicodeDecodeError:
        return False
    return True


def decoding_state(body: bytes, coding: bytes, *, probe: int = 64 * 1024) -> str:
    """``ok``, ``truncated`` or ``broken`` for a body in a checked content coding.

    Decodes at most ``probe`` bytes of output, so a decompression bomb costs nothing here.
    """
    if coding == b"br":
        return brotli_state(body, probe=probe)
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
        enabled = read_switch(crawler, "CONTENT_CODING_CHECK")
        if not (enabled and crawler.settings.getbool("COMPRESSION_ENABLED")):
            raise NotConfigured("no decompression to guard")
        return cls(crawler)

    def process_response(self, request: Request, response: Response,
                         spider: Spider | None = None) -> Response:
        """Pass decodable bodies on; raise UnusableResponse for a broken one."""
        codings = [c.strip().lower() for value in response.headers.getlist("Content-Encoding")
                   for c in value.split(b",") if c.strip()]
        if not codings or request.method == "HEAD" or not response.body:
            return response
        coding = codings[-1]  # the outermost coding is listed last
        if coding not in CHECKED_CODINGS:
            return response
        state = decoding_state(response.body, coding)
        if state == "broken":
            self.stats.inc_value("response/broken_content_encoding")
            logger.warning("Broken %s body: %s (HTTP %d, %d bytes cannot be decoded); dropped",
                           coding.decode(), response.url, response.status, len(response.body))
            raise UnusableResponse(f"broken {coding.decode()} body")
        if state == "truncated":
            self.stats.inc_value("response/truncated_content_encoding")
            logger.warning("Truncated %s body: %s; keeping the part that decodes",
                           coding.decode(), response.url)
        return response
