"""Notes after the story: the final run of paragraphs set wholly in emphasis and holding a link
after a story's last plain paragraph (a newsletter call, an author's biography linking to the
author, a pointer to another story) go; an emphasised line without a link (a closing quotation,
a footnote on the method), a paragraph with only a bold lead-in, and a plain paragraph after
the notes keep them, and the story stays."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed
from tests.test_extraction_story_tail import LAST, STORY, page

URL = "https://news.example/hafen"
NEWSLETTER = ("<p><em>Mehr vom Hafen? Die besten Geschichten jede Woche im Postfach: </em>"
              "<a href='/newsletter'><em>hier anmelden</em></a><em>!</em></p>")
BIO = ("<p><i>Karla Beispiel schreibt seit zwanzig Jahren über Häfen und Schiffe; mehr von ihr "
       "auf <a href='https://karla.example/'>ihrer Seite</a>.</i></p>")

CASES = [
    # (name, article html, must stay, must go)
    ("a newsletter call in italics after the story",
     f"{STORY}{LAST}{NEWSLETTER}",
     ["Absatz 0", "Schluss der Meldung"], ["Mehr vom Hafen?", "hier anmelden"]),
    ("an author's biography in bold with a link, then a newsletter call",
     f"{STORY}{LAST}<p><strong>Karla Beispiel schreibt über Häfen, <a href='/autorin/karla'>"
     f"alle Artikel</a></strong></p>{NEWSLETTER}",
     ["Absatz 3", "Schluss der Meldung"], ["Karla Beispiel schreibt", "Mehr vom Hafen?"]),
    ("a biography set in italics, with a picture after it",
     f"{STORY}{LAST}{BIO}<p><img src='/k.jpg' alt=''></p>",
     ["Absatz 1", "Schluss der Meldung"], ["Karla Beispiel schreibt seit"]),
    ("an emphasised closing quotation without a link is the story's",
     f"{STORY}{LAST}<p><em>„Der Hafen gehört allen“, sagte der Bürgermeister zum Schluss.</em></p>",
     ["Schluss der Meldung", "Der Hafen gehört allen"], []),
    ("a paragraph with only a bold lead-in and a link is plain prose",
     f"{STORY}{LAST}<p><strong>Übrigens:</strong> Der Markt am Kai öffnet am Samstag um acht, "
     f"der <a href='/plan'>Plan</a> hängt am Rathaus.</p>",
     ["Schluss der Meldung", "Übrigens:", "öffnet am Samstag"], []),
    ("a plain paragraph after the note ends the story there, the note stays",
     f"{STORY}{NEWSLETTER}{LAST}",
     ["Mehr vom Hafen?", "Schluss der Meldung"], []),
    ("a story made only of emphasised paragraphs has no plain paragraph: nothing goes",
     "".join(f"<p><em>Die Gemeinde hat am Montag den neuen Hafen eröffnet, nachdem die Arbeiten "
             f"drei Wochen länger gedauert hatten; <a href='/a{i}'>mehr</a>. Teil {i}.</em></p>"
             for i in range(5)),
     ["Teil 0", "Teil 4"], []),
]


@pytest.mark.parametrize("name,article,stay,go", CASES, ids=[c[0] for c in CASES])
def test_tail_notes(name: str, article: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(article), URL)
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_trace_names_the_rule() -> None:
    result = extract(page(f"{STORY}{LAST}{NEWSLETTER}"), URL, trace=True)
    entries = [e for e in result.trace if e.get("rule") == "tail-note"]
    assert entries and entries[0]["count"] == 1
    assert entries[0]["text"][0].startswith("Mehr vom Hafen?")
    assert "Schluss der Meldung" in result.content_text


def test_only_article_pages() -> None:
    """A page neither declared an article nor dated keeps its notes."""
    result = extract(page(f"{STORY}{LAST}{NEWSLETTER}", head=""), URL)
    assert "Schluss der Meldung" in result.content_text
    assert "Mehr vom Hafen?" in result.content_text
