"""Links read from a page, and the requests the spider makes of them: one request per page
linked, each fingerprinted over its canonical URL."""

from __future__ import annotations

import lxml.html
import pytest
from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from crawler.fingerprint import CANONICAL_URL_META, CanonicalRequestFingerprinter
from crawler.links import anchor_links, page_relation_links
from crawler.spiders.domain import DomainSpider
from tests.conftest import project_settings

PAGE = "https://docs.example.com/guide/page.html"


def _root(body: str) -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(body)


@pytest.mark.parametrize(("body", "base", "encoding", "expected"), [
    ('<a href="b.html">b</a><a href=" /c ">c</a><area href="d.html">',
     PAGE, "utf-8",
     ["https://docs.example.com/guide/b.html", "https://docs.example.com/c",
      "https://docs.example.com/guide/d.html"]),
    ('<a href="b.html">1</a><a href="b.html#faq">2</a><a href="#top">3</a><a>4</a>'
     '<a href="#">5</a>',
     PAGE, "utf-8",
     ["https://docs.example.com/guide/b.html", "https://docs.example.com/guide/page.html"]),
    ('<a href="mailto:a@example.com">m</a><a href="javascript:void(0)">j</a>'
     '<a href="tel:123">t</a><a href="/ok">ok</a>',
     PAGE, "utf-8", ["https://docs.example.com/ok"]),
    ('<a href="x.html">x</a>', "https://cdn.example.com/base/", "utf-8",
     ["https://cdn.example.com/base/x.html"]),
    ('<a href="/search?q=caf\u00e9">s</a>', PAGE, "cp1252",
     ["https://docs.example.com/search?q=caf%E9"]),
])
def test_anchor_links(body: str, base: str, encoding: str, expected: list[str]) -> None:
    assert anchor_links(_root(f"<html><body>{body}</body></html>"), PAGE, base, encoding) \
        == expected


def test_page_relation_links() -> None:
    root = _root('<html><head><link rel="next" href="next.html"><link rel="stylesheet" '
                 'href="s.css"><link rel="prev index" href="/"></head><body></body></html>')
    assert page_relation_links(root, PAGE) == ["https://docs.example.com/guide/next.html",
                                              "https://docs.example.com/"]


def _spider() -> DomainSpider:
    crawler = get_crawler(DomainSpider, project_settings(ROBOTSTXT_OBEY=False))
    return DomainSpider.from_crawler(crawler, start="https://docs.example.com/",
                                     render="never")


def test_one_request_per_linked_page_whatever_its_anchors_fragments_and_tracking() -> None:
    body = ('<html><head><link rel="next" href="/b"></head><body>'
            '<a href="/b">b</a><a href="/b#part">b</a><a href="/b?utm_source=x">b</a>'
            '<a href="https://DOCS.example.com/b">b</a><a href="/c/index.html">c</a>'
            '<a href="/c/">c</a><a href="#top">self</a></body></html>')
    response = HtmlResponse(PAGE, body=body.encode(), encoding="utf-8",
                            request=Request(PAGE, meta={"page_depth": 0}))
    spider = _spider()
    requests = [r for r in spider.parse_page(response) if isinstance(r, Request)]
    assert [r.url for r in requests] == ["https://docs.example.com/b",
                                         "https://docs.example.com/c/", PAGE]
    assert all(r.meta["page_depth"] == 1 for r in requests)


@pytest.mark.parametrize(("first", "second", "same"), [
    (Request("https://example.com/a?utm_source=x#top"), Request("https://example.com/a"), True),
    (Request("https://example.com/a?b=2&a=1"), Request("https://example.com/a?a=1&b=2"), True),
    # The spider's requests say their URL is canonical; a fingerprint is the same either way.
    (Request("https://example.com/a", meta={CANONICAL_URL_META: "https://example.com/a"}),
     Request("https://example.com/a?utm_medium=y"), True),
    # A request whose URL was rewritten after the fact is canonicalised again.
    (Request("https://example.com/a",
             meta={CANONICAL_URL_META: "https://example.com/a"}).replace(
        url="https://example.com/b?utm_source=x"), Request("https://example.com/b"), True),
    (Request("https://example.com/a",
             meta={CANONICAL_URL_META: "https://example.com/a"}).replace(
        url="https://example.com/b"), Request("https://example.com/a"), False),
])
def test_fingerprints_are_over_canonical_urls(first: Request, second: Request,
                                              same: bool) -> None:
    fingerprinter = CanonicalRequestFingerprinter()
    assert (fingerprinter.fingerprint(first) == fingerprinter.fingerprint(second)) is same
