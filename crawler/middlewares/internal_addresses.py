"""Refuse requests and redirects to loopback, private, link-local and cloud-metadata addresses.

A crawl pointed at a public site must not be steered (by a link or a redirect) into the
machine's own network: ``http://169.254.169.254/``, ``http://localhost/``, ``http://10.0.0.1/``
or a public-looking host name that resolves to one of them. IP literals are refused when the
request is scheduled (before Scrapy's offsite filter drops it silently); host names are
resolved in a thread before the request goes out (once per host and crawl). The crawl's own
start hosts are exempt (a crawl of an intranet site, or of a test server on 127.0.0.1, is
allowed), and ``ALLOW_INTERNAL_ADDRESSES = True`` turns the guard off. Stats:
``internal_address/refused`` and ``internal_address/refused/{link,redirect}``.

Limit: the downloader resolves the name again when it first connects (and keeps that answer
for the crawl, in Scrapy's DNS cache), so a DNS answer that changes between the two first
lookups (DNS rebinding with a zero TTL) is not caught here, and start hosts are exempt whatever
they resolve to (README, "Hostile input").
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.threads import deferToThread
from crawler import signals as crawl_signals
from crawler.startup import read_bool, read_or_refuse
from crawler.unusable import UnusableResponse

logger = logging.getLogger(__name__)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

#: Ranges no public crawl has business in, beyond what ``ipaddress`` flags as private/reserved.
EXTRA_BLOCKED_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "100.64.0.0/10",      # carrier-grade NAT (also used by some cloud metadata services)
    "fd00:ec2::254/128",  # AWS metadata over IPv6
))


def is_internal(address: IPAddress) -> bool:
    """True for loopback, private, link-local, unspecified, reserved, multicast, metadata."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return (address.is_loopback or address.is_private or address.is_link_local
            or address.is_unspecified or address.is_reserved or address.is_multicast
            or any(address in net for net in EXTRA_BLOCKED_NETWORKS))


def literal_address(host: str) -> IPAddress | None:
    """The IP address a host is written as (``[::1]``, ``127.0.0.1``), or None for a name."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def resolve(host: str) -> list[IPAddress]:
    """Every address a host name resolves to (blocking; run it in a thread)."""
    infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    return [ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in infos]


@dataclass(frozen=True)
class InternalAddressConfig:
    """Settings of the guard, read once."""

    allow_internal: bool

    @classmethod
    def from_settings(cls, settings) -> InternalAddressConfig:  # noqa: ANN001 - Scrapy Settings
        """Read ``ALLOW_INTERNAL_ADDRESSES``."""
        return cls(allow_internal=read_bool(settings, "ALLOW_INTERNAL_ADDRESSES"))


class InternalAddressMiddleware:
    """Downloader middleware: refuses requests to hosts that are or resolve to internal IPs."""

    def __init__(self, crawler: Crawler, config: InternalAddressConfig) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.config = config
        self.exempt_hosts: set[str] = set()
        self._resolved: dict[str, list[IPAddress]] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> InternalAddressMiddleware:
        """Build the guard; NotConfigured when ALLOW_INTERNAL_ADDRESSES is on."""
        config = read_or_refuse(crawler, InternalAddressConfig.from_settings)
        if config.allow_internal:
            raise NotConfigured("ALLOW_INTERNAL_ADDRESSES is on")
        middleware = cls(crawler, config)
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(middleware.request_scheduled, signal=signals.request_scheduled)
        crawler.signals.connect(middleware.scope_widened, signal=crawl_signals.scope_widened)
        return middleware

    def spider_opened(self, spider: Spider) -> None:
        """Exempt the crawl's start hosts: crawling an internal site on purpose is allowed."""
        for url in self._start_urls(spider):
            host = urlsplit(url).hostname
            if host:
                self.exempt_hosts.add(host.lower())
        if self.exempt_hosts:
            logger.info("Internal-address guard on; start host(s) exempt: %s",
                        ", ".join(sorted(self.exempt_hosts)))

    def scope_widened(self, host: str, start_host: str) -> None:
        """A start host's other name (``www.`` or bare) the crawl followed its start URL to is
        exempt as the start host is: the same site, under the name its owner chose."""
        if start_host.lower() in self.exempt_hosts:
            self.exempt_hosts.add(host.lower())

    @staticmethod
    def _start_urls(spider: Spider) -> list[str]:
        """Start URLs the spider declares: ``start_urls``, or those of its validated config."""
        urls = list(getattr(spider, "start_urls", None) or [])
        config = getattr(spider, "config", None)
        urls.extend(getattr(config, "start_urls", None) or [])
        return urls

    def request_scheduled(self, request: Request, spider: Spider) -> None:
        """Refuse at scheduling what is already known to be internal (literal IPs, resolved names).

        Scrapy's offsite filter drops off-site requests at this point too, before any
        downloader middleware sees them; checking here counts internal targets as such.
        """
        host = (urlsplit(request.url).hostname or "").lower()
        if not host or host in self.exempt_hosts:
            return
        literal = literal_address(host)
        addresses = [literal] if literal is not None else self._resolved.get(host, [])
        self._refuse_if_internal(request, host, addresses)

    async def process_request(self, request: Request, spider: Spider | None = None) -> None:
        """Refuse the request if its host is internal and not a start host (names are resolved)."""
        host = (urlsplit(request.url).hostname or "").lower()
        if not host or host in self.exempt_hosts:
            return None
        self._refuse_if_internal(request, host, await self._addresses(host))
        return None

    def _refuse_if_internal(self, request: Request, host: str, addresses: list[IPAddress]) -> None:
        """Raise UnusableResponse (counted, logged) when any of the host's addresses is internal."""
        internal = [a for a in addresses if is_internal(a)]
        if not internal:
            return
        self.stats.inc_value("internal_address/refused")
        via = "redirect" if request.meta.get("redirect_urls") else "link"
        self.stats.inc_value(f"internal_address/refused/{via}")
        origin = (request.meta.get("redirect_urls") or [None])[0]
        logger.warning("Refused %s: host %s is an internal address (%s)%s; "
                       "set ALLOW_INTERNAL_ADDRESSES=True to crawl it",
                       request.url, host, internal[0],
                       f", redirected from {origin}" if origin else "")
        raise UnusableResponse(f"internal address {internal[0]}")

    async def _addresses(self, host: str) -> list[IPAddress]:
        """The host's addresses: the literal itself, or its resolution (cached per crawl)."""
        literal = literal_address(host)
        if literal is not None:
            return [literal]
        if host not in self._resolved:
            try:
                self._resolved[host] = await maybe_deferred_to_future(deferToThread(resolve, host))
            except (OSError, UnicodeError):
                # Unresolvable: the download fails on its own and is counted there.
                self._resolved[host] = []
        return self._resolved[host]
