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
