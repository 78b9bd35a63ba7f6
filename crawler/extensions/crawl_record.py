"""Writes one row to the `crawls` table of the crawl database when the crawl ends.

The row holds the start URLs, start and end times, the close reason and the crawl's final stats
(``summary/*``, ``skipped/*``, ``errors/*`` and whatever other components count). It is written
when the engine has stopped, after every ``spider_closed`` handler (the summary, the dedup
pipeline) has added its figures.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from crawler.crawls import record_crawl
from crawler.database_identity import DatabaseRefused
from crawler.storage import open_database

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class CrawlRecordConfig:
    """Where the crawl database is (the pages' ``SQLITE_PATH``)."""

    path: Path


class CrawlRecordExtension:
    """Stores the crawl's start, end, close reason and final stats in the `crawls` table."""

    def __init__(self, crawler: Crawler, config: CrawlRecordConfig) -> None:
        self.crawler = crawler
        self.config = config
        self.spider_name = ""
        self.start_urls: list[str] = []
        self.close_reason: str | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlRecordExtension:
        """Off when ``SQLITE_PATH`` is empty (no database to write to)."""
        path = crawler.settings.get("SQLITE_PATH")
        if not path:
            raise NotConfigured("SQLITE_PATH is empty")
        extension = cls(crawler, CrawlRecordConfig(path=Path(path)))
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(extension.engine_stopped, signal=signals.engine_stopped)
        return extension

    def spider_opened(self, spider: Spider) -> None:
        """Remember which crawl this is."""
        self.spider_name = spider.name
        config = getattr(spider, "config", None)
        self.start_urls = list(getattr(config, "start_urls", None)
                               or getattr(spider, "start_urls", None) or [])

    def spider_closed(self, spider: Spider, reason: str) -> None:
        """Remember why the crawl ended."""
        self.close_reason = reason

    def engine_stopped(self) -> None:
        """Write the row; a database that cannot be written is logged and counted, not raised."""
        if not self.spider_name:
            return  # the spider never opened: nothing was crawled
        stats = dict(self.crawler.stats.get_stats())
        started = stats.get("start_time")
        finished = stats.get("finish_time") or datetime.now(UTC)
        try:
            db = open_database(self.config.path)
        except (sqlite3.Error, OSError, DatabaseRefused) as exc:
            self._failed(exc)
            return
        try:
            crawl_id = record_crawl(
                db, spider=self.spider_name, start_urls=self.start_urls,
                started_at=_iso(started), finished_at=_iso(finished),
                close_reason=self.close_reason or stats.get("finish_reason"), stats=stats)
            logger.info("Crawl recorded in %s (crawls.id=%d)", self.config.path, crawl_id)
        except sqlite3.Error as exc:
            self._failed(exc)
        finally:
            db.conn.close()

    def _failed(self, exc: Exception) -> None:
        """Count a record that could not be written and log it: an error, or a warning when the
        crawl already stopped on a failing database (that error was logged once already)."""
        self.crawler.stats.inc_value("crawl_record/error")
        if self.crawler.stats.get_value("storage/error"):
            logger.warning("Could not record the crawl in %s either: %s", self.config.path, exc)
        else:
            logger.error("Could not record the crawl in %s: %s", self.config.path, exc)


def _iso(value: object) -> str | None:
    """A stats time as ISO 8601 text (UTC)."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(UTC).isoformat(timespec="seconds")
    return str(value) if value else None
