"""scrapy-redis's scheduler, adapted to Scrapy 2.13+: plain stats calls, no blocking pop, and an
unreachable Redis that stops the crawl with one sentence instead of a traceback."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import redis
from scrapy import signals
from scrapy.exceptions import CloseSpider
from scrapy_redis.scheduler import Scheduler

from crawler import signals as crawl_signals
from crawler.distributed.config import RedisFrontierConfig, redacted
from crawler.distributed.scope import SharedScope, scope_key

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class RedisScheduler(Scheduler):
    """Shared Redis queue + dupefilter; counts enqueued/dequeued requests in the crawl stats."""

    startup_error: str | None = None
    #: The hosts the workers took into the crawl's scope (set when the queue opens).
    shared_scope: SharedScope | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RedisScheduler:
        """Connect to REDIS_URL; if it is invalid or unreachable, remember why (see
        :meth:`refuse_to_start`)."""
        url = redacted(crawler.settings.get("REDIS_URL") or "")
        try:
            RedisFrontierConfig.from_settings(crawler.settings)
            scheduler = super().from_crawler(crawler)
            crawler.signals.connect(scheduler.scope_widened, signal=crawl_signals.scope_widened)
            return scheduler
        except ValueError as exc:
            problem = str(exc)
        except redis.RedisError as exc:
            problem = (f"cannot reach Redis at {url} ({exc}); start redis-server there "
                       "or fix REDIS_URL")
        instance = cls(server=None, persist=True)
        instance.stats = crawler.stats
        instance.startup_error = problem
        crawler.signals.connect(instance.refuse_to_start, signal=signals.spider_opened)
        return instance

    def open(self, spider: Spider) -> Any:
        """Open the shared queue and scope (not without a connection: see
        :meth:`refuse_to_start`)."""
        self.spider = spider
        if self.startup_error is None:
            opened = super().open(spider)
            self.shared_scope = SharedScope(self.server, scope_key(self.queue.key), spider)
            return opened
        return None

    def scope_widened(self, host: str, start_host: str) -> None:
        """Share a host this worker took into the crawl's scope with the other workers."""
        if self.shared_scope is not None:
            self.shared_scope.publish(host, start_host)

    def refuse_to_start(self, spider: Spider) -> None:
        """Once every component is open, close the spider with ``redis_unavailable``."""
        logger.error("Cannot start the distributed crawl: %s", self.startup_error)
        self.stats.set_value("crawl/startup_error", self.startup_error)
        raise CloseSpider("redis_unavailable")

    def close(self, reason: str) -> None:
        """Keep the shared keys (SCHEDULER_PERSIST); nothing to do without a connection."""
        if self.startup_error is None:
            super().close(reason)

    def has_pending_requests(self) -> bool:
        """Whether the shared queue (of every worker) holds requests."""
        return self.startup_error is None and len(self) > 0

    def enqueue_request(self, request: Request) -> bool:
        """Queue the request in Redis unless the shared dupefilter has already seen it."""
        if self.startup_error is not None:
            return False
        if not request.dont_filter and self.df.request_seen(request):
            self.df.log(request, self.spider)
            return False
        if self.stats:
            self.stats.inc_value("scheduler/enqueued/redis")
        self.queue.push(request)
        return True

    def next_request(self) -> Request | None:
        """Pop the highest-priority request of the shared queue without blocking the reactor."""
        if self.startup_error is not None:
            return None
        request = self.queue.pop(0)
        if request and self.stats:
            self.stats.inc_value("scheduler/dequeued/redis")
        if request and self.shared_scope is not None:
            self.shared_scope.admit(request)  # a host another worker took into the scope
        return request
