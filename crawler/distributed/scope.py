"""A start host's other name, shared by every worker of a distributed crawl.

A start URL redirected to its site's other name (the bare domain to ``www.``, or back) widens the
crawl's scope (``crawl/scope_widened``), but only in the worker that followed the redirect: the
requests it then queued under that name were dropped as off-site by every other worker that took
one from the shared queue, and, marked seen, never fetched by anyone. The worker that widens now
adds ``START_HOST HOST`` to a Redis set beside the crawl's queue (``<prefix>:scope`` for the queue
key ``<prefix>:requests``, so crawls with keys of their own keep scopes of their own), and a
worker that takes a request for a host outside its scope reads that set and takes in the names
listed for its start hosts (``crawl/scope_learnt``) before the offsite filter sees the request.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol

import redis

from crawler.urls import host_of

if TYPE_CHECKING:
    from scrapy import Request

logger = logging.getLogger(__name__)

#: Last part of the shared scope's key, in place of the queue key's (``domain:requests``).
SCOPE_KEY_SUFFIX = "scope"


class WideningSpider(Protocol):
    """What the shared scope asks of the spider (``DomainSpider``)."""

    def host_in_scope(self, host: str) -> bool: ...

    def adopt_other_name(self, host: str, start_host: str) -> bool: ...


def scope_key(queue_key: str) -> str:
    """The shared scope's key beside the queue key ``PREFIX:requests`` (``PREFIX:scope``)."""
    prefix = queue_key.rpartition(":")[0] or queue_key
    return f"{prefix}:{SCOPE_KEY_SUFFIX}"


class SharedScope:
    """The hosts the crawl's workers took into its scope, kept in a Redis set."""

    def __init__(self, server: redis.Redis, key: str, spider: Any) -> None:
        self.server = server
        self.key = key
        self.spider = spider

    def publish(self, host: str, start_host: str) -> None:
        """Tell every worker that ``host`` stands for ``start_host`` (a scope_widened receiver)."""
        try:
            self.server.sadd(self.key, f"{start_host} {host}")
        except redis.RedisError as exc:
            logger.warning("Could not share the crawl's scope (%s) through Redis: other workers "
                           "will drop the pages of %s as off-site (%s)", self.key, host, exc)

    def admit(self, request: Request) -> None:
        """Before a request taken from the shared queue meets the offsite filter: when its host
        is outside the spider's scope, take in the names other workers widened the scope to."""
        spider: WideningSpider | None = self.spider
        if spider is None or not hasattr(spider, "adopt_other_name"):
            return
        host = host_of(request.url)
        if not host or spider.host_in_scope(host):
            return
        try:
            entries = self.server.smembers(self.key)
        except redis.RedisError as exc:
            logger.warning("Could not read the crawl's shared scope (%s): %s", self.key, exc)
            return
        for entry in entries:
            start_host, _, other = entry.decode("utf-8", "replace").partition(" ")
            if other == host:
                spider.adopt_other_name(other, start_host)
