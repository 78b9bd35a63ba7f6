"""Link addresses as the story rules read them: a page's site, a link made absolute, the page a
link leads to.

Addresses on a hostile page may be unreadable (``http://[::1``, a port out of range); every
helper answers for those instead of raising, so one such link never costs a page its content.
"""

from __future__ import annotations

from urllib.parse import urldefrag, urljoin, urlsplit

from lxml.html import HtmlElement


def site_host(url: str) -> str:
    """A URL's host without a leading ``www.`` (empty when it has none, as a relative link, or
    when it cannot be read, as ``http://[::1`` on a hostile page)."""
    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""
    return host[4:] if host.startswith("www.") else host


def join_url(base: str, href: str) -> str | None:
    """``href`` made absolute against ``base``; None when it cannot be read as a URL (an
    unclosed IPv6 bracket, a bad port): one such link must not cost the page its content."""
    try:
        return urljoin(base, href.strip())
    except ValueError:
        return None


def is_web_url(url: str) -> bool:
    """Whether an absolute URL is an http(s) address with a host."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


#: Characters a ``<base href>`` may have (Scrapy's ``URLLENGTH_LIMIT``, the longest URL the
#: crawl requests): every relative link of the page is at least as long as its base, so a base
#: of 1 MB made each of a page's links 1 MB (300 links: 300 MB of ``content_html``, and as many
#: of anchors in the crawl's link scan, 1.4 GB of memory).
MAX_BASE_CHARS = 2083


def document_base(page_url: str, href: str | None) -> str:
    """The URL a page's relative links resolve against: its ``<base href>`` made absolute
    against the page's URL, when that is an http(s) URL with a host and a readable port; else
    the page's URL.

    Browsers resolve a base this way and fall back to the page's address for one they cannot
    parse (``http://[::1``) and for a ``javascript:`` or ``data:`` base; any other scheme
    (``ftp:``, ``file:``) would make the page's links point where no page of the web is, and a
    base still relative (a page read without its address) gives no absolute link. A base longer
    than ``MAX_BASE_CHARS`` is ignored too. The crawl's links and the extraction's content
    links both read the base here.
    """
    if href is None:
        return page_url
    href = href.strip()
    if len(href) > MAX_BASE_CHARS:
        return page_url
    joined = join_url(page_url, href)
    if joined is None or not is_web_url(joined):
        return page_url
    try:
        urlsplit(joined).port
    except ValueError:  # a port out of range or not a number
        return page_url
    return joined


def tree_base(tree: HtmlElement, page_url: str) -> str:
    """:func:`document_base` of the first ``<base>`` with an ``href`` in a parsed page (the one
    browsers read, wherever it stands)."""
    for base in tree.iter("base"):
        href = base.get("href")
        if href is not None:
            return document_base(page_url, href)
    return page_url


def same_site(host: str, other: str) -> bool:
    """Whether two hosts are one site (the same, or one a subdomain of the other)."""
    return bool(host) and (host == other or host.endswith("." + other)
                           or other.endswith("." + host))


def page_key(href: str, base: str) -> str:
    """A link target without its fragment, absolute (to tell the page itself from others); an
    unreadable target is its own key."""
    absolute = join_url(base, href)
    if absolute is None:
        return href.strip()
    return urldefrag(absolute)[0].rstrip("/")
