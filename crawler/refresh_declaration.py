"""A refresh declaration (``<meta http-equiv=refresh content=...>``, an HTTP ``Refresh``
header) read as browsers read it: the HTML standard's "shared declarative refresh steps".

w3lib's parser, which Scrapy's meta refresh middleware uses, wants ``url=`` written tight and
the delay ended by ``;``: browsers also follow ``0; URL = "/x"`` (spaces around ``=``, the URL
quoted), ``0, url=/x``, ``0 url=/x`` and ``0; /x`` (no ``url=`` at all), where it reads no
refresh, so a page moved that way was kept and its target never requested.
"""

from __future__ import annotations

#: ASCII white space of the HTML standard.
ASCII_WHITESPACE = "\t\n\x0c\r "


def parse_refresh(content: str) -> tuple[float, str | None] | None:
    """The delay in seconds and the URL, as written (unresolved), of a refresh declaration;
    the URL is None for a page refreshing itself (``content="60"``), and the whole is None for
    a declaration browsers ignore (no delay: ``content="url=/x"``, ``"; 0"``)."""
    length = len(content)
    position = _skip(content, 0, ASCII_WHITESPACE)
    digits_end = _skip(content, position, "0123456789")
    if digits_end == position and not content.startswith(".", position):
        return None
    whole = content[position:digits_end]
    position = _skip(content, digits_end, "0123456789.")
    delay = float(whole) if whole else 0.0
    if position >= length:
        return delay, None
    if content[position] not in ";," + ASCII_WHITESPACE:
        return None
    position = _skip(content, position, ASCII_WHITESPACE)
    if position < length and content[position] in ";,":
        position = _skip(content, position + 1, ASCII_WHITESPACE)
    if position >= length:
        return delay, None
    position = _skip_url_label(content, position)
    quote = content[position] if position < length and content[position] in "'\"" else ""
    url = content[position + len(quote):]
    if quote:
        url = url.split(quote, 1)[0]
    url = url.strip(ASCII_WHITESPACE)
    return delay, url or None


def _skip_url_label(content: str, position: int) -> int:
    """The position the URL starts at: past ``url``, spaces and ``=`` and spaces when written
    so; as the standard's steps read it, a label broken off part-way (``ur/x``, ``url /x``) is
    skipped as far as it matched."""
    for letter in "url":
        if content[position:position + 1].lower() != letter:
            return position
        position += 1
    position = _skip(content, position, ASCII_WHITESPACE)
    if not content.startswith("=", position):
        return position
    return _skip(content, position + 1, ASCII_WHITESPACE)


def _skip(content: str, position: int, characters: str) -> int:
    """The first position at or after ``position`` holding none of ``characters``."""
    while position < len(content) and content[position] in characters:
        position += 1
    return position
