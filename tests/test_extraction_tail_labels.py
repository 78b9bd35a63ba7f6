"""Label lines after the story: the final run of short lines after a story's last paragraph
that stand outside the story's flow (another element or another kind than its paragraphs: a
share or rating prompt, a category line, an author box's name and role, a "no comments yet"
line) go; short lines in the story's flow (a source, a credit, the author's last sentence), and
everything before them, stay."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed
from tests.test_extraction_story_tail import LAST, STORY, page

URL = "https://news.example/hafen"


CASES = [
    # (name, article html, must stay, must go)
    ("a share prompt in a box of its own",
     f"{STORY}{LAST}<div class='q1'><div class='q2'>Diesen Artikel teilen</div></div>",
     ["Absatz 0", "Schluss der Meldung"], ["Diesen Artikel teilen"]),
    ("a rating widget beside the paragraphs (another kind of block)",
     f"{STORY}{LAST}<div>War der Artikel nützlich?</div><span class='r'>(12 Stimmen: 4,5 von 5)"
     f"</span><span class='r2'>Laden …</span>",
     ["Absatz 3", "Schluss der Meldung"], ["War der Artikel nützlich?", "12 Stimmen", "Laden"]),
    ("a category line in a meta box and an empty comment list's line",
     f"<div class='e'>{STORY}{LAST}<div class='m'><div class='c'>Kategorie: Hafen, Region</div>"
     f"</div></div><div class='cl'><p>Noch keine Kommentare</p></div>",
     ["Absatz 1", "Schluss der Meldung"], ["Kategorie: Hafen", "Noch keine Kommentare"]),
    ("an author box: name, role and photo after the story",
     f"<div class='t'>{STORY}{LAST}</div><section class='a'><div class='a1'><h3>Karla Beispiel"
     f"</h3><p>Leiterin der Lokalredaktion</p></div><figure><img src='/k.jpg' alt=''></figure>"
     f"</section>",
     ["Absatz 2", "Schluss der Meldung"], ["Karla Beispiel", "Leiterin der Lokalredaktion"]),
    ("a source line in the story's flow stays, the share box after it goes",
     f"{STORY}{LAST}<p>Quelle: Agentur Nord</p><div class='s'><b>Teilen:</b></div>",
     ["Schluss der Meldung", "Quelle: Agentur Nord"], ["Teilen:"]),
    ("the author's short last sentence and a credit in the flow stay",
     f"{STORY}{LAST}<p>Guten Appetit!</p><p>Foto: Karla Beispiel</p>",
     ["Schluss der Meldung", "Guten Appetit!", "Foto: Karla Beispiel"], []),
    ("a label before a line in the flow is not the final run",
     f"{STORY}{LAST}<div class='w'>Hinweis der Redaktion</div><p>Foto: Karla Beispiel</p>",
     ["Hinweis der Redaktion", "Foto: Karla Beispiel"], []),
    ("a long block outside the flow is no label",
     f"<div class='t'>{STORY}{LAST}</div><div class='n'>Die Hafenverwaltung bittet alle "
     f"Besucher, am Eröffnungswochenende mit dem Bus oder dem Rad anzureisen, weil die "
     f"Parkplätze am Kai gesperrt bleiben.</div>",
     ["Schluss der Meldung", "Parkplätze am Kai gesperrt"], []),
    ("a reference list after a label in the flow stays",
     f"{STORY}{LAST}<p><strong>Quellen:</strong></p><ul><li>Bericht des Hafenamts, Mai 2024</li>"
     f"</ul><div class='q'><span>Teilen</span></div>",
     ["Quellen:", "Bericht des Hafenamts", "Schluss der Meldung"], ["Teilen"]),
    ("the story's own list of short lines is no run of labels",
     f"{STORY}{LAST}<div class='b'>" + "".join(f"<div class='f'>Liegeplatz {i}: frei</div>"
                                              for i in range(5)) + "</div>",
     ["Schluss der Meldung", "Liegeplatz 0: frei", "Liegeplatz 4: frei"], []),
    ("a table closing the story stops the run",
     f"{STORY}{LAST}<div class='w'>Kurz notiert</div><table><tr><td>Liegeplätze</td><td>40</td>"
     f"</tr></table>", ["Schluss der Meldung", "Liegeplätze", "Kurz notiert"], []),
]


@pytest.mark.parametrize("name,article,stay,go", CASES, ids=[c[0] for c in CASES])
def test_tail_labels(name: str, article: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(article), URL)
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_trace_names_the_rule() -> None:
    html = page(f"{STORY}{LAST}<div class='q1'><div class='q2'>Diesen Artikel teilen</div></div>")
    result = extract(html, URL, trace=True)
    entries = [e for e in result.trace if e.get("rule") == "tail-label"]
    assert entries and entries[0]["count"] == 1
    assert entries[0]["text"] == ["Diesen Artikel teilen"]
    assert "Schluss der Meldung" in result.content_text


def test_only_article_pages() -> None:
    """A page neither declared an article nor dated keeps its closing lines."""
    html = page(f"{STORY}{LAST}<div class='q1'><div class='q2'>Diesen Artikel teilen</div></div>",
                head="")
    result = extract(html, URL)
    assert "Schluss der Meldung" in result.content_text
    assert "Diesen Artikel teilen" in result.content_text
