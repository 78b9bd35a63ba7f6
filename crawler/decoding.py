"""Page bytes to text: the one decoder of the crawl, the command line, re-extraction and the
domain boilerplate analysis, so a page reads the same everywhere.

:func:`decode_page` is the single entry point. The crawl settles a response's charset when it is
fetched (``CharsetMiddleware`` applies :func:`detect` where the declaration is missing or wrong)
and stores that name beside the raw bytes; every later reader passes the stored name back and
gets the same text. Bytes without a recorded charset (a file given to ``extract``) are decoded by
byte-order mark, then UTF-8, then a ``<meta charset>``, then detection.
"""

from __future__ import annotations

import codecs
import logging
import re

import charset_normalizer
from w3lib.encoding import resolve_encoding

logger = logging.getLogger(__name__)


def decode_page(data: bytes | str, encoding: str | None = None) -> tuple[str, str]:
    """The text of a page and the codec it was read with.

    ``encoding`` is the charset the crawl settled on for these bytes (the ``encoding`` column of
    a stored page); it is used as is, with replacement characters for stray bytes (an unknown
    name reads as UTF-8). Without it the bytes themselves decide (:func:`_decode_undeclared`).
    """
    if isinstance(data, str):
        return data, "str"
    if encoding:
        try:
            return data.decode(encoding, errors="replace"), encoding
        except LookupError:
            return data.decode("utf-8", errors="replace"), "utf-8"
    return _decode_undeclared(data)


_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_META_CHARSET = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.\-]+)""", re.IGNORECASE)


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


def _decode_undeclared(data: bytes) -> tuple[str, str]:
    """Decode page bytes whose charset nobody recorded: BOM, then valid UTF-8, then meta charset,
    then detection."""
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
        best = charset_normalizer.from_bytes(data[:200_000]).best()
        if best is not None and best.encoding:
            return data.decode(best.encoding, errors="replace"), best.encoding
    except Exception:  # noqa: BLE001 - detection is best effort
        logger.debug("charset detection failed", exc_info=True)
    return data.decode("cp1252", errors="replace"), "cp1252"




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
    if decodes(sample, "utf-8") or decodes_but_cut(sample, "utf-8"):
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


def decodes_but_cut(sample: bytes, codec: str) -> bool:
    """Whether a sample decodes except for a multi-byte character cut at its end."""
    try:
        codecs.getincrementaldecoder(codec)().decode(sample, final=False)
    except UnicodeDecodeError:
        return False
    return True
