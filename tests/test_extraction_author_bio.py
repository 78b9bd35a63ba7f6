"""The author's biography closing a story, found by the name the page declares as its author:
a last paragraph opening with the full name, or a line holding the name alone (with a role
line) over the biography, goes; a last paragraph naming the author elsewhere than at its
start, one opening with a first name only, a biography on a page declaring no author or no
full name, and a story that would not stand without it keep it, and the story stays."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed
from tests.test_extraction_story_tail import ARTICLE, LAST, STORY, page

URL = "https://news.example/hafen"
AUTHOR = "<meta name='author' content='Karla Beispiel'>"
BIO = ("<p>Karla Beispiel ist Redakteurin im Ressort Küste und schreibt seit zwanzig Jahren über "
       "Häfen, Schiffe und die Menschen, die dort arbeiten.</p>")
BOX = ("<div class='box'><div>Karla Beispiel</div><div>Redakteurin Küste</div><p>Seit zwanzig "
       "Jahren schreibt sie über Häfen, Schiffe und die Menschen, die dort arbeiten; zuvor war "
       "sie Lotsin auf der Elbe und im Hafen von Cuxhaven.</p></div>")

CASES = [
    # (name, head, article html, must stay, must go)
    ("a last paragraph opening with the declared author's full name",
     ARTICLE + AUTHOR, f"{STORY}{LAST}{BIO}",
     ["Absatz 0", "Schluss der Meldung"], ["Redakteurin im Ressort Küste"]),
    ("a line with the name alone, a role line and the biography in a box",
     ARTICLE + AUTHOR, f"{STORY}{LAST}{BOX}",
     ["Absatz 3", "Schluss der Meldung"], ["Redakteurin Küste", "zuvor war sie Lotsin"]),
    ("the name inside the last paragraph, not at its start, is the story's",
     ARTICLE + AUTHOR, f"{STORY}<p>Wie die Redaktion erfuhr, hat auch Karla Beispiel den neuen "
     f"Hafen besucht und den Markt am Kai für die Zeitung beschrieben. Schluss.</p>",
     ["Absatz 0", "den Markt am Kai für die Zeitung"], []),
    ("a declared first name alone is no full name: a paragraph opening with it stays",
     ARTICLE + "<meta name='author' content='Karla'>", f"{STORY}{LAST}{BIO}",
     ["Schluss der Meldung", "Redakteurin im Ressort Küste"], []),
    ("no declared author: the paragraph stays",
     ARTICLE, f"{STORY}{LAST}{BIO}",
     ["Schluss der Meldung", "Redakteurin im Ressort Küste"], []),
    ("a short story that would not stand without the paragraph keeps it",
     ARTICLE + AUTHOR, f"<p>Kurz gemeldet: Der Hafen ist offen. Alles Weitere folgt morgen.</p>"
     f"{BIO}",
     ["Der Hafen ist offen", "Redakteurin im Ressort Küste"], []),
]


@pytest.mark.parametrize("name,head,article,stay,go", CASES, ids=[c[0] for c in CASES])
def test_author_bio(name: str, head: str, article: str, stay: list[str],
                    go: list[str]) -> None:
    result = extract(page(article, head=head), URL)
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_trace_names_the_rule() -> None:
    result = extract(page(f"{STORY}{LAST}{BOX}", head=ARTICLE + AUTHOR), URL, trace=True)
    entries = [e for e in result.trace if e.get("rule") == "author-bio"]
    assert entries and entries[0]["count"] == 3
    assert entries[0]["text"][0] == "Karla Beispiel"
    assert "Schluss der Meldung" in result.content_text


def test_only_article_pages() -> None:
    """A page neither declared an article nor dated keeps the biography."""
    result = extract(page(f"{STORY}{LAST}{BIO}", head=AUTHOR), URL)
    assert "Schluss der Meldung" in result.content_text
    assert "Redakteurin im Ressort Küste" in result.content_text
