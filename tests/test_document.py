"""The parser's guards: against elements with absurdly many attributes (``limit_attributes``),
and against a page over the size limit losing its article to the code before it."""

from __future__ import annotations

import lxml.html
import pytest

from crawler.extraction.document import MAX_ATTRIBUTES, MAX_HTML_BYTES, _LONG_TAG, _ATTRIBUTE, \
    drop_code_text, limit_attributes, parse_html


def _attrs(count: int, start: int = 0) -> str:
    """``count`` attributes in the spellings pages use (bare, quoted, unquoted, spaced)."""
    forms = (" a{}", ' a{}="v v"', " a{}=x", "  a{} = 'q'")
    return "".join(forms[i % 4].format(i) for i in range(start, start + count))


def _reference(text: str, limit: int) -> tuple[str, int]:
    """The guard as one pattern substitution over the whole page (what it must equal)."""
    cut = 0

    def shorten(match):
        nonlocal cut
        attributes = _ATTRIBUTE.findall(match.group(2))
        if len(attributes) <= limit:
            return match.group(0)
        cut += 1
        return f"<{match.group(1)}{''.join(attributes[:limit])}>"

    return _LONG_TAG.sub(shorten, text), cut


LONG_TEXT = "words " * 1000
#: (page, elements cut with the default limit).
CASES = [
    ("<p>plain page</p>", 0),
    (f"<div{_attrs(MAX_ATTRIBUTES)}>at the limit</div>", 0),
    (f"<div{_attrs(MAX_ATTRIBUTES + 1)}>one over</div><p>after</p>", 1),
    (f"<p>{LONG_TEXT}</p><span{_attrs(3000)}>x</span><p>{LONG_TEXT}</p>", 1),
    (f"<script>var s = '{LONG_TEXT}';</script><i{_attrs(1500)}/>tail<b{_attrs(2000)}>b</b>", 2),
    (f"text before any tag {LONG_TEXT}<x-y{_attrs(1200)}>custom</x-y>", 1),
    (f"<p>{LONG_TEXT}<div{_attrs(2000)}", 0),  # never closed: not a tag the parser reads either
    (f"<<div{_attrs(1100)}>doubled bracket</div>", 1),
]


@pytest.mark.parametrize("page,cut", CASES)
def test_limit_attributes_cuts_only_the_excess(page: str, cut: int) -> None:
    limited, count = limit_attributes(page)
    assert count == cut
    assert (limited, count) == _reference(page, MAX_ATTRIBUTES)
    if not cut:
        assert limited is page or limited == page  # what needs no cut stays as it was
    for text in ("at the limit", "one over", "after", "custom", "doubled bracket", "tail"):
        assert (text in limited) == (text in page)  # the text around a cut tag stays
    if cut:
        assert f" a{MAX_ATTRIBUTES - 1}" in limited  # the first attributes stay
        assert f" a{MAX_ATTRIBUTES}=" not in limited and f" a{MAX_ATTRIBUTES} " not in limited


def test_limit_attributes_with_another_limit() -> None:
    """A smaller limit cuts more of the same long tags (the tags searched stay those long
    enough to exceed the default)."""
    page = f"<div{_attrs(1200)}>text</div><p{_attrs(20)}>short tag</p>"
    for limit in (5, 999, 1200, 2000):
        assert limit_attributes(page, limit) == _reference(page, limit)
    limited, count = limit_attributes(page, 5)
    div, rest = limited.split(">text", 1)
    assert count == 1 and " a4" in div and " a5=" not in div
    assert " a19 = 'q'>short tag" in rest  # a short tag keeps every attribute


def test_parsed_page_keeps_text_after_a_cut_element() -> None:
    tree = parse_html(f"<html><body><div{_attrs(5000)}>inside</div><p>after</p></body></html>").tree
    div = tree.find(".//div")
    assert len(div.attrib) == MAX_ATTRIBUTES
    assert div.text == "inside" and tree.find(".//p").text == "after"


@pytest.mark.parametrize(("markup", "expected"), [
    ("<script>var a = 1;</script><p>Text</p>", "<script></script><p>Text</p>"),
    ("<STYLE media=x>p { color: red }</STYLE><p>Text</p>", "<STYLE media=x></STYLE><p>Text</p>"),
    # data the extraction reads stays
    ('<script type="application/ld+json">{"a": 1}</script><p>T</p>',
     '<script type="application/ld+json">{"a": 1}</script><p>T</p>'),
    # a script left open keeps its text (and the page after it)
    ("<p>A</p><script>var a = '<p>B</p>';", "<p>A</p><script>var a = '<p>B</p>';"),
    ("<p>No code at all.</p>", "<p>No code at all.</p>"),
    ("<scripts>not code</scripts>", "<scripts>not code</scripts>"),
    # drawings, templates, comments and data: URLs, which extraction drops too
    ("<svg viewBox=x><path d='M0 0'/></svg><p>T</p>", "<svg viewBox=x></svg><p>T</p>"),
    ("<template><p>hidden</p></template><p>T</p>", "<template></template><p>T</p>"),
    ("<!-- a note --><p>T</p><!-- open", "<!----><p>T</p><!-- open"),
    ('<img src="data:image/png;base64,iVBOR=" alt=a><p>T</p>', '<img src="data:" alt=a><p>T</p>'),
    ("<img src = 'DATA:x'><p>T</p>", "<img src = 'DATA:'><p>T</p>"),
    # prose quoting "=\"data:" keeps its words (a data: URL holds no space)
    ('<p>Write x="data: the rest" and see.</p>', '<p>Write x="data: the rest" and see.</p>'),
])
def test_code_text_is_dropped_and_markup_kept(markup: str, expected: str) -> None:
    assert drop_code_text(markup) == expected


@pytest.mark.parametrize("code", [
    "<script>" + "x = 1;\n" * (MAX_HTML_BYTES // 7 + 1) + "</script>",
    '<img src="data:image/png;base64,' + "x" * (MAX_HTML_BYTES + 1) + '" alt="x = 1">',
    "<!--" + "x = 1;\n" * (MAX_HTML_BYTES // 7 + 1) + "-->",
    "<svg><path d='" + "x = 1;" * (MAX_HTML_BYTES // 6 + 1) + "'/></svg>",
    "<template><p>" + "x = 1;\n" * (MAX_HTML_BYTES // 7 + 1) + "</p></template>",
], ids=["script", "data URL", "comment", "svg", "template"])
def test_a_page_over_the_size_limit_keeps_the_article_after_what_extraction_drops(
        code: str) -> None:
    page = f"<html><head><title>T</title></head><body>{code}<p>The article after the code.</p>" \
           "</body></html>"
    doc = parse_html(page)
    assert not doc.truncated
    assert "The article after the code." in doc.tree.text_content()
    assert "x = 1;" not in doc.tree.text_content()


def _nested(depth: int) -> str:
    """A page whose article sits under ``depth`` nested divs."""
    return f"<html><body>{'<div>' * depth}<p>deep story</p>{'</div>' * depth}" \
           "<p>after the nesting</p></body></html>"


@pytest.mark.parametrize("page", [
    "<html><head><title>T</title></head><body><p>plain page</p></body></html>",
    f"<html><body><div{_attrs(MAX_ATTRIBUTES + 5)}>cut</div><p>x\x01y</p></body></html>",
    "<html><body><p>first</p></body></html><html lang='x'><body><p>after the end</p>"
    "</body></html>",
    _nested(300),  # deeper than libxml2's default limit: parsed with huge_tree, unwrapped
    _nested(2100),  # deeper than huge_tree parses: the deepest tags removed first
], ids=["plain", "guards", "after-html-end", "deep", "beyond-huge-tree"])
def test_parsing_again_gives_the_same_tree(page: str) -> None:
    doc = parse_html(page)
    first = lxml.html.tostring(doc.tree)
    again = doc.parse_again()
    assert again is not doc.tree
    assert lxml.html.tostring(again) == first
    assert [el.tag for el in again.iter()] == [el.tag for el in doc.tree.iter()]


#: Pages nested past ``MAX_DEPTH`` with much under the deepest element: (name, page, text that
#: must stay, in this order).
DEEP_WITH_MANY = [
    ("20,000 list items under one deep list",
     "<html><body>" + "<ul><li>" * 210 + "<ul>" + "".join(f"<li>item {i}</li>" for i in range(20000))
     + "</ul>" + "</li></ul>" * 210 + "<p>after the list</p></body></html>",
     ["item 0", "item 1", "item 19999", "after the list"]),
    ("paragraphs, links and comments under deep wrappers",
     "<html><body>" + "<div><section>" * 140 + "".join(f"<p>para {i} <a href='/{i}'>link {i}</a>"
                                                     f"<!-- note {i} --> tail {i}</p>"
                                                     for i in range(5000))
     + "</section></div>" * 140 + "<p>after the wrappers</p></body></html>",
     ["para 0 link 0", "tail 0", "para 4999 link 4999", "tail 4999", "after the wrappers"]),
]


@pytest.mark.parametrize("name,page,kept", DEEP_WITH_MANY, ids=[c[0] for c in DEEP_WITH_MANY])
def test_deep_nesting_is_flattened_in_one_pass(name: str, page: str, kept: list[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The elements past the limit are unwrapped into their ancestor at the limit in one pass
    over its subtree, not one by one (each ``drop_tag`` moved the siblings after the element:
    20,000 items under a deep list took 4 s, growing with their square); the text stays, in
    order, each block a paragraph of its own, and comments stay comments."""
    dropped = 0
    original = lxml.html.HtmlElement.drop_tag

    def counted(self) -> None:
        nonlocal dropped
        dropped += 1
        original(self)

    monkeypatch.setattr(lxml.html.HtmlElement, "drop_tag", counted)
    doc = parse_html(page)
    assert dropped == 0, name
    text = doc.tree.text_content()
    positions = [text.find(snippet) for snippet in kept]
    assert -1 not in positions and positions == sorted(positions), (name, positions)
    paragraphs = {p.text_content().strip() for p in doc.tree.iter("p")}
    assert "item 1" in paragraphs or "para 1 link 1 tail 1" in paragraphs  # a block each
    assert "note 4999" not in text and "note 19999" not in text  # comments are no text


_DEEP_PARAGRAPHS = "".join(f"<p>Paragraph {i} of the deep part holds a sentence of plain words "
                           f"for its reader.</p>" for i in range(3))
#: Pages nested past libxml2's limit, their element at ``MAX_DEPTH`` a list, a table or a list
#: item: (name, the nesting around the three paragraphs, open and close).
DEEP_BLOCKS = [
    ("lists 130 deep", "<ul><li>" * 130, "</li></ul>" * 130),
    ("a list at the limit", "<div>" * 196 + "<ul><li>" * 40, "</li></ul>" * 40 + "</div>" * 196),
    ("a table at the limit", "<div>" * 196 + "<table><tr><td>" * 30,
     "</td></tr></table>" * 30 + "</div>" * 196),
    ("a table row at the limit", "<div>" * 195 + "<table><tr><td>" * 30,
     "</td></tr></table>" * 30 + "</div>" * 195),
]


@pytest.mark.parametrize("name,opening,closing", DEEP_BLOCKS, ids=[c[0] for c in DEEP_BLOCKS])
def test_deep_blocks_keep_their_paragraphs_and_their_place(name: str, opening: str,
                                                           closing: str) -> None:
    """Each block's text under the element at the limit is a paragraph of its own, in a place
    the output reads: as text with line breaks the paragraphs ran into one line, and under a
    list or a table at the limit (read only through its items and cells) they were lost."""
    from crawler.extraction import extract

    story = "".join(f"<p>{w} paragraph of the story, with enough plain words to count as its "
                    f"text.</p>" for w in ("First", "Second"))
    page = (f"<html><body><article><h1>Deep</h1>{story}{opening}{_DEEP_PARAGRAPHS}{closing}"
            "<p>Last paragraph of the story, with enough plain words to count as its text.</p>"
            "</article></body></html>")
    markdown = extract(page, "https://example.org/deep").content_markdown
    lines = [line.strip(" -") for line in markdown.split("\n")]
    for i in range(3):
        assert (f"Paragraph {i} of the deep part holds a sentence of plain words for its "
                f"reader.") in lines, (name, markdown[-600:])
    assert "Last paragraph of the story" in markdown and "First paragraph" in markdown
