"""The links a page points to, read from its parsed tree: ``<a>``/``<area>`` hrefs and page
``<link rel>`` relations, made absolute the way browsers (and Scrapy's LinkExtractor) do."""

from __future__ import annotations

import logging
from urllib.parse import urljoin

from lxml import etree
from w3lib.html import strip_html5_whitespace
from w3lib.url import safe_url_string

logger = logging.getLogger(__name__)

#: ``<link rel=...>`` relations that point at other pages of the site (Sphinx reaches its
#: index and search pages only this way).
PAGE_LINK_RELS = ("next", "prev", "previous", "index", "search", "contents", "start", "first",
                  "last", "up", "home")

_ANCHOR_HREFS = etree.XPath(".//a/@href | .//area/@href", smart_strings=False)
_PAGE_LINK_HREFS = etree.XPath("//link[{}]/@href".format(" or ".join(
    f"contains(concat(' ', normalize-space(@rel), ' '), ' {rel} ')" for rel in PAGE_LINK_RELS)),
    smart_strings=False)

#: Schemes a followed link may have (the others are mailto:, javascript:, tel:, data:, ...).
_FOLLOWABLE_SCHEMES = ("http", "https", "file", "ftp")


def anchor_links(root: etree._Element, page_url: str, base_url: str, encoding: str,
                 limit: int | None = None) -> list[str]:
    """Absolute URLs of a page's ``<a>`` and ``<area>`` links, without their fragment, unique,
    in document order.

    A fragment names a place in a page, not a page, so ``#install`` and ``guide#faq`` are
    links to the page itself and to ``guide``. Each distinct href (fragments aside) is resolved
    once, against the page's ``<base>`` and encoded in the page's encoding, as Scrapy's
    LinkExtractor does; pages repeat the same href and link to dozens of their own sections.
    With ``limit``, only the first ``limit`` URLs are resolved and returned.
    """
    urls: dict[str, None] = {}
    distinct: dict[tuple[str, str, bool], str] = {}
    for href in map(strip_html5_whitespace, _ANCHOR_HREFS(root)):
        before, mark, fragment = href.partition("#")
        distinct.setdefault((before, mark, bool(fragment)), href)
    for href in distinct.values():
        try:
            url = safe_url_string(urljoin(base_url, href), encoding=encoding)
            url = urljoin(page_url, url).partition("#")[0]
        except ValueError:
            logger.debug("Skipped a link with a bad URL: %r", href)
            continue
        if url.split("://", 1)[0] in _FOLLOWABLE_SCHEMES:
            urls[url] = None
            if limit is not None and len(urls) >= limit:
                break
    return list(urls)


def page_relation_links(root: etree._Element, base_url: str) -> list[str]:
    """Absolute URLs of the page's ``<link rel=next|prev|index|...>`` relations."""
    return [urljoin(base_url, href) for href in _PAGE_LINK_HREFS(root)]
