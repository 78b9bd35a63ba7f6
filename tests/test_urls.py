"""URL canonicalisation and crawl scope: one page, one URL; only the site's own pages."""

from __future__ import annotations

import re

import pytest

from crawler.urls import (CrawlScope, canonicalize_routed_url, canonicalize_url,
                          has_non_html_extension)


@pytest.mark.parametrize(("url", "canonical"), [
    ("https://Example.COM/a", "https://example.com/a"),
    ("https://example.com", "https://example.com/"),
    ("https://example.com:443/a", "https://example.com/a"),
    ("http://example.com:8080/a", "http://example.com:8080/a"),
    ("https://example.com/a#section", "https://example.com/a"),
    ("https://example.com/a?utm_source=x&utm_medium=y", "https://example.com/a"),
    ("https://example.com/a?b=2&a=1", "https://example.com/a?a=1&b=2"),
    ("https://example.com/a?id=7&fbclid=abc&gclid=def&mc_cid=1", "https://example.com/a?id=7"),
    ("https://example.com/docs/index.html", "https://example.com/docs/"),
    ("https://example.com/index.htm", "https://example.com/"),
    ("https://example.com/reindex.html", "https://example.com/reindex.html"),
    ("https://example.com/a b", "https://example.com/a%20b"),
    ("https://example.com/?q=", "https://example.com/?q="),
    # Spellings of one path a browser requests as one: dot segments, slash runs, escapes.
    ("https://example.com/a/./b/../c", "https://example.com/a/c"),
    ("https://example.com/a/b/..", "https://example.com/a/"),
    ("https://example.com/../../a", "https://example.com/a"),
    ("https://example.com//a///b/", "https://example.com/a/b/"),
    ("https://example.com/%70age/%7euser", "https://example.com/page/~user"),
    ("https://example.com/a%2fb%3F", "https://example.com/a%2Fb%3F"),
    # One machine, one host: IPv4 in integer, short, hex and mapped forms.
    ("http://2130706433:8080/", "http://127.0.0.1:8080/"),
    ("http://127.1/", "http://127.0.0.1/"),
    ("http://0x7f.0.0.1/", "http://127.0.0.1/"),
    ("http://[::ffff:127.0.0.2]/", "http://127.0.0.2/"),
    ("http://0/", "http://0.0.0.0/"),
    ("http://[0:0:0:0:0:0:0:1]/", "http://[::1]/"),
    ("http://example.123/", "http://example.123/"),
    ("http://1.2.3.4.5/", "http://1.2.3.4.5/"),
    # A user name and password are no part of the page (and a URL holding them is unfetchable).
    ("http://user:secret@Example.com:8080/a", "http://example.com:8080/a"),
    ("http://user@example.com/a", "http://example.com/a"),
    ("http://a:b@c@example.com/a?x=@", "http://example.com/a?x=%40"),
    # An escape of a byte that is no UTF-8 is that byte (it became U+FFFD, %EF%BF%BD).
    ("http://example.com/caf%E9?q=%E9&b=%C3%A9", "http://example.com/caf%E9?b=%C3%A9&q=%E9"),
])
def test_canonical_form(url: str, canonical: str) -> None:
    assert canonicalize_url(url) == canonical


@pytest.mark.parametrize(("url", "routed"), [
    ("https://a.example/#/guide/intro", "https://a.example/#/guide/intro"),
    ("https://a.example/docs/index.html?utm_source=x#!/guide", "https://a.example/docs/#!/guide"),
    ("https://a.example/#/guide?id=install", "https://a.example/#/guide"),  # a route's section
    ("https://a.example/#/?id=install", "https://a.example/"),  # the root route's section
    ("https://a.example/#/", "https://a.example/"),  # the root route is the page
    ("https://a.example/#!/", "https://a.example/"),
    ("https://a.example/#install", "https://a.example/"),  # a place in the page
    ("https://a.example/#", "https://a.example/"),
    ("https://a.example/#guide/intro", "https://a.example/"),
    ("https://a.example/#/caf\u00e9", "https://a.example/#/caf%C3%A9"),
])
def test_routed_canonical_form_keeps_client_side_routes(url: str, routed: str) -> None:
    assert canonicalize_routed_url(url) == routed
    assert canonicalize_url(url) == routed.partition("#")[0]  # the plain form drops them


def test_canonicalisation_is_idempotent() -> None:
    once = canonicalize_url("HTTP://Example.com:80/x/index.html?z=1&utm_term=a&a=2#f")
    assert canonicalize_url(once) == once == "http://example.com/x/?a=2&z=1"


@pytest.mark.parametrize(("url", "non_html"), [
    ("https://example.com/report.pdf", True),
    ("https://example.com/photo.JPG", True),
    ("https://example.com/archive.tar.gz", True),
    ("https://example.com/sitemap.xml", True),
    ("https://example.com/page.html", False),
    ("https://example.com/page", False),
    ("https://example.com/v1.2/guide/", False),
    ("https://example.com/.well-known", False),
])
def test_non_html_extensions(url: str, non_html: bool) -> None:
    assert has_non_html_extension(url) is non_html


SCOPE = CrawlScope(hosts=frozenset({"docs.example.com"}))
PORTS = CrawlScope(hosts=frozenset({"127.0.0.1"}), ports=frozenset({80, 443, 8765}))


@pytest.mark.parametrize(("scope", "url", "accepted", "reason"), [
    (SCOPE, "https://docs.example.com/a", True, ""),
    (SCOPE, "https://api.docs.example.com/a", False, "offsite"),
    (SCOPE, "https://example.com/a", False, "offsite"),
    (SCOPE, "mailto:team@docs.example.com", False, "scheme"),
    (CrawlScope(hosts=frozenset({"docs.example.com"}), include_subdomains=True),
     "https://api.docs.example.com/a", True, ""),
    (CrawlScope(hosts=frozenset({"docs.example.com"}), include_subdomains=True),
     "https://notdocs.example.com/a", False, "offsite"),
    (CrawlScope(hosts=frozenset({"docs.example.com"}), allow=re.compile("/guide/")),
     "https://docs.example.com/blog/", False, "not_allowed"),
    (CrawlScope(hosts=frozenset({"127.0.0.1"})), "http://2130706433/a", True, ""),
    (CrawlScope(hosts=frozenset({"127.0.0.1"})), "http://[::ffff:127.0.0.1]/a", True, ""),
    (CrawlScope(hosts=frozenset({"127.0.0.1"})), "http://127.0.0.2/a", False, "offsite"),
    # another port of a start host is another site; the start URL's port and 80, 443 are not
    (PORTS, "http://127.0.0.1:6379/", False, "other_port"),
    (PORTS, "http://127.0.0.1:0/", False, "other_port"),
    (PORTS, "http://127.0.0.1:8765/a", True, ""),
    (PORTS, "http://127.0.0.1/a", True, ""),
    (PORTS, "https://127.0.0.1/a", True, ""),
    (PORTS, "https://127.0.0.1:80/a", True, ""),
    (PORTS, "http://127.0.0.2:6379/", False, "offsite"),
    (CrawlScope(hosts=frozenset({"127.0.0.1"})), "http://localhost/a", False, "offsite"),
    (CrawlScope(hosts=frozenset({"docs.example.com"}), deny=re.compile(r"\?page=")),
     "https://docs.example.com/list?page=2", False, "denied"),
])
def test_scope(scope: CrawlScope, url: str, accepted: bool, reason: str) -> None:
    assert scope.accepts(url) == (accepted, reason)
    # the site test a redirect's target meets too: host and port, not the link filters
    if reason != "scheme":
        assert scope.origin_refused(url) == (reason if reason in ("offsite", "other_port")
                                             else "")
