"""Rails of other products on a product page: rows of linked cards selling other pages (and the
heading titling them) go; the product's name, price, description, specifications and variant
swatches stay; on a page that declares no product, or where the cards are most of the text (a
listing), the cards stay."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed

PRODUCT = ('<script type="application/ld+json">{"@context": "https://schema.org", "@type": '
           '"Product", "name": "Lampe Nord"}</script>')
"""The page declares itself a product (the rule's pages)."""

DESCRIPTION = "".join(
    f"<p>Die Leuchte aus gebürstetem Messing gibt ein warmes, blendfreies Licht und passt auf "
    f"jeden Schreibtisch; der Arm lässt sich in drei Gelenken frei einstellen. Merkmal {i}.</p>"
    for i in range(4))
SPECS = ("<h2>Technische Daten</h2><ul><li>Höhe: 48 cm</li><li>Leistung: 6 W</li>"
         "<li>Kabel: 1,8 m</li></ul>")
PRICE = "<div class='buy'><span class='price'>89,00 €</span><button>In den Warenkorb</button></div>"


def cards(n: int = 4, href: str = "/p/{i}") -> str:
    return "".join(f"<div class='card'><a href='{href.format(i=i)}'><img src='/i/{i}.jpg' "
                   f"alt=''><span>Stehleuchte Modell {i} aus Eiche</span><span>1{i}9,00 €</span>"
                   f"</a></div>" for i in range(n))


def page(main: str, head: str = PRODUCT) -> str:
    return (f"<html><head><title>Lampe Nord</title>{head}</head><body><header><a href='/'>"
            f"Laden</a></header><main><h1>Lampe Nord</h1>{main}</main><footer>Impressum</footer>"
            f"</body></html>")


CASES = [
    # (name, main html, must stay, must go)
    ("a titled rail of linked cards after the description",
     f"{PRICE}{DESCRIPTION}{SPECS}<section><h2>Kunden kauften auch</h2><div class='row'>"
     f"{cards()}</div></section>",
     ["Lampe Nord", "89,00 €", "Merkmal 0", "Merkmal 3", "Technische Daten", "Höhe: 48 cm"],
     ["Kunden kauften auch", "Modell 0", "Modell 3", "139,00 €"]),
    ("a list of linked accessories under its heading",
     f"{DESCRIPTION}<h3>Zubehör</h3><ul class='acc'>"
     + "".join(f"<li class='tile'><a href='/z/{i}'>Ersatzschirm Nummer {i} aus Leinen, 24,00 €"
               f"</a></li>" for i in range(3)) + f"</ul>{SPECS}",
     ["Merkmal 2", "Technische Daten", "Kabel: 1,8 m"], ["Zubehör", "Ersatzschirm Nummer 1"]),
    ("variant swatches linking to the page itself stay",
     f"{DESCRIPTION}<ul class='colors'>"
     + "".join(f"<li class='sw'><a href='https://shop.example/lampe-nord#farbe-{c}'>Ausführung {c} mit "
               f"Textilkabel und Dimmer</a></li>" for c in ("Messing", "Schwarz", "Weiß")) + f"</ul>{SPECS}",
     ["Ausführung Messing mit", "Ausführung Weiß", "Merkmal 1"], []),
    ("links standing in a sentence are no rail",
     f"{DESCRIPTION}<p>Passend dazu gibt es den <a class='x' href='/p/1'>Schirm aus Leinen in "
     f"Sand</a>, den <a class='x' href='/p/2'>Fuß aus Eiche mit Filz</a> und die <a class='x' "
     f"href='/p/3'>Wandhalterung aus Stahl</a> in drei Farben.</p>{SPECS}",
     ["Passend dazu gibt es den Schirm aus Leinen", "Fuß aus Eiche", "in drei Farben"], []),
    ("two linked cards are no rail",
     f"{DESCRIPTION}<h3>Dazu passend</h3><div class='row'>{cards(2)}</div>{SPECS}",
     ["Dazu passend", "Modell 1", "Merkmal 3"], []),
    ("reviews with an author link are not cards",
     f"{DESCRIPTION}<div class='rv'>"
     + "".join(f"<div class='r'><a href='/u/{i}'>Kundin {i}</a><p>Sehr schönes Licht, gut "
               f"verarbeitet und schnell geliefert, gerne wieder bei diesem Händler.</p></div>"
               for i in range(3)) + f"</div>{SPECS}",
     ["Kundin 2", "Sehr schönes Licht", "Merkmal 0"], []),
]


@pytest.mark.parametrize("name,main,stay,go", CASES, ids=[c[0] for c in CASES])
def test_product_rails(name: str, main: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(main), "https://shop.example/lampe-nord")
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_only_product_pages() -> None:
    """A page that declares no product type (a magazine's gift guide) keeps its cards."""
    main = f"{DESCRIPTION}<h2>Unsere Auswahl</h2><div class='row'>{cards()}</div>"
    result = extract(page(main, head=""), "https://shop.example/lampe-nord")
    assert "Merkmal 0" in result.content_text
    assert "Unsere Auswahl" in result.content_text and "Modell 3" in result.content_text


def test_a_container_mostly_of_cards_keeps_them() -> None:
    """When the cards hold most of the text, the container lists products: nothing goes."""
    main = f"{DESCRIPTION}<div class='row'>{cards(24)}</div>"
    result = extract(page(main), "https://shop.example/lampe-nord", trace=True)
    assert "Modell 0" in result.content_text and "Modell 23" in result.content_text
    assert "Merkmal 3" in result.content_text
    assert any(e.get("rule") == "product-rail" and e["action"] == "kept" for e in result.trace)


def test_trace_names_the_rule() -> None:
    main = f"{DESCRIPTION}<h2>Kunden kauften auch</h2><div class='row'>{cards()}</div>"
    result = extract(page(main), "https://shop.example/lampe-nord", trace=True)
    entries = [e for e in result.trace if e.get("rule") == "product-rail"]
    assert entries and entries[0]["action"] == "removed" and entries[0]["count"] == 1
    assert "Merkmal 3" in result.content_text
