"""Rails of cards leading to other pages (card-rail): on a product page, a category or a list,
rows of linked cards beside the page's own text (and the heading titling them) go; the page's
name, price, description, specifications and variant swatches stay; on a service page or a
home page, where the cards are the page's own offer, and where the cards are most of the text
(the page lists them), the cards stay."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from crawler.extraction.card_rails import RAIL_RULE
from tests.kept_and_removed import assert_kept_and_removed

PRODUCT = ('<script type="application/ld+json">{"@context": "https://schema.org", "@type": '
           '"Product", "name": "Lampe Nord"}</script>')
"""The page declares itself a product."""

DESCRIPTION = "".join(
    f"<p>Die Leuchte aus gebürstetem Messing gibt ein warmes, blendfreies Licht und passt auf "
    f"jeden Schreibtisch; der Arm lässt sich in drei Gelenken frei einstellen. Merkmal {i}.</p>"
    for i in range(4))
SPECS = ("<h2>Technische Daten</h2><ul><li>Höhe: 48 cm</li><li>Leistung: 6 W</li>"
         "<li>Kabel: 1,8 m</li></ul>")
PRICE = ("<div class='buy'><span class='price'>89,00 €</span><button>In den Warenkorb</button>"
         "</div>")
SHOP = "https://shop.example/lampe-nord"


def cards(n: int = 4, href: str = "/p/{i}") -> str:
    """``n`` cards of one shape, each a link to another page around a name and a price."""
    return "".join(f"<div class='card'><a href='{href.format(i=i)}'><img src='/i/{i}.jpg' "
                   f"alt=''><span>Stehleuchte Modell {i} aus Eiche</span><span>1{i}9,00 €</span>"
                   f"</a></div>" for i in range(n))


def page(main: str, head: str = PRODUCT) -> str:
    """A shop's page whose ``<main>`` holds the case's HTML under its ``<h1>``."""
    return (f"<html><head><title>Lampe Nord</title>{head}</head><body><header><a href='/'>"
            f"Laden</a></header><main><h1>Lampe Nord</h1>{main}</main><footer>Impressum</footer>"
            f"</body></html>")


RAIL = f"<section><h2>Kunden kauften auch</h2><div class='row'>{cards()}</div></section>"

CASES = [
    # (name, page's head, page's URL, main html, must stay, must go)
    ("a titled rail of linked cards after a product's description",
     PRODUCT, SHOP, f"{PRICE}{DESCRIPTION}{SPECS}{RAIL}",
     ["Lampe Nord", "Merkmal 0", "Merkmal 3", "Technische Daten", "Höhe: 48 cm"],
     ["Kunden kauften auch", "Modell 0", "Modell 3", "139,00 €"]),
    ("a list of linked accessories under its heading",
     PRODUCT, SHOP, f"{DESCRIPTION}<h3>Zubehör</h3><ul class='acc'>"
     + "".join(f"<li class='tile'><a href='/z/{i}'>Ersatzschirm Nummer {i} aus Leinen, 24,00 €"
               f"</a></li>" for i in range(3)) + f"</ul>{SPECS}",
     ["Merkmal 2", "Technische Daten", "Kabel: 1,8 m"], ["Zubehör", "Ersatzschirm Nummer 1"]),
    ("a rail under a category's introduction, on a page declaring nothing",
     "", "https://shop.example/category/leuchten", f"{DESCRIPTION}{RAIL}",
     ["Merkmal 0", "Merkmal 3"], ["Kunden kauften auch", "Modell 2"]),
    ("variant swatches linking to the page itself stay",
     PRODUCT, SHOP, f"{DESCRIPTION}<ul class='colors'>"
     + "".join(f"<li class='sw'><a href='{SHOP}#farbe-{c}'>Ausführung {c} mit "
               f"Textilkabel und Dimmer</a></li>" for c in ("Messing", "Schwarz", "Weiß"))
     + f"</ul>{SPECS}",
     ["Ausführung Messing mit", "Ausführung Weiß", "Merkmal 1"], []),
    ("links standing in a sentence are no rail",
     PRODUCT, SHOP, f"{DESCRIPTION}<p>Passend dazu gibt es den <a class='x' href='/p/1'>Schirm "
     f"aus Leinen in Sand</a>, den <a class='x' href='/p/2'>Fuß aus Eiche mit Filz</a> und die "
     f"<a class='x' href='/p/3'>Wandhalterung aus Stahl</a> in drei Farben.</p>{SPECS}",
     ["Passend dazu gibt es den Schirm aus Leinen", "Fuß aus Eiche", "in drei Farben"], []),
    ("a pair of linked cards is a rail",
     PRODUCT, SHOP, f"{DESCRIPTION}<h3>Dazu passend</h3><div class='row'>{cards(2)}</div>{SPECS}",
     ["Merkmal 3", "Technische Daten"], ["Dazu passend", "Modell 1"]),
    ("a lone linked card is no rail",
     PRODUCT, SHOP, f"{DESCRIPTION}<h3>Dazu passend</h3><div class='row'>{cards(1)}</div>{SPECS}",
     ["Dazu passend", "Modell 0", "Merkmal 3"], []),
    ("reviews with an author link are not cards",
     PRODUCT, SHOP, f"{DESCRIPTION}<div class='rv'>"
     + "".join(f"<div class='r'><a href='/u/{i}'>Kundin {i}</a><p>Sehr schönes Licht, gut "
               f"verarbeitet und schnell geliefert, gerne wieder bei diesem Händler.</p></div>"
               for i in range(3)) + f"</div>{SPECS}",
     ["Kundin 2", "Sehr schönes Licht", "Merkmal 0"], []),
    ("a service page's cards are its own offer and stay",
     "", "https://studio.example/services/lighting", f"{DESCRIPTION}{RAIL}",
     ["Merkmal 0", "Kunden kauften auch", "Modell 3"], []),
    ("a home page's cards are its sections and stay",
     "", "https://studio.example/", f"{DESCRIPTION}{RAIL}",
     ["Merkmal 0", "Kunden kauften auch", "Modell 3"], []),
    ("cards holding most of the container's text are what it lists and stay",
     PRODUCT, SHOP, f"{DESCRIPTION}<div class='row'>{cards(24)}</div>",
     ["Merkmal 3", "Modell 0", "Modell 23"], []),
]


@pytest.mark.parametrize("name,head,url,main,stay,go", CASES, ids=[c[0] for c in CASES])
def test_card_rails(name: str, head: str, url: str, main: str, stay: list[str],
                    go: list[str]) -> None:
    assert_kept_and_removed(extract(page(main, head), url).content_text, name, stay, go)


def test_the_rule_is_traced() -> None:
    result = extract(page(f"{DESCRIPTION}{RAIL}"), SHOP, trace=True)
    entries = [e for e in result.trace if e.get("rule") == RAIL_RULE]
    assert entries and entries[0]["action"] == "removed" and entries[0]["count"] == 1
    listing = extract(page(f"{DESCRIPTION}<div class='row'>{cards(24)}</div>"), SHOP, trace=True)
    assert any(e.get("rule") == RAIL_RULE and e["action"] == "kept" for e in listing.trace)
