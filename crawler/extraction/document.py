"""Decode page bytes and parse them once into an lxml.html tree (robust to huge and malformed input)."""

from __future__ import annotations

import codecs
import logging
import re
from dataclasses import dataclass

import lxml.html
from lxml import etree

logger = logging.getLogger(__name__)

MAX_HTML_BYTES = 6_000_000
"""Pages larger than this are truncated before parsing (the main content is almost always early)."""

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_META_CHARSET = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.\-]+)""", re.IGNORECASE)
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


@dataclass
class Document:
    """One parsed page: the tree, the decoded text length and how it was decoded."""

    tree: lxml.html.HtmlElement | None
    encoding: str
    html_length: int
    truncated: bool = False
    error: str | None = None


def _normalise_encoding(name: str) -> str | None:
    """The Python codec name for a declared charset, or None when unknown."""
    try:
        codec = codecs.lookup(name.strip().lower())
    except LookupError:
        return None
    # Browsers treat these declarations as windows-1252 (WHATWG encoding standard).
    if codec.name in ("latin-1", "iso8859-1", "ascii"):
        return "cp1252"
    return codec.name


def decode_html(data: bytes | str) -> tuple[str, str]:
    """Decode page bytes to text: BOM, then valid UTF-8, then meta charset, then detection."""
    if isinstance(data, str):
        return data, "str"
    for bom, name in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(name, errors="replace"), name
    # Bytes that decode as UTF-8 are UTF-8 (non-ASCII text in another charset almost never forms
    # valid UTF-8), whatever a stale <meta charset> says; this also covers re-encoded archives.
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    match = _META_CHARSET.search(data[:4096])
    declared = _normalise_encoding(match.group(1).decode("ascii", "ignore")) if match else None
    if declared and declared not in ("utf-8", "utf-16-le", "utf-16-be", "utf-16"):
        try:
            return data.decode(declared), declared
        except (UnicodeDecodeError, LookupError):
            logger.debug("declared charset %s does not decode the page", declared)
    try:
        from charset_normalizer import from_bytes

        best = from_bytes(data[:200_000]).best()
        if best is not None and best.encoding:
            return data.decode(best.encoding, errors="replace"), best.encoding
    except Exception:  # noqa: BLE001 - detection is best effort
        logger.debug("charset detection failed", exc_info=True)
    return data.decode("cp1252", errors="replace"), "cp1252"


def parse_html(data: bytes | str) -> Document:
    """Decode and parse a page once; an unusable page gives a Document whose tree is None."""
    try:
        text, encoding = decode_html(data)
    except Exception as exc:  # noqa: BLE001 - never raise on bad input
        return Document(tree=None, encoding="", html_length=0, error=f"decode: {exc}")
    truncated = False
    if len(text) > MAX_HTML_BYTES:
        text, truncated = text[:MAX_HTML_BYTES], True
    text = _CONTROL.sub("", _XML_DECL.sub("", text, count=1))
    if not text.strip():
        return Document(tree=None, encoding=encoding, html_length=0, error="empty")
    parser = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True,
                                  remove_blank_text=False, huge_tree=False)
    try:
        root = lxml.html.document_fromstring(text.encode("utf-8", "surrogatepass"), parser=parser)
    except (etree.ParserError, ValueError, etree.XMLSyntaxError) as exc:
        return Document(tree=None, encoding=encoding, html_length=len(text), error=f"parse: {exc}")
    except UnicodeEncodeError:
        root = lxml.html.document_fromstring(text.encode("utf-8", "replace"), parser=parser)
    return Document(tree=root, encoding=encoding, html_length=len(text), truncated=truncated)
