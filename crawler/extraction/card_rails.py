"""Rails of cards leading to other pages, beside a page's own content ("card-rail").

A product, a service or a plain page holds its own text (what it sells or says) and, around
it, rows of cards that each lead to another page: "customers also bought", "more from this
series", "related products", "recently viewed", the other services of the firm. The name
rules miss them when the site names them in its own words or not at all, and the link-dense
rule misses them because a card's link text (a product name and a price) is long. The rule
reads structure only, whatever the page declares itself (a first version read only pages
declaring a product and changed too few pages to be judged):

- a *rail* is a row of at least ``rail_min_items`` (two) sibling elements of one tag and class that
  are all of their parent's text (not links standing in a sentence), at least
  ``grid_linked_share`` of them *linked cards*: their text is mostly (``rail_link_share``)
  inside links to another page (not the page itself);
- the rails go, each with the heading right before it (its title), when together they hold
  at most ``rail_max_share`` of the container's text: a container made mostly of such cards
  lists them (a category, a catalogue), and its cards are its content.

It reads no story page (the story rules read those: teaser rows, asides) and no container a
site or framework rule chose. Every element's text and linked text is measured in one pass
from the leaves up, so a page of thousands of cards is read once.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from crawler.extraction.addresses import page_key
from crawler.extraction.candidates import children_by_shape
from crawler.extraction.story_tail import non_space_chars, remove_keeping_tail
from crawler.extraction.thresholds import THRESHOLDS, Thresholds
from crawler.extraction.tree_text import text_content

RAIL_RULE = "card-rail"
"""The rule's name in the trace and the ablation."""

RAIL_PAGE_TYPES = frozenset({"product", "collection", "listing"})
"""The page types (``Metadata.page_type``) whose containers the rule reads: a product's page,
a category, a list. On a home page or a service page a row of cards to other pages is the
page's own offer (its sections, the firm's services), which the reference keeps: on the
development folds reading them cost more pages than it gained."""

_TITLES = frozenset({"h2", "h3", "h4", "h5", "h6"})
"""Headings that may title a rail (a page's ``h1`` is its own name)."""


def _measure(container: etree._Element, page: str, base: str
             ) -> tuple[dict[etree._Element, int], dict[etree._Element, int]]:
    """Each element's non-space characters, and those inside links leading away from the page
    (a link to the page itself, an anchor or a script is no way out), from the leaves up."""
    chars: dict[etree._Element, int] = {}
    linked: dict[etree._Element, int] = {}
    for el in reversed(list(container.iter())):
        if not isinstance(el.tag, str):
            continue
        total = non_space_chars(el.text)
        away = 0
        for child in el:
            total += chars.get(child, 0) + non_space_chars(child.tail)
            away += linked.get(child, 0)
        chars[el] = total
        if el.tag == "a" and _leads_away(el.get("href"), page, base):
            away = total
        linked[el] = away
    return chars, linked


def _leads_away(href: str | None, page: str, base: str) -> bool:
    """Whether a link leads to another page than this one."""
    if not href or href.startswith(("#", "javascript:")):
        return False
    return page_key(href, base) != page


def find_rails(container: etree._Element, url: str,
               t: Thresholds = THRESHOLDS) -> list[list[etree._Element]]:
    """The rails of linked cards in the container (each its cards), outermost first (a rail
    inside another rail is left to it)."""
    return _rails_and_chars(container, url, t)[0]


def _rails_and_chars(container: etree._Element, url: str, t: Thresholds
                     ) -> tuple[list[list[etree._Element]], dict[etree._Element, int]]:
    """:func:`find_rails`, with the non-space characters of every element of the container
    measured on the way (which :func:`drop_card_rails` weighs the rails with)."""
    page = page_key(url, url)
    chars, linked = _measure(container, page, url)
    rails: list[list[etree._Element]] = []
    taken: set[etree._Element] = set()
    for parent in container.iterdescendants():
        if not isinstance(parent.tag, str) or len(parent) < t.rail_min_items:
            continue
        if parent.getparent() in taken or parent in taken:
            taken.add(parent)  # inside a rail: read with it
            continue
        for members in children_by_shape(parent).values():
            if len(members) < t.rail_min_items:
                continue
            row = sum(chars.get(m, 0) for m in members)
            if row == 0 or row < chars.get(parent, 0):
                continue  # not the whole row: links in a sentence, cards beside other blocks
            cards = sum(1 for m in members
                        if chars.get(m, 0) and linked.get(m, 0) >= t.rail_link_share * chars[m])
            if cards >= t.rail_min_items and cards >= t.grid_linked_share * len(members):
                rails.append(members)
                taken.add(parent)
                break
    return rails, chars


def drop_card_rails(container: etree._Element, url: str, t: Thresholds = THRESHOLDS,
                    trace: list[dict[str, Any]] | None = None) -> int:
    """Remove the rails of cards leading to other pages (and their titles) from the container;
    return how many rails went."""
    rails, chars = _rails_and_chars(container, url, t)
    if not rails:
        return 0
    total = chars[container]
    doomed: list[etree._Element] = []
    for members in rails:
        row = members[0].getparent()
        title = row.getprevious()
        if title is not None and isinstance(title.tag, str) and title.tag in _TITLES:
            doomed.append(title)
        doomed.append(row)
    if sum(chars[el] for el in doomed) > t.rail_max_share * total:
        if trace is not None:
            trace.append({"step": "clean", "action": "kept", "rule": RAIL_RULE,
                          "why": f"rails of linked cards would remove over "
                                 f"{t.rail_max_share:.0%} of the text: the container lists "
                                 f"them", "count": len(rails)})
        return 0
    for el in doomed:
        if el.getparent() is not None:
            remove_keeping_tail(el)
    if trace is not None:
        trace.append({"step": "clean", "action": "removed", "rule": RAIL_RULE,
                      "why": "rows of linked cards leading to other pages",
                      "count": len(rails),
                      "text": [" ".join(text_content(m[0]).split())[:60] for m in rails[:5]]})
    return len(rails)
