"""Structural cleaning: repeats, script links, headings, code-block chrome and a page swallowed by
an unclosed navigation. Every case names what must stay beside what must go."""

from __future__ import annotations

import re

import pytest

from crawler.extraction import extract

STORY = ("The harbour reopened on Monday after three weeks of repairs, and the first boats, "
         "loaded with fish, ice and visitors, arrived before noon. ")
BODY = "".join(f"<p>{STORY}Paragraph {i} adds its own detail, number {i}.</p>" for i in range(6))
NAV = "<ul>" + "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(12)) + "</ul>"
QUOTE = "We waited three weeks for this morning, and it was worth every single day of it."
CARD_LINE = "Ships in two days from the harbour warehouse, packed in recycled paper."


def page(body: str, head: str = "") -> str:
    return (f"<!doctype html><html><head><title>Harbour reopens</title>{head}</head>"
            f"<body>{body}</body></html>")


CASES = [
    # (name, body html, snippets that must stay (with how often), snippets that must go)
    ("a block is not a repeat of its own wrapper",
     f"<article>{BODY}<figure><div><figcaption>{QUOTE}</figcaption></div><blockquote>Skipper"
     f"</blockquote></figure></article>",
     {QUOTE: 1, "Paragraph 5 adds": 1}, ["Section 3"]),
    ("a paragraph a story quotes twice stays twice",
     f"<article>{BODY[:400]}<p>{QUOTE}</p>{BODY}<p>{QUOTE}</p></article>",
     {QUOTE: 2, "Paragraph 5 adds": 1}, []),
    ("the same sentence on two cards stays on both",
     f"<article>{BODY}<ul>" + "".join(
         f"<li class='card'><h3>Boat tour {j}</h3><p>{CARD_LINE}</p></li>" for j in range(3))
     + "</ul></article>",
     {CARD_LINE: 3, "Boat tour 2": 1}, []),
    ("a responsive copy of a block in another branch goes",
     f"<article>{BODY}<div class='mobile-only'><p>{STORY}Paragraph 0 adds its own detail, "
     f"number 0.</p></div></article>",
     {"Paragraph 0 adds": 1, "Paragraph 5 adds": 1}, []),
    ("the text of a javascript: link is text",
     f"<article>{BODY}<p><a href='javascript:void(0)'>The pier</a>, <a href='javascript:show(1)'>"
     f"the old crane</a>, <a href='JavaScript:show(2)'>the quay wall</a>.</p><div>{NAV}</div>"
     f"</article>",
     {"The pier, the old crane, the quay wall.": 1, "Paragraph 5 adds": 1}, ["Section 3"]),
    ("a heading that is a back link keeps its text",
     f"<article><h1>Harbour</h1>{BODY}<section id='repairs'><h2><a class='toc-backref' "
     f"href='#id1'>Repairs</a><a class='headerlink' href='#repairs'>\u00b6</a></h2><p>Welders "
     f"worked nights on the pier for three weeks, and the crane was rebuilt.</p></section>"
     f"</article>",
     {"Repairs": 1, "Paragraph 5 adds": 1, "Welders worked nights": 1}, ["\u00b6"]),
    ("an API signature named after code is not a pager",
     f"<article>{BODY}<dl class='py function'><dt class='sig sig-object py' id='harbour."
     f"open_pager'>harbour.open_pager(text, color=None)</dt><dd><p>Shows the text in a pager, "
     f"one screen at a time, waiting for a key.</p></dd></dl><div class='pager'><a href='/p2'>"
     f"Next page</a></div></article>",
     {"harbour.open_pager(text, color=None)": 1, "Shows the text in a pager": 1},
     ["Next page"]),
    ("a code block's label, copy text and line numbers are not code",
     f"<article>{BODY}<p>Run it:</p><div class='block'><div class='head'><span>bash</span>"
     f"<span>Copy code</span></div><div class='body'><div class='lines'>1\n2\n3</div><pre><code>"
     f"pip install harbour\nharbour open --pier 3\nharbour close</code></pre></div></div>"
     f"</article>",
     {"Run it:": 1, "pip install harbour\nharbour open --pier 3": 1, "Paragraph 5 adds": 1},
     ["bash", "Copy code", "1 2 3"]),
    ("the words of a heading over a code block are not its chrome",
     f"<article>{BODY}<section><h2><a href='/harbour'>harbour</a><wbr>._tides</h2><div><span>"
     f"python</span><pre><code>def tide():\n    return 3</code></pre></div></section></article>",
     {"harbour._tides": 1, "def tide():": 1, "Paragraph 5 adds": 1}, ["python"]),
    ("an unclosed navigation around the content of a documentation page",
     f"<div id='__docusaurus'><nav class='navbar'>{NAV}</nav><main><article><div class='theme-"
     f"doc-markdown markdown'><nav>{NAV}<h1>Harbour</h1>{BODY}</div></article></main></div>",
     {"Paragraph 0 adds": 1, "Paragraph 5 adds": 1}, ["Section 3"]),
    ("an unclosed navigation around a page of paragraphs",
     f"<nav>{NAV}<div class='wrap'><div>{BODY}</div></div>",
     {"Paragraph 0 adds": 1, "Paragraph 5 adds": 1}, ["Section 3"]),
]


@pytest.mark.parametrize("name, body, kept, gone", CASES, ids=[c[0] for c in CASES])
def test_structural_cleaning(name: str, body: str, kept: dict[str, int], gone: list[str]) -> None:
    result = extract(page(body), "https://news.example/harbour")
    for snippet, times in kept.items():
        assert result.content_text.count(snippet) == times, (snippet, result.content_text)
    for snippet in gone:
        assert snippet not in result.content_text, snippet


def test_no_heading_is_left_empty() -> None:
    body = (f"<article><h1>Harbour</h1>{BODY}" + "".join(
        f"<section id='s{j}'><h2><a class='toc-backref' href='#t{j}'>Part {j}</a></h2>"
        f"{BODY.replace('Paragraph', f'Part {j}, paragraph')}</section>" for j in range(3))
        + "<h3><span class='share'>Share</span></h3></article>")
    result = extract(page(body), "https://docs.example/guide")
    assert not re.search(r"<h[1-6][^>]*>\s*</h[1-6]>", result.content_html)
    assert not re.search(r"(?m)^#+\s*$", result.content_markdown)
    assert re.search(r"(?m)^## .*Part 2", result.content_markdown)


def test_declared_description_stands_in_when_nothing_else_yields_text() -> None:
    head = ("<meta property='og:description' content='Harbour reopens after three weeks of "
            "repairs, with the first boats in before noon.'>")
    empty = extract(page("<div id='app'></div>", head), "https://news.example/app")
    assert empty.content_text.startswith("Harbour reopens after three weeks")
    assert empty.method == "meta-description"
    full = extract(page(f"<article>{BODY}</article>", head), "https://news.example/harbour")
    assert full.method != "meta-description" and "Paragraph 5 adds" in full.content_text
    assert "Harbour reopens after three weeks" not in full.content_text


@pytest.mark.parametrize("url", [None, ""])
def test_a_page_without_an_address_is_extracted(url: str | None) -> None:
    """``extract(html)`` works as trafilatura's does: without an address the story and its
    title stay, the navigation goes, and a link that cannot be made absolute keeps its text
    (before: an address of None raised in the share-widget rule)."""
    story = " ".join(["The harbour reopened this morning after the storm."] * 12)
    html = (f"<html><head><title>Harbour</title></head><body><nav><a href='/'>Home</a> "
            f"<a href='/news'>News</a></nav><article><h1>Harbour reopens</h1><p>{story}</p>"
            f"<p>See <a href='/map'>the map</a>.</p></article></body></html>")
    result = extract(html) if url is None else extract(html, url)
    assert result.title == "Harbour reopens"
    assert "The harbour reopened" in result.content_text and "the map" in result.content_text
    assert "News" not in result.content_text
    assert "the map</a>" in result.content_html and 'href="/map"' not in result.content_html
