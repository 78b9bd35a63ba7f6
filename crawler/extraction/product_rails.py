"""Rails of other products on a product page: "customers also bought", bundles, "more from this
series", recently viewed.

A product page's container holds the product (its name, price, description, specifications)
and, around it, rows of cards that each sell another product. Trafilatura's users do not get
them, and they are not the product's text; the cleaning's name rules miss them when the shop
names them in its own words or not at all, and the link-dense rule misses them because a card's
link text (a product name and a price) is long. The rule reads structure only:

- a *rail* is a row of at least ``rail_min_items`` sibling elements of one tag and class that
  are all of their parent's text (not links standing in a sentence), at least
  ``grid_linked_share`` of them *linked cards*: their text is mostly (``rail_link_share``)
  inside links to another page (not the page itself);
- a rail goes, with the heading right before it (a rail's title), when the rails together hold
  at most ``rail_max_share`` of the container's text (a container made mostly of such cards is
  a listing, which the choice stages read as such).

It runs only on pages declaring a product type (never guessed from the URL), on containers no
site or framework rule chose: on a listing or collection page the cards are the content.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from crawler.extraction.candidates import children_by_shape
from crawler.extraction.clean import _remove as remove_keeping_tail
from crawler.extraction.addresses import page_key
from crawler.extraction.story_tail import non_space_chars
from crawler.extraction.thresholds import Thresholds
from crawler.extraction.tree_text import text_content

RAIL_RULE = "product-rail"
"""The rule's name in the trace."""

_HEADINGS = frozenset({"h2", "h3", "h4", "h5", "h6"})
"""Headings that may title a rail (a page's ``h1`` is the product's name)."""


def _linked_card(item: etree._Element, page: str, base: str, t: Thresholds) -> bool:
    """Whether an item is a card selling another page: text mostly inside links that lead
    away from this page."""
    chars = non_space_chars(text_content(item))
    if chars == 0:
        return False
    links = [a for a in ([item] if item.tag == "a" else []) + list(item.iter("a"))
             if a.get("href") and not a.get("href", "").startswith(("#", "javascript:"))]
    if not links or all(page_key(a.get("href"), base) == page for a in links):
        return False
    if item.tag == "a":
        return True
    linked = sum(non_space_chars(text_content(a)) for a in links
                 if not any(anc in links for anc in a.iterancestors()))
    return linked >= t.rail_link_share * chars


def find_rails(container: etree._Element, url: str, t: Thresholds) -> list[list[etree._Element]]:
    """The rails of linked cards in the container (each its cards), outermost first (a rail
    inside another rail is left to it)."""
    page = page_key(url, url)
    rails: list[list[etree._Element]] = []
    taken: set[etree._Element] = set()
    for parent in container.iter():
        if not isinstance(parent.tag, str) or len(parent) < t.rail_min_items:
            continue
        if any(anc in taken for anc in parent.iterancestors()) or parent in taken:
            continue
        for members in children_by_shape(parent).values():
            if len(members) < t.rail_min_items:
                continue
            if parent is container or not _whole_row(parent, members):
                continue
            cards = sum(1 for m in members if _linked_card(m, page, url, t))
            if cards >= t.rail_min_items and cards >= t.grid_linked_share * len(members):
                rails.append(members)
                taken.add(parent)
    return rails


def _whole_row(parent: etree._Element, members: list[etree._Element]) -> bool:
    """Whether the items are all of their parent's text: a row of cards, not links standing in
    a sentence or beside other blocks."""
    cards = sum(non_space_chars(text_content(m)) for m in members)
    return cards >= non_space_chars(text_content(parent))


def drop_product_rails(container: etree._Element, url: str, t: Thresholds,
                       trace: list[dict[str, Any]] | None = None) -> int:
    """Remove the rails of other products (and their titles) from a product page's container;
    return how many rails went."""
    rails = find_rails(container, url, t)
    if not rails:
        return 0
    total = non_space_chars(text_content(container))
    doomed: list[etree._Element] = []
    for members in rails:
        row = members[0].getparent()
        title = row.getprevious()
        if title is not None and isinstance(title.tag, str) and title.tag in _HEADINGS:
            doomed.append(title)
        doomed.append(row)
    if sum(non_space_chars(text_content(el)) for el in doomed) > t.rail_max_share * total:
        if trace is not None:
            trace.append({"step": "clean", "action": "kept", "rule": RAIL_RULE,
                          "why": f"rails of linked cards would remove over "
                                 f"{t.rail_max_share:.0%} of the text: the container lists "
                                 f"products", "count": len(rails)})
        return 0
    for el in doomed:
        if el.getparent() is not None:
            remove_keeping_tail(el)
    if trace is not None:
        trace.append({"step": "clean", "action": "removed", "rule": RAIL_RULE,
                      "why": "rows of linked cards selling other pages on a product page",
                      "count": len(rails),
                      "text": [" ".join(text_content(m[0]).split())[:60] for m in rails[:5]]})
    return len(rails)
