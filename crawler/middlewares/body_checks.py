"""Refuse 2xx responses that claim to be HTML (or claim nothing) but cannot be a page: empty
bodies, binary files served as HTML, and a part of a page.

A PDF, image or archive sent with ``Content-Type: text/html`` passes any header check; its
first bytes give it away (magic numbers, or a large share of control bytes). Such responses and
empty 200s are dropped before extraction, each with a stat (``response/empty``,
``response/binary_as_html`` and ``response/binary_as_html/<kind>``) and a WARNING line.
A few stray NUL bytes in real HTML do not make it binary, nor do the many of a page in UTF-16
that its ``Content-Type`` declares without a byte-order mark. A page followed by a run of NUL
bytes (a server padding its answer to a fixed size: 200 kB of NULs after ``</html>``) is what
browsers show, the NULs drawn as nothing: the run at the body's end is cut off and the page kept,
with an INFO line (``response/nul_padding``; before, the NULs made the body binary and the page
was lost). A PDF, image or archive so padded, or NULs through the body, stay binary.

The crawl never asks for a range, so a ``206 Partial Content`` is a server's mistake: unless its
``Content-Range`` says the part is the whole page (``bytes 0-4999/5000``), the body is a piece of
a page, dropped with a WARNING (``response/partial_content``; before, the piece was stored as the
page, its text cut off mid-word, without a word).

A body longer than its ``Content-Length`` is read as far as the length, as browsers read it:
the client flags it (:mod:`crawler.http_client`) and it is kept with a WARNING saying its end
may be missing (``response/excess_body``; before, the page was stored without its end, without
a word).

A rendered response's body is the DOM the browser made of the page (an empty document for an
empty body, a PDF's bytes as text), so for it the checks judge the body the server sent, which
the render leaves in the request's meta (``SERVER_BODY_META``): rendered or not, the same answer
gives the same outcome.
"""

from __future__ import annotations

import codecs
import logging
import re
import zlib
from dataclasses import dataclass

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from w3lib.encoding import http_content_type_encoding

from crawler.decoding import is_declared_wide_text
from crawler.http_client import EXCESS_BODY_FLAG
from crawler.rendering import SERVER_BODY_META
from crawler.startup import read_bool, read_or_refuse
from crawler.unusable import UnusableResponse

logger = logging.getLogger(__name__)

#: Leading bytes of common binary formats.
MAGIC_NUMBERS: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "pdf"),
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"GIF87a", "gif"), (b"GIF89a", "gif"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"PK\x03\x04", "zip"), (b"PK\x05\x06", "zip"),
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"),
    (b"7z\xbc\xaf\x27\x1c", "7z"),
    (b"Rar!\x1a\x07", "rar"),
    (b"\x7fELF", "elf"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "ole"),
    (b"OggS", "ogg"), (b"ID3", "mp3"), (b"fLaC", "flac"),
    (b"wOFF", "woff"), (b"wOF2", "woff2"),
    (b"\x00\x00\x01\x00", "ico"),
)
#: Byte-order marks, the longest first (UTF-32's little-endian mark begins as UTF-16's does).
_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF8, codecs.BOM_UTF16_LE,
         codecs.BOM_UTF16_BE)
#: Declared media types (or none) whose body must be a page.
CLAIMS_HTML = frozenset({"", "text/html", "application/xhtml+xml"})
#: A byte range's ``Content-Range`` (RFC 9110 14.4): first and last byte, and the whole
#: length (``*`` when unknown).
CONTENT_RANGE = re.compile(rb"\s*bytes\s+(\d+)\s*-\s*(\d+)\s*/\s*(\d+|\*)\s*$", re.I)
#: Bytes that never occur in text (everything below 0x20 except tab, LF, FF, CR, ESC).
CONTROL_BYTES = frozenset(range(0x20)) - {0x09, 0x0A, 0x0C, 0x0D, 0x1B}
#: What padding after a page is made of: NULs, and white space among them.
PADDING_BYTES = b"\x00 \t\r\n"
#: The start of a tag, a comment or a doctype: what a page before its padding must hold.
TAG_START = re.compile(rb"<[A-Za-z!/]")


def binary_kind(body: bytes, *, sample: int = 4096, max_control_share: float = 0.1) -> str | None:
    """The binary format a body looks like (``pdf``, ``png``, ..., ``binary``), None for text."""
    head = body[:sample]
    for magic, kind in MAGIC_NUMBERS:
        if head.startswith(magic):
            return kind
    if _is_zlib_stream(head):
        return "zlib"
    if head[4:8] in (b"ftyp",):
        return "mp4"
    if head.startswith(b"RIFF") and head[8:12] in (b"WEBP", b"WAVE", b"AVI "):
        return head[8:12].decode().strip().lower()
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None  # UTF-16 BOM: text with many NUL bytes
    if not head:
        return None
    control = sum(1 for byte in head if byte in CONTROL_BYTES)
    return "binary" if control / len(head) > max_control_share else None


def without_nul_padding(body: bytes, *, sample: int = 4096) -> bytes | None:
    """The page before the NUL bytes that end the body (white space among them), when the body
    ends in NULs and what stands before them is text holding a tag, not binary; else None (no
    padding, or binary bytes before it: a padded PDF, NULs through the body)."""
    if not body.rstrip(b" \t\r\n").endswith(b"\x00"):
        return None
    page = body.rstrip(PADDING_BYTES)
    if not page or binary_kind(page, sample=sample) is not None \
            or not TAG_START.search(page[:sample]):
        return None
    return page


def _is_zlib_stream(head: bytes) -> bool:
    """True for a zlib (RFC 1950) stream: a deflate header whose check bits hold and whose
    first bytes inflate (a page starting with ``x^`` is not one)."""
    if len(head) < 3 or head[0] != 0x78 or head[1] not in (0x01, 0x5E, 0x9C, 0xDA):
        return False
    try:
        zlib.decompressobj().decompress(head, 64)
    except zlib.error:
        return False
    return True


@dataclass(frozen=True)
class BodyCheckConfig:
    """Settings of the body checks, read once."""

    drop_empty: bool
    drop_binary: bool
    drop_partial: bool

    @classmethod
    def from_settings(cls, settings) -> BodyCheckConfig:  # noqa: ANN001 - Scrapy Settings
        """Read BODY_CHECK_EMPTY, BODY_CHECK_BINARY and BODY_CHECK_PARTIAL."""
        return cls(drop_empty=read_bool(settings, "BODY_CHECK_EMPTY"),
                   drop_binary=read_bool(settings, "BODY_CHECK_BINARY"),
                   drop_partial=read_bool(settings, "BODY_CHECK_PARTIAL"))


def is_blank(body: bytes) -> bool:
    """Whether a body holds nothing but white space, after a byte-order mark if it has one (a
    page of a UTF-8 mark and a line end is empty; in UTF-16 or UTF-32, NULs are part of the
    white space's characters)."""
    for bom in _BOMS:
        if body.startswith(bom):
            rest = body[len(bom):]
            return not (rest.strip(b" \t\r\n\x0c\x00") if bom != codecs.BOM_UTF8
                        else rest.strip())
    return not body.strip()


def is_whole_range(content_range: bytes | None) -> bool:
    """Whether a 206's ``Content-Range`` says its part is the whole representation (from the
    first byte to the last of a known length); no header or an unreadable one is a part."""
    match = CONTENT_RANGE.match(content_range or b"")
    return bool(match) and int(match[1]) == 0 and match[3] != b"*" \
        and int(match[2]) + 1 == int(match[3])


class BodyCheckMiddleware:
    """Downloader middleware: drops (and counts) empty, binary and partial 2xx bodies before
    extraction."""

    def __init__(self, crawler: Crawler, config: BodyCheckConfig) -> None:
        self.stats = crawler.stats
        self.config = config

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BodyCheckMiddleware:
        """Build; NotConfigured when both checks are off."""
        config = read_or_refuse(crawler, BodyCheckConfig.from_settings)
        if not (config.drop_empty or config.drop_binary or config.drop_partial):
            raise NotConfigured("BODY_CHECK_EMPTY, BODY_CHECK_BINARY and BODY_CHECK_PARTIAL "
                                "are off")
        return cls(crawler, config)

    def process_response(self, request: Request, response: Response,
                         spider: Spider | None = None) -> Response:
        """Pass the response on, or raise UnusableResponse for an empty, binary or partial body
        (of a rendered response: the body its server sent)."""
        # taken out of the meta (which a later request may copy) whatever the verdict
        body = request.meta.pop(SERVER_BODY_META, None)
        if body is None:
            body = response.body
        if EXCESS_BODY_FLAG in response.flags:
            self.stats.inc_value("response/excess_body")
            logger.warning("Body longer than its Content-Length: %s (HTTP %d) sent more bytes "
                           "than the %s its headers announce; read as far as that length, as "
                           "browsers read it, so the page may lack its end", response.url,
                           response.status, response.headers.get("Content-Length", b"?")
                           .decode("latin-1")[:20])
        if (not 200 <= response.status < 300 or request.method == "HEAD"
                or request.meta.get("crawl_role") != "page"):
            return response  # robots.txt and sitemaps are read by their own rules
        declared = response.headers.get("Content-Type", b"").decode("latin-1")
        if declared.split(";", 1)[0].strip().lower() not in CLAIMS_HTML:
            return response  # honestly labelled non-HTML (a gzipped sitemap) is not our business
        if self.config.drop_empty and is_blank(body):
            self.stats.inc_value("response/empty")
            logger.warning("Empty body: %s (HTTP %d, %d bytes); nothing to extract",
                           response.url, response.status, len(body))
            raise UnusableResponse("empty body")
        if (self.config.drop_partial and response.status == 206 and b"Range" not in request.headers
                and not is_whole_range(response.headers.get("Content-Range"))):
            self.stats.inc_value("response/partial_content")
            logger.warning("Partial body: %s answered 206 Partial Content (Content-Range %r, "
                           "%d bytes) to a request for the whole page; not stored",
                           response.url, response.headers.get("Content-Range", b"none").decode(
                               "latin-1")[:100], len(body))
            raise UnusableResponse("partial content")
        if self.config.drop_binary and not is_declared_wide_text(
                body, http_content_type_encoding(declared)):
            kind = binary_kind(body)
            page = without_nul_padding(body) if kind is not None else None
            if page is not None:
                self.stats.inc_value("response/nul_padding")
                logger.info("NUL padding: %s (HTTP %d) ends in %d NUL and white-space bytes "
                            "after its page (%d bytes); read without them, as browsers show it",
                            response.url, response.status, len(body) - len(page), len(page))
                if body is response.body:  # a rendered page's body is the browser's DOM
                    response = response.replace(body=page)
                kind = None
            if kind is not None:
                self.stats.inc_value("response/binary_as_html")
                self.stats.inc_value(f"response/binary_as_html/{kind}")
                logger.warning("Binary body (%s) served as %r: %s; not extracted",
                               kind, declared or "no content type", response.url)
                raise UnusableResponse(f"binary body ({kind})")
        return response
