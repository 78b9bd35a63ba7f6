"""Text lines of a whole HTML page, one per block element, to find boilerplate in the page itself.

A banner that the extractor drops on most pages but keeps on a few never reaches the threshold
in the extracted content; on the whole page it is on every page. Pure: text (or bytes, read by the one decoder) in, strings out.
"""

from __future__ import annotations

import html as html_lib
import logging
import re

from crawler.decoding import decode_page
from crawler.extraction.vocabulary import PAGE_TEXT_BREAK_TAGS, PAGE_TEXT_SKIPPED_TAGS

logger = logging.getLogger(__name__)

# Regular expressions rather than a parser: the lines only need to be the same on every page,
# and parsing every stored page with lxml cost several times more on the test sites.
_SKIPPED = re.compile(r"<({})\b.*?</\1\s*>|<!--.*?-->".format("|".join(sorted(PAGE_TEXT_SKIPPED_TAGS))),
                      re.IGNORECASE | re.DOTALL)
_ANY_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*>|<[^>]*>")
_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")


def _tag_break(match: re.Match[str]) -> str:
    """A line break for a block element's tag, nothing for any other tag."""
    name = match.group(2)
    return "\n" if name and name.lower() in PAGE_TEXT_BREAK_TAGS else ""


def page_lines(html: bytes | str | None) -> list[str]:
    """Whitespace-collapsed text of each block-level run of the page, in document order."""
    if not html:
        return []
    if isinstance(html, bytes):
        html = decode_page(html)[0]
    text = _SKIPPED.sub(" ", html).replace("\n", " ")
    text = html_lib.unescape(_ANY_TAG.sub(_tag_break, text))
    return [line for line in (_SPACES.sub(" ", raw).strip() for raw in text.split("\n")) if line]
