"""Captions and credits of a story's pictures: the short text sharing a picture's box goes (in
any language, whatever the box is called), the picture stays; a picture in a sentence, a teaser
card, a gallery and a page without a story keep their text."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from tests.story_fixture import STORY_END, story_paragraphs

STORY = story_paragraphs(3)
END = STORY_END

ARTICLE = "<meta property='og:type' content='article'>"
"""The page declares itself an article (the rule's pages; a dated page is one too)."""


def page(article: str, head: str = ARTICLE) -> str:
    return (f"<html><head><title>Le port rouvre</title>{head}</head><body><article><h1>Le port rouvre"
            f"</h1>{article}</article></body></html>")


CASES = [
    # (name, article html, must stay, must go)
    ("a credit line in the picture's wrapper",
     f"{STORY}<div class='m1'><img src='/p/port.jpg' alt='Le port'><p>Photo : Jean Martin / "
     f"Agence</p></div>{END}",
     ["Paragraphe 0", "Fin de l'article", "Le port"], ["Jean Martin"]),
    ("a caption and a credit in spans beside a picture element",
     f"{STORY}<div class='k'><div><picture><source srcset='/p/a.webp'><img src='/p/a.jpg' "
     f"alt='Quai'></picture></div><span class='t'>Le quai, lundi matin.</span> <small>Archives"
     f"</small></div>{END}",
     ["Paragraphe 2", "Fin de l'article"], ["Le quai, lundi matin.", "Archives"]),
    ("a picture inside a sentence keeps the sentence",
     f"{STORY}<p><img src='/i/sun.png' alt=''> Bon appétit à tous !</p>{END}",
     ["Bon appétit à tous", "Fin de l'article"], []),
    ("a teaser card (picture and linked headline) is not a caption",
     f"{STORY}<div class='c'><img src='/p/b.jpg' alt=''><a href='https://autre.example/n/2'>Un autre article du "
     f"jour</a></div>{END}",
     ["Un autre article du jour", "Fin de l'article"], []),
    ("a gallery of three pictures keeps its captions",
     f"{STORY}<div class='g'>" + "".join(f"<div><img src='/g/{i}.jpg' alt=''><p>Vue {i} du "
                                         f"port</p></div>" for i in range(3)) + f"</div>{END}",
     ["Vue 0 du port", "Vue 2 du port"], []),
    ("captioned pictures in the story's flow, each in a wrapper of one class, lose their "
     "captions (a like box between paragraphs is no card of a grid)",
     f"{STORY}" + "".join(f"<div class='imginline'><img src='/p/f{i}.jpg' alt=''><span>Figure "
                          f"{i} : le bassin vu du phare</span></div>{STORY}" for i in range(3))
     + END,
     ["Paragraphe 2", "Fin de l'article"],
     ["Figure 0 : le bassin", "Figure 1 : le bassin", "Figure 2 : le bassin"]),
    ("a picture linked to its full size at the start of a paragraph keeps the paragraph",
     f"{STORY}<p><a href='/p/grand.jpg'><img src='/p/petit.jpg' alt=''></a>Le chantier a-t-il "
     f"vraiment pris du retard ?</p>{END}",
     ["vraiment pris du retard", "Fin de l'article"], []),
    ("a pull quote beside its speaker's portrait is no caption",
     f"{STORY}<div class='q'><blockquote><p>Rejoignez les associations du quai.</p></blockquote>"
     f"<div><img src='/p/visage.jpg' alt=''><span>Claire, pêcheuse</span></div></div>{END}",
     ["Rejoignez les associations du quai", "Claire, pêcheuse", "Fin de l'article"], []),
    ("a picture box holding a heading is a section, not a caption",
     f"{STORY}<div class='s'><img src='/p/c.jpg' alt=''><h2>Les travaux</h2></div>{END}",
     ["Les travaux", "Fin de l'article"], []),
    ("a caption and a credit standing right after a picture in a header with the title go "
     "(caption-sibling: the picture has no box of its own)",
     f"<div class='tete'><h2>Les quais rouvrent</h2><picture><source srcset='/p/h.webp'>"
     f"<img src='/p/h.jpg' alt=''></picture><div class='legende'>Le quai nord, lundi matin, "
     f"avant l'arrivée des bateaux.</div><div class='auteur'>Agence / Jean Martin</div></div>"
     f"{STORY}{END}",
     ["Les quais rouvrent", "Paragraphe 0", "Fin de l'article"],
     ["Le quai nord, lundi matin", "Jean Martin"]),
    ("a dateline in italics right after a picture at a paragraph's start is a word of its "
     "sentence",
     f"{STORY}<p><img src='/p/d.jpg' alt=''> <em>Brest.</em> Le port a rouvert lundi "
     f"après trois semaines de travaux sur les quais et la digue; les pêcheurs, qui attendaient "
     f"depuis l'aube, ont salué l'arrivée des premiers bateaux, et la capitainerie a annoncé "
     f"que le marché du quai reprendra dès samedi prochain, avec les producteurs de la côte et "
     f"des environs.</p>{END}",
     ["Brest.", "Le port a rouvert lundi", "Fin de l'article"], []),
    ("a picture box between short loose lines (an address, a timetable) keeps its text",
     f"{STORY}<div class='texte'><h2>Horaires</h2><br>Lundi : 8 h<br><div class='fig'>"
     f"<img src='/p/plan.jpg' alt=''><span>Plan d'accès au quai nord</span></div><br>"
     f"Samedi : 9 h<br><h2>Accès</h2><br>Quai nord</div>{END}",
     ["Lundi : 8 h", "Plan d'accès au quai nord", "Samedi : 9 h", "Fin de l'article"], []),
    ("a paragraph of the story's own tag right after a picture in its column stays (a lead "
     "under the hero picture)",
     f"<img src='/p/h.jpg' alt=''><p class='chapo'>Le port a rouvert lundi.</p>{STORY}{END}",
     ["Le port a rouvert lundi.", "Paragraphe 0", "Fin de l'article"], []),
]


@pytest.mark.parametrize("name,article,stay,go", CASES, ids=[c[0] for c in CASES])
def test_media_captions(name: str, article: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(article), "https://news.example/port")
    text = result.content_text + result.content_markdown
    for snippet in stay:
        assert snippet in text, f"{name}: lost {snippet!r}"
    for snippet in go:
        assert snippet not in text, f"{name}: kept {snippet!r}"


def test_picture_stays_and_trace_names_the_rule() -> None:
    result = extract(page(f"{STORY}<div><img src='/p/port.jpg' alt='Le port'><p>Photo : Jean "
                          f"Martin</p></div>{END}"), "https://news.example/port", trace=True)
    assert "https://news.example/p/port.jpg" in result.content_markdown
    assert "Jean Martin" not in result.content_markdown
    assert [e for e in result.trace if e.get("rule") == "media-caption"]


def test_no_story_no_caption_removed() -> None:
    """A page of pictures with short texts (a product grid, a portfolio) has no story: kept."""
    body = "".join(f"<div class='x'><img src='/p/{i}.jpg' alt=''><p>Modèle {i}, bois de chêne"
                   f"</p></div>" for i in range(2))
    result = extract(page(body), "https://shop.example/")
    assert "Modèle 0, bois de chêne" in result.content_text
