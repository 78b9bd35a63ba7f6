"""Share widgets: the row of buttons that hands the page's own address to another site, with
its label ("Share this article", "Be sociable, share!", in any language).

A share button is a link like no other on the page: it leads away from the page's site (a
social network, a mail client) and carries the page's own address in its query
(``facebook.com/sharer.php?u=<this page>``, ``mailto:?body=<this page>``). The cleaning's
other rules take the buttons when their names say so or their links are dense, but leave the
widget's label, a short line of the page's own language beside them; when the buttons are
icons without text, the label is all that remains. The rule ("share-widget" in the trace)
reads structure only:

- a *share link* leads to another site than the page's (or to no site: ``mailto:``) and its
  address, decoded, holds the page's own address (host and path; the page must have a path:
  a site's home page is named by every link to the site);
- the *widget* is the largest element around a share link, below the container, that holds
  at least ``share_min_links`` share links and at most ``share_label_max_chars`` characters
  of text outside them (the label), and no link to the page's own site (a story's sources and
  a list of the site's pages are not in it);
- the widget goes, before the cleaning, while the buttons that show it for what it is are
  still there.

It runs on containers no site or framework rule chose (a documentation page that shows how to
build a share link keeps its example).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

from lxml import etree

from crawler.extraction.addresses import join_url, same_site, site_host
from crawler.extraction.story_tail import non_space_chars, remove_block
from crawler.extraction.thresholds import Thresholds
from crawler.extraction.tree_text import text_content

SHARE_RULE = "share-widget"
"""The rule's name in the trace."""

_DECODINGS = 2
"""Times a link's address is percent-decoded before the page's address is looked for in it (a
share link may encode the page's address twice, as a parameter of a parameter)."""


def page_address(url: str) -> str | None:
    """The page's host and path as they appear inside another address (no scheme, no
    ``www.``, no trailing slash, lower case), or None when the page has no path."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    path = parts.path.rstrip("/")
    host = site_host(url)
    if not host or not path:
        return None
    return (host + path).lower()


def _target(link: etree._Element, url: str) -> str | None:
    """The absolute address a link leads to, or None for none or a place on the page."""
    href = (link.get("href") or "").strip()
    if not href or href.startswith("#"):
        return None
    return join_url(url, href)


_REWRITTEN = frozenset("\t\r\n")
"""Characters the URL parser takes out of an address wherever they stand (so ``/\\t/host``
names a host): a link holding one is left to the full join."""
_ABSOLUTE_PREFIXES = ("http://", "https://")
"""Address prefixes of links that name their own host, whatever the page's scheme."""
_WEB_SCHEMES = frozenset({"http", "https"})
"""Schemes of a page whose relative links the parser joins to the page's host."""


def _holds_address(target: str, address: str) -> bool:
    """Whether a link's address, percent-decoded, holds the page's (``page_address``)."""
    decoded = target
    for _ in range(_DECODINGS):
        decoded = unquote(decoded)
    return address in decoded.lower().replace("://www.", "://")


def _settled_unjoined(href: str, address: str, site: str) -> bool:
    """Whether an ``href`` of a link on an ``http(s)`` page is certainly no share link, read
    without joining it to the page's address (most links of a page are relative or name their
    site, and joining each one cost more than the rest of the rule). A relative link (no
    scheme, not ``//host``) takes the page's host. An ``http(s)://`` link keeps its own host
    when joined, and its joined address is its own less the empty ``;``, ``?`` and ``#``
    parts: neither the page's address nor its decoded form holds those characters, so the
    page's address is in the joined link only if it is in the link. Links starting with a
    control character or holding a character the parser deletes (tab, line break) answer
    False and are joined in full."""
    if not href or href[0] <= " " or not _REWRITTEN.isdisjoint(href):
        return False
    if ":" not in href:
        return not href.startswith("//")
    if not href.startswith(_ABSOLUTE_PREFIXES):
        return False
    return not _holds_address(href, address) or same_site(site_host(href), site)


def _is_share_link(link: etree._Element, url: str, address: str, site: str,
                   web_page: bool) -> bool:
    """Whether a link hands the page's own address to another site (``web_page``: the page's
    address is ``http(s)``, so most of its links are settled without joining them)."""
    if web_page and _settled_unjoined((link.get("href") or "").strip(), address, site):
        return False
    target = _target(link, url)
    if target is None or same_site(site_host(target), site):
        return False
    return _holds_address(target, address)


def _label_chars(el: etree._Element, shares: set[etree._Element]) -> int:
    """Characters of an element's text outside its share links."""
    inside = sum(non_space_chars(text_content(a)) for a in el.iter("a") if a in shares)
    return non_space_chars(text_content(el)) - inside


def _own_link(el: etree._Element, url: str, site: str) -> bool:
    """Whether an element holds a link to the page's own site."""
    for a in el.iter("a"):
        target = _target(a, url)
        if target is not None and same_site(site_host(target), site):
            return True
    return False


def find_share_widgets(container: etree._Element, url: str,
                       t: Thresholds) -> list[etree._Element]:
    """The share widgets of the container, outermost first and none inside another."""
    address = page_address(url)
    if address is None:
        return []
    site = site_host(url)
    web_page = urlsplit(url.strip()).scheme in _WEB_SCHEMES
    links = [a for a in container.iter("a") if _is_share_link(a, url, address, site, web_page)]
    if len(links) < t.share_min_links:
        return []
    shares = set(links)
    widgets: list[etree._Element] = []
    for link in links:
        if any(w is link or w in link.iterancestors() for w in widgets):
            continue
        box = None
        for anc in link.iterancestors():
            if anc is container:
                break
            if _label_chars(anc, shares) > t.share_label_max_chars or _own_link(anc, url, site):
                break
            box = anc
        if box is None or sum(1 for a in box.iter("a") if a in shares) < t.share_min_links:
            continue
        widgets = [w for w in widgets if box not in w.iterancestors()] + [box]
    return widgets


def drop_share_widgets(container: etree._Element, url: str, t: Thresholds,
                       trace: list[dict[str, Any]] | None = None) -> int:
    """Remove the container's share widgets with their labels; return how many."""
    widgets = find_share_widgets(container, url, t)
    texts = [" ".join(text_content(w).split())[:60] for w in widgets]
    for widget in widgets:
        remove_block(widget, container)
    if trace is not None and widgets:
        trace.append({"step": "clean", "action": "removed", "rule": SHARE_RULE,
                      "why": "links handing the page's own address to another site (share "
                             "buttons), with their label", "count": len(widgets),
                      "text": texts[:5]})
    return len(widgets)
