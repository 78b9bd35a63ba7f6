"""Add-on: with REDIS_URL set, a crawl becomes one worker of a shared scrapy-redis frontier."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured

from crawler.distributed.config import DUPEFILTER_KEY, QUEUE_KEY, redacted

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

SCHEDULER = "crawler.distributed.scheduler.RedisScheduler"
DUPEFILTER = "crawler.distributed.dupefilter.CanonicalRedisDupeFilter"
IDLE_EXTENSION = "crawler.distributed.idle.FrontierIdleClose"


class RedisFrontier:
    """Install scrapy-redis's scheduler, a canonical-URL dupefilter and the idle-close extension."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RedisFrontier:
        """Scrapy's factory hook."""
        return cls(crawler)

    def update_settings(self, settings: BaseSettings) -> None:
        """With REDIS_URL, switch the frontier to Redis; without it, change nothing.

        The URL itself is checked when the scheduler connects, which stops a crawl with a bad
        or unreachable REDIS_URL with one sentence.
        """
        url = (settings.get("REDIS_URL") or "").strip()
        if not url:
            raise NotConfigured
        # "addon" priority: below settings.py and -s, so an operator can still override each one.
        settings.set("SCHEDULER", SCHEDULER, priority="addon")
        settings.set("DUPEFILTER_CLASS", DUPEFILTER, priority="addon")
        # Keys outlive each worker: the frontier belongs to the whole crawl, not to one process.
        settings.set("SCHEDULER_PERSIST", True, priority="addon")
        settings.set("SCHEDULER_FLUSH_ON_START", False, priority="addon")
        # A blocking pop would stall the reactor of a worker that still has downloads in flight;
        # waiting for work is the idle extension's job.
        settings.set("SCHEDULER_IDLE_BEFORE_CLOSE", 0, priority="addon")
        settings["EXTENSIONS"][IDLE_EXTENSION] = 0
        name = self.crawler.spidercls.name
        queue_key = (settings.get("SCHEDULER_QUEUE_KEY") or QUEUE_KEY) % {"spider": name}
        dupefilter_key = (settings.get("SCHEDULER_DUPEFILTER_KEY") or DUPEFILTER_KEY) % {
            "spider": name}
        logger.info("Distributed crawl: shared frontier at %s (queue %r, dupefilter %r)",
                    redacted(url), queue_key, dupefilter_key)

