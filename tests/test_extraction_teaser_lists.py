"""Teaser lists around a story: rows of cards, each a linked headline of another of the site's
pages with at most a short summary or date, go with their title; the story's paragraphs, its
sentences with links in them, its lists of references to other sites, its lists of short links
and a page made of such cards stay."""

from __future__ import annotations

import pytest

from crawler.extraction import extract, teaser_lists
from tests.kept_and_removed import assert_kept_and_removed

URL = "https://news.example/2024/hafen"
PARAGRAPHS = [f"<p>Die Gemeinde hat am Montag den neuen Hafen eröffnet, nachdem die Arbeiten "
              f"drei Wochen länger gedauert hatten als geplant; die ersten Boote legten vor "
              f"Mittag an. Absatz {i}.</p>" for i in range(5)]
STORY = "".join(PARAGRAPHS)
ARTICLE = "<meta property='og:type' content='article'>"
"""The page declares itself an article (the rule's pages; a dated page is one too)."""


def page(article: str, head: str = ARTICLE) -> str:
    return (f"<html><head><title>Hafen eröffnet</title>{head}</head><body><header><a href='/'>"
            f"Start</a></header><article><h1>Hafen eröffnet</h1>{article}</article><footer>"
            f"Impressum</footer></body></html>")


def card(i: int, dated: bool = True) -> str:
    """A teaser card: a linked headline, a summary of a sentence, a date."""
    date = f"<time>0{i}.02.2024</time>" if dated else ""
    return (f"<div class='card'><h3><a href='/2024/faehre-{i}-faehrt-wieder'>Fähre Nummer {i} fährt "
            f"wieder zur Insel</a></h3><p>Nach der Reparatur nimmt die Fähre ihren Dienst am "
            f"Wochenende wieder auf. Zusammenfassung {i}.</p>{date}</div>")


def inside(html: str) -> str:
    """The story with html between its paragraphs (where the story's tail rule does not look)."""
    return "".join(PARAGRAPHS[:2]) + html + "".join(PARAGRAPHS[2:])


def row(cards: str, title: str = "<h2>Mehr zum Thema</h2>") -> str:
    return f"<section>{title}<div class='row'>{cards}</div></section>"


CASES = [
    # (name, article html, must stay, must go)
    ("a row of linked headlines with summaries after the story",
     STORY + row("".join(card(i) for i in range(4))),
     ["Absatz 0", "Absatz 4"], ["Mehr zum Thema", "Fähre Nummer 0", "Zusammenfassung 3"]),
    ("a list of linked headlines between two paragraphs, with its label line",
     inside("<div class='more'><div class='label'>Lesen Sie auch:</div>" + "".join(
         f"<div><a href='https://www.news.example/artikel/{i}0417'>Der Wochenmarkt zieht zum Kai, "
         f"Teil {i}</a></div>" for i in range(5)) + "</div>"),
     ["Absatz 0", "Absatz 4"], ["Lesen Sie auch", "Der Wochenmarkt zieht", "Teil 4"]),
    ("cards leading to the site's sections (no story's address) stay",
     inside("<div class='row'>" + "".join(
         f"<div class='tile'><h3><a href='/{w}'>Alles über den {w}</a></h3><p>Was Sie zum "
         f"Thema {w} wissen sollten.</p></div>" for w in ("Hafen", "Markt", "Verkehr", "Kai"))
         + "</div>"),
     ["Alles über den Hafen", "Thema Kai", "Absatz 4"], []),
    ("a list of linked headlines standing between the story's paragraphs is the story's",
     inside("<ul>" + "".join(f"<li><a href='/2024/faehre-{i}-faehrt-wieder'>Fähre Nummer {i} "
                             f"fährt nach der Reparatur wieder zur Insel</a></li>"
                             for i in range(6)) + "</ul>"),
     ["Fähre Nummer 0 fährt nach", "Fähre Nummer 5 fährt nach", "Absatz 4"], []),
    ("a hub's index after its introduction, section after section, stays",
     STORY + "".join(f"<h3>Register {k}</h3><ul>" + "".join(
         f"<li><a href='/register/{k}-liste-nummer-{i}'>Liste der Register {k} im Hafen, "
         f"Ausgabe Nummer {i}</a></li>" for i in range(3)) + "</ul>"
         for k in ("Nord", "Süd", "West")),
     ["Register Nord", "Register Nord im Hafen, Ausgabe Nummer 0",
      "Register West im Hafen, Ausgabe Nummer 2"],
     []),
    ("a table of linked documents is data",
     STORY + "<table>" + "".join(
         f"<tr><td><a href='/dokumente/entwurf-nummer-{i}-hafen'>Entwurf Nummer {i} zum "
         f"Hafen</a></td><td>2024</td></tr>" for i in range(4)) + "</table>",
     ["Entwurf Nummer 0 zum Hafen", "Entwurf Nummer 3 zum Hafen", "Absatz 4"], []),
    ("a lone card (a box with a linked headline and its summary) after the story",
     STORY + "<p>Foto: Hafenamt</p><div class='teaser'><span>Thema</span><h3><a "
     "href='/2024/markt-zieht-zum-kai'>Der Wochenmarkt zieht zum Kai</a></h3><p>Ab Mai stehen "
     "die Stände am Wasser.</p></div>",
     ["Absatz 4", "Foto: Hafenamt"], ["Der Wochenmarkt zieht", "Ab Mai stehen die Stände"]),
    ("boxed linked headlines between the story's paragraphs (a round-up) stay",
     "".join(f"<div class='item'><h3><a href='/bauen/pflanzkasten-nummer-{i}'>Pflanzkasten "
             f"Nummer {i} aus Holz</a></h3><p>Ein einfacher Kasten für den Balkon.</p></div>"
             + PARAGRAPHS[i] for i in range(5)),
     ["Pflanzkasten Nummer 0 aus Holz", "Pflanzkasten Nummer 4 aus Holz", "Absatz 4"], []),
    ("linked headings in the story's own flow (entries over their paragraphs) stay",
     "".join(f"<h2><a href='/hotels/hotel-am-kai-{i}'>Hotel am Kai Nummer {i}</a></h2>"
             + PARAGRAPHS[i] for i in range(5)),
     ["Hotel am Kai Nummer 0", "Hotel am Kai Nummer 4", "Absatz 4"], []),
    ("a list of references to other sites stays",
     inside("<h2>Quellen</h2><ul>" + "".join(
         f"<li><a href='https://agentur{i}.example/meldung'>Meldung der Agentur Nord "
         f"Nummer {i}</a></li>" for i in range(4)) + "</ul>"),
     ["Absatz 4", "Quellen", "Meldung der Agentur Nord Nummer 0"], []),
    ("sentences with a link to the site's pages stay",
     "".join(f"<p>Der Plan liegt laut <a href='/2024/rathaus-{i}'>dem Bericht aus dem "
             f"Rathaus</a> seit Montag aus, Absatz {i}.</p>" for i in range(8)) + STORY,
     ["dem Bericht aus dem Rathaus seit Montag aus, Absatz 0", "Absatz 7", "Absatz 4"], []),
    ("a list of linked names (no headlines) is the story's own",
     inside("<ul>" + "".join(
         f"<li><a href='/personen/{w}'>Hafenmeisterin {w}kraftschulze</a></li>"
         for w in ("Alberta", "Bernharda", "Cäcilia", "Dorothea", "Eleonora")) + "</ul>"),
     ["Absatz 4", "Hafenmeisterin Albertakraftschulze", "Eleonorakraftschulze"], []),
    ("cards of long texts are the story's sections",
     STORY + "".join(card(i).replace("Zusammenfassung", "Die Fähre fuhr lange Zeit nicht. " * 15)
                     for i in range(3)),
     ["Fähre Nummer 0", "Fähre Nummer 2", "Absatz 4"], []),
    ("a box of titled teaser lists goes whole, its headings (one naming a linked author) too",
     STORY + "<div class='more'><h2>Mehr von <a href='/autoren/anna'>Anna</a></h2><ul>"
     + "".join(f"<li><a href='/2024/faehre-{i}-faehrt-wieder'>Fähre Nummer {i} fährt wieder "
               f"zur Insel</a></li>" for i in range(4))
     + "</ul><h2>Neueste Meldungen</h2><ul>"
     + "".join(f"<li><a href='/2024/markt-{i}-zieht-um'>Der Wochenmarkt Nummer {i} zieht zum "
               f"Kai</a></li>" for i in range(4)) + "</ul></div>" + PARAGRAPHS[0],
     ["Absatz 0", "Absatz 4"],
     ["Mehr von", "Fähre Nummer 0", "Neueste Meldungen", "Der Wochenmarkt Nummer 3"]),
    ("a box of the story's sections, prose beside each list, stays",
     inside("<div class='section'><h2>Fähren</h2><p>Die Fähren fahren ab Montag wieder nach "
            "dem Sommerfahrplan, wie die Reederei mitteilte, Abschnitt eins.</p><ul>"
            + "".join(f"<li><a href='/2024/faehre-{i}-faehrt-wieder'>Fähre Nummer {i} fährt "
                      f"wieder zur Insel</a></li>" for i in range(4))
            + "</ul><h2>Markt</h2><ul>"
            + "".join(f"<li><a href='/2024/markt-{i}-zieht-um'>Der Wochenmarkt Nummer {i} "
                      f"zieht zum Kai</a></li>" for i in range(4)) + "</ul></div>"),
     ["Fähre Nummer 0", "Der Wochenmarkt Nummer 3", "Abschnitt eins", "Absatz 4"], []),
    ("a short story's row of cards holding twice its prose goes",
     "".join(PARAGRAPHS[:3]) + row("".join(card(i) for i in range(8))),
     ["Absatz 0", "Absatz 2"], ["Mehr zum Thema", "Fähre Nummer 0", "Zusammenfassung 7"]),
    ("a row's title of a long line (under sixty characters) goes with it",
     STORY + "<h2>Weitere Meldungen aus dem Hafen und der Umgebung</h2><div class='row'>"
     + "".join(card(i) for i in range(4)) + "</div><p>Fotos: Hafenamt</p>",
     ["Absatz 0", "Absatz 4", "Fotos: Hafenamt"],
     ["Weitere Meldungen aus dem Hafen", "Fähre Nummer 0"]),
    ("a page made of cards with a short introduction lists pages",
     "<p>Alle Meldungen zum Hafen.</p>" + row("".join(card(i) for i in range(6))),
     ["Alle Meldungen zum Hafen", "Fähre Nummer 0", "Zusammenfassung 5"], []),
]


@pytest.mark.parametrize("name,article,stay,go", CASES, ids=[c[0] for c in CASES])
def test_teaser_lists(name: str, article: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(article), URL)
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_pages_other_than_articles_keep_their_cards() -> None:
    """On a page that is not an article (no declared type, no date) a row of linked headlines is
    the page's own: the rule does not run."""
    result = extract(page(STORY + row("".join(card(i, dated=False) for i in range(4))),
                          head=""),
                     "https://news.example/hafen")
    assert "Fähre Nummer 0" in result.content_text
    assert "Absatz 4" in result.content_text


def test_trace_names_the_rule() -> None:
    """What the rule removed is in the trace under its name."""
    result = extract(page(STORY + row("".join(card(i) for i in range(3)))), URL, trace=True)
    entries = [e for e in result.trace if e.get("rule") == "teaser-list"]
    assert entries and "Fähre Nummer 0" in entries[0]["text"][0]
    assert "Absatz 4" in result.content_text


def numbered_card(i: int) -> str:
    """A teaser card carrying a class of its own (its index), as some templates number them."""
    return card(i).replace("<div class='card'>", f"<div class='card card_{i}'>", 1)


TAG_CASES = [
    # (name, article html, must stay, must go)
    ("a row of cards each with a class of its own after the story",
     STORY + row("".join(numbered_card(i) for i in range(4)), title="<h2>Auch aktuell</h2>"),
     ["Absatz 0", "Absatz 4"], ["Auch aktuell", "Fähre Nummer 0", "Zusammenfassung 3"]),
    ("cards each with a class of its own, in article elements, a row with its label",
     STORY + "<div class='more'><div class='label'>Auch aktuell</div><div class='row'>" + "".join(
         f"<article class='article article_{i}'><h2><a href='/2024/faehre-{i}-faehrt-wieder'>"
         f"Fähre Nummer {i} fährt wieder zur Insel</a></h2><div>0{i}.02.2024</div></article>"
         for i in range(5)) + "</div></div>",
     ["Absatz 0", "Absatz 4"], ["Fähre Nummer 0", "Fähre Nummer 4"]),
    ("paragraphs each with a class of their own are the story",
     "".join(p.replace("<p>", f"<p class='para-{i}'>", 1) for i, p in enumerate(PARAGRAPHS)),
     ["Absatz 0", "Absatz 4"], []),
    ("a list of linked headlines with numbered items between the story's paragraphs stays",
     inside("<ul>" + "".join(f"<li class='item-{i}'><a href='/2024/faehre-{i}-faehrt-wieder'>"
                             f"Fähre Nummer {i} fährt nach der Reparatur wieder zur Insel</a>"
                             f"</li>" for i in range(6)) + "</ul>"),
     ["Fähre Nummer 0 fährt nach", "Fähre Nummer 5 fährt nach", "Absatz 4"], []),
    ("a page made of numbered cards with a short introduction lists pages",
     "<p>Alle Meldungen zum Hafen.</p>" + row("".join(numbered_card(i) for i in range(6))),
     ["Alle Meldungen zum Hafen", "Fähre Nummer 0", "Zusammenfassung 5"], []),
]


@pytest.mark.parametrize("name,article,stay,go", TAG_CASES, ids=[c[0] for c in TAG_CASES])
def test_teaser_rows_by_tag(name: str, article: str, stay: list[str], go: list[str]) -> None:
    """Cards that each carry a class of their own (an index, an id) form a row by their tag:
    the row after the story goes, named in the trace; the story's paragraphs, its own lists and
    a page made of such cards stay."""
    result = extract(page(article), URL, trace=True)
    assert_kept_and_removed(result.content_text, name, stay, go)
    assert bool(go) == any(e.get("rule") == "teaser-tag" for e in result.trace)


def alternating_cards(n: int) -> str:
    """``n`` boxed linked headlines under one parent, in two tags by turns (no row: neither
    tag's cards hold most of the parent's text), each a lone card to judge."""
    return "".join(f"<{tag} class='card'><h3><a href='/2024/faehre-{i}-faehrt-wieder'>Fähre "
                   f"Nummer {i} fährt wieder zur Insel</a></h3><p>Nach der Reparatur fährt sie "
                   f"wieder. Zusammenfassung {i}.</p></{tag}>"
                   for i, tag in zip(range(n), ("section", "div") * n))


def characters_read(html: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """Characters of text the teaser rules read while extracting ``html`` (a count of the work
    that, unlike a duration, no machine's load changes), and the extracted text."""
    read = 0
    own = teaser_lists.text_content

    def counting(el):
        nonlocal read
        text = own(el)
        read += len(text)
        return text

    monkeypatch.setattr(teaser_lists, "text_content", counting)
    text = extract(page(STORY + f"<div class='more'>{html}</div>"), URL).content_text
    monkeypatch.setattr(teaser_lists, "text_content", own)
    return read, text


def test_many_lone_cards_cost_linear_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight times the lone cards cost at most nine times the text read: the parent around
    the cards is measured once, not once per card (800 cards read 61.9 million characters
    before, 100 cards 1.0 million)."""
    small, _ = characters_read(alternating_cards(100), monkeypatch)
    large, text = characters_read(alternating_cards(800), monkeypatch)
    assert large <= 9 * small, (small, large)
    assert_kept_and_removed(text, "many lone cards", ["Absatz 4", "Fähre Nummer 0",
                                                      "Fähre Nummer 799"], [])
