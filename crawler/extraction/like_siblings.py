"""Siblings alike in tag and class, counted once per parent.

Several rules ask whether an element is one of a row of like items (a card of a grid, a panel
of a landing page, an item of a list of forms): how many children of its parent share its tag
and its class. Asked of each element of a row of thousands, a count over the row per question is
quadratic; :class:`LikeSiblings` counts each parent's children once and answers from that.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from lxml import etree


class LikeSiblings:
    """Counts of a parent's children by tag and class, made once per parent when first asked."""

    def __init__(self) -> None:
        self._counts: dict[etree._Element, Counter[tuple[Any, str | None]]] = {}

    def count(self, el: etree._Element) -> int:
        """How many children of ``el``'s parent have ``el``'s tag and class (``el`` included);
        0 for an element without a parent."""
        parent = el.getparent()
        if parent is None:
            return 0
        counts = self._counts.get(parent)
        if counts is None:
            counts = self._counts[parent] = Counter((sib.tag, sib.get("class")) for sib in parent)
        return counts[(el.tag, el.get("class"))]
