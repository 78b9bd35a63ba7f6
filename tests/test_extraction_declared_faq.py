"""The declared FAQ (declared-faq): a page declaring a schema.org ``FAQPage`` keeps its questions
and answers, whether they sit in an accordion whose questions are buttons (form controls are
stripped as widgets) or in a block beside the chosen container (after a category's grid). A
page declaring no FAQ loses such a block as before; questions found only far apart (a block
holding much more than the FAQ) add nothing; and the questions of an FAQ make no discussion
page (reader comments are still set apart)."""

from __future__ import annotations

import json

import lxml.html
import pytest

from crawler.extraction import extract
from crawler.extraction.structured import parse_structured
from crawler.extraction.thresholds import THRESHOLDS
from tests.kept_and_removed import assert_kept_and_removed

FAQ = [
    ("How long does delivery take?",
     "Orders leave the warehouse within two working days and arrive three days later."),
    ("Can I return a jacket that I wore once?",
     "Returns are accepted within thirty days when the tags are still attached to it."),
    ("Do the jackets come in tall sizes?",
     "Every model of the winter range is cut in regular and tall lengths from size M."),
]
GRID = "".join(
    f"<li class='card'><a href='/jackets/model-{i}'><h3>Trail jacket model {i}</h3></a>"
    f"<p>A three-layer shell for long climbs in wet weather, number {i} of the range.</p>"
    f"<span class='price'>{100 + i}.00</span></li>" for i in range(8))
INTRO = ("<h1>Rain jackets</h1><p>Shells for hiking, climbing and the commute, tested in the "
         "rain of three mountain ranges by the people who sell them.</p>")


def declared(kind: str = "FAQPage", faq: list[tuple[str, str]] = FAQ,
             subject_of: bool = False) -> str:
    data = {"@context": "https://schema.org", "@type": kind,
            "mainEntity": [{"@type": "Question", "name": q,
                            "acceptedAnswer": {"@type": "Answer", "text": a}}
                           for q, a in faq]}
    if subject_of:  # a web page naming its FAQ
        data = {"@context": "https://schema.org", "@type": "WebPage", "name": "Rain jackets",
                "subjectOf": {key: value for key, value in data.items() if key != "@context"}}
    return f"<script type='application/ld+json'>{json.dumps(data)}</script>"


def accordion(faq: list[tuple[str, str]] = FAQ) -> str:
    items = "".join(
        f"<div class='item'><button aria-expanded='false' aria-controls='a{i}'>"
        f"<span>{q}</span></button><div id='a{i}' class='answer-panel' hidden><p>{a}</p></div>"
        f"</div>" for i, (q, a) in enumerate(faq))
    return f"<section class='help'><h2>Questions</h2>{items}</section>"


def page(main: str, after: str = "", head: str = declared()) -> str:
    return (f"<html><head><title>Rain jackets</title>{head}</head><body>"
            f"<header><nav><a href='/'>Home</a> <a href='/men'>Men</a> <a href='/women'>Women"
            f"</a></nav></header><main>{main}</main>{after}"
            f"<footer><p>Imprint, terms and the privacy policy of the shop.</p></footer>"
            f"</body></html>")


QUESTIONS = [q for q, _ in FAQ]
ANSWERS = [a[:40] for _, a in FAQ]

CASES = [
    # (name, page html, must stay, must go)
    ("an FAQ accordion beside a category's grid is added after the grid",
     page(INTRO + f"<ul class='grid'>{GRID}</ul>", after=accordion()),
     ["Trail jacket model 7", *QUESTIONS, *ANSWERS],
     ["Imprint, terms", "Women"]),
    ("an FAQ a web page names as its subject is added too",
     page(INTRO + f"<ul class='grid'>{GRID}</ul>", after=accordion(),
          head=declared(subject_of=True)),
     ["Trail jacket model 7", *QUESTIONS, *ANSWERS],
     ["Imprint, terms", "Women"]),
    ("an accordion's questions inside the container stay beside their answers",
     page(INTRO + f"<ul class='grid'>{GRID}</ul>" + accordion()),
     ["Trail jacket model 7", *QUESTIONS, *ANSWERS],
     ["Imprint, terms"]),
    ("without a declared FAQ the block beside the grid goes",
     page(INTRO + f"<ul class='grid'>{GRID}</ul>", after=accordion(), head=""),
     ["Trail jacket model 7"],
     [*QUESTIONS, *ANSWERS, "Imprint, terms"]),
    ("questions found only far apart add nothing",
     page(INTRO + f"<ul class='grid'>{GRID}</ul>",
          after=f"<div class='rail'><p>{QUESTIONS[0]}</p>"
          + "".join(f"<a href='/stores/{i}'>Store news {i} of the shop</a> " for i in range(30))
          + f"<p>{QUESTIONS[1]}</p></div>"),
     ["Trail jacket model 7"],
     ["Store news 29", QUESTIONS[0], "Imprint, terms"]),
    ("one declared question is no FAQ",
     page(INTRO + f"<ul class='grid'>{GRID}</ul>", after=accordion(FAQ[:1]),
          head=declared(faq=FAQ[:1])),
     ["Trail jacket model 7"],
     [QUESTIONS[0], ANSWERS[0]]),
]


@pytest.mark.parametrize("name,html,stay,go", CASES, ids=[c[0] for c in CASES])
def test_declared_faq(name: str, html: str, stay: list[str], go: list[str]) -> None:
    result = extract(html, "https://shop.example/rain-jackets")
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_the_added_faq_is_traced() -> None:
    result = extract(page(INTRO + f"<ul class='grid'>{GRID}</ul>", after=accordion()),
                     "https://shop.example/rain-jackets", trace=True)
    added = [e for e in result.trace if e.get("rule") == "declared-faq" and e["step"] == "clean"]
    assert added and added[0]["declared_questions"] == 3 and added[0]["in_content"] == 0
    kept = [e for e in result.trace if e.get("rule") == "declared-faq" and e["step"] == "prepare"]
    assert kept and kept[0]["questions_kept"] == 3


STORY = "".join(f"<p>Paragraph {i} of the guide to waxing a jacket: warm the wax, rub it in "
                f"along the seams and let it rest overnight before the next walk.</p>"
                for i in range(8))
COMMENTS = ("<div id='comments' class='comments-area'><h2>2 comments</h2><ol class='comment-list'>"
            "<li class='comment'><p>Reader one: worked on my old jacket, thank you for this.</p>"
            "</li><li class='comment'><p>Reader two: which wax did you use for the seams?</p>"
            "</li></ol></div>")


@pytest.mark.parametrize("kind,comments_apart", [("FAQPage", True), ("QAPage", False)])
def test_an_faq_is_no_discussion(kind: str, comments_apart: bool) -> None:
    html = page(f"<article><h1>Waxing a jacket</h1>{STORY}{COMMENTS}</article>",
                head=declared(kind))
    result = extract(html, "https://shop.example/guides/waxing")
    assert "Paragraph 7 of the guide" in result.content_text
    if comments_apart:
        assert "Reader one" in (result.comments_text or "")
        assert "Reader one" not in result.content_text
    else:  # a Q&A page's answers are its posts: they stay in the content
        assert "Reader one" in result.content_text


def test_a_declared_faq_is_read_up_to_its_bound() -> None:
    """A page declaring thousands of questions cannot make the search for them long: the first
    ``faq_max_questions`` are read, the rest are not, and the FAQ block that shows the ones read
    is still added after the grid."""
    bound = THRESHOLDS.faq_max_questions
    many = FAQ + [(f"Question {i} about the winter range?", f"Answer {i} about the range.")
                  for i in range(2 * bound)]
    html = page(INTRO + f"<ul class='grid'>{GRID}</ul>", after=accordion(many[:bound]),
                head=declared(faq=many))
    structured = parse_structured(lxml.html.fromstring(html), "https://shop.example/rain-jackets")
    assert [q for q, _ in structured.faq] == [q for q, _ in many[:bound]]
    result = extract(html, "https://shop.example/rain-jackets")
    assert_kept_and_removed(result.content_text, "many declared questions",
                            ["Trail jacket model 7", *QUESTIONS, many[bound - 1][0]],
                            ["Imprint, terms", "Women"])
