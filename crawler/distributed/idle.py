"""Extension that keeps an idle worker waiting for the shared frontier, then closes it.

A worker of a distributed crawl is idle whenever the shared Redis queue is empty, even though
other workers may be about to push the links of the pages they are parsing. This extension keeps
the spider open (``DontCloseSpider``) and re-checks the queue every ``REDIS_IDLE_POLL`` seconds;
once the frontier has stayed empty for ``REDIS_IDLE_TIMEOUT`` seconds, the worker closes with the
reason ``finished``. No worker waits forever; no request is lost, because a worker still holding
requests is never idle.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import DontCloseSpider, NotConfigured
from crawler.distributed.config import RedisFrontierConfig

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from twisted.internet.base import DelayedCall

logger = logging.getLogger(__name__)


class FrontierIdleClose:
    """Close a worker only after the shared frontier has stayed empty for the idle timeout."""

    def __init__(self, crawler: Crawler, config: RedisFrontierConfig) -> None:
        self.crawler = crawler
        self.config = config
        self.idle_since: float | None = None
        self.wake_call: DelayedCall | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> FrontierIdleClose:
        """Enabled only in distributed mode (REDIS_URL set)."""
        try:
            config = RedisFrontierConfig.from_settings(crawler.settings)
        except ValueError:
            raise NotConfigured from None  # the scheduler stops the crawl with the reason
        if config is None:
            raise NotConfigured
        extension = cls(crawler, config)
        crawler.signals.connect(extension.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(extension.response_received, signal=signals.response_received)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_idle(self, spider: Spider) -> None:
        """Keep waiting for work from other workers until the idle timeout has passed."""
        now = time.monotonic()
        if self.idle_since is None:
            self.idle_since = now
            logger.debug("Shared frontier is empty; waiting up to %.1fs for other workers",
                         self.config.idle_timeout)
        waited = now - self.idle_since
        if waited >= self.config.idle_timeout:
            self.crawler.stats.set_value("redis/idle_close_after_s", round(waited, 1))
            logger.info("Shared frontier stayed empty for %.1fs: this worker is done", waited)
            return
        self._schedule_wake()
        raise DontCloseSpider

    def response_received(self, **_: Any) -> None:
        """Any response means this worker is busy again: restart the idle clock later."""
        self.idle_since = None

    def spider_closed(self, spider: Spider) -> None:
        """Cancel a pending wake-up."""
        if self.wake_call is not None and self.wake_call.active():
            self.wake_call.cancel()
        self.wake_call = None

    def _schedule_wake(self) -> None:
        from twisted.internet import reactor  # the crawl's reactor, installed by now

        if self.wake_call is None or not self.wake_call.active():
            self.wake_call = reactor.callLater(self.config.idle_poll, self._wake_engine)

    def _wake_engine(self) -> None:
        """Ask the engine to look at the scheduler again (it would otherwise wait for its 5 s
        heartbeat); the engine then pulls new requests or signals idle once more."""
        self.wake_call = None
        slot = getattr(self.crawler.engine, "_slot", None)
        nextcall = getattr(slot, "nextcall", None)
        if nextcall is not None:
            nextcall.schedule()
