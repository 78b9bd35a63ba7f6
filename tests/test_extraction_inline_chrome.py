"""Inline chrome found by structure: on articles, a block the page declares (schema.org microdata) as the
author's box goes, a name declared inline in a sentence stays; a short title line whose block
cleaning removed (a share bar's "share this:", an author box's title) goes with it, while a
subheading over the story's text, the story's last sentence and a label over kept text stay."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed

STORY = "".join(f"<p>Der Gemeinderat hat am Montagabend über den neuen Radweg beraten und nach "
                f"langer Diskussion einen Beschluss gefasst, Absatz {i}.</p>" for i in range(5))
SHARE = ("<ul class='share-links'><li><a href='https://facebook.example/s?u=1'>Facebook</a></li>"
         "<li><a href='https://x.example/s?u=1'>X</a></li><li><a href='mailto:?u=1'>E-Mail</a>"
         "</li></ul>")
AUTHOR = ("<div itemscope itemtype='https://schema.org/Person' itemprop='author'>"
          "<img src='/anna.jpg' alt=''><p><span itemprop='name'>Anna Berg</span> schreibt seit "
          "zwanzig Jahren über Verkehr und Stadtplanung für mehrere Zeitungen der Region.</p>"
          "</div>")

STARS = "".join("<img src='/star-off.gif' alt='' onclick='rate()'>" for _ in range(5))


def page(main: str, kind: str = "article") -> str:
    return (f"<html><head><title>Radweg</title><meta property='og:type' content='{kind}'>"
            f"</head><body><header><a href='/'>Start</a>"
            f"</header><main><article><h1>Neuer Radweg</h1>{main}</article></main>"
            f"<footer>Impressum</footer></body></html>")


CASES = [
    # (name, main html, must stay, must go)
    ("a declared author box goes, with its title line",
     STORY + "<div style='font-weight: bold'>Über die Autorin</div>" + AUTHOR,
     ["Absatz 0", "Absatz 4"], ["Über die Autorin", "schreibt seit zwanzig Jahren"]),
    ("a name declared inline in a sentence stays",
     STORY + "<p>Das sagte <span itemscope itemtype='https://schema.org/Person'><span "
     "itemprop='name'>Anna Berg</span></span>, die Bürgermeisterin, am Abend im Rathaus.</p>",
     ["Absatz 4", "Das sagte Anna Berg, die Bürgermeisterin"], []),
    ("a share bar's title line goes with the bar",
     STORY + "<div class='box'><p><strong>Diesen Artikel teilen</strong></p>" + SHARE + "</div>",
     ["Absatz 4"], ["Diesen Artikel teilen", "Facebook"]),
    ("a line ending in a colon over a removed block goes",
     STORY + "<p>Teilen:</p>" + SHARE, ["Absatz 4"], ["Teilen:", "Facebook"]),
    ("a subheading over an advert and the story's text stays",
     STORY + "<h2>Der Beschluss</h2><div class='advert'>Anzeige</div>" + STORY.replace(
         "Absatz", "Teil"), ["Der Beschluss", "Teil 0"], ["Anzeige"]),
    ("the story's last sentence before a removed share bar stays",
     STORY + "<p>Der Rat tagt im Juni.</p>" + SHARE, ["Der Rat tagt im Juni."], ["Facebook"]),
    ("a label over text that stays is kept",
     STORY + "<p><strong>Quellen:</strong></p><ul><li>Bericht des Gemeinderats, Mai 2024</li>"
     "</ul>", ["Quellen:", "Bericht des Gemeinderats"], []),
]


@pytest.mark.parametrize("name,main,stay,go", CASES, ids=[c[0] for c in CASES])
def test_inline_chrome(name: str, main: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(main), "https://stadt.example/2024/05/radweg")
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_on_other_pages_declared_boxes_and_labels_stay() -> None:
    """A forum's poster boxes and a tree's branch labels are content: the author-box and label
    rules read articles only."""
    main = (STORY + "<div style='font-weight: bold'>Über die Autorin</div>" + AUTHOR
            + "<p>Teilen:</p>" + SHARE + f"<div><span>{STARS}(12 Bewertungen)</span></div>")
    result = extract(page(main, kind="website"), "https://stadt.example/radweg")
    assert_kept_and_removed(result.content_text, "not an article", ["Absatz 4", "Über die Autorin",
                            "schreibt seit zwanzig Jahren", "Teilen:", "12 Bewertungen"],
                            ["Facebook"])
