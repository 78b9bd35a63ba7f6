"""page-agree: on a page that is no article, the landmark holding the density winner agrees with
it on a lower share of content-like added text (``container_extra_good_page``), so a category,
listing or service page keeps the sections and cards beside its densest block; on an article
the landmark still needs ``container_extra_good`` (what it adds around a story is chrome)."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from crawler.extraction.stages import PAGE_AGREE_RULE

WORDS = ["moorings", "tides", "pilots", "cranes", "ferries", "locks", "buoys", "quays"]
LINKS = ["Map", "Hours", "Staff", "Fees", "Parking", "Contact", "Forms", "Prices", "Tides",
         "Permits"]
ARTICLE_HEAD = ('<meta property="og:type" content="article">'
                '<meta property="article:published_time" content="2024-05-01T10:00:00Z">')


def dense_para(i: int) -> str:
    """A paragraph of long, comma-rich prose: its block wins the density score."""
    return (f"<p>Paragraph {i}, on the {WORDS[i % 8]}, says this, and that, and more, with "
            f"commas, many of them, so that, in the end, the block scores high, as dense prose "
            f"does, in any scorer, and wins.</p>")


def tile(i: int) -> str:
    """A desk's tile: a title, one line of prose and a row of links (about a third of its text
    is content-like: less than the article's share, more than the page's)."""
    links = " ".join(f"<a href='/desk/{i}/{name.lower()}'>{name}</a>" for name in LINKS)
    return (f"<div class='tile'><div><div><h3>{WORDS[i % 8].title()} desk {i}</h3>"
            f"<p>Open to visitors on weekdays, ring ahead, desk {i}.</p>{links}</div></div></div>")


def page(head: str) -> str:
    """A dense introduction and eight tiles in the page's main landmark."""
    return (f"<html><head>{head}</head><body><nav><a href='/'>Home</a> <a href='/shop'>Shop</a>"
            f"</nav><main><div class='intro'><div><div>"
            + "".join(dense_para(i) for i in range(3)) + "</div></div></div><div class='tiles'>"
            + "".join(tile(i) for i in range(8))
            + "</div></main><footer>Harbour authority footer</footer></body></html>")


# name, head, url, page type, text that must stay, text that must go, rule named in the trace
CASES = [
    ("hub page: the tiles beside the introduction are content", "",
     "https://example.org/desks", "page",
     ["Paragraph 2, on the pilots", "Open to visitors on weekdays, ring ahead, desk 7."],
     ["Harbour authority footer", "Home Shop"], True),
    ("article: what the landmark adds around the story goes", ARTICLE_HEAD,
     "https://example.org/news/desks", "article",
     ["Paragraph 2, on the pilots"],
     ["Open to visitors on weekdays", "Harbour authority footer"], False),
]


@pytest.mark.parametrize("name, head, url, page_type, stay, go, named", CASES,
                         ids=[c[0] for c in CASES])
def test_page_agree(name: str, head: str, url: str, page_type: str, stay: list[str],
                    go: list[str], named: bool) -> None:
    result = extract(page(head), url, trace=True)
    assert result.page_type == page_type
    for text in stay:
        assert text in result.content_text, (name, text)
    for text in go:
        assert text not in result.content_text, (name, text)
    agree = next(d for d in result.decisions or [] if d["stage"] == "agree")
    assert (PAGE_AGREE_RULE in agree["why"]) is named
