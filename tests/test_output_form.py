"""The form of the content's Markdown and HTML: what a reader's renderer shows is the page's text,
without markup characters of ours shown as text and without empty elements."""

from __future__ import annotations

import lxml.html
import pytest
from markdown_it import MarkdownIt

from crawler.extraction.output import render_content

BASE = "https://site.example/blog/post"
RENDERER = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _render(html: str):
    return render_content(lxml.html.fragment_fromstring(html, create_parent="div"), BASE)


def _shown(markdown: str) -> str:
    """The text a CommonMark reader shows of ``markdown``."""
    rendered = RENDERER.render(markdown)
    return lxml.html.fromstring(f"<div>{rendered}</div>").text_content()


#: (case, HTML, what the Markdown must hold, what it must not, text shown that must not).
HEADINGS_IN_LINKS = [
    ("a card's title heading inside its link",
     '<a href="/offer"><h3>Get 15% more</h3><p>Ends soon.</p></a>',
     ["[**Get 15% more**", "Ends soon.](https://site.example/offer)"], ["###"], "#"),
    ("a heading partly in bold inside a link",
     '<a href="/a"><h2>Save <b>now</b></h2></a>',
     ["[Save **now**](https://site.example/a)"], ["##"], "#"),
    ("a heading wholly in bold inside a link",
     '<a href="/b"><h2><strong>Bold title</strong></h2></a>',
     ["[**Bold title**](https://site.example/b)"], ["#"], "#"),
    ("a heading inside a link inside a paragraph",
     '<p>See <a href="/c"><span><h4>the guide</h4></span></a> first.</p>',
     ["[**the guide**](https://site.example/c)"], ["####"], "#"),
    ("a heading beside a link stays a heading",
     '<h2>Real heading</h2><p><a href="/d">a link</a></p>',
     ["## Real heading", "[a link](https://site.example/d)"], ["**Real heading**"], "#"),
    ("a link inside a heading stays in the heading",
     '<h2><a href="/e">Linked heading</a></h2>',
     ["## [Linked heading](https://site.example/e)"], ["**"], "#"),
]


@pytest.mark.parametrize("case, html, kept, gone, not_shown", HEADINGS_IN_LINKS,
                         ids=[c[0] for c in HEADINGS_IN_LINKS])
def test_heading_inside_link(case: str, html: str, kept: list[str], gone: list[str],
                             not_shown: str) -> None:
    rendered = _render(html)
    for piece in kept:
        assert piece in rendered.markdown, (case, rendered.markdown)
    for piece in gone:
        assert piece not in rendered.markdown, (case, rendered.markdown)
    assert not_shown not in _shown(rendered.markdown), (case, rendered.markdown)
    assert "#" not in rendered.text and "*" not in rendered.text


#: (case, HTML, what the Markdown must hold, what it must not).
HEADINGS_ON_ONE_LINE = [
    ("a heading inside a heading",
     "<h3>Full-time <span><h3>$390 per hour</h3></span></h3>",
     ["### Full-time **$390 per hour**"], ["### $390"]),
    ("a heading inside a table cell",
     "<table><tr><th>Plan</th><th>Price</th></tr><tr><td><h4>Basic</h4></td><td>$5</td></tr></table>",
     ["| **Basic** | $5 |", "| Plan | Price |"], ["####"]),
    ("a heading of a layout table stays a heading",
     "<table><tr><td><h2>Title</h2><p>Text.</p></td></tr></table>",
     ["## Title", "Text."], ["**Title**"]),
]


@pytest.mark.parametrize("case, html, kept, gone", HEADINGS_ON_ONE_LINE,
                         ids=[c[0] for c in HEADINGS_ON_ONE_LINE])
def test_heading_inside_one_line_context(case: str, html: str, kept: list[str],
                                         gone: list[str]) -> None:
    rendered = _render(html)
    for piece in kept:
        assert piece in rendered.markdown, (case, rendered.markdown)
    for piece in gone:
        assert piece not in rendered.markdown, (case, rendered.markdown)
    assert "#" not in rendered.text and "*" not in rendered.text


#: (case, HTML, what ``content_html`` must hold, what it must not).
EMPTY_ELEMENTS = [
    ("empty paragraphs, one of a line break",
     "<p>First.</p><p></p><p> <br> </p><p>Second.</p>",
     ["<p>First.</p>", "<p>Second.</p>"], ["<p></p>", "<p> <br> </p>", "<br>"]),
    ("a link around only an icon",
     '<p>Share <a href="/s"><i class="icon"></i></a> this and <a href="/r">read</a>.</p>',
     ["Share", '<a href="https://site.example/r" rel="nofollow">read</a>', "this"],
     ['href="https://site.example/s"', "<i>"]),
    ("an empty heading, list item and figure",
     "<h2></h2><ul><li> </li><li>kept item</li></ul><figure><a href='/x'></a></figure><p>x</p>",
     ["<li>kept item</li>", "<p>x</p>"], ["<h2>", "<li> </li>", "<figure>", "site.example/x"]),
    ("a list and a quote holding only empty items go whole",
     "<p>x</p><ol><li></li><li><span></span></li></ol><blockquote><p> </p></blockquote>",
     ["<p>x</p>"], ["<ol>", "<li>", "<blockquote>", "<span>"]),
    ("a table's empty row goes, an empty cell of a row with text stays",
     "<table><tr><th>A</th><th>B</th></tr><tr><td></td><td> </td></tr><tr><td>1</td><td></td></tr></table>",
     ["<th>A</th><th>B</th>", "<td>1</td><td></td>"], ["<td></td><td> </td>"]),
    ("a table of empty cells goes whole",
     "<p>x</p><table><tr><td></td><td><br></td></tr></table>",
     ["<p>x</p>"], ["<table>", "<td>"]),
    ("inline elements holding a line break or a space leave them",
     "<p>one<strong><br></strong>two<span> </span>three</p>",
     ["one<br>two three"], ["<strong>", "<span>", "twothree"]),
    ("an empty block between two words leaves them apart",
     "<div>left<div></div>right</div>",
     ["left\nright"], ["leftright", "<div></div>"]),
    ("images, rules and cells showing something stay",
     '<p><a href="/i"><img src="/i.png" alt=""></a></p><hr><p><b>bold</b><span>0</span></p>',
     ['<img src="https://site.example/i.png"', "<hr>", "<b>bold</b>", "<span>0</span>"], []),
]


@pytest.mark.parametrize("case, html, kept, gone", EMPTY_ELEMENTS,
                         ids=[c[0] for c in EMPTY_ELEMENTS])
def test_empty_elements_leave_content_html(case: str, html: str, kept: list[str],
                                           gone: list[str]) -> None:
    source = lxml.html.fragment_fromstring(html, create_parent="div")
    before = lxml.html.tostring(source)
    rendered = render_content(source, BASE)
    for piece in kept:
        assert piece in rendered.html, (case, rendered.html)
    for piece in gone:
        assert piece not in rendered.html, (case, rendered.html)
    assert lxml.html.tostring(source) == before  # the caller's tree is untouched


#: (case, HTML, the Markdown it must give, the text a reader's renderer must show of it).
EMPHASIS_BESIDE_PUNCTUATION = [
    ("bold ending in a full stop before a word",
     "<p><b>Keep it current.</b>Make sure</p>", "**Keep it current**.Make sure",
     "Keep it current.Make sure"),
    ("italic of a comma alone between words",
     "<p>Showgirl<i>,</i> which</p>", "Showgirl, which", "Showgirl, which"),
    ("bold symbol after a word",
     "<p>Fortune<b>®</b> World</p>", "Fortune® World", "Fortune® World"),
    ("brackets go out together",
     "<p>the <em>(aside)</em>follows</p>", "the (*aside*)follows", "the (aside)follows"),
    ("bold label before a space stays whole",
     "<p><strong>Note:</strong> text</p>", "**Note:** text", "Note: text"),
    ("bold label ending in a space inside it stays whole",
     "<p><strong>Please note: </strong>The service</p>", "**Please note:** The service",
     "Please note: The service"),
    ("bold label before a span starting with a space stays whole",
     "<p><b><span>Group skills:</span></b><span> Classes offer</span></p>",
     "**Group skills:** Classes offer", "Group skills: Classes offer"),
    ("bold before a bold line break stays whole",
     "<p><b>Apps (e.g., TikTok)</b><b><br></b>Focus</p>", "**Apps (e.g., TikTok)**  \nFocus",
     "Apps (e.g., TikTok)\nFocus"),
    ("quoted bold between spaces stays whole",
     '<p>a <b>"quoted"</b> b</p>', 'a **"quoted"** b', 'a "quoted" b'),
    ("bold ending a paragraph keeps its full stop",
     "<p>Read <b>this.</b></p>", "Read **this.**", "Read this."),
    ("bold before a line break keeps its punctuation",
     "<p><b>Participate!</b><br>Whether</p>", "**Participate!**  \nWhether",
     "Participate!\nWhether"),
    ("bold link touching a word is a link without bold",
     '<p>x<b><a href="/u">link</a></b>y</p>', "x[link](https://site.example/u)y", "xlinky"),
    ("bold link after a word is a link without bold",
     '<p>x<b><a href="/u">link</a></b> y</p>', "x[link](https://site.example/u) y", "xlink y"),
    ("bold link beside spaces stays bold",
     '<p>x <b><a href="/u">link</a></b> y</p>', "x **[link](https://site.example/u)** y",
     "x link y"),
]


@pytest.mark.parametrize("case, html, markdown, shown", EMPHASIS_BESIDE_PUNCTUATION,
                         ids=[c[0] for c in EMPHASIS_BESIDE_PUNCTUATION])
def test_emphasis_beside_punctuation(case: str, html: str, markdown: str, shown: str) -> None:
    rendered = _render(html)
    assert rendered.markdown == markdown, case
    assert _shown(rendered.markdown).strip() == shown
    assert "*" not in _shown(rendered.markdown)
    assert rendered.text == shown  # the text form is not touched
