"""Output forms of the content element: sanitised HTML, faithful Markdown, block-aware text."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import lxml.html
import pytest

from crawler.extraction.output import render_content, safe_url, sanitize_html

FIXTURES = Path(__file__).parent / "fixtures" / "output"
BASE = "https://example.org/start/"


def _payloads() -> list[str]:
    """XSS payloads, one per line of the fixture file (comment lines skipped)."""
    lines = (FIXTURES / "xss_payloads.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("# ")]


def _render(html: str, base: str = BASE):
    return render_content(lxml.html.fragment_fromstring(html, create_parent="div"), base)


#: What must never reach a reader's browser, whatever the payload.
FORBIDDEN = re.compile(
    r"<\s*(script|style|iframe|object|embed|form|input|button|svg|math|meta|link|base|template|noscript|video)\b"
    r"|\son\w+\s*=|javascript:|vbscript:|data:|style\s*=|srcset|xlink|background\s*=|poster\s*=|ftp:",
    re.IGNORECASE)


@pytest.mark.parametrize("payload", _payloads())
def test_sanitised_html_has_no_active_content(payload: str) -> None:
    rendered = _render(f"<p>Visible text.</p>{payload}")
    assert not FORBIDDEN.search(rendered.html), rendered.html
    assert "Visible text." in rendered.html
    for form in (rendered.markdown, rendered.text):
        assert not re.search(r"javascript:|vbscript:|data:|alert\(1\)|steal\(\)", form, re.I), form


@pytest.mark.parametrize("html, hidden", [
    ('<p>shown</p><p style="display:none">secret one</p>', "secret one"),
    ('<p>shown</p><p style="visibility: hidden">secret two</p>', "secret two"),
    ("<p>shown</p><p hidden>secret three</p>", "secret three"),
    ('<p>shown</p><span aria-hidden="true">secret four</span>', "secret four"),
])
def test_hidden_elements_are_left_out_of_every_form(html: str, hidden: str) -> None:
    rendered = _render(html)
    for form in (rendered.html, rendered.markdown, rendered.text):
        assert "shown" in form
        assert hidden not in form


@pytest.mark.parametrize("html, expected", [
    ('<a href="/docs/x">x</a>', '<a href="https://example.org/docs/x" rel="nofollow">x</a>'),
    ('<a href="page2">x</a>', '<a href="https://example.org/start/page2" rel="nofollow">x</a>'),
    ('<a href="mailto:a@example.org">x</a>', '<a href="mailto:a@example.org" rel="nofollow">x</a>'),
    ('<a href="https://other.example/" rel="me">x</a>', '<a href="https://other.example/" rel="nofollow">x</a>'),
    ('<img src="/i.png" alt="A cat" title="Cat" width="10">', '<img src="https://example.org/i.png" alt="A cat" title="Cat">'),
])
def test_links_and_images_are_absolute_with_allowed_attributes_only(html: str, expected: str) -> None:
    assert expected in _render(html).html


PAGE_URL = "https://example.org/guide/page.html"
BASE_ARTICLE = ("<p>The harbour reopened on Monday after three weeks of repairs, and the first "
                "boats arrived before noon, loaded with fish, ice and visitors from the towns "
                "along the coast.</p>" * 5)


@pytest.mark.parametrize("base, link, image", [
    # a valid http(s) base: content links and images resolve against it, as in a browser
    ('<base href="https://cdn.example.net/docs/">', "https://cdn.example.net/docs/next.html",
     "https://cdn.example.net/img/cat.png"),
    # a base relative to the page's URL resolves against it first
    ('<base href="/v2/">', "https://example.org/v2/next.html", "https://example.org/img/cat.png"),
    # the first base with an href decides
    ('<base target="_blank"><base href="https://a.example/x/"><base href="https://b.example/">',
     "https://a.example/x/next.html", "https://a.example/img/cat.png"),
    # hostile or unusable bases are ignored: the page's own URL
    ('<base href="javascript:alert(1)//">', "https://example.org/guide/next.html",
     "https://example.org/img/cat.png"),
    ('<base href="data:text/html,x">', "https://example.org/guide/next.html",
     "https://example.org/img/cat.png"),
    ('<base href="ftp://files.example/pub/">', "https://example.org/guide/next.html",
     "https://example.org/img/cat.png"),
    ('<base href="http://[::1">', "https://example.org/guide/next.html",
     "https://example.org/img/cat.png"),
    ('<base href="http://example.org:99999/">', "https://example.org/guide/next.html",
     "https://example.org/img/cat.png"),
    ("", "https://example.org/guide/next.html", "https://example.org/img/cat.png"),
    # a base longer than any URL the crawl requests: every link would be longer still
    (f'<base href="https://cdn.example.net/{"a" * 100_000}/">', "https://example.org/guide/next.html",
     "https://example.org/img/cat.png"),
])
def test_content_links_resolve_against_a_valid_base(base: str, link: str, image: str) -> None:
    from crawler.extraction import extract

    html = (f"<html><head><title>Harbour</title>{base}</head><body><article>{BASE_ARTICLE}"
            '<p>Read the <a href="next.html">next part</a> of the story.</p>'
            '<img src="../img/cat.png" alt="A cat"></article></body></html>')
    result = extract(html, PAGE_URL)
    assert "next part" in result.content_text and "fish, ice and visitors" in result.content_text
    assert f'href="{link}"' in result.content_html
    assert f"]({link})" in result.content_markdown
    assert f'src="{image}"' in result.content_html
    assert f"]({image})" in result.content_markdown
    for form in (result.content_html, result.content_markdown):
        assert not re.search(r"javascript:|data:|ftp:|\[::1|99999|aaaa", form), form


def test_a_relative_base_of_a_page_without_address_is_ignored() -> None:
    from crawler.extraction import extract

    html = (f'<html><head><base href="/v2/"></head><body><article>{BASE_ARTICLE}'
            '<p>Read the <a href="next.html">next part</a>.</p></article></body></html>')
    result = extract(html)
    assert "next part" in result.content_text
    assert "v2" not in result.content_html and "v2" not in result.content_markdown


@pytest.mark.parametrize("value, expected", [
    ("/a", "https://example.org/a"),
    ("https://x.example/b?c=1", "https://x.example/b?c=1"),
    ("mailto:a@example.org", "mailto:a@example.org"),
    ("javascript:alert(1)", None),
    (" JAVA\tSCRIPT:alert(1)", None),
    ("data:text/html,x", None),
    ("vbscript:x", None),
    ("ftp://x.example/", None),
    ("", None),
])
def test_safe_url(value: str, expected: str | None) -> None:
    assert safe_url(value, BASE) == expected


def test_sanitize_html_keeps_structure() -> None:
    html = sanitize_html("<section><h2>T</h2><table><tr><td>1</td></tr></table><pre><code>x</code></pre></section>", BASE)
    assert html == "<section><h2>T</h2><table><tbody><tr><td>1</td></tr></tbody></table><pre><code>x</code></pre></section>"


def test_markdown_and_text_match_the_gold_files() -> None:
    element = lxml.html.fromstring((FIXTURES / "fidelity.html").read_text(encoding="utf-8"))
    rendered = render_content(element, "https://example.org/start/")
    assert rendered.markdown == (FIXTURES / "fidelity.md").read_text(encoding="utf-8").strip()
    assert rendered.text == (FIXTURES / "fidelity.txt").read_text(encoding="utf-8").strip()


@pytest.mark.parametrize("html, markdown", [
    ("<pre><code class=\"language-rust\">fn main() {}</code></pre>", "```rust\nfn main() {}\n```"),
    ("<pre>no language</pre>", "```\nno language\n```"),
    ("<pre><code>has ``` inside</code></pre>", "````\nhas ``` inside\n````"),
    ("<p>Use <code>a`b</code> here</p>", "Use ``a`b`` here"),
    ("<ul><li>a<ul><li>b<ul><li>c</li></ul></li></ul></li></ul>", "- a\n  - b\n    - c"),
    ("<ol start=\"4\"><li>d</li><li>e</li></ol>", "4. d\n5. e"),
    ("<h3>Third</h3>", "### Third"),
    ("<h2><strong>Bold heading</strong></h2>", "## Bold heading"),
    ("<h2><strong>Part</strong> and <strong>part</strong></h2>", "## **Part** and **part**"),
    ("<blockquote><p>a</p><blockquote><p>b</p></blockquote></blockquote>", "> a\n>\n> > b"),
    ("<table><tr><td>x</td><td>y</td></tr><tr><td colspan=\"2\">z</td></tr></table>",
     "| x | y |\n| --- | --- |\n| z |  |"),
    ("<table><tr><td><p>Layout cell only</p></td></tr></table>", "Layout cell only"),
    ("<p>a * b _c_ [d]</p>", "a \\* b _c_ \\[d\\]"),
    ("<p><a href=\"#top\">¶</a>Text</p>", "Text"),
    ("<p>x<br>y</p>", "x  \ny"),
    ("<table class='highlighttable'><tr><td class='linenos'><pre>1\n2</pre></td>"
     "<td class='code'><pre><code class='language-go'>a := 1\nb := 2</code></pre></td></tr></table>",
     "```go\na := 1\nb := 2\n```"),
    ("<pre><code><span class='lineno'>1 </span>x = 1\n<span class='lineno'>2 </span>y = 2</code></pre>",
     "```\nx = 1\ny = 2\n```"),
    ("<h2 id='a'>Intro<a class='hash-link' href='#a'>\u200b</a></h2>", "## Intro"),
    ("<table><tr><td>Syntax:</td><td><code>on | off</code></td></tr><tr><td>Default:</td><td><pre>off;</pre></td></tr>"
     "</table>", "| Syntax: | `on \\| off` |\n| --- | --- |\n| Default: | `off;` |"),
])
def test_markdown_fidelity(html: str, markdown: str) -> None:
    assert _render(html).markdown == markdown


@pytest.mark.parametrize("html, text", [
    ("<p>one\n   two</p><p>three</p>", "one two\n\nthree"),
    ("<pre>line 1\n  line 2</pre>", "line 1\n  line 2"),
    # highlighted code (spans only) is read verbatim; breaks, blocks, hidden and dropped parts,
    # comments and line numbers inside a <pre> are handled one by one
    ("<pre><span class='k'>def</span> <span class='nf'>f</span>():\n    <span class='k'>pass</span></pre>",
     "def f():\n    pass"),
    ("<pre><span>a</span><br><span>b</span></pre>", "a\nb"),
    ("<pre><div>a</div><div>b</div></pre>", "a\nb"),
    ("<pre>a<span hidden>secret</span><span style='display:none'>x</span>b</pre>", "ab"),
    ("<pre>a<!-- note -->b<button>Copy</button></pre>", "ab"),
    ("<pre><span class='linenos'>1</span>x = 1</pre>", "x = 1"),
    ("<ul><li>a</li><li>b</li></ul>", "- a\n- b"),
    # an ordered list keeps its numbers in the text: the body corpus's references number them
    ("<ol start='4'><li>d</li><li>e<ol><li>f</li></ol></li></ol>", "4. d\n5. e\n   1. f"),
    ("<table><tr><th>h1</th><th>h2</th></tr><tr><td>1</td><td>2</td></tr></table>", "h1\th2\n1\t2"),
    ("<div>inline <span>span</span><div>block</div>tail</div>", "inline span\n\nblock\n\ntail"),
    ("<h2>Title</h2><p>Body</p>", "Title\n\nBody"),
    ("<form><p>Inside a form</p><input name='q'><button>Go</button><select><option>A</option></select></form>",
     "Inside a form"),
    ("<p>Scripts <script>var x = 1;</script>and styles<style>p {}</style> vanish</p>", "Scripts and styles vanish"),
])
def test_text_is_block_aware(html: str, text: str) -> None:
    assert _render(html).text == text


@pytest.mark.parametrize("element", [None, lxml.html.fromstring("<div></div>")])
def test_empty_input_gives_empty_output(element) -> None:
    rendered = render_content(element, BASE)
    assert (rendered.html.replace("<div></div>", ""), rendered.markdown, rendered.text) == ("", "", "")


def test_render_does_not_modify_the_callers_tree() -> None:
    element = lxml.html.fragment_fromstring('<div><p hidden>h</p><a href="/x">x</a></div>')
    before = lxml.html.tostring(element)
    render_content(element, BASE)
    assert lxml.html.tostring(element) == before


def _long_article(paragraphs: int) -> lxml.html.HtmlElement:
    body = "".join(f"<p>Paragraph {i} with <a href='/l{i}'>a link</a> and <em>emphasis</em>.</p>"
                   for i in range(paragraphs))
    return lxml.html.fromstring(f"<article><h1>T</h1>{body}<ul>{'<li>item</li>' * (paragraphs // 2)}</ul></article>")


def _counted_steps(element: lxml.html.HtmlElement) -> tuple[int, object]:
    """How many steps rendering ``element`` takes (Python lines run, built-in functions
    called), and the result: a count of the work done that, unlike a duration, no machine's
    load changes."""
    steps = 0

    def count(frame: object, event: str, arg: object) -> object:
        nonlocal steps
        steps += event in ("line", "c_call")
        return count

    sys.settrace(count)
    sys.setprofile(count)
    try:
        rendered = render_content(element, BASE)
    finally:
        sys.setprofile(None)
        sys.settrace(None)
    return steps, rendered


def test_render_work_grows_linearly_with_a_long_article() -> None:
    """Four times the paragraphs, list items and links cost four times the steps (a loop that
    rescans the article per block would cost sixteen), and every one of them is rendered."""
    render_content(_long_article(10), BASE)  # first-use work (compiled patterns) out of the count
    small, _ = _counted_steps(_long_article(400))
    large, rendered = _counted_steps(_long_article(1600))
    assert large <= 4.4 * small, (small, large)
    assert rendered.text.count("Paragraph ") == 1600 and rendered.text.count("item") == 800
    assert "Paragraph 1599 with a link and emphasis." in rendered.text
    assert rendered.markdown.count("](https://") == 1600


@pytest.mark.parametrize("text", [
    "plain words", "two  spaces", "line\nbreak", "tab\there", "no\xa0break", "zero\u200bwidth",
    " lead and trail ", "", "é ü 中文 text", "form\x0cfeed", "\n\n  \t", "ok\u2028sep",
])
def test_collapsed_text_is_the_white_space_regex(text: str) -> None:
    from crawler.extraction.output import _WS, _collapsed

    assert _collapsed(text) == _WS.sub(" ", text)


#: Tables whose widest row is far wider than the others, as a function of n: (name, table).
LOPSIDED_TABLES = [
    ("a header row of n cells over n rows of two",
     lambda n: "<table><tr>" + "".join(f"<th>h{i}</th>" for i in range(n)) + "</tr>"
               + "".join(f"<tr><td>x{i}</td><td>y{i}</td></tr>" for i in range(n)) + "</table>"),
    ("a header row of wide colspans over n rows of two",
     lambda n: "<table><tr>" + "".join(f"<th colspan='50'>h{i}</th>" for i in range(n // 50 + 1))
               + "</tr>" + "".join(f"<tr><td>x{i}</td><td>y{i}</td></tr>" for i in range(n))
               + "</table>"),
]


@pytest.mark.parametrize("name,table", LOPSIDED_TABLES, ids=[c[0] for c in LOPSIDED_TABLES])
def test_markdown_of_a_lopsided_table_grows_linearly(name: str, table) -> None:
    """Eight times the rows and columns make at most nine times the Markdown (rows padded to the
    widest made sixty-four times): past ``MAX_PADDING_CELLS`` empty cells the table is written
    as blocks, every cell's text kept once."""
    small = _render(table(200))
    large = _render(table(1600))
    assert len(large.markdown) <= 9 * len(small.markdown), (name, len(small.markdown),
                                                            len(large.markdown))
    for rendered in (small, large):
        assert "x0" in rendered.text and "h0" in rendered.text and "y199" in rendered.text
    assert large.markdown.count("x1599") == large.text.count("y1599") == 1


def test_a_table_padded_under_the_limit_stays_a_table() -> None:
    markdown = _render("<table><tr><th>a</th><th>b</th><th>c</th></tr><tr><td>1</td></tr>"
                       "</table>").markdown
    assert markdown == "| a | b | c |\n| --- | --- | --- |\n| 1 |  |  |"



#: Odd numbers in ``<ol start>`` and ``colspan``: (html, Markdown). A number Python's ``int``
#: would not read (``²``, ``--5``) or that has thousands of digits made the extraction fail.
ODD_NUMBERS = [
    ('<ol start="3"><li>a</li><li>b</li></ol>', "3. a\n4. b"),
    ('<ol start="-2"><li>a</li></ol>', "-2. a"),
    ('<ol start="²"><li>a</li></ol>', "1. a"),
    ('<ol start="--5"><li>a</li></ol>', "1. a"),
    ('<ol start="' + "9" * 5000 + '"><li>a</li></ol>', "1. a"),
    ('<table><tr><td colspan="2">a</td></tr><tr><td>b</td><td>c</td></tr></table>',
     "| a |  |\n| --- | --- |\n| b | c |"),
    ('<table><tr><td colspan="²">a</td><td>x</td></tr><tr><td>b</td><td>c</td></tr></table>',
     "| a | x |\n| --- | --- |\n| b | c |"),
    ('<table><tr><td colspan="' + "7" * 5000 + '">a</td><td>x</td></tr><tr><td>b</td><td>c</td>'
     '</tr></table>', "| a | x |\n| --- | --- |\n| b | c |"),
]


@pytest.mark.parametrize("html,markdown", ODD_NUMBERS, ids=[h[:40] for h, _ in ODD_NUMBERS])
def test_odd_list_starts_and_spans_are_read_or_ignored(html: str, markdown: str) -> None:
    assert _render(html).markdown == markdown


#: Nested blockquotes: (depth, the quote marks on the innermost text's line).
NESTED_QUOTES = [(1, "> "), (3, "> > > "), (19, "> " * 19), (20, "> " * 19), (190, "> " * 19)]


@pytest.mark.parametrize("depth,marks", NESTED_QUOTES, ids=[str(d) for d, _ in NESTED_QUOTES])
def test_quotes_nest_up_to_the_limit(depth: int, marks: str) -> None:
    """Up to ``MAX_NESTING`` quotes deep each quote is one more ``>``; deeper quotes are
    written as the blocks of the one around them. Every level prefixed every line inside it:
    190 nested quotes around 20,000 paragraphs made 15 MB of Markdown out of 165 kB."""
    paragraphs = "".join(f"<p>para {i}</p>" for i in range(100))
    rendered = _render("<blockquote>" * depth + paragraphs + "</blockquote>" * depth)
    lines = rendered.markdown.split("\n")
    assert marks + "para 0" in lines and marks + "para 99" in lines
    assert len(rendered.markdown) <= 100 * (2 * len(marks) + 12), len(rendered.markdown)
    assert rendered.text.count("para ") == 100


#: Nested lists: list depth, and the depth written.
NESTED_LISTS = [(1, 1), (3, 3), (9, 9), (10, 9), (21, 9), (120, 9)]


@pytest.mark.parametrize("depth,written", NESTED_LISTS, ids=[str(d) for d, _ in NESTED_LISTS])
def test_lists_nest_up_to_the_limit(depth: int, written: int) -> None:
    """Up to ``MAX_NESTING`` / 2 lists deep each list indents its items once more; a deeper list
    is written as its items' blocks inside the item around it. Every level indented every line
    inside it: 8,000 paragraphs in lists 120 deep made 23 times their HTML in Markdown."""
    paragraphs = "".join(f"<p>para {i}</p>" for i in range(100))
    rendered = _render("<ul><li>" * depth + paragraphs + "</li></ul>" * depth)
    lines = rendered.markdown.split("\n")
    assert lines[0] == "- " * written + "para 0"
    assert "  " * written + "para 99" in lines
    assert len(rendered.markdown) <= 100 * (2 * written + 10), len(rendered.markdown)
    assert rendered.text.count("para ") == 100


#: Lists and quotes nested past what markdown-it parses: (name, HTML around the text).
PAST_MARKDOWN_NESTING = [
    ("lists 25 deep", "<ul><li>" * 25, "</li></ul>" * 25),
    ("ordered lists 12 deep", "<ol><li>" * 12, "</li></ol>" * 12),
    ("quotes 20 deep", "<blockquote>" * 20, "</blockquote>" * 20),
    ("lists in quotes", "<blockquote>" * 12 + "<ul><li>" * 5, "</li></ul>" * 5 + "</blockquote>" * 12),
]


@pytest.mark.parametrize("name,opening,closing", PAST_MARKDOWN_NESTING,
                         ids=[c[0] for c in PAST_MARKDOWN_NESTING])
def test_markdown_nests_no_deeper_than_markdown_it_reads(name: str, opening: str,
                                                         closing: str) -> None:
    """The Markdown, read by markdown-it's CommonMark preset (``maxNesting`` 20: a quote is one
    level, a list two), shows every paragraph: lists were written up to 20 deep and quotes up
    to 20, so from 10 nested lists (or 20 quotes) on the reader saw empty bullets, a stray ``-``
    for each wrapping item, and none of the text."""
    from markdown_it import MarkdownIt

    rendered = _render(opening + "<p>first paragraph</p><p>second paragraph</p>" + closing)
    shown = MarkdownIt("commonmark").render(rendered.markdown)
    assert "first paragraph" in shown and "second paragraph" in shown, name
    assert "<li></li>" not in shown, name
    assert rendered.text.count(" paragraph") == 2
