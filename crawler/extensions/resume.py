"""Make a JOBDIR crawl that was killed (``kill -9``, power loss) restart without losing pages.

Scrapy persists the seen-request list as it goes but the request queue's index only at a clean
close. After a hard kill the restart therefore knows requests as *seen* whose pages were never
fetched, and never fetches them. This extension writes a marker at every clean close; a JOBDIR
without it (but with crawl state) was not closed cleanly, so its request state is discarded
before the scheduler reads it and the crawl starts again from its start URLs. Pages already in
the database are re-fetched and upserted by URL: nothing is lost and no row is duplicated.
Stat ``jobdir/unclean_restart``; a WARNING line says what happened.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.utils.job import job_dir

from crawler.extensions.summary import JOB_SUMMARY_FILE
from crawler.sitemap_backlog import JOBDIR_FOLDER
from crawler.startup import read_switch

logger = logging.getLogger(__name__)

#: Written at a clean close; its absence next to crawl state means the last run was killed.
CLEAN_MARKER = "clean-close"
#: Files and folders of the request state inside JOBDIR (Scrapy's, and the sitemap URLs not
#: requested yet).
REQUEST_STATE = ("requests.seen", "requests.queue", JOBDIR_FOLDER)
#: The summary counts of earlier runs (extensions/summary.py): a restart from the start URLs
#: stores those pages again, so they are not added to it.
DISCARDED_WITH_STATE = (JOB_SUMMARY_FILE,)


class ResumeGuard:
    """Extension: drops a killed JOBDIR crawl's request state so a restart finds every page."""

    def __init__(self, crawler: Crawler, jobdir: Path) -> None:
        self.stats = crawler.stats
        self.jobdir = jobdir

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ResumeGuard:
        """Check the JOBDIR now, before the scheduler opens it; NotConfigured without JOBDIR."""
        path = job_dir(crawler.settings)
        enabled = read_switch(crawler, "RESUME_GUARD_ENABLED")
        if not path or not enabled:
            raise NotConfigured  # no message: Scrapy would log it as a warning on every crawl
        extension = cls(crawler, Path(path))
        extension.prepare()
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def prepare(self) -> None:
        """Discard request state left by an unclean stop; mark this run as in progress."""
        marker = self.jobdir / CLEAN_MARKER
        state = [self.jobdir / name for name in REQUEST_STATE if (self.jobdir / name).exists()]
        if state and not marker.exists():
            for path in state + [self.jobdir / name for name in DISCARDED_WITH_STATE]:
                if path.is_dir():
                    shutil.rmtree(path)
                else:
                    path.unlink(missing_ok=True)
            self.stats.set_value("jobdir/unclean_restart", 1)
            logger.warning("JOBDIR %s was not closed cleanly (the crawl was killed): its request "
                           "queue is incomplete, so the crawl restarts from its start URLs; "
                           "stored pages are kept and updated in place", self.jobdir)
        elif state:
            logger.info("Resuming the crawl in JOBDIR %s", self.jobdir)
        marker.unlink(missing_ok=True)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        """Mark the JOBDIR as cleanly closed (Scrapy has saved its queue by now)."""
        self.jobdir.mkdir(parents=True, exist_ok=True)
        (self.jobdir / CLEAN_MARKER).write_text(reason + "\n", encoding="utf-8")
