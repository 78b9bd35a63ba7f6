"""Share widgets: links handing the page's own address to another site go with their label (in
any language, whatever the widget is called); a story's single reference link, a box with a
link to the site's own pages, a long paragraph and a site's home page keep their text."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from lxml import etree

from crawler.extraction import extract
from crawler.extraction.addresses import site_host
from crawler.extraction.share_widgets import _is_share_link, page_address
from tests.kept_and_removed import assert_kept_and_removed
from tests.story_fixture import STORY_END, story_paragraphs

URL = "https://news.example/2024/le-port-rouvre"
STORY = story_paragraphs(4)
END = STORY_END


def share(base: str, page: str = URL, text: str = "") -> str:
    """A share button: a link to another site carrying the page's address."""
    return f"<a href='{base}{quote(page, safe='')}'>{text}</a>"


BUTTON_LIST = [share("https://www.facebook.com/sharer.php?u=", text="Facebook"),
               share("https://twitter.com/intent/tweet?url=", text="Twitter"),
               share("mailto:?body=", text="E-mail")]
BUTTONS = "".join(BUTTON_LIST)
ICONS = "".join(f"<li>{share(base)}</li>" for base in (
    "https://www.facebook.com/share.php?u=", "https://twitter.com/intent/tweet?text=",
    "https://www.linkedin.com/shareArticle?url="))


def page(article: str) -> str:
    return (f"<html><head><title>Le port rouvre</title></head><body><article><h1>Le port rouvre"
            f"</h1>{article}</article></body></html>")


CASES = [
    # (name, article html, page url, must stay, must go)
    ("a labelled row of share links goes with its label",
     f"{STORY}<div class='partage'><ul><li>Partager cet article</li>"
     + "".join(f"<li>{button}</li>" for button in BUTTON_LIST) + f"</ul></div>{END}", URL,
     ["Paragraphe 3", "Fin de l'article"], ["Partager cet article", "Twitter"]),
    ("icon buttons without text: the tagline beside them goes",
     f"{STORY}<div class='x'><div>Soyez sociable, partagez !</div><ul>{ICONS}</ul></div>{END}",
     URL, ["Paragraphe 0", "Fin de l'article"], ["Soyez sociable, partagez"]),
    ("a single link carrying the page's address is a reference, not a widget",
     f"{STORY}<p>Voir la discussion {share('https://forum.example/submit?u=', text='sur le forum')}"
     f".</p>{END}", URL, ["Voir la discussion", "sur le forum"], []),
    ("a box linking to the site's own pages is no widget",
     f"{STORY}<div><span>Lire <a href='/2024/le-marche'>le marché du quai</a></span>{BUTTONS}"
     f"</div>{END}", URL, ["le marché du quai"], []),
    ("share links inside a long paragraph leave the paragraph",
     f"{STORY}<p>Les habitants ont longuement commenté l'ouverture du port sur les réseaux, où "
     f"les photos des premiers bateaux ont circulé toute la journée. {BUTTONS}</p>{END}", URL,
     ["longuement commenté l'ouverture du port", "Fin de l'article"], []),
    ("a site's home page names no page of its own: nothing goes",
     f"{STORY}<div><div>Partager le site</div><ul>"
     + "".join(f"<li>{share(b, 'https://news.example/')}</li>" for b in (
         "https://www.facebook.com/share.php?u=", "https://twitter.com/intent/tweet?text="))
     + f"</ul></div>{END}", "https://news.example/",
     ["Partager le site", "Fin de l'article"], []),
]


@pytest.mark.parametrize("name,article,url,stay,go", CASES, ids=[c[0] for c in CASES])
def test_share_widgets(name: str, article: str, url: str, stay: list[str],
                       go: list[str]) -> None:
    assert_kept_and_removed(extract(page(article), url).content_text, name, stay, go)


def test_trace_names_the_rule() -> None:
    result = extract(page(f"{STORY}<div><div>Soyez sociable, partagez !</div><ul>{ICONS}</ul>"
                          f"</div>{END}"), URL, trace=True)
    entries = [e for e in result.trace if e.get("rule") == "share-widget"]
    assert entries and "Soyez sociable" in entries[0]["text"][0]
    assert "Paragraphe 0" in result.content_text


ENCODED = quote(URL, safe="")
LINKS = [
    # (href, is a share link): every kind of address the rule reads without joining it to the
    # page's, and those it must join, answered alike both ways
    (f"https://www.facebook.com/sharer.php?u={ENCODED}", True),
    (f"http://twitter.com/intent/tweet?url={quote(ENCODED, safe='')}", True),
    (f"https://www.linkedin.com/shareArticle?url={URL.replace('://', '://www.')}", True),
    (f"mailto:?body={ENCODED}", True),
    (f"//social.example/share?u={ENCODED}", True),
    (f"HTTPS://social.example/share?u={ENCODED}", True),
    (f"https://social.example/share?\tu={ENCODED}", True),
    (f"https://social.example/share?u={ENCODED}#", True),
    ("/2024/le-marche", False),
    (f"/partager?u={ENCODED}", False),
    ("#commentaires", False),
    (f"https://news.example/partager?u={ENCODED}", False),
    (f"https://www.news.example/partager?u={ENCODED}", False),
    ("https://social.example/share?u=https%3A%2F%2Fnews.example%2F2024%2Fautre", False),
    ("https://social.example/", False),
    ("https://[::1/share", False),
    ("/\t/social.example/share", False),
    ("", False),
]


@pytest.mark.parametrize("href,expected", LINKS, ids=[h[:60] or "empty" for h, _ in LINKS])
def test_links_read_without_joining_answer_as_joined(href: str, expected: bool) -> None:
    link = etree.Element("a", href=href)
    address, site = page_address(URL), site_host(URL)
    assert _is_share_link(link, URL, address, site, web_page=True) is expected
    assert _is_share_link(link, URL, address, site, web_page=False) is expected
