"""Lone link buttons: a block whose whole text is one short link (or one link that runs a
script) between the page's own blocks (a call to action, a "back" control) goes; links in
sentences, list and table entries, headings that are links, runs of three or more short links
(a menu, an index) and long link lines stay."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed, cleaning_steps, page_around

SECTION = ("<p>Unsere Werkstatt repariert Fahrräder aller Marken innerhalb von zwei Tagen, "
           "holt sie auf Wunsch ab und bringt sie gewaschen und geölt zurück. Teil {i}.</p>")


def sections(n: int = 4, start: int = 0) -> str:
    return "".join(f"<h2>Leistung {i}</h2>{SECTION.format(i=i)}" for i in range(start, start + n))


def page(main: str) -> str:
    return page_around(main, title='Werkstatt', heading='Fahrradwerkstatt')


CASES = [
    # (name, main html, must stay, must go)
    ("a button after each section",
     sections(2) + "<div class='b'><a href='/termin'>Termin buchen</a></div>" + sections(2, 2)
     + "<p><a class='btn' href='https://www.rad.example/preise'>Alle Preise ansehen</a></p>",
     ["Leistung 0", "Teil 1", "Teil 3"], ["Termin buchen", "Alle Preise ansehen"]),
    ("a pair of buttons side by side",
     sections(3) + "<div><a href='/a'>Jetzt starten</a></div><div><a href='/k'>Kontakt</a></div>",
     ["Teil 2"], ["Jetzt starten", "Kontakt"]),
    ("three short links in a row are a list",
     sections(3) + "<div><a href='/a'>Reifen</a></div><div><a href='/b'>Bremsen</a></div>"
     "<div><a href='/c'>Schaltung</a></div>",
     ["Teil 2", "Reifen", "Bremsen", "Schaltung"], []),
    ("a link inside a sentence, a list entry and a table cell",
     sections(3) + "<p>Mehr dazu im <a href='/faq'>Fragenkatalog</a>.</p><ul><li><a href='/x'>"
     "Ersatzteile</a></li><li>Zubehör</li></ul><table><tr><td><a href='/y'>Preisliste</a></td>"
     "<td>2024</td></tr></table>",
     ["Mehr dazu im Fragenkatalog", "Ersatzteile", "Preisliste"], []),
    ("card titles are kept, the call to action repeated on every card goes",
     sections(3) + "<div class='grid'>" + "".join(
         f"<div class='card'><div class='t'><a href='/r/{i}'>Rad {n}</a></div><p>Gebraucht, "
         f"geprüft und mit neuen Reifen, sofort abholbereit in der Werkstatt.</p><div class='m'>"
         f"<a href='/r/{i}'>Ansehen</a></div></div>" for i, n in enumerate(("Nord", "Süd", "Ost")))
     + "</div>",
     ["Teil 2", "Rad Nord", "Rad Süd", "Rad Ost", "Gebraucht, geprüft"], ["Ansehen"]),
    ("a linked line introducing a paragraph is its title",
     sections(2) + "<p><a href='https://quelle.example/1'>Werkstatt Nord übernommen</a></p>"
     + SECTION.format(i=7) + "<p><a href='https://quelle.example/2'>Neue Filiale Süd</a></p>"
     + SECTION.format(i=8),
     ["Werkstatt Nord übernommen", "Teil 7", "Neue Filiale Süd", "Teil 8"], []),
    ("a lone link to another site is a reference",
     sections(3) + "<div><a class='button' href='https://verband.example/'>Verband der "
     "Werkstätten</a></div>", ["Teil 2", "Verband der Werkstätten"], []),
    ("a block that is one script link (back, print) goes, a script link in a sentence stays",
     sections(3) + "<p><a href='javascript:history.back()' class='back'>Zur vorherigen Seite"
     "</a></p><p>Die Preise stehen im <a href='javascript:void(0)'>Aushang</a> der Werkstatt."
     "</p><div class='b'><a href='javascript: window.print();'>Drucken</a></div>",
     ["Teil 2", "Die Preise stehen im Aushang der Werkstatt."],
     ["Zur vorherigen Seite", "Drucken"]),
    ("a heading that is a link, and a long link line",
     sections(3) + "<h3><a href='/h'>Winterservice</a></h3>" + SECTION.format(i=9)
     + "<p><a href='/l'>Die vollständige Liste aller Arbeiten mit ihren Preisen</a></p>",
     ["Winterservice", "Teil 9", "Die vollständige Liste aller Arbeiten"], []),
]


@pytest.mark.parametrize("name,main,stay,go", CASES, ids=[c[0] for c in CASES])
def test_link_buttons(name: str, main: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(main), "https://rad.example/werkstatt")
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_a_page_of_short_links_keeps_them() -> None:
    """When the buttons would be much of the text, the container is a page of links."""
    main = SECTION.format(i=0) + SECTION.format(i=1) + "".join(
        f"<p>Vorher</p><div><a href='/{i}'>Standort {i}</a></div>" for i in range(12))
    result = extract(page(main), "https://rad.example/werkstatt")
    assert "Teil 1" in result.content_text
    assert "Standort 0" in result.content_text and "Standort 11" in result.content_text


def test_trace_names_the_rule() -> None:
    main = sections(3) + "<div><a href='/termin'>Termin buchen</a></div>"
    result = extract(page(main), "https://rad.example/werkstatt", trace=True)
    entries = [e for e in result.trace if e.get("rule") == "link-button"]
    assert entries and entries[0]["count"] == 1 and entries[0]["text"] == ["Termin buchen"]
    assert "Teil 2" in result.content_text


def product_cards(n: int) -> str:
    """A page of ``n`` product cards after the text, each a linked name alone on its line (a
    lone link, as a button is) and a price."""
    cards = "".join(f"<div class='card'><div class='name'><a href='/p/{i}'>Modell {i}</a></div>"
                    f"<div class='price'>{i},99 EUR</div></div>" for i in range(n))
    return page(sections(3) + f"<div class='grid'>{cards}</div>")


def test_many_cards_cost_linear_steps() -> None:
    """Eight times the cards cost at most nine times the rule's steps: each card's link asks
    whether it sits in a card, and the like siblings of each parent are counted once, not again
    for every card (a page of 25,000 such cards took more than ten minutes, 4,000 took 20 s)."""
    cleaning_steps(product_cards(10), "link_buttons.py")  # first-use work out of the count
    small, _ = cleaning_steps(product_cards(100), "link_buttons.py")
    large, text = cleaning_steps(product_cards(800), "link_buttons.py")
    assert large <= 9 * small, (small, large)
    assert_kept_and_removed(text, "many product cards", ["Teil 2", "Modell 0", "Modell 799"], [])
