"""SQLitePipeline: upsert each page (with its compressed raw HTML) into the crawl database."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils
from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from crawler.items import PageItem, page_row
from crawler.storage import open_database, upsert_page

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SQLiteConfig:
    """Where the crawl database lives."""

    path: Path


class SQLitePipeline:
    """Store every page in the `pages` table keyed by URL; each page in its own transaction, so
    a killed crawl loses at most the pages in flight."""

    def __init__(self, crawler: Crawler, config: SQLiteConfig) -> None:
        self.stats = crawler.stats
        self.config = config
        self.db: sqlite_utils.Database | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SQLitePipeline:
        """Read ``SQLITE_PATH`` once; an empty value turns storage off."""
        path = crawler.settings.get("SQLITE_PATH")
        if not path:
            raise NotConfigured("SQLITE_PATH is empty")
        return cls(crawler, SQLiteConfig(path=Path(path)))

    def open_spider(self, spider: Spider | None = None) -> None:
        """Open the database (WAL mode), creating it and its schema if needed."""
        self.db = open_database(self.config.path)
        logger.info("Storing pages in %s", self.config.path)

    def close_spider(self, spider: Spider | None = None) -> None:
        """Close the database."""
        if self.db is not None:
            self.db.conn.close()
            self.db = None

    def process_item(self, item: PageItem, spider: Spider | None = None) -> PageItem:
        """Upsert the page row; re-crawling a URL updates its row."""
        assert self.db is not None
        upsert_page(self.db, page_row(item), item.raw_html)
        self.stats.inc_value("pages/stored")
        return item
