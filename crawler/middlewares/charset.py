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

import codecs
import logging
import re

import charset_normalizer
from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response, TextResponse
from w3lib.encoding import (
    html_body_declared_encoding,
    http_content_type_encoding,
    read_bom,
    resolve_encoding,
)

logger = logging.getLogger(__name__)

#: Bytes of the body looked at for detection (enough for a reliable guess, bounded time).
DETECT_SAMPLE = 256 * 1024
#: Single-byte charsets that decode any byte string: a valid UTF-8 body overrides them.
PERMISSIVE_CHARSETS = frozenset({"cp1252", "latin_1", "iso8859_15", "iso8859_1", "ascii"})


def codec_name(label: str | None) -> str | None:
    """Python's codec name for a charset label (WHATWG aliases applied), None if unknown."""
    if not label:
        return None
    resolved = resolve_encoding(label) or label
    try:
        return codecs.lookup(resolved).name.replace("-", "_")
    except LookupError:
        return None


def decodes(body: bytes, codec: str) -> bool:
    """Whether the body decodes with the codec without a single error."""
    try:
        body.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return False
    return True


def detect(body: bytes) -> str | None:
    """Best-guess codec of a body (UTF-8 first: valid UTF-8 is almost never anything else)."""
    sample = body[:DETECT_SAMPLE]
    if decodes(sample, "utf-8") or _decodes_but_cut(sample, "utf-8"):
        return "utf_8"
    results = list(charset_normalizer.from_bytes(sample, preemptive_behaviour=False))
    if not results:
        return None
    best = results[0]
    # Exact ties between Latin code pages are common on short texts: prefer the web's default.
    for match in results:
        if (match.encoding == "cp1252" and abs(match.chaos - best.chaos) < 1e-3
                and abs(match.coherence - best.coherence) < 0.02):
            best = match
            break
    codec = codec_name(best.encoding)
    if codec == "cp1252" and looks_like_latin9(sample):
        return "iso8859_15"
    return codec


#: Bytes where ISO-8859-15 (€ Š š Ž ž Œ œ Ÿ) and cp1252 (¤ ¦ ¨ ´ ¸ ¼ ½ ¾) differ.
_LATIN9_BYTES = frozenset(b"\xa4\xa6\xa8\xb4\xb8\xbc\xbd\xbe")
_LETTER = re.compile(rb"[A-Za-z\xc0-\xff]")


def looks_like_latin9(sample: bytes) -> bool:
    """Whether single-byte Western text reads better as ISO-8859-15 than as cp1252.

    cp1252 puts printable characters at 0x80-0x9F (ISO-8859-15 has none there); ISO-8859-15
    puts letters and the euro sign where cp1252 has rarely used symbols: ``¤`` anywhere, or
    one of ``¦ ¨ ´ ¸ ¼ ½ ¾`` touching a letter, means ISO-8859-15.
    """
    if any(0x80 <= byte <= 0x9F for byte in sample):
        return False
    for index, byte in enumerate(sample):
        if byte not in _LATIN9_BYTES:
            continue
        if byte == 0xA4:
            return True
        neighbours = sample[max(0, index - 1):index] + sample[index + 1:index + 2]
        if _LETTER.search(neighbours):
            return True
    return False


def _decodes_but_cut(sample: bytes, codec: str) -> bool:
    """Whether a sample decodes except for a multi-byte character cut at its end."""
    try:
        codecs.getincrementaldecoder(codec)().decode(sample, final=False)
    except UnicodeDecodeError:
        return False
    return True


class CharsetMiddleware:
    """Downloader middleware: sets the response encoding when the declared one is missing/wrong."""

    def __init__(self, crawler: Crawler) -> None:
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CharsetMiddleware:
        """Build; NotConfigured when CHARSET_DETECTION is off."""
        if not crawler.settings.getbool("CHARSET_DETECTION", True):
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
        if codec is None or not (decodes(sample, codec) or _decodes_but_cut(sample, codec)):
            self.stats.inc_value("charset/undecodable")
            logger.warning("Charset of %s unknown (%s); decoding as %s with replacements",
                           response.url, why, response.encoding)
            return response
        self.stats.inc_value(f"charset/{outcome}")
        logger.info("Charset of %s: %s (%s)", response.url, codec, why)
        return response.replace(encoding=codec)
