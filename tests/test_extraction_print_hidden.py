"""Print-hidden blocks: what a page leaves out of its printed copy by a print utility class
(``noprint``, Bootstrap's ``d-print-none``, Tailwind's ``print:hidden``) is chrome around its
text (a booking hotline, a share line, a section menu) and goes, on stories and other pages
alike; the text beside it stays, as do a screen-only header holding the headline, a story the
page marks as a whole and a class that only contains the word."""

from __future__ import annotations

import pytest

from crawler.extraction import Extraction, extract
from tests.kept_and_removed import assert_kept_and_removed, page_around

STORY = "".join(f"<p>The council met on Monday evening to discuss the new cycle lane and, after a "
                f"long debate, passed a resolution on its route, paragraph {i}.</p>"
                for i in range(6))
HALF = len(STORY) // 2
HOTLINE = ("<div class='phone-box noprint'>Booking hotline: 040 123 456, open today from 9 to "
           "18</div>")
SHARE = "<div class='d-print-none'>Share this story with your friends and family</div>"
MENU = ("<div class='print:hidden flex'>Pictures Reviews Location Prices Availability "
        "Questions</div>")
HEADER = ("<div class='top-article noprint'><h1>The cycle lane's new route</h1><p>Opinion by "
          "Ann Other</p></div>")


URL = "https://town.example/2024/05/cycle-lane"


def extracted(main: str, article: bool = True, trace: bool = False) -> Extraction:
    """The case's HTML extracted from a page around it (a dated story's URL)."""
    return extract(page_around(main, title="Cycle lane", heading="New cycle lane",
                               article=article), URL, trace=trace)


CASES = [
    # (name, main html, is an article, must stay, must go)
    ("a hotline box between the story's paragraphs goes, the paragraphs stay",
     STORY[:HALF] + HOTLINE + STORY[HALF:], True, ["paragraph 0", "paragraph 5"],
     ["Booking hotline"]),
    ("a share line after the story goes",
     STORY + SHARE, True, ["paragraph 0", "paragraph 5"], ["Share this story"]),
    ("a section menu on a page that is no story goes too",
     MENU + STORY, False, ["paragraph 0", "paragraph 5"], ["Availability"]),
    ("a screen-only header holding the headline stays",
     HEADER + STORY, True, ["The cycle lane's new route", "Opinion by Ann Other", "paragraph 5"],
     []),
    ("a story the page marks as a whole stays",
     f"<div class='noprint'>{STORY}</div>", True, ["paragraph 0", "paragraph 5"], []),
    ("a class that only contains the word stays, a marked box beside it goes",
     STORY + "<div class='blueprint-note'>The route follows the river from the station to the "
     "old mill.</div>" + HOTLINE, True, ["paragraph 5", "follows the river"],
     ["Booking hotline"]),
]


@pytest.mark.parametrize("name,main,article,stay,go", CASES, ids=[c[0] for c in CASES])
def test_print_hidden(name: str, main: str, article: bool, stay: list[str],
                      go: list[str]) -> None:
    assert_kept_and_removed(extracted(main, article).content_text, name, stay, go)


def test_the_removal_is_traced() -> None:
    result = extracted(STORY + HOTLINE, trace=True)
    assert any(entry.get("rule") == "print-hidden" for entry in result.trace)
    assert "paragraph 5" in result.content_text
