"""The intro-grid stage: on a page that is no article, a category's introduction chosen by the
density score is joined with the grid of linked cards beside it when the grid holds about as
much text (the two at their common block, without the column's filters); a story's rail of
related cards, a small rail and a grid inside the page frame only stay out."""

from __future__ import annotations

import json

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed

INTRO = ("<div class='intro'><h1>Tournament chess pieces</h1>"
         "<p>Weighted wooden pieces made for club and school play: the king stands close to "
         "four inches tall, the pieces are turned from boxwood and stained or ebonised, and "
         "every set is weighted with lead for a steady feel on the board.</p>"
         "<p>Choose the wood, the size of the king and the finish of the base; every set comes "
         "with a storage box and can be matched with a board of the right square size, which "
         "is about one and a quarter times the base of the king.</p></div>")


LONG_INTRO = INTRO.replace("</div>", "".join(
    f"<p>Care of the pieces, part {i}: wipe them with a dry cloth, keep them out of the sun "
    f"and wax the wood once a year so the stain keeps its colour and the felt stays on.</p>"
    for i in range(5)) + "</div>")


def cards(count: int, words: str = "Staunton series weighted pieces in rosewood") -> str:
    return "".join(f"<li class='card'><a href='/pieces/set-{i}'>{words}, set {i}</a>"
                   f"<span>Price 1{i}9.00</span></li>" for i in range(count))


FILTERS = ("<div class='filters'><h3>Filter</h3><ul>"
           + "".join(f"<li><a href='?wood={w}'>{w}</a></li>" for w in
                     ("Boxwood", "Rosewood", "Ebony", "Padauk", "Sheesham"))
           + "</ul></div>")


def page(column: str, declared: str = "CollectionPage") -> str:
    data = json.dumps({"@context": "https://schema.org", "@type": declared,
                       "name": "Tournament chess pieces"})
    return (f"<html><head><title>Tournament chess pieces</title>"
            f"<script type='application/ld+json'>{data}</script></head><body>"
            f"<header><a href='/'>Home</a> <a href='/sets'>Sets</a></header>"
            f"<main>{FILTERS}<div class='column'>{column}</div></main>"
            f"<footer>Imprint, shipping, returns</footer></body></html>")


CASES = [
    # (name, html, must stay, must go)
    ("a category's introduction and its cards beside it are joined, the filters stay out",
     page(INTRO + f"<ul class='products'>{cards(6)}</ul>"),
     ["weighted with lead", "rosewood, set 0", "rosewood, set 5"], ["Padauk", "Imprint"]),
    ("a small rail beside the introduction stays out",
     page(LONG_INTRO + "<ul class='products'>"
          + cards(5, "Staunton series weighted tournament pieces in rosewood and boxwood")
          + "</ul>"),
     ["weighted with lead", "part 4"], ["rosewood, set 0"]),
    ("on an article the rail of cards beside the story stays out",
     page(INTRO + f"<ul class='products'>{cards(6)}</ul>", declared="NewsArticle"),
     ["weighted with lead"], ["rosewood, set 0"]),
]


@pytest.mark.parametrize("name,html,stay,go", CASES, ids=[c[0] for c in CASES])
def test_intro_grid(name: str, html: str, stay: list[str], go: list[str]) -> None:
    result = extract(html, "https://chess.example/pieces/tournament")
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_the_join_is_a_decision_of_its_own() -> None:
    html = page(INTRO + f"<ul class='products'>{cards(6)}</ul>")
    result = extract(html, "https://chess.example/pieces/tournament", trace=True)
    stage = next(d for d in result.decisions if d["stage"] == "intro-grid")
    assert stage["applied"] and "joined" in stage["why"]
    off = extract(html, "https://chess.example/pieces/tournament",
                  disabled_stages={"intro-grid"})
    assert "rosewood, set 0" not in off.content_text
    assert "weighted with lead" in off.content_text
