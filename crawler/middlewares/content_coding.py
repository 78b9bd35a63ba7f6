"""Catch bodies whose Content-Encoding (gzip, deflate, br, zstd) cannot be decoded, before
decompression.

A response that says ``Content-Encoding: gzip`` (or ``br``, ``zstd``) and is not would make the
decompression middleware raise, or keep the undecoded bytes as the page's text; here it is
dropped with ``response/broken_content_encoding`` and a WARNING. Every coding of a chain
(``Content-Encoding: gzip, gzip``) is checked, each on the start of what the one outside it
decodes to.
A stream that starts well and is cut short is left to the decompression middleware (which
keeps what it could decode) and counted as ``response/truncated_content_encoding``.
"""

from __future__ import annotations

import codecs
import logging
import zlib
from typing import NoReturn

import brotli
from backports import zstd

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.statscollectors import StatsCollector
from crawler.startup import read_switch
from crawler.unusable import UnusableResponse

logger = logging.getLogger(__name__)

#: zlib window bits per content coding: gzip header, zlib header; raw deflate tried as fallback.
WBITS = {b"gzip": 16 + zlib.MAX_WBITS, b"x-gzip": 16 + zlib.MAX_WBITS, b"deflate": zlib.MAX_WBITS}


#: Content codings checked here: the zlib-based ones, brotli and zstd.
CHECKED_CODINGS = frozenset(WBITS) | {b"br", b"zstd"}


def zstd_state(body: bytes, *, probe: int) -> tuple[str, bytes]:
    """``ok``, ``truncated`` or ``broken`` for a zstd body, and what it decoded to (at most
    ``probe`` bytes)."""
    decoder = zstd.ZstdDecompressor()
    try:
        decoded = decoder.decompress(body, max_length=probe)
    except zstd.ZstdError:
        return "broken", b""
    if decoder.eof or len(decoded) >= probe or not decoder.needs_input:
        return "ok", decoded
    return ("truncated" if decoded else "broken"), decoded


def brotli_state(body: bytes, *, probe: int) -> tuple[str, bytes]:
    """``ok``, ``truncated`` or ``broken`` for a brotli body, and what it decoded to (at most
    ``probe`` bytes).

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
        return "broken", b""
    if decoder.is_finished() or len(decoded) >= probe:
        return "ok", decoded
    return ("truncated" if _looks_like_text(decoded) else "broken"), decoded


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


def coding_state(body: bytes, coding: bytes, *, probe: int) -> tuple[str, bytes]:
    """``ok``, ``truncated`` or ``broken`` for a body in one checked content coding, and what
    it decoded to (at most ``probe`` bytes)."""
    if coding == b"br":
        return brotli_state(body, probe=probe)
    if coding == b"zstd":
        return zstd_state(body, probe=probe)
    candidates = [WBITS[coding]] + ([-zlib.MAX_WBITS] if coding == b"deflate" else [])
    for wbits in candidates:
        decoder = zlib.decompressobj(wbits)
        try:
            decoded = decoder.decompress(body, probe)
        except zlib.error:
            continue
        if decoder.eof or decoder.unconsumed_tail:
            return "ok", decoded
        return "truncated", decoded
    return "broken", b""


def decoding_state(body: bytes, codings: list[bytes], *,
                   probe: int = 64 * 1024) -> tuple[str, bytes]:
    """``ok``, ``truncated`` or ``broken`` for a body in a chain of content codings (as
    listed in the header, the outermost last), and the coding that decided it.

    Decodes at most ``probe`` bytes of output per coding, so a decompression bomb costs
    nothing here; an inner coding is checked on the start of what the outer one decoded to,
    so only the outermost can be found truncated.
    """
    outermost = True
    for coding in reversed(codings):
        if coding not in CHECKED_CODINGS:
            break  # left encoded by the decompression middleware
        state, body = coding_state(body, coding, probe=probe)
        if state == "broken" or (state == "truncated" and outermost):
            return state, coding
        outermost = False
    return "ok", codings[-1]


def refuse_broken_body(stats: StatsCollector, response: Response, coding: str) -> NoReturn:
    """Count and log a body its content coding cannot decode, and refuse the response (the
    check here and the decompression middleware after it refuse such bodies alike)."""
    stats.inc_value("response/broken_content_encoding")
    logger.warning("Broken %s body: %s (HTTP %d, %d bytes cannot be decoded); dropped",
                   coding, response.url, response.status, len(response.body))
    raise UnusableResponse(f"broken {coding} body") from None


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
        state, coding = decoding_state(response.body, codings)
        if state == "broken":
            refuse_broken_body(self.stats, response, coding.decode())
        if state == "truncated":
            self.stats.inc_value("response/truncated_content_encoding")
            logger.warning("Truncated %s body: %s; keeping the part that decodes",
                           coding.decode(), response.url)
        return response
