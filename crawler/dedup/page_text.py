"""Text lines of a whole HTML page, one per block element, to see boilerplate the extractor only sometimes keeps.

A banner that the extractor drops on most pages but keeps on a few never reaches the threshold
in the extracted content; on the whole page it is on every page. Pure: bytes in, strings out.
"""

from __future__ import annotations

import logging
import re

import lxml.etree
import lxml.html

logger = logging.getLogger(__name__)

#: Elements whose start and end break the text into separate lines.
BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "body", "br", "caption", "dd", "details", "dialog",
    "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
    "h5", "h6", "header", "hr", "html", "label", "legend", "li", "main", "nav", "ol", "p", "pre",
    "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
})
#: Elements whose text is never page text.
SKIP_TAGS = frozenset({"script", "style", "noscript", "template", "svg", "head", "select",
                       "textarea", "button", "iframe", "object"})

_WHITESPACE = re.compile(r"\s+")


def page_lines(html: bytes | str | None) -> list[str]:
    """Whitespace-collapsed text of each block-level run of the page, in document order."""
    if not html:
        return []
    try:
        root = lxml.html.fromstring(html)
    except (lxml.etree.ParserError, ValueError):
        return []
    lines: list[str] = []
    buffer: list[str] = []

    def flush() -> None:
        text = _WHITESPACE.sub(" ", "".join(buffer)).strip()
        if text:
            lines.append(text)
        buffer.clear()

    skipping = 0
    for event, element in lxml.etree.iterwalk(root, events=("start", "end")):
        tag = element.tag if isinstance(element.tag, str) else ""
        if event == "start":
            if skipping or tag in SKIP_TAGS:
                skipping += 1
                continue
            if tag in BLOCK_TAGS:
                flush()
            if element.text and isinstance(element.tag, str):
                buffer.append(element.text)
        else:
            if skipping:
                skipping -= 1
                if skipping:
                    continue
            elif tag in BLOCK_TAGS:
                flush()
            if element.tail:
                buffer.append(element.tail)
    flush()
    return lines
