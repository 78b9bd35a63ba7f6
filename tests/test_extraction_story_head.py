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


LIST_POST = ("<p>We kept a notebook of every ride for a year, in rain and in sun, and this post "
             "sums up what the numbers and the gear taught us about commuting by bicycle.</p>"
             + "".join(f"<ul><li>Ride {i}: twelve kilometres along the river.</li><li>Rain gear "
                       f"{i}: cape, overshoes and gloves.</li><li>Lights {i}: hub dynamo, front "
                       f"and rear.</li><li>Tyres {i}: puncture-proof, wide.</li><li>Route {i}: "
                       f"the quiet road past the mill.</li></ul>"
                       f"<p>Week {i} was wet and windy, but the mudguards kept the spray off "
                       f"and the dynamo lights never failed once on the dark evenings.</p>"
                       for i in range(4))
             + "<table><tr><td>January</td><td>17</td></tr><tr><td>April</td><td>19</td></tr>"
             "</table>")
"""A post of lists and a table: under half of its text is paragraphs (no story by share)."""


@pytest.mark.parametrize("name,body,stay,go", [
    ("a byline under the title of a post of lists",
     "<h2>A year on the bike</h2><p class='meta'>written by Maren Holt on 2024-03-02</p>"
     + LIST_POST,
     ["A year on the bike", "We kept a notebook", "Ride 3", "January"], ["Maren Holt"]),
    ("a byline without the title first",
     "<p class='meta'>written by Maren Holt on 2024-03-02</p>" + LIST_POST,
     ["written by Maren Holt on 2024-03-02", "We kept a notebook", "Ride 3"], []),
], ids=lambda v: v if isinstance(v, str) and len(v) < 60 else None)
def test_a_titled_post_of_lists_loses_its_head(name: str, body: str, stay: list[str],
                                                 go: list[str]) -> None:
    """A post whose paragraphs hold under half its text (lists, tables) is no story by share,
    but when it opens with its title and holds a few paragraphs, its date lines before the
    first paragraph are a post's head and go; without the title first they stay."""
    html = (f"<html><head><title>Notes</title><meta name='author' content='Maren Holt'></head>"
            f"<body><header><a href='/'>Notes</a></header><div class='blog-post'>{body}</div>"
            f"<footer>Copyright</footer></body></html>")
    result = extract(html, "https://blog.example/2024/bike/")
    assert_kept_and_removed(result.content_text, name, stay, go)


STANDFIRST = ("<p class='sub'>Nach drei Wochen Verzug legen die ersten Boote an; die Stadt "
              "feiert ihren Hafen mit einem Fest am Kai, zu dem die Nachbarorte ihre Chöre und "
              "ihre Blaskapellen schicken.</p>")


def headed_page(between: str, standfirst: str = STANDFIRST) -> str:
    """A story whose header holds the title and the standfirst, then the given lines, then the
    story's body in a wrapper of its own."""
    return (f"<html><head><title>Hafen eröffnet</title>{ARTICLE}</head><body><header><a "
            f"href='/'>Start</a></header><article><header><h1>Hafen eröffnet</h1>{standfirst}"
            f"<figure><img src='/hafen.jpg'></figure>{between}</header>"
            f"<div class='body'>{STORY}</div></article><footer>Impressum</footer></body></html>")


LEAD_DATE_CASES = [
    # (name, page, must stay, must go)
    ("a date line after the standfirst",
     headed_page("<div class='meta'><span>Pubblicato il 19 Febbraio 2020</span> "
                 "<span>Ultima modifica 19 Febbraio 2020 12:02</span></div>"),
     ["Hafen eröffnet", "Nach drei Wochen Verzug", "Absatz 0", "Absatz 4"],
     ["Pubblicato", "Ultima modifica"]),
    ("a byline with a time element after the standfirst",
     headed_page("<p>Von Amelie Marie, <time datetime='2024-03-02'>2. März</time></p>"),
     ["Nach drei Wochen Verzug", "Absatz 0"], ["Amelie Marie"]),
    ("a line without a date after the standfirst stays",
     headed_page("<p>Hafenstadt im Wandel</p>"),
     ["Nach drei Wochen Verzug", "Hafenstadt im Wandel", "Absatz 0"], []),
    ("a date line before a list, not the story, stays",
     headed_page("<div>24.01.2022 11:38</div><ul><li>Kai 1</li><li>Kai 2</li></ul>"),
     ["Nach drei Wochen Verzug", "24.01.2022 11:38", "Absatz 0"], []),
    ("a long first paragraph is the story's own, not a standfirst",
     headed_page("<div>24.01.2022 11:38</div>",
                 standfirst="<p>" + "Die Boote legen wieder an, und die Stadt feiert. " * 18
                 + "</p>"),
     ["Die Boote legen wieder an", "24.01.2022 11:38", "Absatz 0"], []),
]


@pytest.mark.parametrize("name,html,stay,go", LEAD_DATE_CASES,
                         ids=[c[0] for c in LEAD_DATE_CASES])
def test_lead_date(name: str, html: str, stay: list[str], go: list[str]) -> None:
    """Date lines between a standfirst outside the story's body and the body go; the title,
    the standfirst, other lines there and the story stay."""
    result = extract(html, URL, trace=True)
    assert_kept_and_removed(result.content_text, name, stay, go)
    assert bool(go) == any(e.get("rule") == "lead-date" for e in result.trace)
