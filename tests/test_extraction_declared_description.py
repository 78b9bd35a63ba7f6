"""The declared description guard: a block holding the page's declared description (JSON-LD,
OpenGraph) is content whatever cleaning reads in its names or links (a product's description
in an ``<aside>``, a category's introduction in a link-dense header); the blocks around it that
the rules remove still go, a short slogan guards nothing and a wrapper holding much more than
the description is cleaned as usual. Articles are left to the story rules."""

from __future__ import annotations

import json

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed

DESCRIPTION = ("The trail jacket keeps you dry on long climbs: a three-layer shell with taped "
               "seams, pit zips for air and a hood that fits over a helmet.")
DESCRIPTION_BLOCK = f"<aside class='details'><h2>About this jacket</h2><p>{DESCRIPTION}</p></aside>"
SHIPPING = ("<aside class='delivery'><h2>Delivery and returns</h2><p>Standard delivery in four "
            "to seven working days, returns free within thirty days of purchase.</p></aside>")
BUY_BOX = ("<div class='buy'><h1>Trail Jacket</h1><p>Colour: moss green, sizes S to XXL, "
           "machine washable at thirty degrees.</p><p>Price 129.00, in stock at the warehouse "
           "and ready to ship today.</p></div>")
SPECS = "".join(f"<p>Specification line {i}: a measured figure of the shell fabric and its "
                f"seams, tested to the norm of the trade.</p>" for i in range(12))
TOPICS = "".join(f"<a href='/camp/cook/t{i}'>Popular stove topic {i}</a> " for i in range(16))
CARE = "".join(f"<p>Care note {i}: wash the shell cold, dry it on low heat to restore the "
               f"water repellent finish, and store it loose.</p>" for i in range(16))
CATEGORY_INTRO = ("Stoves for every trip: light canister stoves for fast hikes, liquid fuel "
                  "stoves for winter and groups, and everything that cooks on them.")


def page(main: str, description: str | None = DESCRIPTION, kind: str = "Product") -> str:
    declared = ""
    if description is not None:
        declared = ("<script type='application/ld+json'>"
                    + json.dumps({"@context": "https://schema.org", "@type": kind,
                                  "name": "Trail Jacket", "description": description})
                    + "</script>")
    return (f"<html><head><title>Trail Jacket</title>{declared}</head><body>"
            f"<header><a href='/'>Home</a> <a href='/men'>Men</a></header>"
            f"<main>{main}</main><footer>Imprint</footer></body></html>")


CASES = [
    # (name, page html, must stay, must go)
    ("a product's description in an aside stays, the delivery aside goes",
     page(BUY_BOX + DESCRIPTION_BLOCK + SHIPPING),
     ["Trail Jacket", "three-layer shell with taped seams", "About this jacket"],
     ["Standard delivery in four"]),
    ("a category's introduction in a link-dense header stays, a link list goes",
     page("<div class='intro'><a href='/'>Home</a> <a href='/camp'>Camping</a> "
          "<a href='/camp/cook'>Cooking</a> <a href='/camp/cook/stoves'>Stoves</a> "
          f"<a href='/camp/cook/fuel'>Fuel</a><p>{CATEGORY_INTRO}</p>{TOPICS}</div>"
          "<ul class='more'><li><a href='/a'>Camp kitchens</a></li><li><a href='/b'>Fuel "
          "bottles</a></li><li><a href='/c'>Windscreens</a></li></ul>" + SPECS,
          description=CATEGORY_INTRO, kind="CollectionPage"),
     ["light canister stoves for fast hikes", "Popular stove topic 15", "Specification line 11"],
     ["Fuel bottles"]),
    ("without a declared description the aside goes",
     page(BUY_BOX + DESCRIPTION_BLOCK + SHIPPING, description=None),
     ["Trail Jacket"], ["three-layer shell with taped seams", "Standard delivery in four"]),
    ("on an article the story rules judge the description's line: the aside goes",
     page(BUY_BOX + CARE + DESCRIPTION_BLOCK + SHIPPING, kind="NewsArticle"),
     ["Trail Jacket", "Care note 15"], ["three-layer shell", "Standard delivery in four"]),
    ("a short slogan guards nothing",
     page(BUY_BOX + "<aside class='details'><p>Dry on every climb, warm on every summit, for "
          "years.</p></aside>" + SHIPPING,
          description="Dry on every climb, warm on every summit, for years."),
     ["Trail Jacket"], ["Dry on every climb", "Standard delivery in four"]),
    ("a wrapper holding much more than the description is cleaned as usual",
     page(BUY_BOX + CARE + f"<aside class='details'><p>{DESCRIPTION}</p>{SPECS}</aside>"
          + SHIPPING),
     ["Trail Jacket", "Care note 15"],
     ["three-layer shell", "Specification line 11", "Standard delivery"]),
]


@pytest.mark.parametrize("name,html,stay,go", CASES, ids=[c[0] for c in CASES])
def test_declared_description(name: str, html: str, stay: list[str], go: list[str]) -> None:
    result = extract(html, "https://shop.example/trail-jacket")
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_the_guard_is_traced() -> None:
    result = extract(page(BUY_BOX + DESCRIPTION_BLOCK + SHIPPING),
                     "https://shop.example/trail-jacket", trace=True)
    assert any("declared-description" in entry.get("why", "") for entry in result.trace
               if entry.get("step") == "clean" and entry.get("action") == "kept")
    assert "Standard delivery" not in result.content_text
