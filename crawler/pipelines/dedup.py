"""DomainDedupPipeline: when the spider closes, drop blocks repeated across each crawled domain.

Items pass through untouched (boilerplate is only visible once a domain's pages are all in);
in ``close_spider`` every domain seen is brought up to date over all its live rows in the crawl
database, including rows stored by earlier crawls, and ``pages.cleaned_content`` is written. On
a re-crawl only the domains whose pages moved enough are analysed again; the others get their
new and changed pages cleaned with the stored fingerprint (:func:`refresh_domain`).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from crawler.dedup.config import DedupConfig, DedupConfigError
from crawler.dedup.store import REFRESH_FULL, DomainRefresh, DomainResult, refresh_domain
from crawler.history import utc_now
from crawler.items import PageItem
from crawler.startup import SettingError, read_bool, stop_if_misconfigured
from crawler.storage import PAGES_TABLE, open_database

logger = logging.getLogger(__name__)

SETTING_NAMES = {
    "threshold_pct": "DOMAIN_DEDUP_THRESHOLD_PCT",
    "min_pages": "DOMAIN_DEDUP_MIN_PAGES",
    "min_block_chars": "DOMAIN_DEDUP_MIN_BLOCK_CHARS",
    "reanalyse_pct": "DOMAIN_DEDUP_REANALYSE_PCT",
}


@dataclass(frozen=True)
class DomainDedupSettings:
    """Where the pages are and how boilerplate is found."""

    db_path: Path
    dedup: DedupConfig


class DomainDedupPipeline:
    """Collect the domains crawled; at close, fingerprint each one and write cleaned content."""

    def __init__(self, crawler: Crawler, config: DomainDedupSettings | None,
                 startup_error: str | None = None) -> None:
        self.stats = crawler.stats
        self.config = config
        self.startup_error = startup_error
        self.domains: set[str] = set()
        self.opened_at = utc_now()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DomainDedupPipeline:
        """Read and validate the DOMAIN_DEDUP_* settings once; a bad one stops the crawl at open."""
        settings = crawler.settings
        try:
            enabled = read_bool(settings, "DOMAIN_DEDUP_ENABLED")
        except SettingError as exc:
            return cls(crawler, None, startup_error=str(exc))
        if not enabled:
            raise NotConfigured("DOMAIN_DEDUP_ENABLED is off")
        db_path = settings.get("SQLITE_PATH")
        if not db_path:
            raise NotConfigured("domain dedup needs the crawl database, and SQLITE_PATH is empty")
        try:
            dedup = DedupConfig.from_values(
                threshold_pct=settings.get("DOMAIN_DEDUP_THRESHOLD_PCT"),
                min_pages=settings.get("DOMAIN_DEDUP_MIN_PAGES"),
                min_block_chars=settings.get("DOMAIN_DEDUP_MIN_BLOCK_CHARS"),
                normalise=read_bool(settings, "DOMAIN_DEDUP_NORMALISE"),
                whole_page=read_bool(settings, "DOMAIN_DEDUP_WHOLE_PAGE"),
                reanalyse_pct=settings.get("DOMAIN_DEDUP_REANALYSE_PCT"),
                names=SETTING_NAMES)
        except (DedupConfigError, SettingError) as exc:
            return cls(crawler, None, startup_error=str(exc))
        return cls(crawler, DomainDedupSettings(db_path=Path(db_path), dedup=dedup))

    async def open_spider(self, spider: Spider | None = None) -> None:
        """Stop the crawl before any request when a setting was invalid (one line, no traceback)."""
        stop_if_misconfigured(self.stats, self.startup_error)
        self.opened_at = utc_now()

    def process_item(self, item: PageItem, spider: Spider | None = None) -> PageItem:
        """Remember the item's domain; the item itself goes on unchanged."""
        if item.domain:
            self.domains.add(item.domain)
        return item

    async def close_spider(self, spider: Spider | None = None) -> None:
        """Bring every domain crawled up to date, in a thread so the reactor keeps running (not
        after the storage pipeline failed to write: the disk is full or the database unusable)."""
        if self.config is None or self.startup_error:
            return
        if not self.domains and not self.stats.get_value("recrawl/gone"):
            return  # nothing stored and nothing lost: every page is as the last analysis saw it
        if self.stats.get_value("storage/error"):
            logger.info("Domain dedup skipped: the crawl database could not be written")
            return
        await asyncio.to_thread(self._dedup_all)

    def _dedup_all(self) -> None:
        """Refresh each domain that stored a page or lost one (HTTP 404/410) in this crawl; a
        failing domain is logged and counted."""
        assert self.config is not None
        db = open_database(self.config.db_path)
        try:
            lost = {row[0] for row in db.conn.execute(
                f"SELECT DISTINCT domain FROM [{PAGES_TABLE}] WHERE gone_at >= ? "
                f"AND domain IS NOT NULL", [self.opened_at])}
            for domain in sorted(self.domains | lost):
                try:
                    refresh = refresh_domain(db, domain, self.config.dedup)
                except sqlite3.OperationalError as exc:  # disk full, I/O error: no traceback
                    self.stats.inc_value("dedup/errors")
                    logger.error("Dedup of %s could not write to %s (%s); its cleaned_content "
                                 "is unchanged", domain, self.config.db_path, exc)
                    continue
                except Exception:
                    self.stats.inc_value("dedup/errors")
                    logger.exception("Dedup of %s failed; its cleaned_content is unchanged", domain)
                    continue
                self._count_refresh(refresh)
        finally:
            db.conn.close()

    def _count_refresh(self, refresh: DomainRefresh) -> None:
        """Count what was done to one domain (``dedup/refresh/<action>``) and its figures."""
        self.stats.inc_value(f"dedup/refresh/{refresh.action}")
        self.stats.inc_value("dedup/pages_cleaned", refresh.pages_cleaned)
        if refresh.action == REFRESH_FULL and refresh.result is not None:
            self._count(refresh.result)

    def _count(self, result: DomainResult) -> None:
        """Add one domain's figures to the crawl stats."""
        fp = result.fingerprint
        self.stats.inc_value("dedup/domains")
        self.stats.inc_value("dedup/pages_analyzed", fp.pages_analyzed)
        self.stats.inc_value("dedup/pages_changed", result.pages_changed)
        self.stats.inc_value("dedup/blocks_boilerplate", fp.blocks_boilerplate)
        self.stats.inc_value("dedup/bytes_total", result.bytes_total)
        self.stats.inc_value("dedup/bytes_removed", result.bytes_removed)
