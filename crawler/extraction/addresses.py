"""Link addresses as the story rules read them: a page's site, a link made absolute, the page a
link leads to.

Addresses on a hostile page may be unreadable (``http://[::1``, a port out of range); every
helper answers for those instead of raising, so one such link never costs a page its content.
"""

from __future__ import annotations

from urllib.parse import urldefrag, urljoin, urlsplit


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
