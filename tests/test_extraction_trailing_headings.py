"""Trailing headings: a heading standing after the container's last text has lost its section
(a rail's title whose cards a script fills, a comment form's heading over the fields cleaning
stripped) and goes; headings followed by their text, a heading whose section is a picture or a
table, and a story set in headings stay."""

from __future__ import annotations

import lxml.html
import pytest

from crawler.extraction import extract
from crawler.extraction.clean import trailing_headings
from tests.kept_and_removed import assert_kept_and_removed, page_around

STORY = "".join(f"<p>Die Stadt baut im Sommer den Uferweg aus und pflanzt entlang des Kanals "
                f"neue Bäume, damit der Weg im Schatten liegt, Absatz {i}.</p>" for i in range(4))


def page(main: str) -> str:
    return page_around(main, title='Uferweg', heading='Der neue Uferweg')


CASES = [
    # (name, main html, must stay, must go)
    ("titles of empty rails after the story go",
     STORY + "<section><h2>Das könnte Sie auch interessieren</h2><div class='slot'></div>"
             "</section><h2>Empfohlen für Sie</h2>",
     ["Der neue Uferweg", "Absatz 0", "Absatz 3"],
     ["Das könnte Sie auch interessieren", "Empfohlen für Sie"]),
    ("a heading followed by its text stays",
     STORY + "<h2>Wann ist Baubeginn?</h2><p>Im Juni, wenn das Wasser niedrig steht.</p>",
     ["Wann ist Baubeginn?", "Im Juni"], []),
    ("a heading over a picture stays",
     STORY + "<h2>Der Plan</h2><img src='/plan.png' alt='Plan'>", ["Der Plan", "Absatz 3"], []),
    ("headings inside the story stay, the last empty one goes",
     "<h2>Erster Abschnitt</h2>" + STORY + "<h3>Zweiter Abschnitt</h3>" + STORY
     + "<h3>Leserkommentare</h3>",
     ["Erster Abschnitt", "Zweiter Abschnitt"], ["Leserkommentare"]),
    ("a story set in headings stays",
     "<p>12. Mai</p><h2>Der Wettbewerb für Kinder beginnt in diesem Jahr zum sechsten Mal</h2>"
     "<h3>Kinder zwischen sechs und zwölf Jahren malen ein Plakat über den Kanal und seine "
     "Ufer, die besten hängen im Rathaus</h3>",
     ["Der Wettbewerb für Kinder", "die besten hängen im Rathaus"], []),
]


@pytest.mark.parametrize("name,main,stay,go", CASES, ids=[c[0] for c in CASES])
def test_trailing_headings(name: str, main: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(main), "https://stadt.example/uferweg")
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_a_container_of_headings_alone_has_none() -> None:
    """With no text at all there is no last text to stand after."""
    root = lxml.html.fromstring("<div><h2>Eins</h2><h3>Zwei</h3></div>")
    assert trailing_headings(root) == []


def test_text_after_a_heading_in_its_tail_counts() -> None:
    root = lxml.html.fromstring("<div><p>Text</p><h2>Titel</h2>und danach Text</div>")
    assert trailing_headings(root) == []


def test_the_removal_is_traced() -> None:
    result = extract(page(STORY + "<h2>Empfohlen für Sie</h2>"), "https://stadt.example/uferweg",
                     trace=True)
    entries = [e for e in result.trace if e.get("rule") == "trailing-heading"]
    assert entries and entries[0]["action"] == "removed" and "Empfohlen" in entries[0]["text"]
    assert "Absatz 3" in result.content_text


def test_one_walk_over_a_large_container() -> None:
    """50,000 headings and paragraphs are read in one walk."""
    html = "<div>" + "<h3>T</h3><p>x</p>" * 25000 + "<h2>Ende</h2></div>"
    headings = trailing_headings(lxml.html.fromstring(html))
    assert [h.text for h in headings] == ["Ende"]
