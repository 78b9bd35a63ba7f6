"""URL canonicalisation and crawl scope: one page reached under several URLs is one page."""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, replace
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from scrapy.linkextractors import IGNORED_EXTENSIONS
from tldextract import TLDExtract
from w3lib.url import safe_url_string

#: Query parameters that identify a campaign or a click, never a page.
TRACKING_PARAMS = frozenset({
    "fbclid", "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "twclid",
    "igshid", "mc_cid", "mc_eid", "_ga", "_gl", "_hsenc", "_hsmi", "__hssc", "__hstc", "__hsfp",
    "hsctatracking", "mkt_tok", "oly_anon_id", "oly_enc_id", "vero_conv", "vero_id", "rb_clickid",
    "s_cid", "ref_src", "ref_url", "spm", "scid", "srsltid", "si",
})
TRACKING_PREFIXES = ("utm_", "pk_", "mtm_", "matomo_", "piwik_")

DEFAULT_PORTS = {"http": 80, "https": 443}

#: The codec a query's escapes are read and written back in: Latin-1 maps each byte to one
#: character and back, so an escape that is no UTF-8 (``%E9``, what browsers send for a raw
#: Latin-1 byte of a ``Location``) stays itself; read as UTF-8 it became U+FFFD (``%EF%BF%BD``),
#: another URL. Valid UTF-8 escapes come back unchanged, in the same order.
QUERY_BYTES_CODEC = "latin-1"

#: ``/docs/index.html`` is the page served at ``/docs/``: one page, one URL.
_DIRECTORY_INDEX = re.compile(r"/(?:index|default)\.(?:html?|php|aspx?)$", re.I)

#: File extensions that are never HTML pages (documents, media, archives, code bundles).
NON_HTML_EXTENSIONS = frozenset("." + ext for ext in IGNORED_EXTENSIONS) | frozenset(
    {".json", ".xml", ".gz", ".txt", ".csv", ".map", ".woff", ".woff2", ".ttf", ".eot", ".otf",
     ".ico", ".webp", ".avif", ".svgz", ".wasm", ".inv"})


def is_tracking_param(name: str) -> bool:
    """Whether a query parameter only tracks a visit and can be dropped."""
    lowered = name.lower()
    return lowered in TRACKING_PARAMS or lowered.startswith(TRACKING_PREFIXES)


#: A percent-escape of an unreserved character (RFC 3986 2.3): ``%70`` is ``p``.
_UNRESERVED_ESCAPE = re.compile(r"%(2[dDeE]|3[0-9]|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])")
_ANY_ESCAPE = re.compile(r"%[0-9a-fA-F]{2}")
_SLASH_RUN = re.compile(r"/{2,}")


def _ipv4_number(part: str) -> int | None:
    """One part of an IPv4 host as browsers read it (decimal, ``0x`` hex, leading-0 octal)."""
    try:
        if part[:2].lower() == "0x":
            return int(part[2:] or "0", 16)
        if len(part) > 1 and part.startswith("0"):
            return int(part[1:], 8)
        return int(part, 10)
    except ValueError:
        return None


def _ipv4_host(host: str) -> str | None:
    """The dotted form of a host written as an IPv4 address in any form a browser accepts
    (``2130706433``, ``127.1``, ``0x7f.0.0.1``, ``0``), or None for a name."""
    parts = host.split(".")
    if not host or not parts[-1] or not re.fullmatch(r"[0-9]+|0[xX][0-9a-fA-F]*", parts[-1]):
        return None
    if len(parts) > 4 or "" in parts:
        return None
    numbers = [_ipv4_number(p) for p in parts]
    if any(n is None for n in numbers):
        return None
    *head, last = numbers
    if any(n > 255 for n in head) or last >= 256 ** (5 - len(numbers)):  # type: ignore[operator]
        return None
    value = last
    for index, number in enumerate(head):
        value += number * 256 ** (3 - index)  # type: ignore[operator]
    return str(ipaddress.IPv4Address(value))


def normalise_host(host: str) -> str:
    """A host as one spelling per machine: lower case, no trailing dot, IPv4 addresses dotted
    (integer, short, hex and octal forms, and IPv4-mapped IPv6), IPv6 compressed in brackets."""
    host = host.lower().rstrip(".").strip("[]")
    if ":" in host:  # IPv6 literal
        try:
            address = ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            return f"[{host}]"
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return f"[{address.compressed}]"
    return _ipv4_host(host) or host


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 5.2.4: ``/a/./b/../c`` is ``/a/c``."""
    output: list[str] = []
    segments = path.split("/")
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == ".":
            if last:
                output.append("")
            continue
        if segment == "..":
            if len(output) > 1:
                output.pop()
            if last:
                output.append("")
            continue
        output.append(segment)
    result = "/".join(output)
    return result if result.startswith("/") else "/" + result


def normalise_path(path: str) -> str:
    """The path a browser would request, spelled one way: dot segments resolved, runs of
    slashes made one, escapes of unreserved characters decoded (``%70age`` is ``page``) and
    the other escapes upper-cased."""
    path = _UNRESERVED_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), path or "/")
    path = _ANY_ESCAPE.sub(lambda m: m.group(0).upper(), path)
    path = _SLASH_RUN.sub("/", path)
    return _remove_dot_segments(path)


def canonicalize_url(url: str) -> str:
    """Canonical form of a URL: lower-case scheme and host (IPv4 in dotted form), default port,
    user name and password (``user:pass@``, see :func:`without_userinfo`) and fragment dropped,
    tracking parameters removed, query sorted, path normalised (:func:`normalise_path`; empty
    made ``/``) and a trailing directory index file (``index.html``) dropped."""
    url = safe_url_string(url.strip())
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = normalise_host(parts.hostname or "")
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = host if port is None or DEFAULT_PORTS.get(scheme) == port else f"{host}:{port}"
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True,
                                          encoding=QUERY_BYTES_CODEC)
             if not is_tracking_param(k)]
    query.sort()
    path = _DIRECTORY_INDEX.sub("/", normalise_path(parts.path))
    return urlunsplit((scheme, netloc, path,
                       urlencode(query, doseq=True, encoding=QUERY_BYTES_CODEC), ""))


def hash_route(url: str) -> str:
    """The client-side route a URL's fragment names, as a fragment (``#/guide``, ``#!/guide``),
    or "" when it names none.

    A page that builds itself in the browser may route by the fragment: ``#/guide`` and the
    hash-bang ``#!/guide`` are pages of their own, served as one shell. A fragment not starting
    with ``/`` or ``!/`` is a place in a page (``#install``); a route's own query is a place in
    the route's page (``#/guide?id=install``), and the root route (``#/``) is the page itself.
    """
    fragment = url.partition("#")[2]
    prefix = "!" if fragment.startswith("!/") else ""
    route = fragment[len(prefix):].partition("?")[0]
    if not route.startswith("/") or route == "/":
        return ""
    return "#" + prefix + route


def canonicalize_routed_url(url: str) -> str:
    """:func:`canonicalize_url` keeping the client-side route of the fragment (see
    :func:`hash_route`): the URL of a page reached by a hash route."""
    return canonicalize_url(url) + hash_route(safe_url_string(url.strip()))


def without_userinfo(url: str) -> str:
    """The URL without the user name and password of its authority (``user:pass@``): the
    same page, and the only form the crawl can fetch (Scrapy's client fails on such a URL with
    ``invalid hostname``, and robots.txt read the user as a host of its own); the crawl sends
    no credentials taken from a URL."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


def has_non_html_extension(url: str) -> bool:
    """Whether the URL's path ends in an extension that is never an HTML page."""
    path = urlsplit(url).path.lower()
    last = path.rsplit("/", 1)[-1]
    dot = last.rfind(".")
    return dot > 0 and last[dot:] in NON_HTML_EXTENSIONS


def offline_suffix_list() -> TLDExtract:
    """``tldextract`` on the public suffix list shipped with the package (private suffixes such
    as ``github.io`` included): never a download at run time, which would be traffic outside
    the crawl (and tracebacks on a machine without internet)."""
    return TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True)


def is_public_suffix(host: str, suffixes: TLDExtract) -> bool:
    """Whether a host is a public suffix (``co.uk``, ``github.io``): no one site's name."""
    return not suffixes(host).domain


def same_site_other_name(host: str, other: str) -> bool:
    """Whether two hosts are one site under its two usual names, the bare domain and its
    ``www.`` name (either way round): ``site.example`` and ``www.site.example``, not
    ``docs.site.example`` nor another domain. The bare one must be a registrable name (not
    an IP address, not a public suffix: ``www.co.uk`` is no name of ``co.uk``)."""
    host, other = normalise_host(host), normalise_host(other)
    bare, www = sorted((host, other), key=len)
    if www != "www." + bare or _ipv4_host(bare) or bare.startswith("["):
        return False
    return not is_public_suffix(bare, offline_suffix_list())


def host_of(url: str) -> str:
    """Normalised host of a URL (no port; see :func:`normalise_host`)."""
    try:
        hostname = urlsplit(url).hostname
    except ValueError:
        return ""
    return normalise_host(hostname or "")


#: Why a URL's site is not the crawl's (:meth:`CrawlScope.origin_refused`; also the stat keys
#: ``links/filtered/<reason>``): a host outside the scope, or a host of the scope on another port.
OFFSITE = "offsite"
OTHER_PORT = "other_port"


def port_of(url: str) -> int | None:
    """The port a URL is fetched on (its scheme's default when it names none), or None when it
    cannot be read."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    return port if port is not None else DEFAULT_PORTS.get(parts.scheme.lower())


@dataclass(frozen=True)
class CrawlScope:
    """Which URLs belong to the crawl: the start hosts (and optionally their subdomains) on the
    start URLs' ports and the web's two (80 and 443: a site's http and https), narrowed by
    ``allow`` and ``deny`` regular expressions.

    A link to a start host on another port is another site's (an origin is its scheme, host and
    port): followed, a page of links to thousands of ports made the crawl ask each for its
    robots.txt (connections refused, retried, an ERROR line each: 600 requests and 114 s for
    300 ports), and reached the services a host keeps on other ports. ``ports`` empty: any."""

    hosts: frozenset[str]
    include_subdomains: bool = False
    allow: re.Pattern[str] | None = None
    deny: re.Pattern[str] | None = None
    ports: frozenset[int] = frozenset()

    def host_in_scope(self, host: str) -> bool:
        """Whether a host is one of the start hosts (or, if enabled, a subdomain of one)."""
        host = normalise_host(host)
        if host in self.hosts:
            return True
        return self.include_subdomains and any(host.endswith("." + h) for h in self.hosts)

    @property
    def offsite_names(self) -> list[str]:
        """The hosts as Scrapy's offsite filter reads them (``allowed_domains``), which it
        compares with a URL's host name: an IPv6 address without its brackets. With them, a
        start URL ``http://[::1]:8080/`` was dropped by the filter before its download, without
        a word: nothing stored, exit 0, ``errors: none``."""
        return sorted(host.strip("[]") for host in self.hosts)

    def with_host(self, host: str) -> CrawlScope:
        """The same scope with one more host (its filters unchanged)."""
        return replace(self, hosts=self.hosts | {normalise_host(host)})

    def origin_refused(self, url: str) -> str:
        """Why a URL's site is not the crawl's: :data:`OFFSITE` (a host outside the scope),
        :data:`OTHER_PORT` (a host of the scope on another port: another origin), or ``""`` when
        its host and port are in scope. The one test of a URL's site, asked of a link
        (:meth:`accepts`), of a redirect's target and of the URL a page finally came from."""
        if not self.host_in_scope(host_of(url)):
            return OFFSITE
        if self.ports and port_of(url) not in self.ports:
            return OTHER_PORT
        return ""

    def accepts(self, url: str) -> tuple[bool, str]:
        """Whether a discovered URL should be crawled, and if not, the reason (a stat key)."""
        if urlsplit(url).scheme not in ("http", "https"):
            return False, "scheme"
        refused = self.origin_refused(url)
        if refused:
            return False, refused
        if self.allow is not None and not self.allow.search(url):
            return False, "not_allowed"
        if self.deny is not None and self.deny.search(url):
            return False, "denied"
        return True, ""
