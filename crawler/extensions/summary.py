"""At close, one log line and ``summary/*`` stats: pages found, stored, skipped, rendered, errors
(``errors/storage``: pages that reached the database but could not be written)."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class CrawlSummary:
    """Counts unique page URLs scheduled and sums up the crawl's stats when the spider closes."""

    def __init__(self, crawler: Crawler, stats_path: Path | None = None) -> None:
        self.stats = crawler.stats
        self.stats_path = stats_path

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlSummary:
        """Connect to the scheduling and closing signals."""
        path = crawler.settings.get("CRAWL_STATS_PATH")
        extension = cls(crawler, Path(path) if path else None)
        crawler.signals.connect(extension.request_scheduled, signal=signals.request_scheduled)
        crawler.signals.connect(extension.request_dropped, signal=signals.request_dropped)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    @staticmethod
    def _is_new_page(request: Request) -> bool:
        return request.meta.get("crawl_role") == "page" and not request.dont_filter

    def request_scheduled(self, request: Request, spider: Spider) -> None:
        """A page request reached the scheduler."""
        if self._is_new_page(request):
            self.stats.inc_value("pages/discovered")

    def request_dropped(self, request: Request, spider: Spider) -> None:
        """The scheduler's dupefilter refused it: not a new page after all."""
        if self._is_new_page(request):
            self.stats.inc_value("pages/discovered", -1)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        """Write ``summary/*`` stats and log the one-line summary."""
        values: dict[str, Any] = self.stats.get_stats()
        skipped = {k.split("/", 1)[1]: v for k, v in values.items()
                   if k.startswith("skipped/") and v}
        errors = {k.split("/", 1)[1]: v for k, v in values.items()
                  if k.startswith("errors/") and v}
        found = values.get("pages/discovered", 0)
        stored = values.get("pages/stored", 0)
        rendered = values.get("pages/rendered", 0)
        unstored = values.get("errors/storage", 0)
        self.stats.set_value("summary/pages_found", found)
        self.stats.set_value("summary/pages_stored", stored)
        self.stats.set_value("summary/pages_rendered", rendered)
        self.stats.set_value("summary/pages_unstored", unstored)
        self.stats.set_value("summary/skipped", sum(skipped.values()))
        self.stats.set_value("summary/errors", sum(errors.values()))

        def fmt(counts: dict[str, int]) -> str:
            return ", ".join(f"{k}={v}" for k, v in sorted(counts.items())) or "none"

        logger.info("Crawl summary (%s): %d pages found, %d stored, %d rendered; "
                    "skipped: %s; errors: %s", reason, found, stored, rendered, fmt(skipped),
                    fmt(errors))
        if self.stats_path is not None:
            self.stats_path.parent.mkdir(parents=True, exist_ok=True)
            final = dict(self.stats.get_stats(), finish_reason=reason)
            self.stats_path.write_text(json.dumps(final, default=str, indent=1, sort_keys=True))
