"""Price lines of a product page: a block whose whole text is an amount of money ("price-line").

A product page's text is what the product is (its name, description, details); the amounts
around it (the price, a crossed-out former price, the price of each add-on, accessory or
recommended item, a discount) are the shop's offer, shown as lines of their own. The rule
removes, inside the chosen
container of a page whose type is product, each element whose whole text is one or two amounts
with a currency mark (``price_line_pattern`` of ``site_rules/cleaning.yaml``: symbols and ISO
codes, no word of any language) and that stands as a line of its own: a price written inside a
sentence (text right before or after it in its parent) stays, and so does every line holding
a word besides the amount ("From $999 or $83/mo.").
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from crawler.extraction.like_siblings import LikeSiblings
from crawler.extraction.name_patterns import NamePattern
from crawler.extraction.story_tail import non_space_chars, remove_keeping_tail
from crawler.extraction.thresholds import THRESHOLDS, Thresholds
from crawler.extraction.tree_text import text_beside, text_content

PRICE_LINE_RULE = "price-line"
"""The rule's name in the trace and the ablation."""
PRODUCT_PAGE_TYPE = "product"
"""The page type (``Metadata.page_type``) whose containers the rule reads."""


def price_lines(container: etree._Element, pattern: NamePattern | None,
                t: Thresholds = THRESHOLDS) -> list[etree._Element]:
    """The outermost elements of the container whose whole text is a price and that stand as
    a line of their own (no text beside them in their parent), in document order."""
    if pattern is None:
        return []
    short = _short_elements(container, t.price_line_max_chars)
    found: list[etree._Element] = []
    skip: set[etree._Element] = set()
    grids: dict[etree._Element, bool] = {}
    alike = LikeSiblings()
    total = non_space_chars(text_content(container))
    for el in container.iterdescendants():
        if el not in short or el in skip:
            continue
        text = " ".join(text_content(el).split())
        if not text or pattern.search(text) is None or text_beside(el):
            continue
        skip.update(el.iterdescendants())
        if _in_content_grid(el, container, total, grids, alike, t):
            continue
        found.append(el)
    return found


def _in_content_grid(el: etree._Element, container: etree._Element, total: int,
                     grids: dict[etree._Element, bool], alike: LikeSiblings,
                     t: Thresholds) -> bool:
    """Whether a price line belongs to a card of a grid holding at least ``price_grid_share``
    of the container's text: the products are then what the page lists (a category page that
    declares itself a product), not the offer beside one product. The card is the nearest
    ancestor with at least ``min_grid_items`` siblings of its tag and class (counting it): the
    rows of the page's layout further up are no grid of products. Each grid is measured once
    (``grids``) and the children of each parent are counted by tag and class once (``alike``):
    a row of thousands of unlike cards is not counted again for every price in it."""
    for card in el.iterancestors():
        if card is container:
            return False
        grid = card.getparent()
        if grid is None:
            return False
        if grid in grids:
            return grids[grid]
        if alike.count(card) >= t.min_grid_items:
            grids[grid] = non_space_chars(text_content(grid)) >= t.price_grid_share * total
            return grids[grid]
    return False


def _short_elements(container: etree._Element, limit: int) -> set[etree._Element]:
    """The elements under the container whose text holds at most ``limit`` characters
    (``price_line_max_chars``), found in one pass from the leaves up (each element's length is its own text's
    and its children's), so a page of thousands of nested blocks is read once."""
    lengths: dict[etree._Element, int] = {}
    short: set[etree._Element] = set()
    for el in reversed(list(container.iterdescendants())):
        if not isinstance(el.tag, str):
            continue
        chars = len(el.text or "")
        for child in el:
            chars += lengths.get(child, 0) + len(child.tail or "")
        lengths[el] = chars
        if chars <= limit:
            short.add(el)
    return short


def drop_price_lines(container: etree._Element, pattern: NamePattern | None,
                     t: Thresholds = THRESHOLDS,
                     trace: list[dict[str, Any]] | None = None) -> int:
    """Remove the price lines of a product page's container; return how many."""
    lines = price_lines(container, pattern, t)
    if trace is not None and lines:
        trace.append({"step": "clean", "action": "removed", "rule": PRICE_LINE_RULE,
                      "why": "a line holding only a price on a product page",
                      "count": len(lines),
                      "text": [" ".join(text_content(el).split()) for el in lines[:5]]})
    for el in lines:
        if el.getparent() is not None:
            remove_keeping_tail(el)
    return len(lines)
