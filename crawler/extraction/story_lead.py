"""The story's lead, when it stands before the chosen container.

Many article pages print the headline and the lead (standfirst, "sommario", the first bold
sentences) in a header box and the story's paragraphs in a body box beside it; the choice takes
the body box, which holds most of the text, and the lead is lost. The page usually declares
that lead as its description (JSON-LD, microdata or OpenGraph ``description``): the rule
("declared-lead" in the trace) reads that declaration, not words, in any language:

- on article pages, when the container does not hold the declared description's first
  ``lead_opening_chars`` (a description rewritten from the story's first sentence opens with
  its words: the story has its lead); only descriptions of at least ``description_min_chars``;
- the first block before the container in the page (a paragraph or heading, or a text of
  its own in any other element) that holds the description (found by its first
  ``description_match_chars``, as cleaning's ``declared-description`` guard does), holding at
  most ``description_block_ratio`` times its text, not inside a link, a navigation, an aside
  or a footer, and sharing an ancestor below the page's body with the container at most
  ``lead_max_levels`` above it (the story's own header box: a teaser of this story in a
  sidebar or a menu is elsewhere, and a page's hero banner repeating its description sits
  deeper in the page's layout),

is copied as a paragraph to the container's start. The walk reads each element's own text once
and a paragraph's or heading's whole text once (they do not nest): linear in the page.

When the page declares no description, or none found before the container, the part named
"head-lead" reads the page's headline instead: the first paragraph (``p``) after the page's
``h1`` and before the container, outside it, with at least ``tail_prose_min_chars`` characters
(shorter lines, a byline or a date, are passed over), is the story's lead when it holds no
link (a disclosure of affiliate links or a promotion under the headline links on), at most
``head_lead_max_chars`` characters, sits in no figure, date or address, shares an ancestor with
the container at most ``lead_max_levels`` above it (as above) and the container does not hold
its first ``lead_opening_chars`` already; it is copied in the same way. Nothing is looked for
when the container holds the headline itself (its lead is inside too).
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from crawler.extraction.candidates import contains
from crawler.extraction.thresholds import Thresholds
from crawler.extraction.tree_text import text_content

LEAD_RULE = "declared-lead"
"""The rule's name in the trace."""

_WHOLE_TEXT = frozenset({"p", "h2", "h3", "h4", "h5", "h6"})
"""Blocks read with their inline children's text (they never hold one another)."""
_INLINE = frozenset({"span", "strong", "b", "em", "i", "font", "small"})
"""Inline wrappers a lead's text may sit in: the block around them is the lead."""
_ELSEWHERE = frozenset({"a", "nav", "aside", "footer", "button", "form"})
"""Ancestors that put a text elsewhere than the story's head (a teaser, a menu, a rail)."""


def _folded(text: str) -> str:
    """White space collapsed, case folded."""
    return " ".join(text.split()).casefold()


def _own_text(el: etree._Element) -> str:
    """An element's own text: its text and its children's tails, not its children's text."""
    parts = [el.text or ""]
    parts.extend(child.tail or "" for child in el)
    return " ".join(parts)


def _lead_block(el: etree._Element) -> etree._Element:
    """The block holding a text found in an inline wrapper."""
    while el.tag in _INLINE and el.getparent() is not None:
        el = el.getparent()
    return el


def _near(lead: etree._Element, ancestors: set[etree._Element], body: etree._Element,
          t: Thresholds) -> bool:
    """Whether the lead shares an ancestor below the body with the container at most
    ``lead_max_levels`` above it, with no link, navigation, aside or footer on the way up."""
    node, levels = lead, 0
    while node is not None and node not in ancestors:
        if node.tag in _ELSEWHERE or levels >= t.lead_max_levels:
            return False
        node, levels = node.getparent(), levels + 1
    return node is not None and node is not body


def find_declared_lead(body: etree._Element, container: etree._Element, description: str,
                       t: Thresholds) -> etree._Element | None:
    """The block before ``container`` holding the page's declared ``description`` (see the
    module's docstring), or None."""
    key = _folded(description)
    if len(key) < t.description_min_chars:
        return None
    prefix = key[:t.description_match_chars]
    if key[:t.lead_opening_chars] in _folded(text_content(container)):
        return None
    ancestors = set(container.iterancestors())
    for el in body.iter():
        if el is container:
            return None
        if not isinstance(el.tag, str) or el in ancestors or el.tag == "h1":
            continue
        own = text_content(el) if el.tag in _WHOLE_TEXT else _own_text(el)
        if prefix not in _folded(own):
            continue
        lead = _lead_block(el)
        text = " ".join(text_content(lead).split())
        if len(text) > t.description_block_ratio * len(key) or not _near(lead, ancestors, body, t):
            continue
        return lead
    return None


HEAD_LEAD_RULE = "head-lead"
"""Name of the part that finds an undeclared lead under the headline (:func:`find_head_lead`)."""
_LEAD_BLOCKS = frozenset({"p"})
"""What an undeclared lead is written in: a paragraph (a box of text of its own under the
headline is as often a byline's tooltip biography or a promotion as a lead)."""
_NOT_LEAD = frozenset({"figure", "figcaption", "time", "address"})
"""Ancestors that make a text a caption, a date or a byline, not the lead."""


def find_head_lead(body: etree._Element, container: etree._Element,
                   t: Thresholds) -> etree._Element | None:
    """The story's lead standing between the page's headline and the container, undeclared
    (see the module's docstring), or None."""
    if next(container.iter("h1"), None) is not None:
        return None
    ancestors = set(container.iterancestors())
    headline = None
    for el in body.iter():
        if el is container:
            return None
        if not isinstance(el.tag, str) or el in ancestors:
            continue
        if el.tag == "h1":
            headline = el
            continue
        if headline is None or el.tag not in _LEAD_BLOCKS or contains(headline, el):
            continue
        text = " ".join(text_content(el).split())
        chars = len(text) - text.count(" ")
        if chars < t.tail_prose_min_chars:
            continue
        if chars > t.head_lead_max_chars or next(el.iter("a"), None) is not None:
            return None
        if any(anc.tag in _NOT_LEAD for anc in el.iterancestors()) \
                or not _near(el, ancestors, body, t) \
                or _folded(text)[:t.lead_opening_chars] in _folded(text_content(container)):
            return None
        return el
    return None


def add_declared_lead(body: etree._Element, container: etree._Element,
                      description: str | None, t: Thresholds,
                      log: list[dict[str, Any]] | None) -> bool:
    """Copy the story's declared lead standing before the container to its start, or else its
    undeclared lead under the headline (:func:`find_head_lead`); True when one was added."""
    lead = find_declared_lead(body, container, description, t) if description else None
    rule = LEAD_RULE
    if lead is None:
        lead = find_head_lead(body, container, t)
        rule = HEAD_LEAD_RULE
    if lead is None:
        return False
    paragraph = etree.Element("p")
    paragraph.text = " ".join(text_content(lead).split())
    paragraph.tail = container.text
    container.text = None
    container.insert(0, paragraph)
    if log is not None:
        log.append({"step": "clean", "action": "added", "rule": rule,
                    "why": "the page's declared description stands before the container"
                    if rule == LEAD_RULE else "the first paragraph of prose between the "
                    "page's headline and the container (the story's lead)",
                    "tag": lead.tag, "chars": len(paragraph.text),
                    "text": paragraph.text[:80]})
    return True
