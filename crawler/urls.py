"""URL canonicalisation and crawl scope: one page reached under several URLs is one page."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from scrapy.linkextractors import IGNORED_EXTENSIONS
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


def canonicalize_url(url: str) -> str:
    """Canonical form of a URL: lower-case scheme and host, default port and fragment dropped,
    tracking parameters removed, query sorted, empty path made ``/`` and a trailing
    directory index file (``index.html``) dropped."""
    url = safe_url_string(url.strip())
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower().rstrip(".")
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = host if port is None or DEFAULT_PORTS.get(scheme) == port else f"{host}:{port}"
    if parts.username:
        netloc = f"{parts.username}@{netloc}"
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
             if not is_tracking_param(k)]
    query.sort()
    path = _DIRECTORY_INDEX.sub("/", parts.path or "/")
    return urlunsplit((scheme, netloc, path, urlencode(query, doseq=True), ""))


def has_non_html_extension(url: str) -> bool:
    """Whether the URL's path ends in an extension that is never an HTML page."""
    path = urlsplit(url).path.lower()
    last = path.rsplit("/", 1)[-1]
    dot = last.rfind(".")
    return dot > 0 and last[dot:] in NON_HTML_EXTENSIONS


def host_of(url: str) -> str:
    """Lower-case host name of a URL (no port)."""
    return (urlsplit(url).hostname or "").lower().rstrip(".")


@dataclass(frozen=True)
class CrawlScope:
    """Which URLs belong to the crawl: the start hosts (and optionally their subdomains),
    narrowed by ``allow`` and ``deny`` regular expressions."""

    hosts: frozenset[str]
    include_subdomains: bool = False
    allow: re.Pattern[str] | None = None
    deny: re.Pattern[str] | None = None

    def host_in_scope(self, host: str) -> bool:
        """Whether a host is one of the start hosts (or, if enabled, a subdomain of one)."""
        host = host.lower().rstrip(".")
        if host in self.hosts:
            return True
        return self.include_subdomains and any(host.endswith("." + h) for h in self.hosts)

    def accepts(self, url: str) -> tuple[bool, str]:
        """Whether a discovered URL should be crawled, and if not, the reason (a stat key)."""
        if urlsplit(url).scheme not in ("http", "https"):
            return False, "scheme"
        if not self.host_in_scope(host_of(url)):
            return False, "offsite"
        if self.allow is not None and not self.allow.search(url):
            return False, "not_allowed"
        if self.deny is not None and self.deny.search(url):
            return False, "denied"
        return True, ""
