"""Which URLs an agent may have fetched or crawled: http(s) only, and no internal address.

The rules are the crawl's own (``crawler.middlewares.internal_addresses``): a host that is, or
resolves to, a loopback, private, link-local, reserved or metadata address is refused unless
the server was started with that host allowed (``--allow-host``), as a crawl exempts its
start host. Link-local and metadata addresses stay refused for every other host.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from crawler.middlewares.internal_addresses import is_internal, literal_address, resolve

#: Longest URL accepted (Scrapy's URLLENGTH_LIMIT).
MAX_URL_LENGTH = 2083


class GuardError(ValueError):
    """The URL may not be used; the message is one sentence for the caller."""


def check_url(url: object, *, allowed_hosts: frozenset[str] = frozenset(),
              name: str = "url") -> str:
    """``url`` stripped, when it is an http(s) URL of a public host or of one of
    ``allowed_hosts`` (exempt like a crawl's start host); else :class:`GuardError`."""
    if not isinstance(url, str) or not url.strip():
        raise GuardError(f"{name} must be an http:// or https:// URL, got {url!r}.")
    url = url.strip()
    if len(url) > MAX_URL_LENGTH:
        raise GuardError(f"{name} is longer than {MAX_URL_LENGTH} characters.")
    try:
        parts = urlsplit(url)
        port = parts.port  # raises on a bad port
    except ValueError as exc:
        raise GuardError(f"{name} is not a valid URL ({exc}).") from exc
    if parts.scheme.lower() not in ("http", "https"):
        raise GuardError(f"{name} must use http or https, got {parts.scheme or 'no'} scheme.")
    host = (parts.hostname or "").lower()
    if not host:
        raise GuardError(f"{name} has no host.")
    if any(ch.isspace() for ch in url) or (port is not None and not 0 < port < 65536):
        raise GuardError(f"{name} is not a valid URL.")
    if host in allowed_hosts or host.strip("[]") in allowed_hosts:
        return url
    literal = literal_address(host)
    try:
        addresses = [literal] if literal is not None else resolve(host)
    except (OSError, UnicodeError) as exc:
        raise GuardError(f"the host of {name} ({host}) cannot be resolved ({exc}).") from exc
    internal = [a for a in addresses if is_internal(a)]
    if internal:
        raise GuardError(f"{host} is an internal address ({internal[0]}); the server refuses "
                         f"internal addresses unless the host is named with --allow-host.")
    return url


__all__ = ["GuardError", "MAX_URL_LENGTH", "check_url"]
