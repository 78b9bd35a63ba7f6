"""The story's head: short lines showing a date between an article's title and its first
paragraph (a date, a byline with a date, a date with a category or a reading time) go; the
title, a kicker without a date, a standfirst citing a date and the story's paragraphs stay."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed

URL = "https://news.example/2024/hafen"
STORY = "".join(f"<p>Die Gemeinde hat am Montag den neuen Hafen eröffnet, nachdem die Arbeiten "
                f"drei Wochen länger gedauert hatten als geplant; die ersten Boote legten vor "
                f"Mittag an. Absatz {i}.</p>" for i in range(5))
ARTICLE = "<meta property='og:type' content='article'>"
"""The page declares itself an article (the rule's pages; a dated page is one too)."""


def page(head_lines: str, head: str = ARTICLE, story: str = STORY) -> str:
    return (f"<html><head><title>Hafen eröffnet</title>{head}</head><body><header><a href='/'>"
            f"Start</a></header><article><h1>Hafen eröffnet</h1>{head_lines}{story}</article>"
            f"<footer>Impressum</footer></body></html>")


CASES = [
    # (name, lines between the title and the story, must stay, must go)
    ("a date in a time element",
     "<p><time datetime='2021-04-07'>7 kwietnia 2021</time></p>",
     ["Hafen eröffnet", "Absatz 0"], ["kwietnia"]),
    ("a byline with a date and a reading time",
     "<div class='m'><span>By Amelie Marie</span> <span>Feb 14, 2020</span> "
     "<span>5 min read</span></div>",
     ["Absatz 0"], ["Amelie Marie", "5 min read"]),
    ("a numeric date with a category",
     "<div>24.01.2022 11:38 Kategorie: News</div>",
     ["Absatz 0"], ["Kategorie: News"]),
    ("a kicker without a date",
     "<p class='kicker'>Hafenstadt im Wandel</p>",
     ["Hafenstadt im Wandel", "Absatz 0"], []),
    ("a standfirst citing a date is the story's own",
     "<p><strong>Seit dem 5. März 2020 wurde am Kai gebaut; jetzt legen die Boote wieder an, "
     "und die Stadt feiert drei Tage.</strong></p>",
     ["Seit dem 5. März 2020", "Absatz 0"], []),
]


@pytest.mark.parametrize("name,lines,stay,go", CASES, ids=[c[0] for c in CASES])
def test_story_head(name: str, lines: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(lines), URL)
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_a_date_line_after_the_first_paragraph_stays() -> None:
    """Only lines before the story's first paragraph are its head: a dated line inside the
    story (an update note) stays."""
    story = STORY.replace("</p>", "</p><p>Update: 12.05.2024</p>", 1)
    result = extract(page("", story=story), URL)
    assert "Update: 12.05.2024" in result.content_text
    assert "Absatz 4" in result.content_text


def test_trace_names_the_rule() -> None:
    """What the rule removed is in the trace under its name; the title and the story stay."""
    result = extract(page("<div>Publikacja: 04.05.2021</div>"), URL, trace=True)
    entries = [e for e in result.trace if e.get("rule") == "story-head"]
    assert entries and entries[0]["text"] == ["Publikacja: 04.05.2021"]
    assert "Publikacja" not in result.content_text
    assert "Hafen eröffnet" in result.content_text and "Absatz 0" in result.content_text
