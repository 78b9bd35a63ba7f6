"""The story's tail: after a story's last paragraph, lines of links (teasers, tags) and headings
that head nothing left (a share bar's title, a "more on this" over removed links) go; the
story's own closing lines (a source, a credit, a code block, a table) stay."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed

STORY = "".join(
    f"<p>Die Gemeinde hat am Montag den neuen Hafen eröffnet, nachdem die Arbeiten drei Wochen "
    f"länger gedauert hatten als geplant; die ersten Boote legten vor Mittag an. Absatz {i}.</p>"
    for i in range(4))
LAST = ("<p>Der Bürgermeister dankte allen Beteiligten und kündigte an, dass der Markt am Kai ab "
        "dem Frühjahr wieder jeden Samstag stattfinden soll. Schluss der Meldung.</p>")


ARTICLE = "<meta property='og:type' content='article'>"
"""The page declares itself an article (the rule's pages; a dated page is one too)."""


def page(article: str, head: str = ARTICLE) -> str:
    return (f"<html><head><title>Hafen eröffnet</title>{head}</head><body><header><a href='/'>Start"
            f"</a></header><article><h1>Hafen eröffnet</h1>{article}</article><footer>Impressum"
            f"</footer></body></html>")


def teasers(n: int = 3) -> str:
    return "".join(f"<li><a href='/news/{i}'>Eine ganz andere Meldung über das Wetter in der "
                   f"Region, Teil {i}</a></li>" for i in range(n))


CASES = [
    # (name, article html, must stay, must go)
    ("a heading over linked headlines after the story",
     f"{STORY}{LAST}<p>Quelle: Agentur Nord</p><h3>Mehr zum Thema</h3><ul>{teasers()}</ul>",
     ["Absatz 0", "Schluss der Meldung", "Quelle: Agentur Nord"],
     ["Mehr zum Thema", "Teil 0", "Teil 2"]),
    ("a share heading whose buttons were stripped",
     f"{STORY}{LAST}<div class='x9'><h4>Diesen Artikel teilen</h4><button>Mail</button></div>",
     ["Absatz 3", "Schluss der Meldung"], ["Diesen Artikel teilen"]),
    ("a tag line of links and a teaser card with its heading inside the link",
     f"{STORY}{LAST}<div class='k2'><span>Schlagworte:</span> <a href='/t/hafen'>Hafen</a>, "
     f"<a href='/t/markt'>Markt</a>, <a href='/t/fischerei'>Fischerei</a></div><div class='c'><a href='/n/9'><h2>Neue Fähre für die "
     f"Insel bestellt</h2></a></div>",
     ["Schluss der Meldung"], ["Hafen, Markt", "Fischerei", "Neue Fähre"]),
    ("a last section whose heading heads a short closing line",
     f"{STORY}{LAST}<h2>Wie es weitergeht</h2><p>Im Mai folgt der zweite Steg.</p>",
     ["Wie es weitergeht", "Im Mai folgt der zweite Steg."], []),
    ("a list of links inside the story is not its tail",
     f"{STORY[:400]}<h3>Alle Teile</h3><ul>{teasers(6)}</ul>{STORY}{LAST}",
     ["Alle Teile", "Teil 1", "Teil 5", "Schluss der Meldung"], []),
    ("a code block and a table closing the story stay",
     f"{STORY}{LAST}<pre>make install</pre><table><tr><td><a href='/a'>Anlage A</a></td></tr>"
     f"</table>", ["make install", "Anlage A"], []),
    ("a reference list heading its own links, with prose after it",
     f"{STORY}<h2>Quellen</h2><ul><li><a href='https://example.org/study'>Studie zum "
     f"Hafenbau</a></li></ul>{LAST}", ["Quellen", "Studie zum Hafenbau", "Schluss"], []),
]


@pytest.mark.parametrize("name,article,stay,go", CASES, ids=[c[0] for c in CASES])
def test_story_tail(name: str, article: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(article), "https://news.example/hafen")
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_short_blocks_have_no_tail() -> None:
    """A page of short blocks (no story of several paragraphs) keeps its closing links (titles
    longer than menu entries: a pair of menu-length links is pruned as navigation)."""
    body = ("<p>Öffnungszeiten: Montag bis Freitag, 9 bis 17 Uhr, samstags nach Absprache.</p>"
            "<p>Anfahrt mit dem Bus 12 bis zur Haltestelle Hafen, dann fünf Minuten zu Fuß.</p>"
            "<h3>Weitere Seiten</h3><ul><li><a href='/a'>Preise und Tarife für Gruppen und "
            "Schulklassen</a></li><li><a href='/b'>Kontakt und Anfahrt mit Bus und Bahn im "
            "Überblick</a></li></ul>")
    result = extract(page(body), "https://news.example/info")
    assert "Öffnungszeiten" in result.content_text
    assert "Preise und Tarife" in result.content_text


def test_trace_names_the_rule() -> None:
    result = extract(page(f"{STORY}{LAST}<h3>Mehr zum Thema</h3><ul>{teasers()}</ul>"),
                     "https://news.example/hafen", trace=True)
    entries = [e for e in result.trace if e.get("rule") == "story-tail"]
    assert entries and entries[0]["count"] == 4
    assert "Schluss der Meldung" in result.content_text


def test_only_article_pages() -> None:
    """A page that is neither declared an article nor dated (a hub, an index page) keeps the
    link lists after its prose: there they are an index."""
    html = page(f"{STORY}{LAST}<h3>Mehr zum Thema</h3><ul>{teasers()}</ul>", head="")
    result = extract(html, "https://news.example/hafen")
    assert "Schluss der Meldung" in result.content_text
    assert "Mehr zum Thema" in result.content_text and "Teil 2" in result.content_text


@pytest.mark.parametrize("text, limit", [
    ("", 5), ("abc", 5), ("a b c d e", 5), ("abcdef", 5), ("a  b\n\tc", 2),
    (" " * 40 + "abcdef", 5),  # the characters after a blank prefix still count
    ("x" * 30, 5), (" " * 100 + "x" * 6, 5), ("\xa0".join("word" for _ in range(300)), 250),
    ("w " * 251, 250), ("w " * 250, 250), ("w" + " " * 5000 + "w" * 250, 250),
])
def test_more_chars_than_counts_like_non_space_chars(text: str, limit: int) -> None:
    from crawler.extraction.story_tail import more_chars_than, non_space_chars

    assert more_chars_than(text, limit) is (non_space_chars(text) > limit)
