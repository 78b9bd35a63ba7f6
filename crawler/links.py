"""The links a page points to: ``<a>``/``<area>`` hrefs, page ``<link rel>`` relations and its
``<link rel=canonical>``, made absolute the way browsers (and Scrapy's LinkExtractor) do.

The page is read by a streaming parse (libxml2's HTML parser calling a target, no tree built) that
stops once ``limit`` links are found: a page of 200,000 links costs the time and memory of its
first ``limit``, not of the whole page, and the spider runs it off the reactor thread.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from urllib.parse import urljoin

from lxml import etree
from w3lib.html import strip_html5_whitespace
from w3lib.url import safe_url_string

from crawler.extraction.addresses import document_base
from crawler.urls import hash_route

logger = logging.getLogger(__name__)

#: ``<link rel=...>`` relations that point at other pages of the site (Sphinx reaches its
#: index and search pages only this way).
PAGE_LINK_RELS = frozenset(("next", "prev", "previous", "index", "search", "contents", "start",
                            "first", "last", "up", "home"))

#: Schemes a followed link may have (the others are mailto:, javascript:, tel:, data:, ...).
_FOLLOWABLE_SCHEMES = ("http", "https", "file", "ftp")

#: Characters of markup handed to the parser at a time; the scan stops between two pieces.
SCAN_PIECE = 64 * 1024


@dataclass
class PageLinks:
    """What a page links to.

    ``base``: the URL its links resolve against, its first ``<base href>`` read by
    :func:`~crawler.extraction.addresses.document_base` (as the extraction reads it for the
    content's links), else its own URL. ``anchors``: absolute URLs of its ``<a>`` and ``<area>`` links, without their fragment
    (but for a client-side route, see :func:`~crawler.urls.hash_route`, when asked), unique, in
    document order (at most the scan's ``limit``; ``capped`` says the limit was reached and the
    rest of the page was not read). ``relations``: its ``<link rel=next|prev|
    index|...>`` targets, absolute. ``canonical``: the href of the first ``<link
    rel=canonical>`` in its head, as written (None when absent).
    """

    base: str = ""
    anchors: list[str] = field(default_factory=list)
    relations: list[str] = field(default_factory=list)
    canonical: str | None = None
    capped: bool = False


class _LinkTarget:
    """lxml parser target collecting a page's links as the parser meets their start tags.

    A fragment names a place in a page, not a page, so ``#install`` and ``guide#faq`` are links
    to the page itself and to ``guide``. Each distinct href (fragments aside) is resolved once,
    against the page's ``<base>`` and encoded in the page's encoding, as Scrapy's LinkExtractor
    does (a ``<base>`` applies to the links after it: it stands in the head, before them);
    pages repeat the same href and link to dozens of their own sections. With ``routes``,
    a fragment that is a client-side route (``#/guide``) stays: on a page built in the
    browser it names another page.
    """

    def __init__(self, page_url: str, encoding: str, limit: int | None,
                 anchors: bool, routes: bool = False) -> None:
        self.page_url = page_url
        self.base_url = page_url
        self.has_base = False
        self.encoding = encoding
        self.limit = limit
        self.want_anchors = anchors
        self.routes = routes
        self.links = PageLinks(base=page_url)
        self.urls: dict[str, None] = {}
        self.hrefs: set[tuple[str, str, bool]] = set()
        self.in_head = False
        #: True once nothing more is wanted from the rest of the page.
        self.done = False

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        if tag in ("a", "area"):
            href = attrib.get("href")
            if href is not None and self.want_anchors and not self.done:
                self._anchor(strip_html5_whitespace(href))
        elif tag == "link":
            href = attrib.get("href")
            rel = attrib.get("rel") or ""
            if href is None:
                return
            if rel == "canonical" and self.in_head and self.links.canonical is None:
                self.links.canonical = href
            if PAGE_LINK_RELS.intersection(rel.split()):
                self.links.relations.append(urljoin(self.base_url, href))
        elif tag == "head":
            self.in_head = True
        elif tag == "base" and not self.has_base and attrib.get("href") is not None:
            self.has_base = True  # the first base with an href decides, as in browsers
            self.base_url = self.links.base = document_base(self.page_url, attrib["href"])

    def end(self, tag: str) -> None:
        if tag == "head":
            self.in_head = False
            if not self.want_anchors:
                self.done = True  # the canonical link is all that was wanted

    def close(self) -> PageLinks:
        return self.links

    def _anchor(self, href: str) -> None:
        before, mark, fragment = href.partition("#")
        route = hash_route(href) if self.routes else ""
        key = (before, mark, route if self.routes else bool(fragment))
        if key in self.hrefs:
            return
        self.hrefs.add(key)
        try:
            # joined without the fragment, or with its route alone: the URL's fragment is then
            # the route, encoded (a base's own fragment is dropped)
            url = safe_url_string(urljoin(self.base_url, before + route), encoding=self.encoding)
            page, _, encoded_route = urljoin(self.page_url, url).partition("#")
            url = page + ("#" + encoded_route if route else "")
        except ValueError:
            logger.debug("Skipped a link with a bad URL: %r", href)
            return
        if url.split("://", 1)[0] in _FOLLOWABLE_SCHEMES and url not in self.urls:
            self.urls[url] = None
            self.links.anchors.append(url)
            if self.limit is not None and len(self.urls) >= self.limit:
                self.links.capped = True
                self.done = True


def scan_links(html: str, page_url: str, encoding: str, *,
               limit: int | None = None, anchors: bool = True, routes: bool = False) -> PageLinks:
    """Read a page's links (see :class:`PageLinks`) in one streaming pass over ``html``.

    With ``limit``, the scan stops after the first ``limit`` distinct anchor URLs (within one
    piece of ``SCAN_PIECE`` characters); without ``anchors``, after the head (only the canonical
    link and the relations in it are read). With ``routes``, anchors keep a fragment that is a
    client-side route.
    """
    target = _LinkTarget(page_url, encoding, limit, anchors, routes)
    parser = etree.HTMLParser(target=target, encoding="utf-8", huge_tree=True, recover=True,
                              no_network=True)
    try:
        for offset in range(0, len(html), SCAN_PIECE):
            parser.feed(html[offset:offset + SCAN_PIECE].encode("utf-8", "surrogatepass"))
            if target.done:
                return target.links
        parser.close()
    except etree.LxmlError as exc:  # recover=True: only a document with no markup at all
        logger.debug("Read the links of %s up to a parser error: %s", page_url, exc)
    return target.links
