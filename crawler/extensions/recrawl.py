"""Mark gone the stored pages a complete crawl did not reach.

A page that was in the database and that a re-crawl did not reach is no longer part of the site
(unlinked, dropped from the sitemaps, or now disallowed by robots.txt), but only if the crawl
reached everything it could. So at close, stored pages in the crawl's scope not seen since the
crawl started get ``gone_at`` (never deleted) when the crawl:

- finished on its own (close reason ``finished``: no ``max_pages``, ``CLOSESPIDER_*`` limit,
  Ctrl-C or failure),
- followed links without a ``max_depth``,
- fetched every page it found (no page failed for another reason than HTTP 404/410, whose pages
  are already marked gone: a page that timed out may hide a whole section),
- is a whole crawl, not one worker of a distributed crawl (each sees part of the site),
- and saw at least one page of its scope.

Otherwise a line says why nothing was marked. With ``JOBDIR`` the crawl's start time is kept in
the job directory, so a paused and resumed crawl counts the pages seen before the pause. Times are
stored in whole seconds: a crawl starting within the second its database last saw a page would
take the previous crawl's pages of that second for its own and not mark them gone, so it starts
(at most a second later) once that second is over (crawls run back to back by a script).
Stats: ``recrawl/gone`` (with the 404/410 pages), ``recrawl/gone/not_reached``.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.utils.job import job_dir

from crawler.database_identity import DatabaseRefused, connect
from crawler.history import sweep_gone, utc_now
from crawler.storage import PAGES_TABLE, open_database

logger = logging.getLogger(__name__)

#: File in JOBDIR holding the start time of the crawl it belongs to.
STARTED_FILE = "recrawl-started"
#: Page errors that do not make a crawl incomplete (their pages are marked gone themselves).
GONE_ERRORS = frozenset({"http_404", "http_410", "extraction"})


def last_seen_stored(db_path: Path) -> str | None:
    """The latest time a page of the database was seen (or fetched), or None (no database, no
    page, or one that cannot be read: the sweep at the close says so)."""
    if not db_path.is_file():
        return None
    try:
        conn = connect(db_path, create=False, readonly=True)
        try:
            row = conn.execute(f"SELECT MAX(COALESCE(last_seen, fetched_at)) "
                               f"FROM [{PAGES_TABLE}]").fetchone()
        finally:
            conn.close()
    except (sqlite3.Error, DatabaseRefused):
        return None
    return row[0] if row and row[0] else None


def start_after_stored(db_path: Path) -> str:
    """The crawl's start time, after the second in which the database last saw a page: when
    that second is the current one, wait for it to end (under a second)."""
    now = utc_now()
    if last_seen_stored(db_path) == now:
        time.sleep(1 - datetime.now(UTC).microsecond / 1_000_000)
        now = utc_now()
    return now


@dataclass(frozen=True)
class GoneSweepConfig:
    """Where the pages are, where a paused crawl keeps its state, whether this is one worker."""

    db_path: Path
    jobdir: Path | None
    distributed: bool


class GoneSweep:
    """Extension: at the close of a complete crawl, mark gone what it did not reach."""

    def __init__(self, crawler: Crawler, config: GoneSweepConfig) -> None:
        self.stats = crawler.stats
        self.config = config
        self.started = utc_now()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> GoneSweep:
        """Read ``SQLITE_PATH``, ``JOBDIR`` and ``REDIS_URL`` once."""
        settings = crawler.settings
        path = settings.get("SQLITE_PATH")
        if not path:
            raise NotConfigured("SQLITE_PATH is empty")
        jobdir = job_dir(settings)
        extension = cls(crawler, GoneSweepConfig(db_path=Path(path),
                                                 jobdir=Path(jobdir) if jobdir else None,
                                                 distributed=bool(settings.get("REDIS_URL"))))
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_opened(self, spider: Spider) -> None:
        """Note when the crawl started (a resumed JOBDIR crawl: when its first run started)."""
        marker = self.config.jobdir / STARTED_FILE if self.config.jobdir is not None else None
        if marker is not None and marker.is_file() and marker.read_text(encoding="utf-8").strip():
            self.started = marker.read_text(encoding="utf-8").strip()
            return
        self.started = start_after_stored(self.config.db_path)
        if marker is None:
            return
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(self.started + "\n", encoding="utf-8")

    def spider_closed(self, spider: Spider, reason: str) -> None:
        """Mark the pages not reached as gone, or log why the crawl cannot tell."""
        why_not = self.incomplete_because(spider, reason)
        if why_not:
            logger.info("Stored pages not reached are not marked gone: %s", why_not)
        else:
            config = spider.config  # type: ignore[attr-defined]
            try:
                db = open_database(self.config.db_path)
                try:
                    gone = sweep_gone(db, self.started,
                                      lambda url: config.scope.accepts(url)[0])
                finally:
                    db.conn.close()
            except (sqlite3.Error, OSError, DatabaseRefused) as exc:
                self.stats.inc_value("recrawl/sweep_errors")
                logger.error("Could not mark the pages not reached as gone in %s (%s)",
                             self.config.db_path, exc)
                gone = []
            self.stats.inc_value("recrawl/gone", len(gone))
            self.stats.inc_value("recrawl/gone/not_reached", len(gone))
            for url in gone[:20]:
                logger.info("Gone: %s was not reached by this complete crawl", url)
            if len(gone) > 20:
                logger.info("Gone: %d more pages not reached", len(gone) - 20)
        if self.config.jobdir is not None and reason == "finished":
            (self.config.jobdir / STARTED_FILE).unlink(missing_ok=True)

    def incomplete_because(self, spider: Spider, reason: str) -> str | None:
        """Why this crawl may not have reached every page, or None when it did."""
        if reason != "finished":
            return f"the crawl ended early ({reason})"
        if self.stats.get_value("storage/error"):
            return "the crawl database could not be written"
        if self.config.distributed:
            return "one worker of a distributed crawl reaches only part of the site"
        config = getattr(spider, "config", None)
        if config is None or not hasattr(config, "scope"):
            return "the spider has no crawl scope"
        if config.max_depth is not None:
            return "max_depth limits the crawl"
        if not config.follow_links:
            return "follow_links is off"
        values = self.stats.get_stats()
        if values.get("skipped/max_pages"):
            return "max_pages was reached"
        failed = {key.split("/", 1)[1]: count for key, count in values.items()
                  if key.startswith("errors/") and count
                  and key.split("/", 1)[1] not in GONE_ERRORS}
        if failed:
            kinds = ", ".join(f"{kind}={count}" for kind, count in sorted(failed.items()))
            return f"some pages could not be fetched ({kinds})"
        return None
