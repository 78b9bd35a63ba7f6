"""Asides inside a story: short lines mostly of links to the site's other pages ("read also"
lines, a boxed pair of linked headlines, a category line above the first paragraph) go, with a
heading over only them; the story's paragraphs, its references to other sites, its sentences
with a link in them and its own lists of linked entries stay."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed

URL = "https://news.example/2024/hafen"
STORY = [f"<p>Die Gemeinde hat am Montag den neuen Hafen eröffnet, nachdem die Arbeiten drei "
         f"Wochen länger gedauert hatten als geplant; die ersten Boote legten vor Mittag an. "
         f"Absatz {i}.</p>" for i in range(5)]
ARTICLE = "<meta property='og:type' content='article'>"
"""The page declares itself an article (the rule's pages; a dated page is one too)."""


def page(article: str, head: str = ARTICLE) -> str:
    return (f"<html><head><title>Hafen eröffnet</title>{head}</head><body><header><a href='/'>"
            f"Start</a></header><article><h1>Hafen eröffnet</h1>{article}</article><footer>"
            f"Impressum</footer></body></html>")


def story(*inserts: tuple[int, str]) -> str:
    """The story's paragraphs with each insert placed before paragraph N."""
    parts = list(STORY)
    for at, html in sorted(inserts, reverse=True):
        parts.insert(at, html)
    return "".join(parts)


def entry(i: int) -> str:
    """A linked name over its own paragraph (an entry of a list the story is made of)."""
    return (f"<p><strong><a href='/hotels/{i}'>Hotel am Kai Nummer {i}</a></strong></p>"
            f"<p>Ein ruhiges Haus direkt am neuen Hafen, mit Blick auf die Boote und einem "
            f"Frühstück aus der Region, das bis Mittag serviert wird. Eintrag {i}.</p>")


CASES = [
    # (name, article html, must stay, must go)
    ("a 'read also' line between two paragraphs",
     story((2, "<p><strong>Lesen Sie auch: <a href='/2024/markt'>Der Wochenmarkt zieht an den "
               "Kai</a></strong></p>")),
     ["Absatz 1", "Absatz 2", "Absatz 4"], ["Lesen Sie auch", "Der Wochenmarkt zieht"]),
    ("a boxed heading over two linked headlines inside the story",
     story((3, "<div class='box'><h4>Mehr zum Thema</h4><ul><li><a href='/2024/a'>Neue Fähre "
               "für die Insel bestellt</a></li><li><a href='https://www.news.example/2024/b'>"
               "Fischer klagen über Quoten</a></li></ul></div>")),
     ["Absatz 2", "Absatz 3"], ["Mehr zum Thema", "Neue Fähre", "Fischer klagen"]),
    ("the story's section headings: plain, an anchor of the page, a link to another site, a "
     "link inside the heading",
     story((1, "<h2>Der Bau</h2>"), (2, "<h2><a href='#kosten'>Die Kosten</a></h2>"),
           (3, "<a href='https://hafenamt.example/plan'><h2>Der Plan des Hafenamts</h2></a>"),
           (4, "<h2><a href='/2024/boote'>Die Boote</a></h2>")),
     ["Der Bau", "Die Kosten", "Der Plan des Hafenamts", "Die Boote", "Absatz 1",
      "Absatz 4"], []),
    ("a story made of linked headings over their paragraphs keeps every entry",
     STORY[0] + "".join(f"<a href='/hotels/{i}'><h3>Hotel am Kai Nummer {i}</h3></a>"
                        f"<p>Ein ruhiges Haus direkt am neuen Hafen, mit Blick auf die Boote "
                        f"und einem Frühstück aus der Region. Eintrag {i}.</p>"
                        for i in range(6)) + STORY[1],
     ["Hotel am Kai Nummer 0", "Hotel am Kai Nummer 5", "Eintrag 5", "Absatz 1"], []),
    ("a bold label over a 'read also' link line, in a box of their own",
     story((2, "<div><p><b>Weiterlesen:</b></p><p><a href='/2024/markt'>Der Wochenmarkt zieht "
               "an den Kai</a></p></div>")),
     ["Absatz 1", "Absatz 2"], ["Weiterlesen", "Der Wochenmarkt zieht"]),
    ("a label over a link line with the story's text after it in their parent",
     "".join(STORY[:2]) + "<p><b>Weiterlesen:</b></p><p><a href='/2024/markt'>Der "
     "Wochenmarkt zieht an den Kai</a></p>" + "".join(STORY[2:]),
     ["Weiterlesen:", "Absatz 1", "Absatz 2"], ["Der Wochenmarkt zieht"]),
    ("a category line of links above the first paragraph",
     story((0, "<div><a href='/ressort/region'>Region</a> | <a href='/ressort/wirtschaft'>"
               "Wirtschaft</a></div>")),
     ["Hafen eröffnet", "Absatz 0"], ["Region | Wirtschaft"]),
    ("a pointer to another site is the story's reference",
     story((2, "<p>Quelle: <a href='https://agentur.example/meldung/1'>Meldung der Agentur "
               "Nord</a></p>")),
     ["Absatz 1", "Meldung der Agentur Nord", "Absatz 2"], []),
    ("a sentence with a link in it",
     story((2, "<p>Der Plan liegt im <a href='/rathaus'>Rathaus</a> aus.</p>")),
     ["Der Plan liegt im Rathaus aus.", "Absatz 2"], []),
    ("a story made of linked entries keeps every entry",
     STORY[0] + "".join(entry(i) for i in range(6)) + STORY[1],
     ["Hotel am Kai Nummer 0", "Hotel am Kai Nummer 5", "Eintrag 5", "Absatz 1"], []),
    ("the story's own run of linked lines",
     story((2, "<h3>Alle Stege</h3>" + "".join(
         f"<p><a href='/stege/{i}'>Steg {i} am neuen Hafen</a></p>" for i in range(6)))),
     ["Alle Stege", "Steg 0 am neuen Hafen", "Steg 5 am neuen Hafen", "Absatz 4"], []),
]


@pytest.mark.parametrize("name,article,stay,go", CASES, ids=[c[0] for c in CASES])
def test_story_asides(name: str, article: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(article), URL)
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_pages_other_than_articles_keep_their_link_lines() -> None:
    """On a page that is not an article (no declared type, no date) a line of links between
    paragraphs is the page's own: the rule does not run."""
    line = "<p><strong>Lesen Sie auch: <a href='/markt'>Der Wochenmarkt zieht an den Kai</a></strong></p>"
    result = extract(page(story((2, line)), head=""), "https://news.example/hafen")
    assert "Der Wochenmarkt zieht" in result.content_text
    assert "Absatz 4" in result.content_text


def test_trace_names_the_aside_label() -> None:
    """A label the rule's removal left heading nothing goes under its own name in the trace."""
    box = "<div><p><b>Weiterlesen:</b></p><p><a href='/2024/markt'>Der Markt</a></p></div>"
    result = extract(page(story((2, box))), URL, trace=True)
    assert [e["count"] for e in result.trace if e.get("rule") == "aside-label"] == [1]
    assert "Weiterlesen" not in result.content_text and "Absatz 2" in result.content_text


def test_trace_names_the_rule() -> None:
    """What the rule removed is in the trace under its name."""
    line = "<p>Lesen Sie auch: <a href='/2024/markt'>Der Wochenmarkt zieht an den Kai</a></p>"
    result = extract(page(story((2, line))), URL, trace=True)
    entries = [e for e in result.trace if e.get("rule") == "story-aside"]
    assert entries and "Lesen Sie auch" in entries[0]["text"][0]
    assert "Absatz 2" in result.content_text
