"""A dated page declaring an article and a list of other pages (its related stories' rail) is an
article, so the story rules read it: the rail's cards go, the story stays. A page declaring the
list alone, or undated, stays a listing whose cards are its content."""

from __future__ import annotations

import json

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed
from tests.test_extraction_teaser_lists import STORY, URL, card, page, row


def declared(*nodes: dict, og_type: str = "article") -> str:
    """A head declaring the JSON-LD nodes and an ``og:type``."""
    return (f"<meta property='og:type' content='{og_type}'><script type='application/ld+json'>"
            f"{json.dumps(list(nodes))}</script>")


NEWS = {"@type": "NewsArticle", "headline": "Hafen eröffnet", "datePublished": "2024-02-03"}
RAIL = {"@type": "ItemList", "itemListElement": [
    {"@type": "ListItem", "position": i, "url": f"{URL}-{i}"} for i in range(4)]}
CATEGORY = {"@type": "CollectionPage", "name": "Hafen", "datePublished": "2024-02-03"}
UNDATED_NEWS = {"@type": "NewsArticle", "headline": "Hafen eröffnet"}
ROW = STORY + row("".join(card(i, dated=False) for i in range(4)))

CASES = [
    # (name, head, page type, must stay, must go)
    ("a dated news article declaring its rail as a list", declared(NEWS, RAIL), "article",
     ["Absatz 0", "Absatz 4"], ["Mehr zum Thema", "Fähre Nummer 0", "Zusammenfassung 3"]),
    ("a category page declaring only the list keeps its cards",
     declared(CATEGORY, RAIL), "listing",
     ["Absatz 0", "Fähre Nummer 0", "Zusammenfassung 3"], []),
    ("an article beside a list without a date stays a listing",
     declared(UNDATED_NEWS, RAIL), "listing",
     ["Absatz 0", "Fähre Nummer 0", "Zusammenfassung 3"], []),
    ("a page calling itself a website declares no article of its own",
     declared(NEWS, RAIL, og_type="website"), "listing",
     ["Absatz 0", "Fähre Nummer 0", "Zusammenfassung 3"], []),
]


@pytest.mark.parametrize("name, head, page_type, stay, go", CASES, ids=[c[0] for c in CASES])
def test_article_beside_list(name: str, head: str, page_type: str, stay: list[str],
                             go: list[str]) -> None:
    result = extract(page(ROW, head=head), URL)
    assert result.page_type == page_type, name
    assert_kept_and_removed(result.content_text, name, stay, go)
