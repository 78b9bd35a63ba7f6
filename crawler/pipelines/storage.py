"""SQLitePipeline: upsert each page (with its compressed raw HTML) into the crawl database,
keeping its history (new, changed or unchanged against the stored row; see
:mod:`crawler.history`)."""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils
from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.defer import deferred_from_coro

from crawler import signals
from crawler.aliases import ensure_aliases_table, first_url_with_content, record_alias
from crawler.database_identity import DatabaseRefused
from crawler.exit_codes import STORAGE_ERROR
from crawler.history import UNCHANGED, ensure_versions_table, record_page
from crawler.items import PageItem, page_row
from crawler.startup import stop_if_misconfigured
from crawler.storage import open_database

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SQLiteConfig:
    """Where the crawl database lives, and how many previous texts of a page it keeps."""

    path: Path
    #: Record a page whose main text is stored already under another URL of its domain as an
    #: alias of that URL instead of storing it again (ALIAS_DUPLICATE_CONTENT).
    alias_duplicates: bool = True
    #: Fewest words of main text for a page to be recorded as an alias (ALIAS_MIN_WORDS).
    alias_min_words: int = 20
    keep_versions: int = 3

    def problem(self) -> str | None:
        """A sentence naming an invalid setting, or None."""
        if self.keep_versions < 0:
            return f"RECRAWL_KEEP_VERSIONS must be 0 or more, got {self.keep_versions!r}"
        if self.alias_min_words < 1:
            return f"ALIAS_MIN_WORDS must be 1 or more, got {self.alias_min_words!r}"
        return None


class SQLitePipeline:
    """Store every page in the `pages` table keyed by URL; each page in its own transaction, so
    a killed crawl loses at most the pages in flight.

    A database that cannot be used (see :mod:`crawler.database_identity`) stops the crawl before
    the first request (``startup_error``). A write that fails (disk full, I/O error) stops the
    crawl with ``storage_error``: one error line, the page dropped (so no feed reports it),
    counted under ``errors/storage``; a page that was not committed is never counted stored.
    """

    def __init__(self, crawler: Crawler, config: SQLiteConfig,
                 startup_error: str | None = None) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.config = config
        self.startup_error = startup_error
        self.db: sqlite_utils.Database | None = None
        self.failed = False
        self._logged_domains: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SQLitePipeline:
        """Read ``SQLITE_PATH`` and ``RECRAWL_KEEP_VERSIONS`` once; an empty path turns storage
        off."""
        path = crawler.settings.get("SQLITE_PATH")
        if not path:
            raise NotConfigured("SQLITE_PATH is empty")
        alias_duplicates = crawler.settings.getbool("ALIAS_DUPLICATE_CONTENT")
        whole_numbers: dict[str, int] = {}
        for name in ("RECRAWL_KEEP_VERSIONS", "ALIAS_MIN_WORDS"):
            raw = crawler.settings.get(name)
            try:
                whole_numbers[name] = int(raw)
            except (TypeError, ValueError):
                return cls(crawler, SQLiteConfig(path=Path(path)),
                           startup_error=f"{name} must be a whole number, got {raw!r}")
        config = SQLiteConfig(path=Path(path), alias_duplicates=alias_duplicates,
                              alias_min_words=whole_numbers["ALIAS_MIN_WORDS"],
                              keep_versions=whole_numbers["RECRAWL_KEEP_VERSIONS"])
        return cls(crawler, config, startup_error=config.problem())

    async def open_spider(self, spider: Spider | None = None) -> None:
        """Open the database (WAL mode), creating it and its schema if needed; refuse a path
        that cannot hold it, or another application's database, or a bad
        RECRAWL_KEEP_VERSIONS, with one sentence.

        A coroutine, so that Scrapy gathers it with the other pipelines' and a refusal leaves
        none of them un-awaited."""
        stop_if_misconfigured(self.stats, self.startup_error)
        try:
            self.db = open_database(self.config.path)
            ensure_aliases_table(self.db)
            ensure_versions_table(self.db)
        except DatabaseRefused as exc:
            stop_if_misconfigured(self.stats, f"SQLITE_PATH: {exc}.")
        except (sqlite3.Error, OSError) as exc:
            stop_if_misconfigured(self.stats, f"SQLITE_PATH: {self.config.path} cannot be "
                                              f"used as the crawl database ({exc}).")
        logger.info("Storing pages in %s", self.config.path)

    def close_spider(self, spider: Spider | None = None) -> None:
        """Close the database."""
        if self.db is not None:
            self.db.conn.close()
            self.db = None

    def process_item(self, item: PageItem, spider: Spider | None = None) -> PageItem:
        """Upsert the page row; re-crawling a URL updates its row and history. After a failed
        write, the pages still in flight are counted and dropped without another attempt."""
        if self.db is None or self.failed:
            self.stats.inc_value("errors/storage")
            raise DropItem(f"Not stored (the crawl database failed): {item.url}",
                           log_level="DEBUG")
        try:
            if self.config.alias_duplicates:
                self._drop_if_alias(item)
            outcome = record_page(self.db, page_row(item), item.raw_html,
                                  keep_versions=self.config.keep_versions)
        except sqlite3.Error as exc:
            self._stop(item, exc)
            raise DropItem(f"Not stored ({exc}): {item.url}", log_level="DEBUG") from None
        self.stats.inc_value("pages/stored")
        self.stats.inc_value(f"recrawl/{outcome}" if outcome != UNCHANGED
                             else "recrawl/same_hash")
        return item

    def _stop(self, item: PageItem, exc: sqlite3.Error) -> None:
        """Count the unstored page, log one line and stop the crawl with ``storage_error``."""
        self.failed = True
        self.stats.inc_value("errors/storage")
        self.stats.set_value("storage/error", str(exc))
        logger.error("Cannot write to the crawl database %s (%s); stopping the crawl. %s and "
                     "the pages after it are not stored; the pages stored before are intact.",
                     self.config.path, exc, item.url)
        deferred_from_coro(self.crawler.engine.close_spider_async(reason=STORAGE_ERROR))

    def _drop_if_alias(self, item: PageItem) -> None:
        """Record the page as an alias and drop it when another URL of its domain holds its
        main text under the same title (pages with fewer than ALIAS_MIN_WORDS words of text are
        never aliases)."""
        assert self.db is not None
        if not item.content_hash or (item.word_count or 0) < self.config.alias_min_words:
            return
        first = first_url_with_content(self.db, item.domain, item.content_hash, item.url,
                                       item.title)
        if first is None:
            return
        record_alias(self.db, item.url, first, item.domain, item.content_hash)
        self.stats.inc_value("duplicates/alias")
        level = logging.DEBUG if item.domain in self._logged_domains else logging.INFO
        self._logged_domains.add(item.domain)
        logger.log(level, "Same content as %s: %s recorded as its alias, not stored again "
                          "(first of this domain logged at INFO)", first, item.url)
        self.crawler.signals.send_catch_log(signals.page_duplicate, url=item.url, first_url=first)
        raise DropItem(f"alias of {first}", log_level="DEBUG")
