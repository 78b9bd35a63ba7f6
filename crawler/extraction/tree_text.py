"""The text content of an element, read cheaply: the one function the rules call for it.

lxml.html's ``text_content()`` evaluates the XPath ``string()`` on each call, and setting up
an XPath evaluation costs several times more than reading the text itself on the small
elements the rules ask about (a paragraph, a link, a card). libxml2 answers both the XPath
and the text serialiser with the same routine (the concatenated text of every descendant text
node, comments and processing instructions left out), so ``etree.tostring(method="text")``
gives the same string for a fraction of the cost; an element without children (a link, most
paragraphs) gives its own text directly.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from lxml import etree


INVISIBLE_JOINERS = re.compile("[\u2060\ufeff]")
"""Invisible format characters that join what is around them in running text: the word joiner
and the zero-width no-break space (a byte-order mark inside text). Unicode's word segmentation
(UAX #29) reads them as part of the word they sit in, so the text a reader sees has the word
whole. The zero-width space is the opposite, a word boundary without a visible space, and is
read as white space. Soft hyphens stay in the content's text: the snippet corpus's references
keep them (taking them out lost must-have snippets on three of the four pages it changed)."""
_METADATA_INVISIBLE = str.maketrans({"\u200b": " ", "\u200c": None, "\u200d": None,
                                     "\u2060": None, "\ufeff": None, "\u00ad": None})


def visible_metadata(text: str) -> str:
    """A metadata value (a title, a name) without invisible format characters: the zero-width
    space, a boundary between words, as a space (a heading's anchor link holding only one left
    "Title \u200b"), the joiners of ``INVISIBLE_JOINERS`` and the zero-width (non-)joiners,
    which shape the letters or emoji around them in running text and in a one-line value only
    make equal titles and names compare unequal, removed."""
    return text.translate(_METADATA_INVISIBLE)


def text_content(el: etree._Element) -> str:
    """The element's text and its descendants' (tails of descendants included, its own tail
    not): the same string as ``el.text_content()``."""
    if not len(el):
        return el.text or ""
    return etree.tostring(el, method="text", encoding="unicode", with_tail=False)


def text_beside(el: etree._Element) -> bool:
    """Whether an element is a word of a run of text: its parent has text right before it
    (loose text, or the tail of the element before it) or right after it (its own tail)."""
    parent = el.getparent()
    if parent is None:
        return False
    before = el.getprevious()
    text_before = (before.tail if before is not None else parent.text) or ""
    return bool(text_before.strip() or (el.tail or "").strip())


def outermost(block: etree._Element, tags: Collection[str]) -> Iterator[etree._Element]:
    """The elements of ``tags`` below ``block`` that no other element of ``tags`` below it
    holds, in document order: each stretch of emphasised or skipped text once, for the rules
    that count it apart from the rest of a block."""
    for node in block.iter(*tags):
        if node is block:
            continue
        for ancestor in node.iterancestors():
            if ancestor is block:
                yield node
                break
            if ancestor.tag in tags:
                break
