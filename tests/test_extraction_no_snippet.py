"""No-snippet blocks: what a page marks ``data-nosnippet`` (an author blurb, a "related" card,
a rating box) is declared no part of its text and goes, on stories and other pages alike; the
text beside it stays, and so does a story the page marks as a whole."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed, page_around

STORY = "".join(f"<p>The council met on Monday evening to discuss the new cycle lane and, after a "
                f"long debate, passed a resolution on its route, paragraph {i}.</p>"
                for i in range(6))
HALF = len(STORY) // 2
CARD = ("<div class='card' data-nosnippet><span>Related</span><h5><a href='/2024/05/bridge'>"
        "The bridge works start next spring after all</a></h5><p>Why the plan changed and what "
        "it means for commuters.</p><div>By Ann Other</div></div>")
BLURB = ("<div data-nosnippet='true'>Ann Other has covered the town hall for ten years and "
         "writes about transport.</div>")


def page(main: str, article: bool = True) -> str:
    return page_around(main, title="Cycle lane", heading="New cycle lane", article=article)


CASES = [
    # (name, main html, is an article, must stay, must go)
    ("a related card between the story's paragraphs goes, the paragraphs stay",
     STORY[:HALF] + CARD + STORY[HALF:], True, ["paragraph 0", "paragraph 5"],
     ["bridge works", "Why the plan changed", "By Ann Other"]),
    ("an author blurb before the story goes",
     BLURB + STORY, True, ["paragraph 0", "paragraph 5"], ["covered the town hall"]),
    ("a marked box on a page that is no story goes too",
     STORY + BLURB, False, ["paragraph 0", "paragraph 5"], ["covered the town hall"]),
    ("a story the page marks as a whole stays",
     f"<div data-nosnippet>{STORY}</div>", True, ["paragraph 0", "paragraph 5"], []),
    ("an unmarked box beside a marked one stays",
     STORY + BLURB + "<div>Ann Other takes reader questions every Friday at noon in the "
     "library, on the first floor.</div>", True,
     ["paragraph 5", "reader questions every Friday"], ["covered the town hall"]),
]


@pytest.mark.parametrize("name,main,article,stay,go", CASES, ids=[c[0] for c in CASES])
def test_no_snippet(name: str, main: str, article: bool, stay: list[str], go: list[str]) -> None:
    result = extract(page(main, article), "https://town.example/2024/05/cycle-lane")
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_the_removal_is_traced() -> None:
    result = extract(page(STORY + BLURB), "https://town.example/2024/05/cycle-lane", trace=True)
    assert any(entry.get("rule") == "no-snippet" for entry in result.trace)
    assert "paragraph 5" in result.content_text
