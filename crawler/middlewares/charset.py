"""Give every HTML response the charset its bytes are really in, so the stored text is right.

Scrapy trusts the HTTP header, then ``<meta>``, then tries ASCII and UTF-8 only. That loses text
when a page declares nothing and is not UTF-8 (Shift_JIS, GBK, cp1252...), declares the wrong
charset, or declares two that disagree. This middleware asks the project's one decoder
(:func:`crawler.decoding.choose_charset`: the declarations are tried on the bytes, and the
bytes decide) and sets its answer on the response:

- ``charset/detected``: nothing declared, the bytes are not UTF-8; detected charset used.
- ``charset/corrected``: the declared charset cannot decode the bytes (or a single-byte
  charset is declared for a valid UTF-8 body); detected charset used instead.
- ``charset/undecodable``: no charset decodes the bytes cleanly; Scrapy's choice kept.
- ``charset/won/<header|meta|bytes>``: which evidence won, counted when the header and
  ``<meta>`` disagree or a declaration lost.
"""

from __future__ import annotations

import logging

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response, TextResponse
from w3lib.encoding import html_body_declared_encoding, http_content_type_encoding

from crawler.decoding import choose_charset, codec_name, declared_codec
from crawler.startup import read_switch

logger = logging.getLogger(__name__)

class CharsetMiddleware:
    """Downloader middleware: sets the response encoding when the declared one is missing/wrong."""

    def __init__(self, crawler: Crawler) -> None:
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CharsetMiddleware:
        """Build; NotConfigured when CHARSET_DETECTION is off."""
        enabled = read_switch(crawler, "CHARSET_DETECTION")
        if not enabled:
            raise NotConfigured("CHARSET_DETECTION is off")
        return cls(crawler)

    def process_response(self, request: Request, response: Response,
                         spider: Spider | None = None) -> Response:
        """The response, with its encoding set to what :func:`choose_charset` decides."""
        if not isinstance(response, TextResponse) or not response.body:
            return response
        body = response.body
        header = http_content_type_encoding(
            response.headers.get("Content-Type", b"").decode("latin-1"))
        meta = html_body_declared_encoding(body)
        choice = choose_charset(body, header, meta)
        if choice.source == "bom":
            return response  # Scrapy reads the mark itself
        if choice.codec is None:
            self.stats.inc_value("charset/undecodable")
            logger.warning("Charset of %s unknown (%s); decoding as %s with replacements",
                           response.url, choice.why, response.encoding)
            return response
        disagree = bool(header and meta and declared_codec(header) != declared_codec(meta))
        if choice.outcome != "declared" or disagree:
            self.stats.inc_value(f"charset/won/{choice.source}")
        if choice.outcome != "declared":
            self.stats.inc_value(f"charset/{choice.outcome}")
            logger.info("Charset of %s: %s (%s)", response.url, choice.codec, choice.why)
        if codec_name(response.encoding) == choice.codec:
            return response
        return response.replace(encoding=choice.codec)
