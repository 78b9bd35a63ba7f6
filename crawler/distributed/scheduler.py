"""scrapy-redis's scheduler, adapted to Scrapy 2.13+ (stats without the deprecated spider argument)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy_redis.scheduler import Scheduler

if TYPE_CHECKING:
    from scrapy import Request

logger = logging.getLogger(__name__)


class RedisScheduler(Scheduler):
    """Shared Redis queue + dupefilter; counts enqueued/dequeued requests in the crawl stats."""

    def enqueue_request(self, request: Request) -> bool:
        """Queue the request in Redis unless the shared dupefilter has already seen it."""
        if not request.dont_filter and self.df.request_seen(request):
            self.df.log(request, self.spider)
            return False
        if self.stats:
            self.stats.inc_value("scheduler/enqueued/redis")
        self.queue.push(request)
        return True

    def next_request(self) -> Request | None:
        """Pop the highest-priority request of the shared queue without blocking the reactor."""
        request = self.queue.pop(0)
        if request and self.stats:
            self.stats.inc_value("scheduler/dequeued/redis")
        return request
