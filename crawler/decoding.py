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

from dataclasses import dataclass

import charset_normalizer
from charset_normalizer.md import mess_ratio
from w3lib.encoding import html_body_declared_encoding, resolve_encoding

logger = logging.getLogger(__name__)


def decode_page(data: bytes | str, encoding: str | None = None) -> tuple[str, str]:
    """The text of a page and the codec it was read with.

    ``encoding`` is the charset the crawl settled on for these bytes (the ``encoding`` column of
    a stored page); it is used as is, with replacement characters for stray bytes (an unknown
    name reads as UTF-8). Without it the bytes themselves decide (:func:`_decode_undeclared`).
    """
    if isinstance(data, str):
        return data, "str"
    if encoding and codec_name(encoding) is not None:
        try:
            return data.decode(encoding, errors="replace"), encoding
        except LookupError:  # a label the web knows and Python does not (x-sjis)
            pass
    if encoding:
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
    """Decode page bytes whose charset nobody recorded: the bytes decide between what the
    page's ``<meta>`` declares and what they are (:func:`choose_charset`)."""
    choice = choose_charset(data, None, html_body_declared_encoding(data[:4096]))
    codec = codecs.lookup(choice.codec or "cp1252").name
    start = len(choice.bom)
    return data[start:].decode(codec, errors="replace"), codec




#: Bytes of the body looked at for detection (enough for a reliable guess, bounded time).
DETECT_SAMPLE = 256 * 1024
#: Single-byte charsets that decode any byte string: a valid UTF-8 body overrides them.
PERMISSIVE_CHARSETS = frozenset({"cp1252", "latin_1", "iso8859_15", "iso8859_1", "ascii"})


def codec_name(label: str | None) -> str | None:
    """Python's codec name for a charset label (WHATWG aliases applied), None if unknown or if
    no page can be in it (:func:`is_page_charset`)."""
    if not label:
        return None
    resolved = resolve_encoding(label) or label
    try:
        codec = codecs.lookup(resolved).name.replace("-", "_")
    except LookupError:
        return None
    return codec if is_page_charset(codec) else None


#: ASCII that a page's charset reads as the same ASCII: markup, and the characters that
#: Python codecs which are no charset of the web read otherwise (UTF-7's ``+-``, the escape
#: codecs' backslash, punycode's last ``-``).
_ASCII_PROBE = b"<meta a='+-\\x\\u'>"


def is_page_charset(codec: str) -> bool:
    """Whether a Python codec is a charset a page can be in: UTF-16/32, or one that decodes
    ASCII as ASCII, with replacement characters for stray bytes. Python also names byte
    transforms (``rot13``, ``base64``, ``zlib``), ``idna``, ``punycode``, ``undefined``, its
    own escapes and UTF-7 as codecs, which no browser reads a page in: a page declaring one in
    its ``<meta>`` made decoding raise, or decoded it to nothing."""
    if codec.replace("-", "_") in WIDE_CHARSETS:
        return True
    try:
        return _ASCII_PROBE.decode(codec, errors="replace") == _ASCII_PROBE.decode("ascii")
    except (LookupError, UnicodeError, ValueError, TypeError):
        return False


#: The encodings of the WHATWG Encoding Standard (the only ones browsers read a page in), by
#: a label of each, with UTF-32, which Python reads and this crawl has always accepted. Python
#: knows a hundred more codecs that read ASCII as ASCII (``charmap``, ``palmos``, ``koi8_t``,
#: ``cp850``, ``hz``...); a browser ignores such a declaration and reads the bytes, and so
#: does :func:`choose_charset`. ``x-mac-cyrillic`` is spelt as Python knows it.
_ENCODING_STANDARD = (
    "utf-8", "ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6",
    "iso-8859-7", "iso-8859-8", "iso-8859-10", "iso-8859-13", "iso-8859-14", "iso-8859-15",
    "iso-8859-16", "koi8-r", "koi8-u", "macintosh", "windows-874", "windows-1250",
    "windows-1251", "windows-1252", "windows-1253", "windows-1254", "windows-1255",
    "windows-1256", "windows-1257", "windows-1258", "mac-cyrillic", "gbk", "gb18030", "big5",
    "euc-jp", "iso-2022-jp", "shift_jis", "euc-kr", "utf-16be", "utf-16le")


def _web_charsets() -> frozenset[str]:
    """The Python codecs of :data:`_ENCODING_STANDARD` (as :func:`codec_name` resolves them)
    and :data:`WIDE_CHARSETS`; checked when loaded: each label must name a page charset."""
    codecs_of = {label: codec_name(label) for label in _ENCODING_STANDARD}
    unknown = sorted(label for label, codec in codecs_of.items() if codec is None)
    if unknown:
        raise ValueError(f"charsets of the Encoding Standard Python does not read: {unknown}")
    return frozenset(codec for codec in codecs_of.values() if codec) | WIDE_CHARSETS


def declared_codec(label: str | None) -> str | None:
    """The codec a charset declaration (HTTP header, ``<meta>``) names, None when browsers
    would ignore it: no page charset (:func:`codec_name`), or none of the web's
    (:data:`WEB_CHARSETS`: ``charmap`` or ``palmos`` were taken as declarations, and their
    text kept against the bytes, as a browser never reads it)."""
    codec = codec_name(label)
    return codec if codec in WEB_CHARSETS else None


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


#: Wide encodings: text in them is full of NUL bytes, and without a byte-order mark only a
#: declaration names them.
WIDE_CHARSETS = frozenset({"utf_16", "utf_16_le", "utf_16_be", "utf_32", "utf_32_le",
                           "utf_32_be"})
#: Share of a sample's non-ASCII bytes that may be invalid for a page to still count as UTF-8
#: with a few broken bytes (a truncated character, one pasted from elsewhere).
UTF8_MAX_ERROR_SHARE = 0.01
#: Valid multi-byte characters a sample with broken bytes needs to count as UTF-8.
UTF8_MIN_VALID_CHARS = 8
#: Mess ratio (charset-normalizer) above which a declared charset's text is checked against
#: detection; text in its right charset scores near 0, mojibake 0.1 and more.
SUSPICIOUS_MESS = 0.1
#: Codecs a page may declare (:func:`declared_codec`).
WEB_CHARSETS = _web_charsets()


@dataclass(frozen=True)
class CharsetChoice:
    """What the bytes of a page are in, and how that was decided.

    ``codec`` is a Python codec name (None when nothing decodes the bytes); ``source`` says which
    evidence won: ``bom``, ``header``, ``meta`` (a declaration the bytes confirm), ``bytes`` (the
    bytes themselves, against or without a declaration) or ``none``; ``outcome`` is
    ``declared``, ``detected`` (nothing usable declared) or ``corrected`` (a declaration lost).
    """

    codec: str | None
    source: str
    outcome: str
    why: str = ""
    bom: bytes = b""


def choose_charset(body: bytes, header_label: str | None,
                   meta_label: str | None) -> CharsetChoice:
    """Decide the charset of page bytes from the HTTP header's charset, the ``<meta>`` charset
    and the bytes: a byte-order mark wins; otherwise each declaration is tried on the bytes,
    and when they disagree (or none fits) the bytes decide.

    - Valid UTF-8 with non-ASCII text is UTF-8 whatever is declared (other charsets almost
      never form valid UTF-8 by accident).
    - A declared UTF-16/32 (no mark) is kept when the bytes decode in it as text (also when
      they are all ASCII, as UTF-16 of ASCII text is; else the declaration is dropped).
    - Declarations that decode the bytes without error: one is used as is; two that disagree
      are judged by how plausible their text is (charset-normalizer's mess ratio).
    - Bytes that are UTF-8 but for a few broken bytes beat a declaration whose text is less
      plausible (a legacy multi-byte charset often "decodes" UTF-8 into nonsense).
    - Nothing fits: detection (:func:`detect`).
    """
    for bom, name in _BOMS:
        if body.startswith(bom):
            return CharsetChoice(codec_name(name) or name, "bom", "declared", "byte-order mark",
                                 bom=bom)
    sample = body[:DETECT_SAMPLE]
    declared = [(source, label, declared_codec(label)) for source, label in
                (("header", header_label), ("meta", meta_label)) if label]
    known = [(source, label, codec) for source, label, codec in declared if codec]
    named = ", ".join(f"{source} {label}" for source, label, _ in declared) or "nothing"
    if not any(codec in WIDE_CHARSETS for _, _, codec in known):
        wide = wide_markup_codec(sample)
        if wide is not None:
            return CharsetChoice(wide, "bytes", "corrected" if known else "detected",
                                 f"declared {named} but the bytes are {wide} markup without a "
                                 "byte-order mark" if known else
                                 f"no charset declared: the bytes are {wide} markup without a "
                                 "byte-order mark")
    if sample.isascii():
        # UTF-16/32 text of ASCII characters is ASCII bytes too (NULs beside them): a wide
        # declaration holds only when the bytes read as markup in it. An ASCII page declaring
        # UTF-16 (browsers read such a <meta> as UTF-8) was decoded two bytes to a character
        # and stored as CJK nonsense.
        fitting = [(s, l, c) for s, l, c in known
                   if c not in WIDE_CHARSETS or _reads_as_wide_text(sample, c)]
        if fitting:
            source, _, codec = fitting[0]
            return CharsetChoice(_wide_codec(sample, codec), source,
                                 "declared" if fitting[0] == known[0] else "corrected")
        if known:
            return CharsetChoice("utf_8", "bytes", "corrected",
                                 f"declared {named} but the bytes are ASCII text")
        return CharsetChoice("utf_8", "none", "declared", "ASCII")
    utf8_valid = decodes(sample, "utf-8") or decodes_but_cut(sample, "utf-8")
    wide = [(s, l, c) for s, l, c in known if c in WIDE_CHARSETS]
    for source, label, codec in wide:
        if _reads_as_wide_text(sample, codec):
            return CharsetChoice(_wide_codec(sample, codec), source, "declared")
    narrow = [(s, l, c) for s, l, c in known if c not in WIDE_CHARSETS]
    if utf8_valid:
        if all(codec == "utf_8" for _, _, codec in narrow) and narrow:
            return CharsetChoice("utf_8", narrow[0][0], "declared")
        return CharsetChoice("utf_8", "bytes", "corrected" if known else "detected",
                             f"declared {named} but the bytes are valid UTF-8")
    fitting = [(s, l, c) for s, l, c in narrow
               if decodes(sample, c) or decodes_but_cut(sample, c)]
    if fitting:
        source, label, codec = min(fitting, key=lambda f: _mess(sample, f[2]))
        if _mostly_utf8(sample) and _mess(sample, "utf_8") < _mess(sample, codec):
            return CharsetChoice("utf_8", "bytes", "corrected",
                                 f"declared {named}; the bytes are UTF-8 with a few broken "
                                 "bytes and read better so")
        if _mess(sample, codec) > SUSPICIOUS_MESS:
            detected = detect(body)
            if detected and _mess(sample, detected) + SUSPICIOUS_MESS < _mess(sample, codec):
                return CharsetChoice(detected, "bytes", "corrected",
                                     f"declared {named}; the bytes read as {detected}")
        if (source, codec) == (narrow[0][0], narrow[0][2]):
            return CharsetChoice(codec, source, "declared")
        return CharsetChoice(codec, source, "corrected",
                             f"declared {named}; the bytes read as {label}")
    if _mostly_utf8(sample):
        return CharsetChoice("utf_8", "bytes", "corrected" if known else "detected",
                             f"declared {named}; the bytes are UTF-8 with a few broken bytes")
    codec = detect(body)
    if codec is None:
        return CharsetChoice(None, "none", "undecodable", f"declared {named}")
    return CharsetChoice(codec, "bytes", "corrected" if known else "detected",
                         f"declared {named} does not decode the body" if known
                         else "no charset declared" if not declared
                         else f"no charset declared ({named} unknown)")


def is_declared_wide_text(body: bytes, label: str | None) -> bool:
    """Whether a body declared as UTF-16/32 (no byte-order mark needed) reads as markup in it,
    or one declaring no wide charset is UTF-16/32 markup all the same (:func:`wide_markup_codec`):
    such a body is full of NUL bytes without being binary."""
    codec = codec_name(label)
    if codec in WIDE_CHARSETS:
        return _reads_as_wide_text(body[:DETECT_SAMPLE], codec)
    return wide_markup_codec(body[:DETECT_SAMPLE]) is not None


def wide_markup_codec(sample: bytes) -> str | None:
    """The UTF-16/32 codec (with its byte order) a body without a byte-order mark is markup in,
    or None: a page saved as UTF-16 and served declaring nothing (or a narrow charset) is full of
    NUL bytes, so it was dropped as binary, or read as UTF-8 with a NUL beside each letter. Only
    a sample holding ``<`` beside a NUL is decoded (a narrow page never does), and it counts
    only when its text holds no control character, as a declared one must, and a tag (``<``
    before a letter, ``!`` or ``/``: binary bytes that decode without a control character hold
    ``<`` before any character)."""
    if b"<\x00" not in sample and b"\x00<" not in sample:
        return None
    for codec in ("utf_16", "utf_32"):
        wide = _wide_codec(sample, codec)
        if wide != codec:
            head = sample[:_WIDE_TAG_SAMPLE].decode(wide, errors="replace")
            return wide if _TAG_START.search(head) else None
    return None


def _wide_codec(sample: bytes, codec: str) -> str:
    """``utf_16``/``utf_32`` without a mark: the byte order whose text reads as markup."""
    if codec in ("utf_16", "utf_32"):
        for order in ("_le", "_be"):
            if _reads_as_wide_text(sample, codec + order):
                return codec + order
    return codec


def _reads_as_wide_text(sample: bytes, codec: str) -> bool:
    """Whether the sample decodes in a wide encoding (either byte order when it has none) into
    text that holds markup."""
    if codec in ("utf_16", "utf_32"):
        return any(_reads_as_wide_text(sample, codec + order) for order in ("_le", "_be"))
    unit = 4 if codec.startswith("utf_32") else 2
    try:
        text = codecs.getincrementaldecoder(codec)().decode(
            sample[:len(sample) - len(sample) % unit], final=False)
    except UnicodeDecodeError:
        return False
    return "<" in text[:4096] and not _CONTROL_TEXT.search(text[:4096])


_CONTROL_TEXT = re.compile(r"[\x00-\x08\x0e-\x1f]")
#: The start of a tag, a comment or a doctype.
_TAG_START = re.compile(r"<[A-Za-z!/]")
#: Bytes of an undeclared wide body searched for a tag (4096 characters of UTF-16).
_WIDE_TAG_SAMPLE = 8192


def _mostly_utf8(sample: bytes) -> bool:
    """Whether the sample is UTF-8 but for a few invalid bytes."""
    non_ascii = sum(1 for byte in sample if byte >= 0x80)
    if not non_ascii:
        return False
    text = sample.decode("utf-8", errors="replace")
    errors = text.count("\ufffd")
    valid = sum(1 for char in text if ord(char) >= 0x80) - errors
    # A legacy page with one accented letter is one "error" too: ask for real UTF-8 around it.
    return valid >= UTF8_MIN_VALID_CHARS and errors <= max(1, UTF8_MAX_ERROR_SHARE * non_ascii)


def _mess(sample: bytes, codec: str) -> float:
    """How implausible the sample's text is in this codec (0 reads well)."""
    try:
        return mess_ratio(sample.decode(codec, errors="replace")[:20000], maximum_threshold=1.0)
    except LookupError:
        return 1.0
