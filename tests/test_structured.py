"""Structured data: JSON-LD (graphs, arrays, broken JSON), microdata, OpenGraph and Twitter cards."""

from __future__ import annotations

import json
from pathlib import Path

import lxml.html
import pytest

from crawler.extraction.document import parse_html
from crawler.extraction.structured import StructuredData, parse_structured

FIXTURES = Path(__file__).parent / "fixtures" / "metadata"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_structured_fields_of_fixture_pages(name: str) -> None:
    case = EXPECTED[name]
    tree = parse_html((FIXTURES / name).read_bytes()).tree
    data = parse_structured(tree, case["url"])
    got = {field: getattr(data, field) for field in case["structured"]}
    assert got == case["structured"]


def _page(head: str, body: str = "<p>x</p>") -> lxml.html.HtmlElement:
    return lxml.html.fromstring(f"<html><head>{head}</head><body>{body}</body></html>")


def _ld(text: str) -> str:
    return f'<script type="application/ld+json">{text}</script>'


@pytest.mark.parametrize("script, headline", [
    ('{"@type": "Article", "headline": "Plain"}', "Plain"),
    ('{"@type": "Article", "headline": "Trailing comma",}', "Trailing comma"),
    ('<!-- {"@type": "Article", "headline": "In a comment"} -->', "In a comment"),
    ('{"@type": "Article", "headline": "Raw\ttab and\nnewline"}', "Raw tab and newline"),
    ('{"@type": "Article", "headline": "One"} {"@type": "WebSite", "name": "Two"}', "One"),
    ('[{"@type": "WebPage", "name": "Page"}, {"@type": "BlogPosting", "headline": "Post"}]', "Post"),
    ('{"@graph": [{"@type": ["Article", "NewsArticle"], "headline": "Typed twice"}]}', "Typed twice"),
    ('{"@type": "http://schema.org/Article", "headline": "IRI type"}', "IRI type"),
    ('{"@type": "Article", "headline": "Entities &amp; more &#8217;"}', "Entities & more \u2019"),
    ('{"@type": "Article", "headline": ["First of list", "Second"]}', "First of list"),
])
def test_json_ld_variants_give_the_headline(script: str, headline: str) -> None:
    assert parse_structured(_page(_ld(script)), "https://x.example/").headline == headline


@pytest.mark.parametrize("script", ["{", "not json at all", "[1, 2, 3]", '"a string"', "null", "{}"])
def test_unusable_json_ld_is_ignored(script: str) -> None:
    data = parse_structured(_page(_ld(script)), "https://x.example/")
    assert (data.type, data.headline, data.authors) == (None, None, [])


@pytest.mark.parametrize("author, names", [
    ('"Jo Writer"', ["Jo Writer"]),
    ('{"@type": "Person", "name": "Jo Writer"}', ["Jo Writer"]),
    ('[{"@type": "Person", "name": "A"}, {"@type": "Person", "name": "B"}, {"@type": "Person", "name": "a"}]', ["A", "B"]),
    ('{"@type": "Person", "givenName": "Jo", "familyName": "Writer"}', ["Jo Writer"]),
    ('"https://x.example/author/jo"', []),
])
def test_json_ld_author_forms(author: str, names: list[str]) -> None:
    script = _ld(f'{{"@type": "Article", "headline": "H", "author": {author}}}')
    assert parse_structured(_page(script), "https://x.example/").authors == names


def test_article_body_only_from_article_types() -> None:
    script = _ld('[{"@type": "Product", "name": "P", "text": "not a body"},'
                 ' {"@type": "Article", "headline": "A", "articleBody": "The body."}]')
    data = parse_structured(_page(script), "https://x.example/")
    assert (data.type, data.article_body) == ("Article", "The body.")


def test_organisation_only_author_is_marked() -> None:
    script = _ld('{"@type": "Article", "headline": "H", "author": {"@type": "Organization", "name": "Org"}}')
    data = parse_structured(_page(script), "https://x.example/")
    assert data.authors == ["Org"] and data.sources["authors"] == "json-ld-organization"


def test_opengraph_and_twitter_fill_gaps_only() -> None:
    head = ('<meta property="og:title" content="OG title"><meta name="twitter:title" content="TW title">'
            '<meta property="article:published_time" content="2020-02-02T10:00:00Z">'
            '<meta property="article:author" content="https://facebook.example/jo">'
            '<meta name="twitter:creator" content="@jo">' + _ld('{"@type": "Article", "name": "LD name"}'))
    data = parse_structured(_page(head), "https://x.example/")
    assert data.title == "LD name"
    assert data.date_published == "2020-02-02T10:00:00Z"
    assert data.authors == []
    assert (data.og["title"], data.twitter["title"]) == ("OG title", "TW title")


@pytest.mark.parametrize("markup", [
    "<html></html>", "<html><head><script type='application/ld+json'></script></head></html>",
    "<div itemprop='author'></div>", "<meta property='og:title'>",
])
def test_sparse_pages_give_an_empty_result(markup: str) -> None:
    data = parse_structured(lxml.html.fromstring(markup), "https://x.example/")
    assert isinstance(data, StructuredData) and data.headline is None and data.authors == []


def test_no_tree_gives_an_empty_result() -> None:
    assert parse_structured(None, "https://x.example/") == StructuredData()
