"""The story's lead standing before the chosen container: the block holding the page's declared
description, in a header box beside the story's body box, is added at the story's start; a
teaser of the story in a menu, a link or a rail, a description the story already holds and a
page that is no article are left as they are."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed
from tests.story_fixture import STORY_END, story_paragraphs

URL = "https://nouvelles.example/2024/port"
LEAD = ("Après trois semaines de retard, le nouveau port de la commune accueille ses premiers "
        "bateaux et les pêcheurs retrouvent leur quai.")
DESCRIBED = f"<meta property='og:description' content='{LEAD}'>"
ARTICLE = "<meta property='og:type' content='article'>"


def page(before: str, head: str = ARTICLE + DESCRIBED, story: str = "") -> str:
    """An article whose title and lead box stand before the story's body box."""
    body = story or story_paragraphs(5) + STORY_END
    return (f"<html><head><title>Le port</title>{head}</head><body>"
            f"<nav><a href='/'>Accueil</a> <a href='/port'>Port</a></nav>"
            f"<div class='page'>{before}<div class='story-body'>{body}</div></div>"
            f"<footer>Mentions légales</footer></body></html>")


CASES = [
    # (name, blocks before the story's body, head, must stay, must go)
    ("a lead paragraph in the header box",
     f"<div class='head'><h1>Le port rouvre</h1><p class='lead'>{LEAD}</p></div>",
     ARTICLE + DESCRIBED, ["Après trois semaines de retard", "Paragraphe 0", "Fin de l'article"],
     ["Accueil", "Mentions légales"]),
    ("a lead in bold inside a paragraph, with more words than the description",
     f"<header><h1>Le port rouvre</h1><p><strong>Enfin: {LEAD}</strong></p></header>",
     ARTICLE + DESCRIBED, ["Enfin: Après trois semaines", "Paragraphe 0", "Fin de l'article"],
     ["Accueil"]),
    ("a lead as a subheading",
     f"<div class='head'><h1>Le port rouvre</h1><h2>{LEAD}</h2></div>",
     ARTICLE + DESCRIBED, ["Après trois semaines de retard", "Paragraphe 0"], ["Accueil"]),
    ("a teaser of the story in a link is no lead",
     f"<div class='head'><h1>Le port rouvre</h1><a href='/port'>{LEAD}</a></div>",
     ARTICLE + DESCRIBED, ["Paragraphe 0", "Fin de l'article"], ["Après trois semaines"]),
    ("a teaser in an aside is no lead",
     f"<aside><p>{LEAD}</p></aside><div class='head'><h1>Le port rouvre</h1></div>",
     ARTICLE + DESCRIBED, ["Paragraphe 0", "Fin de l'article"], ["Après trois semaines"]),
    ("a page that is no article keeps its choice",
     f"<div class='head'><h1>Le port rouvre</h1><p class='lead'>{LEAD}</p></div>",
     DESCRIBED, ["Paragraphe 0", "Fin de l'article"], ["Après trois semaines"]),
    ("a short description is a slogan, not a lead",
     "<div class='head'><h1>Le port rouvre</h1><p class='lead'>Le port rouvre enfin.</p></div>",
     ARTICLE + "<meta property='og:description' content='Le port rouvre enfin.'>",
     ["Paragraphe 0"], ["Le port rouvre enfin."]),
]


@pytest.mark.parametrize("name,before,head,stay,go", CASES, ids=[c[0] for c in CASES])
def test_story_lead(name: str, before: str, head: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(before, head), URL)
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_a_description_the_story_holds_is_not_added_again() -> None:
    """The story opening with its lead keeps it once."""
    story = f"<p>{LEAD}</p>" + story_paragraphs(5) + STORY_END
    result = extract(page(f"<div class='head'><h1>Le port rouvre</h1><p>{LEAD}</p></div>",
                          story=story), URL)
    assert result.content_text.count("Après trois semaines de retard") == 1
    assert "Fin de l'article" in result.content_text


def test_the_lead_comes_first_and_the_trace_names_the_rule() -> None:
    result = extract(page(f"<div class='head'><h1>Le port rouvre</h1><p>{LEAD}</p></div>"),
                     URL, trace=True)
    assert result.content_text.index("Après trois semaines") \
        < result.content_text.index("Paragraphe 0")
    entries = [e for e in result.trace if e.get("rule") == "declared-lead"]
    assert entries and entries[0]["text"].startswith("Après trois semaines")


STANDFIRST = ("Les pêcheurs ont retrouvé leur quai ce matin, après des semaines d'attente et un "
              "chantier qui a coûté deux fois plus que prévu.")
HEAD_CASES = [
    # (name, blocks before the story's body, head, must stay, must go)
    ("an undeclared lead paragraph under the headline",
     f"<div class='head'><h1>Le port rouvre</h1><p>{STANDFIRST}</p></div>",
     ARTICLE, ["Les pêcheurs ont retrouvé", "Paragraphe 0", "Fin de l'article"], ["Accueil"]),
    ("a byline line is passed over, the lead under it is added",
     f"<div class='head'><h1>Le port rouvre</h1><p>Par Jeanne Exemple</p><p>{STANDFIRST}</p>"
     f"</div>",
     ARTICLE, ["Les pêcheurs ont retrouvé", "Paragraphe 0"], ["Par Jeanne Exemple"]),
    ("a paragraph holding a link under the headline (a disclosure) is no lead",
     f"<div class='head'><h1>Le port rouvre</h1><p>{STANDFIRST} <a href='/regles'>Nos règles"
     f"</a></p></div>",
     ARTICLE, ["Paragraphe 0"], ["Les pêcheurs ont retrouvé", "Nos règles"]),
    ("a picture's caption under the headline is no lead",
     f"<div class='head'><h1>Le port rouvre</h1><figure><img src='/p.jpg' alt=''><div><p>"
     f"{STANDFIRST}</p></div></figure></div>",
     ARTICLE, ["Paragraphe 0"], ["Les pêcheurs ont retrouvé"]),
    ("a paragraph before the headline is no lead",
     f"<div class='head'><p>{STANDFIRST}</p><h1>Le port rouvre</h1></div>",
     ARTICLE, ["Paragraphe 0"], ["Les pêcheurs ont retrouvé"]),
    ("a paragraph longer than a lead is the page's own text outside the choice",
     f"<div class='head'><h1>Le port rouvre</h1><p>{STANDFIRST * 6}</p></div>",
     ARTICLE, ["Paragraphe 0"], ["Les pêcheurs ont retrouvé"]),
    ("a page that is no article keeps its choice",
     f"<div class='head'><h1>Le port rouvre</h1><p>{STANDFIRST}</p></div>",
     "", ["Paragraphe 0"], ["Les pêcheurs ont retrouvé"]),
]


@pytest.mark.parametrize("name,before,head,stay,go", HEAD_CASES, ids=[c[0] for c in HEAD_CASES])
def test_head_lead(name: str, before: str, head: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(before, head, story=story_paragraphs(12) + STORY_END), URL)
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_head_lead_comes_first_once_and_the_trace_names_it() -> None:
    result = extract(page(f"<div class='head'><h1>Le port rouvre</h1><p>{STANDFIRST}</p></div>",
                          ARTICLE), URL, trace=True)
    text = result.content_text
    assert text.count("Les pêcheurs ont retrouvé") == 1
    assert text.index("Les pêcheurs ont retrouvé") < text.index("Paragraphe 0")
    entries = [e for e in result.trace if e.get("rule") == "head-lead"]
    assert entries and entries[0]["text"].startswith("Les pêcheurs ont retrouvé")
