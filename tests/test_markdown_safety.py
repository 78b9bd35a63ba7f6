"""``content_markdown`` is as safe as ``content_html``: rendered by a real CommonMark renderer
(markdown-it-py, raw HTML allowed and link validation off, as the most permissive renderers
are), it holds no raw HTML from the page, and links and images only with http(s) or mailto URLs,
relative ones made absolute. The page's text, including text that looks like HTML or Markdown,
is kept as text."""

from __future__ import annotations

import html as html_lib
import json
import sqlite3
from pathlib import Path

import lxml.html
import pytest
from markdown_it import MarkdownIt

from crawler.extraction import extract
from tests.conftest import run_crawl
from tests.hostile import pages
from tests.hostile.safety import unsafe_parts

BASE = "https://site.example/blog/post"

#: Elements a CommonMark (+ GFM tables and strikethrough) renderer makes from Markdown itself;
#: anything else in the rendered HTML came through as raw HTML.
MARKDOWN_TAGS = {"div", "p", "a", "img", "em", "strong", "code", "pre", "h1", "h2", "h3", "h4",
                 "h5", "h6", "ul", "ol", "li", "blockquote", "hr", "br", "table", "thead",
                 "tbody", "tr", "th", "td", "s"}
SAFE_URL_PREFIXES = ("http://", "https://", "mailto:")


def permissive_renderer() -> MarkdownIt:
    """CommonMark with raw HTML on and every link destination accepted."""
    renderer = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    renderer.validateLink = lambda url: True
    return renderer


RENDERER = permissive_renderer()


def markdown_problems(markdown: str) -> list[str]:
    """What is unsafe in the HTML a renderer makes of ``markdown`` (empty when safe)."""
    rendered = RENDERER.render(markdown)
    problems = unsafe_parts(rendered)
    if not rendered.strip():
        return problems
    for element in lxml.html.fragment_fromstring(rendered, create_parent="div").iter():
        if not isinstance(element.tag, str):
            problems.append("an HTML comment or processing instruction")
            continue
        if element.tag not in MARKDOWN_TAGS:
            problems.append(f"raw <{element.tag}>")
        for attribute in ("href", "src"):
            value = element.get(attribute)
            if value is not None and not value.lower().startswith(SAFE_URL_PREFIXES):
                problems.append(f"{attribute}={value!r}")
    return problems


#: Text a page shows (escaped in its HTML), which must stay text: (page HTML, text kept).
SHOWN_AS_TEXT = [
    ("&lt;img src=x onerror=alert(1)&gt; is how the attack starts", "<img src=x onerror=alert(1)>"),
    ("Write &lt;script&gt;alert(1)&lt;/script&gt; in the field", "<script>alert(1)</script>"),
    ("&lt;iframe src=javascript:alert(1)&gt;&lt;/iframe&gt; frames", "<iframe src=javascript:alert(1)>"),
    ("an autolink &lt;javascript:alert(1)&gt; in text", "<javascript:alert(1)>"),
    ("a markdown link [click](javascript:alert(1)) in text", "[click](javascript:alert(1))"),
    ("an image ![x](javascript:alert(1)) in text", "![x](javascript:alert(1))"),
    ("a reference [a]: javascript:alert(1) in text", "[a]: javascript:alert(1)"),
    ("split &lt;<b>img src=x onerror=alert(2)</b>&gt; over elements", "img src=x onerror=alert(2)"),
    ("an entity &amp;lt;script&amp;gt; written out", "&lt;script&gt;"),
    ("a comment &lt;!-- hidden --&gt; shown", "<!-- hidden -->"),
    ("a processing instruction &lt;?php echo 1; ?&gt; shown", "<?php echo 1; ?>"),
    ("a CDATA &lt;![CDATA[x]]&gt; shown", "<![CDATA[x]]>"),
    ("inline code <code>a `` &lt;img src=x onerror=alert(3)&gt; ``</code> ends",
     "<img src=x onerror=alert(3)>"),
]

#: Links and images of the page: (page HTML, URL that must appear, or None when none may).
LINKS = [
    ('<a href="javascript:alert(1)">js link</a>', None),
    ('<a href="&#106;avascript:alert(1)">entity link</a>', None),
    ('<a href="java&#x09;script:alert(1)">tab link</a>', None),
    ('<a href=" JaVaScRiPt:alert(1)">spaced link</a>', None),
    ('<a href="vbscript:msgbox(1)">vb link</a>', None),
    ('<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">data link</a>', None),
    ('<img src="javascript:alert(1)" alt="js image">', None),
    ('<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="data image">', None),
    ('<a href="/about">relative link</a>', "https://site.example/about"),
    ('<a href="other">sibling link</a>', "https://site.example/blog/other"),
    ('<img src="/img/a.png" alt="relative image">', "https://site.example/img/a.png"),
    ('<a href="mailto:editor@site.example">mail link</a>', "mailto:editor@site.example"),
    ('<a href="https://site.example/a(b)c d">odd link</a>', "https://site.example/a(b)c%20d"),
    ('<img src="/i.png" alt="&lt;img src=x onerror=alert(1)&gt;">', "https://site.example/i.png"),
    ('<a href="/x">label &lt;script&gt;alert(1)&lt;/script&gt;</a>', "https://site.example/x"),
]


def page_with(snippet: str) -> str:
    return pages.article("Markdown safety", [f"Before the snippet. {pages.FILLER}", snippet,
                                             f"After the snippet. {pages.FILLER}"])


@pytest.mark.parametrize("payload", pages.xss_payloads())
def test_markdown_is_safe_for_every_payload(payload: str) -> None:
    html = pages.article("XSS sample", [f"Before the payload. {pages.FILLER}", payload,
                                        f"{payload} inline with {pages.FILLER}",
                                        f"After the payload. {pages.FILLER}"])
    result = extract(html, "http://127.0.0.1/xss")
    assert "After the payload" in result.content_markdown
    assert markdown_problems(result.content_markdown) == []


@pytest.mark.parametrize(("snippet", "kept"), SHOWN_AS_TEXT, ids=[k for _, k in SHOWN_AS_TEXT])
def test_text_that_looks_like_markup_stays_text(snippet: str, kept: str) -> None:
    result = extract(page_with(snippet), BASE)
    assert markdown_problems(result.content_markdown) == []
    rendered_text = lxml.html.fromstring(RENDERER.render(result.content_markdown)).text_content()
    assert kept in rendered_text  # what the page showed is what a reader of the markdown sees
    assert "After the snippet" in rendered_text


@pytest.mark.parametrize(("snippet", "url"), LINKS, ids=[s[:40] for s, _ in LINKS])
def test_links_and_images_keep_only_safe_absolute_urls(snippet: str, url: str | None) -> None:
    result = extract(page_with(snippet), BASE)
    markdown = result.content_markdown
    assert markdown_problems(markdown) == []
    rendered = lxml.html.fromstring(RENDERER.render(markdown))
    urls = [e.get("href") or e.get("src") for e in rendered.iter("a", "img")]
    assert urls == ([url] if url else [])
    assert "After the snippet" in rendered.text_content()


def test_crawled_markdown_is_safe_in_the_database_and_the_feed(tmp_path: Path,
                                                               serve_site) -> None:
    site = tmp_path / "site"
    site.mkdir()
    snippets = [s for s, _ in SHOWN_AS_TEXT] + [s for s, _ in LINKS] + pages.xss_payloads()
    (site / "index.html").write_text(page_with("</p><p>".join(snippets)), encoding="utf-8")
    server = serve_site(site)
    result = run_crawl(server.url("/"), tmp_path / "out", spider_args={"render": "never"})
    conn = sqlite3.connect(result.db_path)
    stored = [r[0] for r in conn.execute("SELECT content_markdown FROM pages")]
    conn.close()
    fed = [item["content_markdown"] for item in result.items]
    assert len(stored) == len(fed) == 1
    for markdown in (stored[0], fed[0]):
        assert "After the snippet" in markdown
        assert markdown_problems(markdown) == []
    assert "<script>alert(1)</script>" in html_lib.unescape(
        lxml.html.fromstring(RENDERER.render(stored[0])).text_content())
    json.dumps(fed[0])


def test_comments_markdown_is_as_safe_as_the_content() -> None:
    comments = "".join(
        f'<li class="comment"><article class="comment-body"><footer><b>reader{n}</b> on '
        f"2024-01-0{n + 1}</footer><p>{payload} &lt;img src=x onerror=alert({n})&gt; "
        f"Comment {n} text. {pages.FILLER[:120]}</p></article></li>"
        for n, payload in enumerate(pages.xss_payloads()[:8]))
    html = (f"<html><body><article><h1>Story</h1><p>{pages.FILLER}</p><p>{pages.FILLER}</p>"
            f'</article><section id="comments" class="comments"><h2>Comments</h2>'
            f'<ol class="comment-list">{comments}</ol></section></body></html>')
    result = extract(html, BASE)
    assert "Comment 7 text." in result.comments_markdown  # the comments are there, apart
    assert markdown_problems(result.comments_markdown) == []
    shown = lxml.html.fromstring(RENDERER.render(result.comments_markdown)).text_content()
    assert "<img src=x onerror=alert(3)>" in shown
