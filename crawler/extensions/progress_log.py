"""Scrapy's periodic stats line, saying what a crawl's user watches.

:class:`CrawlProgress` replaces ``scrapy.extensions.logstats.LogStats`` (it extends it, so the
final ``responses_per_minute`` and ``items_per_minute`` stats stay): every
``LOGSTATS_INTERVAL`` seconds one line with the pages stored, the rate of storing, the requests
waiting in the scheduler and the errors so far.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.extensions.logstats import LogStats

logger = logging.getLogger(__name__)


class CrawlProgress(LogStats):
    """``Progress: 120 pages stored (2.4 pages/s), 310 queued, 3 errors, 131 responses``."""

    crawler: Crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlProgress:
        """LogStats' set-up (``LOGSTATS_INTERVAL``; 0 turns it off)."""
        extension = super().from_crawler(crawler)
        extension.crawler = crawler
        extension.stored_before = 0
        return extension

    def log(self, spider: Spider) -> None:
        """Write the progress line (and keep LogStats' rates up to date)."""
        self.calculate_stats()
        values: dict[str, Any] = self.stats.get_stats()
        stored = values.get("pages/stored", 0)
        rate = (stored - self.stored_before) / self.interval
        self.stored_before = stored
        errors = sum(v for k, v in values.items() if k.startswith("errors/") and isinstance(v, int))
        logger.info("Progress: %(stored)d pages stored (%(rate).1f pages/s), %(queued)s queued, "
                    "%(errors)d errors, %(responses)d responses",
                    {"stored": stored, "rate": rate, "queued": self._queued(),
                     "errors": errors, "responses": self.pages}, extra={"spider": spider})

    def _queued(self) -> int | str:
        """Requests waiting in the scheduler ("?" when it cannot say)."""
        scheduler = getattr(getattr(self.crawler, "engine", None), "scheduler", None)
        try:
            return len(scheduler)  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - a scheduler without a length, or Redis unreachable
            return "?"
