"""Links read from a page, and the requests the spider makes of them: one request per page
linked, each fingerprinted over its canonical URL."""

from __future__ import annotations

import asyncio

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from crawler.fingerprint import CANONICAL_URL_META, CanonicalRequestFingerprinter
from crawler.links import SCAN_PIECE, scan_links
from crawler.spiders.domain import DomainSpider
from tests.conftest import project_settings

PAGE = "https://docs.example.com/guide/page.html"


@pytest.mark.parametrize(("body", "head", "encoding", "expected"), [
    ('<a href="b.html">b</a><a href=" /c ">c</a><area href="d.html">',
     "", "utf-8",
     ["https://docs.example.com/guide/b.html", "https://docs.example.com/c",
      "https://docs.example.com/guide/d.html"]),
    ('<a href="b.html">1</a><a href="b.html#faq">2</a><a href="#top">3</a><a>4</a>'
     '<a href="#">5</a>',
     "", "utf-8",
     ["https://docs.example.com/guide/b.html", "https://docs.example.com/guide/page.html"]),
    ('<a href="mailto:a@example.com">m</a><a href="javascript:void(0)">j</a>'
     '<a href="tel:123">t</a><a href="/ok">ok</a>',
     "", "utf-8", ["https://docs.example.com/ok"]),
    ('<a href="x.html">x</a>', '<base href="https://cdn.example.com/base/">', "utf-8",
     ["https://cdn.example.com/base/x.html"]),
    ('<a href="/search?q=caf\u00e9">s</a>', "", "cp1252",
     ["https://docs.example.com/search?q=caf%E9"]),
    # the base as the extraction reads it: relative to the page, the first with an href
    ('<a href="x.html">x</a>', '<base target="_top"><base href="/v2/"><base href="https://b.example/">',
     "utf-8", ["https://docs.example.com/v2/x.html"]),
    # a base browsers would not use is ignored: the links resolve against the page
    ('<a href="x.html">x</a>', '<base href="javascript:alert(1)//">', "utf-8",
     ["https://docs.example.com/guide/x.html"]),
    ('<a href="x.html">x</a>', '<base href="ftp://files.example/pub/">', "utf-8",
     ["https://docs.example.com/guide/x.html"]),
    ('<a href="x.html">x</a>', '<base href="http://[::1">', "utf-8",
     ["https://docs.example.com/guide/x.html"]),
    ('<a href="x.html">x</a>', f'<base href="https://cdn.example.com/{"a" * 100_000}/">', "utf-8",
     ["https://docs.example.com/guide/x.html"]),
])
def test_anchor_links(body: str, head: str, encoding: str, expected: list[str]) -> None:
    links = scan_links(f"<html><head>{head}</head><body>{body}</body></html>", PAGE, encoding)
    assert links.anchors == expected
    assert not links.capped


ROUTED_LINKS = ('<a href="#/guide">1</a><a href="#/guide?id=part">2</a><a href="#!/faq">3</a>'
                '<a href="#/?id=top">4</a><a href="#top">5</a><a href="/other#/guide">6</a>'
                '<a href="b.html">7</a>')


@pytest.mark.parametrize(("routes", "expected"), [
    # a page built in the browser: a route is a page, a route's section is the route's page
    (True, [PAGE + "#/guide", PAGE + "#!/faq", PAGE, "https://docs.example.com/other#/guide",
            "https://docs.example.com/guide/b.html"]),
    # any other page: every fragment is a place in a page, as before
    (False, [PAGE, "https://docs.example.com/other", "https://docs.example.com/guide/b.html"]),
])
def test_anchor_links_keep_client_side_routes_when_asked(routes: bool,
                                                         expected: list[str]) -> None:
    links = scan_links(f"<html><body>{ROUTED_LINKS}</body></html>", PAGE, "utf-8",
                       routes=routes)
    assert links.anchors == expected


def test_page_relation_and_canonical_links() -> None:
    links = scan_links('<html><head><link rel="next" href="next.html"><link rel="stylesheet" '
                       'href="s.css"><link rel="canonical" href="/c"><link rel="prev index" '
                       'href="/"></head><body><link rel="canonical" href="/body">'
                       '<a href="a">a</a></body></html>', PAGE, "utf-8")
    assert links.relations == ["https://docs.example.com/guide/next.html",
                               "https://docs.example.com/"]
    assert links.canonical == "/c"  # the head's, not one in the body
    assert links.anchors == ["https://docs.example.com/guide/a"]


def _many_links(n: int) -> str:
    anchors = "".join(f'<a href="/t/{i}">item {i}</a>\n' for i in range(n))
    return (f'<html><head><link rel="canonical" href="/many"></head><body><p>Text.</p>'
            f'{anchors}<link rel="next" href="/after"></body></html>')


@pytest.mark.parametrize(("limit", "anchors", "expected", "capped"), [
    (None, True, 3000, False),
    (40, True, 40, True),
    (None, False, 0, False),  # links not followed: the head is read, the body is not
])
def test_the_scan_stops_at_its_limit(limit: int | None, anchors: bool, expected: int,
                                     capped: bool) -> None:
    links = scan_links(_many_links(3000), PAGE, "utf-8", limit=limit, anchors=anchors)
    assert len(links.anchors) == expected
    assert links.anchors[:2] == ([] if not anchors else ["https://docs.example.com/t/0",
                                                        "https://docs.example.com/t/1"])
    assert links.capped is capped
    assert links.canonical == "/many"  # read whatever the limit
    # A relation after the last anchor is read only by a scan that reached it.
    assert links.relations == (["https://docs.example.com/after"] if expected == 3000 else [])


def test_a_capped_scan_does_not_read_the_rest_of_the_page() -> None:
    """The scan of a page of 200,000 links stops within one piece after its limit: what it
    costs does not grow with the page."""
    html = _many_links(200_000)
    assert len(html) > 40 * SCAN_PIECE
    links = scan_links(html, PAGE, "utf-8", limit=100)
    assert len(links.anchors) == 100 and links.capped
    assert links.relations == []  # the end of the page was never parsed


async def _collect(results) -> list:  # noqa: ANN001 - the spider's async generator
    return [result async for result in results]


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
    requests = [r for r in asyncio.run(_collect(spider.parse_page(response)))
                if isinstance(r, Request)]
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
    # a page reached by a client-side route is not the shell every route is served as
    (Request("https://example.com/#/a", meta={CANONICAL_URL_META: "https://example.com/#/a"}),
     Request("https://example.com/"), False),
    (Request("https://example.com/#/a", meta={CANONICAL_URL_META: "https://example.com/#/a"}),
     Request("https://example.com/#/b", meta={CANONICAL_URL_META: "https://example.com/#/b"}),
     False),
])
def test_fingerprints_are_over_canonical_urls(first: Request, second: Request,
                                              same: bool) -> None:
    fingerprinter = CanonicalRequestFingerprinter()
    assert (fingerprinter.fingerprint(first) == fingerprinter.fingerprint(second)) is same
