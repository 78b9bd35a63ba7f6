"""Accordion panels: items of one shape, each a title (a heading, a button, a term) over a
hidden panel, hold the page's text folded until the reader opens it (a product's questions and
answers, its description and specifications): the panels stay, with no aria-controls naming
them. A lone hidden block after a heading (a folded menu) and hidden blocks outside such items
still go."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from crawler.extraction.clean import accordion_panels
from crawler.extraction.thresholds import THRESHOLDS
from tests.kept_and_removed import assert_kept_and_removed, page_around

INTRO = "".join(f"<p>Die Laterne aus Bambus und Acryl verbreitet ein warmes Licht und einen "
                f"leichten Duft, drinnen wie draußen, Absatz {i}.</p>" for i in range(3))


def item(title: str, answer: str, tag: str = "h3", hiding: str = "style='display: none;'") -> str:
    return (f"<div class='qa'><{tag}>{title}</{tag}><div class='fold' {hiding}><p>{answer}"
            f"</p></div></div>")


def page(main: str) -> str:
    return page_around(main, title='Laterne', heading='Laterne', home='Laden')


CASES = [
    # (name, main html, must stay, must go)
    ("answers folded under their questions stay",
     INTRO + "<div class='faq'>" + item("Draußen nutzbar?", "Ja, sie ist spritzwassergeschützt "
                                        "nach IP44 und hält Regen stand.")
     + item("Welches Öl?", "Lavendel beruhigt, Zitrone erfrischt den Raum.") + "</div>",
     ["Absatz 0", "Draußen nutzbar?", "spritzwassergeschützt", "Lavendel beruhigt"], []),
    ("panels under buttons, hidden by the hidden attribute, stay",
     INTRO + "<section>" + item("Beschreibung", "Gehäuse aus Bambus, Schirm aus Acryl.",
                                tag="button", hiding="hidden")
     + item("Maße", "Höhe 30 cm, Durchmesser 12 cm.", tag="button", hiding="hidden")
     + "</section>",
     ["Gehäuse aus Bambus", "Höhe 30 cm"], []),
    ("a lone hidden block after a heading goes",
     INTRO + item("Menü", "Startseite Laden Konto Warenkorb Hilfe"),
     ["Absatz 2"], ["Startseite Laden Konto"]),
    ("hidden blocks that follow no title go",
     INTRO + "".join(f"<div class='qa'><p>Sichtbar {i}</p><div style='display:none'>"
                     f"<p>Versteckt {i}</p></div></div>" for i in range(3)),
     ["Absatz 1", "Sichtbar 2"], ["Versteckt 0", "Versteckt 2"]),
]


@pytest.mark.parametrize("name,main,stay,go", CASES, ids=[c[0] for c in CASES])
def test_accordion_panels(name: str, main: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(main), "https://shop.example/laterne")
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_the_kept_panels_are_traced() -> None:
    main = INTRO + item("Frage eins?", "Antwort eins.") + item("Frage zwei?", "Antwort zwei.")
    result = extract(page(main), "https://shop.example/laterne", trace=True)
    kept = [e for e in result.trace if e.get("rule") == "accordion-panel"]
    assert len(kept) == 2 and all(e["action"] == "kept" for e in kept)
    assert "Antwort zwei." in result.content_text


def test_one_pass_over_many_items() -> None:
    """Thousands of titled hidden items are read once (no walk per item)."""
    import lxml.html
    items = "".join(item(f"Frage {i}?", f"Antwort {i}.") for i in range(5000))
    root = lxml.html.fromstring(f"<div>{items}</div>")
    assert len(accordion_panels(root, THRESHOLDS)) == 5000
