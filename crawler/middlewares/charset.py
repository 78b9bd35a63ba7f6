"""Give every HTML response the charset its bytes are really in, so the stored text is right.

Scrapy trusts the HTTP header, then ``<meta>``, then tries ASCII and UTF-8 only. That loses text
when a page declares nothing and is not UTF-8 (Shift_JIS, GBK, cp1252...), or declares the
wrong charset. This middleware checks the declaration against the bytes and, where it is
missing or wrong, detects the charset (charset-normalizer) and sets it on the response:

- ``charset/detected``: nothing declared, the bytes are not UTF-8; detected charset used.
- ``charset/corrected``: the declared charset cannot decode the bytes (or a single-byte
  charset is declared for a valid UTF-8 body); detected charset used instead.
- ``charset/undecodable``: no charset decodes the bytes cleanly; Scrapy's choice kept.
"""

from __future__ import annotations

import logging

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response, TextResponse
from w3lib.encoding import html_body_declared_encoding, http_content_type_encoding, read_bom

from crawler.decoding import DETECT_SAMPLE, PERMISSIVE_CHARSETS, codec_name, decodes, \
    decodes_but_cut, detect

logger = logging.getLogger(__name__)

class CharsetMiddleware:
    """Downloader middleware: sets the response encoding when the declared one is missing/wrong."""

    def __init__(self, crawler: Crawler) -> None:
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CharsetMiddleware:
        """Build; NotConfigured when CHARSET_DETECTION is off."""
        if not crawler.settings.getbool("CHARSET_DETECTION"):
            raise NotConfigured("CHARSET_DETECTION is off")
        return cls(crawler)

    def process_response(self, request: Request, response: Response,
                         spider: Spider | None = None) -> Response:
        """The response, with its encoding set when the declaration was missing or wrong."""
        if not isinstance(response, TextResponse) or not response.body:
            return response
        body = response.body
        if read_bom(body)[0]:
            return response  # a byte-order mark is unambiguous
        content_type = response.headers.get("Content-Type", b"").decode("latin-1")
        label = http_content_type_encoding(content_type) or html_body_declared_encoding(body)
        declared = codec_name(label)
        if declared is None:
            if body.isascii() or decodes(body, "utf-8"):
                return response  # Scrapy's own fallback handles these
            return self._use(response, detect(body), "detected",
                             f"no charset declared ({label!r} unknown)" if label
                             else "no charset declared")
        if decodes(body, declared):
            if declared in PERMISSIVE_CHARSETS and not body.isascii() and decodes(body, "utf-8"):
                return self._use(response, "utf_8", "corrected",
                                 f"declared {label} but the body is valid UTF-8")
            return response
        return self._use(response, detect(body), "corrected",
                         f"declared {label} does not decode the body")

    def _use(self, response: Response, codec: str | None, outcome: str, why: str) -> Response:
        """Set the encoding (counted and logged), or keep Scrapy's when nothing fits."""
        sample = response.body[:DETECT_SAMPLE]
        if codec is None or not (decodes(sample, codec) or decodes_but_cut(sample, codec)):
            self.stats.inc_value("charset/undecodable")
            logger.warning("Charset of %s unknown (%s); decoding as %s with replacements",
                           response.url, why, response.encoding)
            return response
        self.stats.inc_value(f"charset/{outcome}")
        logger.info("Charset of %s: %s (%s)", response.url, codec, why)
        return response.replace(encoding=codec)
