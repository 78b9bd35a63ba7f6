"""A stable fingerprint of a page's extracted main text.

Two fetches of one page give the same hash when their main text is the same up to whitespace
and letter case, so a re-crawl can tell changed pages from unchanged ones, and a crawl can tell
the same content served under several URLs of one site.
"""

from __future__ import annotations

import hashlib
import re

_WHITESPACE = re.compile(r"\s+")


def normalise_main_text(text: str) -> str:
    """The text as hashed: whitespace runs collapsed to one space, trimmed, case-folded."""
    return _WHITESPACE.sub(" ", text or "").strip().casefold()


def content_hash(text: str | None) -> str:
    """SHA-256 (hex) of the normalised main text; the empty text has a hash too."""
    return hashlib.sha256(normalise_main_text(text or "").encode("utf-8")).hexdigest()
