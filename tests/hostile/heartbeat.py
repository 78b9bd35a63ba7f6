"""An extension that measures how long the crawl's event loop is kept from running: a call
scheduled every ``INTERVAL`` seconds notes how late it ran. Work that blocks the reactor thread
(parsing a huge page there, say) shows as a late call; downloads and every other callback wait
as long. Added to a crawl by tests and benchmarks through ``EXTENSIONS_BASE`` (see
:func:`settings_with_heartbeat`); stats ``heartbeat/max_stall_seconds`` (the longest delay),
``heartbeat/stalls_over_half_second`` and ``heartbeat/max_busy_seconds``: the most CPU time the
reactor thread spent between two heartbeats. A delay also grows when the machine is busy or the
thread waits for the GIL; the CPU time grows only with work done on the reactor thread in one
go, so it is the figure that tells blocking work from a loaded machine."""

from __future__ import annotations

import json
import time
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.settings.default_settings import EXTENSIONS_BASE
from twisted.internet import task

#: Seconds between two heartbeats.
INTERVAL = 0.05


class Heartbeat:
    """Extension: the longest time the event loop was kept from running a due call."""

    def __init__(self, crawler: Crawler) -> None:
        self.stats = crawler.stats
        self.loop = task.LoopingCall(self.beat)
        self.last = 0.0
        self.last_cpu = 0.0
        self.longest = 0.0
        self.busiest = 0.0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Heartbeat:
        """Start beating when the spider opens, stop when it closes."""
        extension = cls(crawler)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_opened(self, spider: Any) -> None:
        self.last = time.monotonic()
        self.last_cpu = time.thread_time()
        self.loop.start(INTERVAL, now=False)

    def beat(self) -> None:
        now, cpu = time.monotonic(), time.thread_time()
        stall = max(0.0, now - self.last - INTERVAL)
        busy = cpu - self.last_cpu
        self.last, self.last_cpu = now, cpu
        if busy > self.busiest:
            self.busiest = busy
            self.stats.set_value("heartbeat/max_busy_seconds", round(busy, 3))
        if stall > 0.5:
            self.stats.inc_value("heartbeat/stalls_over_half_second")
        if stall > self.longest:
            self.longest = stall
            self.stats.set_value("heartbeat/max_stall_seconds", round(stall, 3))

    def spider_closed(self, spider: Any) -> None:
        if self.loop.running:
            self.loop.stop()


def settings_with_heartbeat() -> dict[str, str]:
    """``-s`` settings that add the heartbeat to a crawl beside Scrapy's own extensions (the
    project's ``EXTENSIONS`` stay as they are)."""
    extensions = {**EXTENSIONS_BASE, f"{__name__}.Heartbeat": 0}
    return {"EXTENSIONS_BASE": json.dumps(extensions)}
