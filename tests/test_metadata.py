"""Page metadata: titles without site names, authors, ISO dates, language, canonical URL, page type."""

from __future__ import annotations

import json
import re
from pathlib import Path

import lxml.html
import pytest

from crawler.extraction.document import parse_html
from crawler.extraction.metadata import (Metadata, _collapsed_window, extract_metadata, join_names,
                                         normalise_date, split_title, visible_dates)
from crawler.extraction.structured import parse_structured

FIXTURES = Path(__file__).parent / "fixtures" / "metadata"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))


def _metadata(html: str, url: str = "https://site.example/a/b") -> Metadata:
    tree = parse_html(html.encode("utf-8")).tree
    return extract_metadata(tree, url, parse_structured(tree, url))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_metadata_of_fixture_pages(name: str) -> None:
    case = EXPECTED[name]
    tree = parse_html((FIXTURES / name).read_bytes()).tree
    meta = extract_metadata(tree, case["url"], parse_structured(tree, case["url"]))
    got = {field: getattr(meta, field) for field in case["metadata"]}
    assert got == case["metadata"]


@pytest.mark.parametrize("html, title", [
    ("<title>Page — Site docs</title><h1>Page</h1>", "Page"),
    ("<title>Page | Site</title><meta property='og:site_name' content='Site'>", "Page"),
    ("<title>Site: A much longer page title here</title><meta property='og:site_name' content='Site'>",
     "A much longer page title here"),
    ("<title>Installing the tool - Acme</title>", "Installing the tool"),
    ("<title>T</title><header><a class='logo' href='/'><h1>Acme</h1></a></header><main><h1>Real title</h1></main>",
     "Real title"),
    ("<title>Intro | Acme</title><h1>Acme</h1><h1>Intro</h1>", "Intro"),
    ("<title>How to X - Forum</title><h1>Thread: How to X</h1>", "How to X"),
    ("<title>Docs</title><h1>Configuration<a class='headerlink' href='#c'>¶</a></h1>", "Configuration"),
    # The anchor's mark before the title (VuePress) goes; a title's own leading "#" stays.
    ("<title>Docs</title><h1 id='c'><a href='#c' class='header-anchor'>#</a> Configuration</h1>",
     "Configuration"),
    ("<title>x</title><h1>#MeToo at ten</h1>", "#MeToo at ten"),
    ("<title>x</title><h1><a href='/tags/rust'>#rust</a> weekly notes</h1>", "#rust weekly notes"),
    ("<title>x</title><h1>Two<br>lines</h1>", "Two lines"),
    ("<title>Only a title</title>", "Only a title"),
    ("<title>What is Ownership? - The Book</title><h1>The Book</h1><p>x</p>", "What is Ownership?"),
    ("<title>It’s here</title><h1>It’s here</h1>", "It's here"),
    # A <title> of three fragments or more, one at an end longer than all the others together,
    # each of them short (a forum's section and site, a board's "View topic"), is that one; a
    # fragment that is no longer than the rest (a date range cut at its dash) keeps its run.
    ("<title>What happened to the install image in 2024 / Arch Discussion / Arch Linux Forums"
     "</title>", "What happened to the install image in 2024"),
    ("<title>Board &bull; View topic - The 2025 season is back!</title>", "The 2025 season is back!"),
    ("<title>Weekly report 14. - 20. January 2022 - Acme</title>",
     "Weekly report 14. - 20. January 2022"),
    # What follows a leading site name keeps its own dashes.
    ("<title>Acme: «Love knows no pause – a season against hate»</title>"
     "<meta property='og:site_name' content='Acme'>", "«Love knows no pause – a season against hate»"),
    # The classes of <body> name the page's theme options (WordPress's "wp-custom-logo"), not a
    # logo block: the h1 below it is the page's; an h1 in a logo block still is not.
    ("<html><head><title>Shade plants | Green Site</title></head><body class='wp-custom-logo'>"
     "<div class='post'><h1>Ten plants that thrive in shade</h1></div></body></html>",
     "Ten plants that thrive in shade"),
    ("<html><head><title>Real page</title></head><body class='wp-custom-logo'>"
     "<div class='site-logo'><h1>Acme Widgets</h1></div><p>x</p></body></html>", "Real page"),
    ("<p>nothing</p>", None),
])
def test_title(html: str, title: str | None) -> None:
    assert _metadata(html).title == title


@pytest.mark.parametrize("raw, parts", [
    ("Page | Site", ["Page", "Site"]),
    ("Page — Section — Site", ["Page", "Section", "Site"]),
    ("Well-known words stay", ["Well-known words stay"]),
    ("A :: B", ["A", "B"]),
])
def test_split_title(raw: str, parts: list[str]) -> None:
    assert split_title(raw) == parts


@pytest.mark.parametrize("html, author", [
    ("<meta name='author' content='Jo Writer'><p>x</p>", "Jo Writer"),
    ("<meta name='author' content='page.head.author'><p>x</p>", None),
    ("<h1>T</h1><p>By Jane Doe, Senior Editor</p>", "Jane Doe"),
    ("<h1>T</h1><p>By Ann Lee, Bo Chan and Cy Dee</p>", "Ann Lee, Bo Chan, and Cy Dee"),
    ("<h1>T</h1><span class='author-name'>Sam Smith</span>", "Sam Smith"),
    ("<h1>T</h1><a rel='author' href='/u/kim'>Kim Park</a>", "Kim Park"),
    ("<nav><a rel='author' href='/authors'>All authors</a></nav><h1>T</h1>", None),
    ("<h1>T</h1><span class='author-name'>Text by Lee Ray</span>", "Lee Ray"),
    ("<h1>T</h1><span class='byline'>Rae Lo Senior Editor Updated May 2, 2024</span>", "Rae Lo"),
    ("<h1>T</h1><div class='post-author'>Ana Bel Ana Bel</div>", "Ana Bel"),
    ("<h1>T</h1><div class='post-author'>nightowl » Tue Mar 5</div>", "nightowl"),
    ("<h1>T</h1><div class='author'>The Author</div>", None),
    # An author block writing the name and the author's own title apart: the name's element.
    ("<h1>T</h1><div class='author'><div class='name'>Maren Holt</div>"
     "<div class='title'>Baker and cyclist</div></div>", "Maren Holt"),
    # "by NAME" is read within a block: not across a table's cells, a list's items or the
    # title's own words; a "By" alone in its box still names the next one.
    ("<h1>T</h1><table><tr><th>Book</th><th>Finished by</th></tr><tr><td>History of maps</td>"
     "<td>7 of 8</td></tr></table>", None),
    ("<h1>T</h1><ul><li>Author: <a href='/a/mh'>Maren Holt</a></li><li>Category: Home</li></ul>",
     "Maren Holt"),
    ("<h1>A Year of Commuting by Bicycle in the Rain</h1><p>We rode every day.</p>", None),
    ("<h1>T</h1><div><div>By</div><div>The Harbour Team</div></div>", "The Harbour Team"),
    # Nor inside a link's text after other words: another page's title (a table of contents,
    # a "next" link, a footer's "Deploys by Netlify"); a byline's "by" stands before its linked
    # name, or opens the link, and still counts.
    ("<h1>T</h1><ul><li><a href='/ch/bike'>A Year of Commuting by Bicycle in the Rain</a></li>"
     "</ul><p>We rode every day.</p>", None),
    ("<h1>T</h1><p>Next: <a href='/garden'>Gardening by Moonlight</a></p>", None),
    ("<h1>T</h1><p>Posted by <a href='/u/ann'>Ann Lee</a></p>"
     "<p><a href='/ch/bike'>Commuting by Bicycle</a></p>", "Ann Lee"),
    ("<h1>T</h1><p><a href='/u/ann'>by Ann Lee</a></p>", "Ann Lee"),
    ("<h1>T</h1><p>By Ann Lee</p><p><a href='/ch/bike'>Commuting by Bicycle</a></p>", "Ann Lee"),
    # Digits that go on a word are part of the name (a user name); digits that open a word
    # (a date, a count) end it.
    ("<script type='application/ld+json'>{\"@type\": \"DiscussionForumPosting\", \"author\": "
     "{\"@type\": \"Person\", \"name\": \"Pippin06\"}}</script><h1>T</h1>", "Pippin06"),
    ("<meta name='author' content='Need2KnowLion'><p>x</p>", "Need2KnowLion"),
    ("<h1>T</h1><span class='author-name'>lulug30</span>", "lulug30"),
    ("<meta name='author' content='Jo Writer 2024'><p>x</p>", "Jo Writer"),
    ("<h1>T</h1><span class='byline'>Rae Lo 12 comments</span>", "Rae Lo"),
    # A comment form's name field (its label beside its input) is where a reader types a name,
    # not a byline; a byline holding a widget's inputs further down still names the author.
    ("<h1>T</h1><form><p class='comment-form-author'><label for='author'>Name *</label>"
     "<input id='author' name='author'></p></form>", None),
    ("<h1>T</h1><p class='comment-form-author'><label for='a'>Name</label><input id='a'></p>"
     "<p>By Ann Lee</p>", "Ann Lee"),
    ("<h1>T</h1><div class='author'><a href='/u/gq'>Georg Quaas</a>, 21 Jan 2015"
     "<div class='rating'><input type='radio' name='r'></div></div>", "Georg Quaas"),
    # A lead-in closed by a colon ("Written By:") is a lead-in too; where the author block
    # holds the name in its own element (author-name) beside the author's title, the name's.
    ("<h1>T</h1><p class='byline'>Written By: Cazzy Magennis</p>", "Cazzy Magennis"),
    ("<h1>T</h1><div class='author-line'><span class='author-label'>Written By:</span>"
     "<span class='author-name'>Celeste Longacre</span><span class='author-title'>Gardener "
     "&amp; Astrologer</span></div>", "Celeste Longacre"),
    # A comment form's name field inside an author-named block is no name element.
    ("<h1>T</h1><article class='node author-desk'><p>" + "The story's text. " * 8 + "</p>"
     "<form><div class='form-item-name'><label>Your name</label></div></form></article>", None),
    # What a template or a script writes where the author is missing names no one; a byline
    # shown on the page still does.
    ('<script type="application/ld+json">{"@type": "Article", "author": {"@type": "Person", '
     '"name": "undefined"}}</script><h1>T</h1><p>x</p>', None),
    ('<script type="application/ld+json">{"@type": "Article", "author": "{{ post.author }}"}'
     "</script><h1>T</h1><p>By Ann Lee</p>", "Ann Lee"),
    ("<meta name='author' content='null'><h1>T</h1><p>x</p>", None),
    # "by" inside a heading or a control after other words is a shop's filter, not a byline;
    # a byline after it still counts.
    ("<h1>T</h1><h2><span>Filter By </span>Color</h2><ul><li>Brown</li></ul>", None),
    ("<h1>T</h1><button>Sort by Price</button><h3>Shop by Room</h3><p>By Ann Lee</p>",
     "Ann Lee"),
    # The window around the title is measured in the text as read, whatever the markup's
    # indentation before the title.
    ("<div><p>By Ann Lee</p>" + "\n" + " " * 3000 + "</div><h1>T</h1><p>x</p>", "Ann Lee"),
])
def test_author(html: str, author: str | None) -> None:
    assert _metadata(html).author == author


_MENU = "Home\n    Sections\n\t\tWorld  \u2063  Sport \xa0 More\n" * 40


@pytest.mark.parametrize("text, at, before, after", [
    (_MENU + "Title of the story  \n By Jane Doe, 3 May 2021", len(_MENU), 600, 2500),
    (_MENU + "Title of the story", len(_MENU), 30, 8),       # cut far ahead of the title
    (_MENU + "   Title", len(_MENU) + 1, 5, 4),             # the title inside a run of spaces
    (" " * 5000 + "Title   text", 5000, 10, 20),           # nothing but spaces ahead
    ("a  b  c  Title", 9, 600, 2500),                      # less ahead than the window reads
    ("ab" + " " * 3000 + "cd Title", 3005, 3, 2),           # one run longer than the first cut
    ("", 0, 600, 2500),
])
def test_collapsed_window_is_the_window_of_the_collapsed_text(text: str, at: int, before: int,
                                                              after: int) -> None:
    """The window cut from the text with each run of white space made one, the title's place
    counted in that text too, whatever part of the text ahead of the title is collapsed."""
    whole = re.sub(r"\s+", " ", text)
    place = len(re.sub(r"\s+", " ", text[:at]))
    start = max(0, place - before)
    assert _collapsed_window(text, at, before, after) == (whole[start:place + after], place - start)


@pytest.mark.parametrize("names, joined", [
    ([], None), (["A"], "A"), (["A", "B"], "A and B"), (["A", "B", "C"], "A, B, and C"),
])
def test_join_names(names: list[str], joined: str | None) -> None:
    assert join_names(names) == joined


@pytest.mark.parametrize("value, iso", [
    ("2024-01-12T09:30:00+00:00", "2024-01-12"),
    ("2024-1-5", "2024-01-05"),
    ("Jun 24, 2025", "2025-06-24"),
    ("24 June 2025", "2025-06-24"),
    ("2024/02/30", None),
    ("yesterday", None),
    ("", None),
    (None, None),
])
def test_normalise_date(value: str | None, iso: str | None) -> None:
    assert normalise_date(value) == iso


@pytest.mark.parametrize("html, published", [
    # Declared and visible agree.
    ('<script type="application/ld+json">{"@type":"Article","datePublished":"2021-03-04"}</script>'
     "<h1>T</h1><p>March 4, 2021</p>", "2021-03-04"),
    # A date-named meta tag when nothing else is declared.
    ("<meta name='published' content='July 17, 2025'><h1>T</h1>", "2025-07-17"),
    # Only a date shown under the title.
    ("<h1>T</h1><div>October 3, 2024</div><p>Body text.</p>", "2024-10-03"),
    # No date anywhere.
    ("<h1>T</h1><p>Body text.</p>", None),
])
def test_published_date(html: str, published: str | None) -> None:
    assert _metadata(html).published == published


def test_shown_date_settles_a_disagreement() -> None:
    html = ('<script type="application/ld+json">{"@type":"Article","headline":"T","datePublished":"2019-08-11"}'
            '</script><meta property="article:published_time" content="2025-11-21T10:00:00Z">'
            "<h1>T</h1><p class='date'>November 21, 2025</p><p>Body.</p>")
    assert _metadata(html).published == "2025-11-21"


def test_visible_dates_survive_comments_and_skip_scripts() -> None:
    tree = lxml.html.fromstring("<html><body><h1>Title</h1><p><!-- react -->Dec 17, 2025</p>"
                                "<script>var d = 'Jan 1, 2020';</script></body></html>")
    assert visible_dates(tree) == [("2025-12-17", False)]


@pytest.mark.parametrize("shown, language, found", [
    ("Published March 5, 2020", None, [("2020-03-05", False)]),
    ("Sept. 5, 2020 and 7 Dec 2021", "en", [("2020-09-05", False), ("2021-12-07", False)]),
    ("Veröffentlicht am 5 März 2020", "de", [("2020-03-05", False)]),
    ("publié le 5 décembre 2020", None, [("2020-12-05", False)]),
    ("опубликовано 5 марта 2020", "ru", [("2020-03-05", False)]),
    # listopad is November in Polish and October in Croatian: the page's language decides,
    # and without one most languages do (Polish, Czech, Slovak, Sorbian: November).
    ("5 listopad 2020", "pl", [("2020-11-05", False)]),
    ("5 listopad 2020", "hr-HR", [("2020-10-05", False)]),
    ("5 listopad 2020", None, [("2020-11-05", False)]),
    # A word that is no month hides no date after it; a number and a word are no date.
    ("Chapter 5 2020-01-02 and 3 apples 2021", None, [("2020-01-02", False)]),
])
def test_visible_dates_read_month_names_of_many_languages(shown: str, language: str | None,
                                                        found: list) -> None:
    """Month names come from the rules' data (many languages), read in the page's language."""
    tree = lxml.html.fromstring(f"<html><body><h1>Title</h1><p>{shown}</p></body></html>")
    assert visible_dates(tree, language=language) == found


def test_visible_dates_are_read_around_the_title() -> None:
    tree = lxml.html.fromstring("<html><body><nav>Menu</nav><h1>Title</h1>"
                                "<p>Published 2 March 2023 · Updated 5 May 2024</p></body></html>")
    assert visible_dates(tree) == [("2023-03-02", False), ("2024-05-05", True)]


DOCUSAURUS = '<meta name="generator" content="Docusaurus v3.10.2">'
POSTING = '<script type="application/ld+json">{"@type":"BlogPosting","headline":"N"}</script>'


@pytest.mark.parametrize("html, url, page_type", [
    ("<p>x</p>", "https://shop.example/", "homepage"),
    ("<meta property='og:type' content='product'><h1>P</h1>", "https://shop.example/p/1", "product"),
    ("<h1>T</h1>", "https://x.example/docs/install/", "documentation"),
    ("<h1>T</h1>", "https://x.example/forum/topic/9", "forum"),
    ('<script type="application/ld+json">{"@type":"NewsArticle","headline":"N"}</script>',
     "https://x.example/news/n", "article"),
    ("<h1>Plumbing</h1>", "https://x.example/services/plumbing", "service"),
    # A documentation generator's blog post declares itself a post: an article; its docs pages,
    # its API pages and its home page keep their types.
    (DOCUSAURUS + POSTING, "https://x.example/blog/n/", "article"),
    (DOCUSAURUS + "<h1>Install</h1>", "https://x.example/install/", "documentation"),
    (DOCUSAURUS + POSTING.replace("BlogPosting", "TechArticle"), "https://x.example/api/n/",
     "documentation"),
    (DOCUSAURUS + POSTING, "https://x.example/", "documentation"),
    ("<h1>Tents</h1>" + "<div class='card'><a href='/p'>Tent</a> $199.00</div>" * 10, "https://x.example/c/tents",
     "collection"),
])
def test_page_type(html: str, url: str, page_type: str) -> None:
    assert _metadata(html, url).page_type == page_type


def test_language_canonical_and_description() -> None:
    meta = _metadata("<html lang='pt_BR'><head><link rel='canonical' href='/c'>"
                     "<meta name='description' content=' A  page. '></head><body><p>x</p></body></html>")
    assert (meta.language, meta.canonical_url, meta.description) == ("pt-BR", "https://site.example/c", "A page.")


@pytest.mark.parametrize("html", ["", "<html></html>", "<<<>>>", "\x00\x01", "<h1></h1><title></title>"])
def test_malformed_pages_never_raise(html: str) -> None:
    tree = parse_html(html.encode("utf-8")).tree
    if tree is None:
        assert extract_metadata(None, "https://x.example/") == Metadata()
    else:
        assert isinstance(extract_metadata(tree, "https://x.example/"), Metadata)


@pytest.mark.parametrize("block, expected", [
    ("<div class='brand'><a href='/'>Acme  News</a></div>", "Acme News"),
    ("<div class='brand'>" + "<a href='/x'>Section name</a>" * 10 + "</div>", ""),  # a menu
    # a button inside: its text is not read, so lxml's count cannot settle it
    ("<div class='brand'><button>" + "Open the menu " * 10 + "</button>Acme</div>", "Acme"),
    ("<div class='brand'><script>var x = 1;</script>Acme</div>", "Acme"),
    # a menu beside a button: what is shown is still far longer than a name
    ("<div class='brand'><button>Menu</button>" + "<a href='/x'>Section name</a>" * 10
     + "</div>", ""),
    # a script inside a button is not counted twice against the shown text
    ("<div class='brand'><button>" + "Open <script>var s = 'the menu';</script> it " * 10
     + "</button>Acme <b>News</b></div>", "Acme News"),
    # a button named as the brand shows its own text
    ("<button class='brand'>" + "Open the site menu " * 5 + "</button>", ""),
    ("<button class='brand'>Acme</button>", "Acme"),
])
def test_brand_text_is_the_visible_text_or_nothing_when_too_long(block: str, expected: str) -> None:
    import lxml.html

    from crawler.extraction.metadata import _brand_text
    from crawler.extraction.structured import element_text

    el = lxml.html.fromstring(block)
    assert _brand_text(el) == expected
    if expected:
        assert _brand_text(el) == element_text(el)


@pytest.mark.parametrize(("head", "canonical"), [
    ("<link rel='canonical' href='javascript:alert(1)'>", None),
    ("<link rel='canonical' href='data:text/html,x'>", None),
    ("<link rel='canonical' href='mailto:a@site.example'>", None),
    ("<meta property='og:url' content='javascript:alert(1)'>", None),
    ("<link rel='canonical' href='//other.example/c'>", "https://other.example/c"),
    ("<link rel='canonical' href='/c'><meta property='og:url' content='javascript:x'>",
     "https://site.example/c"),
    # a relative canonical link resolves against the page's base, as the crawl reads it; a base
    # no browser uses is ignored; og:url, a meta's content, is no link
    ("<base href='https://cdn.example/docs/'><link rel='canonical' href='c'>",
     "https://cdn.example/docs/c"),
    ("<base href='javascript:x//'><link rel='canonical' href='c'>", "https://site.example/a/c"),
    ("<base href='https://cdn.example/docs/'><meta property='og:url' content='/c'>",
     "https://site.example/c"),
], ids=["javascript", "data", "mailto", "og:url javascript", "another site", "canonical first",
        "against the base", "hostile base", "og:url not against the base"])
def test_a_canonical_url_is_a_web_address_or_none(head: str, canonical: str | None) -> None:
    """A canonical link to ``javascript:``, ``data:`` or ``mailto:`` was returned (and stored) as
    the page's canonical URL; only an http(s) address is one."""
    assert _metadata(f"<html><head>{head}</head><body><p>x</p></body></html>").canonical_url \
        == canonical
