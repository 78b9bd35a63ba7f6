"""An element's text as the rules read it: the same string as lxml.html's ``text_content()``."""

from __future__ import annotations

import lxml.html
import pytest
from lxml import etree

from crawler.extraction.document import parse_html
from crawler.extraction.tree_text import outermost, text_content

#: (markup of the page's body, what the text of its first ``div`` must be).
CASES = [
    ("<div>plain words</div>", "plain words"),
    ("<div></div>", ""),
    ("<div>a <b>bold</b> tail <i>x <u>deep</u></i>!</div>after", "a bold tail x deep!"),
    ("<div><p>one</p>\n  <p>two</p></div>", "one\n  two"),
    ("<div>caf&eacute; &amp; &lt;tag&gt; &#8212;</div>", "café & <tag> \u2014"),
    ("<div>before<!-- a comment -->after</div>", "beforeafter"),
    ("<div>x<br>y<img alt='not text'>z</div>", "xyz"),
    ("<div><script>var s = '<p>';</script>shown</div>", "var s = '<p>';shown"),
    ("<div>\u00a0spaced\u00a0 <span>\t</span></div>", "\u00a0spaced\u00a0 \t"),
    ("<div>漢字 <a href='/x'>リンク</a> عربي</div>", "漢字 リンク عربي"),
]


@pytest.mark.parametrize("markup,expected", CASES)
def test_text_content_matches_lxml(markup: str, expected: str) -> None:
    div = parse_html(f"<html><body>{markup}</body></html>").tree.find(".//div")
    assert text_content(div) == expected
    assert text_content(div) == div.text_content()  # lxml's own answer, kept exactly
    assert div.tail is None or div.tail not in text_content(div)  # its own tail stays out


def test_text_content_of_fragment_and_every_element() -> None:
    """Elements built outside the parser (a fragment, a comment kept by the default parser)
    and every element of a mixed page read alike."""
    root = lxml.html.fromstring(
        "<div>top<!--c--><section><h2>Head</h2><p>para <em>em</em> end</p></section>"
        "<ul><li>one</li><li></li></ul>tail</div>")
    for el in root.iter(etree.Element):
        assert text_content(el) == el.text_content()
    assert text_content(root) == "topHeadpara em endonetail"


#: (markup of a block, tags, the text of each outermost element of those tags it holds).
OUTERMOST_CASES = [
    ("<p>plain <em>one</em> and <b>two <i>inner</i></b>.</p>", ("em", "b", "i"),
     ["one", "two inner"]),
    ("<p>no emphasis at all</p>", ("em", "b"), []),
    ("<p><span><em>deep <em>nested</em></em></span> <em>last</em></p>", ("em",),
     ["deep nested", "last"]),
    ("<em>the block itself <b>bold</b></em>", ("em", "b"), ["bold"]),
    ("<div>menu<button>Open <script>x()</script></button><script>y()</script></div>",
     ("button", "script"), ["Open x()", "y()"]),
]


@pytest.mark.parametrize("markup,tags,expected", OUTERMOST_CASES)
def test_outermost_counts_each_stretch_once(markup: str, tags: tuple[str, ...],
                                            expected: list[str]) -> None:
    block = lxml.html.fragment_fromstring(markup)
    found = list(outermost(block, tags))
    assert [text_content(el) for el in found] == expected
    assert block not in found  # the block itself is never one of them
