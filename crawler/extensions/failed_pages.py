"""End a crawl that lost most of its pages to server failures as ``pages_failed`` (exit code 7).

A half-dead server (most requests time out, are reset or answer 5xx, a few pages arrive) let a
crawl finish with exit code 0: it stored a handful of pages, and only the errors line of its
summary said that most were lost. A page is lost to the server when the retry middleware gave it
up: its fetch ended, after its retries, in a failure the crawl retries because it is the
server's passing trouble (a timeout, a refused, reset or cut-short connection, an HTTP status of
``RETRY_HTTP_CODES``: 500, 502, 503, 504, 408, 429, ...; stat ``pages/failed``). A 404, 403 or
robots.txt refusal is the site's answer, not a lost page, and a page over ``DOWNLOAD_MAXSIZE``
is the crawl's own limit.

When the crawl would finish on its own (the spider is idle) and more than
``FAILED_PAGES_MAX_SHARE`` of the pages it found were so lost, it closes as ``pages_failed``
with one ERROR line giving both counts. A crawl stopped by a limit it was given (``max_pages``,
``CLOSESPIDER_*``) is judged by that limit, and a crawl whose start pages all failed is
``start_failed`` (its own, more precise reason). A worker of a distributed crawl sees only its
share of the pages, so the rule is off there.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import CloseSpider, NotConfigured
from scrapy.settings import BaseSettings

from crawler.distributed.config import is_distributed
from crawler.exit_codes import PAGES_FAILED
from crawler.startup import read_number, read_or_refuse

logger = logging.getLogger(__name__)

#: Stat: page requests the retry middleware gave up (see the module docstring).
FAILED_STAT = "pages/failed"
#: Stat: pages found (unique page URLs scheduled; ``crawler.extensions.summary``).
FOUND_STAT = "pages/discovered"


@dataclass(frozen=True)
class FailedPagesConfig:
    """The largest share of the pages found that may be lost before the crawl has failed."""

    max_share: float

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> FailedPagesConfig:
        """Read and check ``FAILED_PAGES_MAX_SHARE`` (0 to 1; 1 turns the rule off)."""
        return cls(max_share=read_number(settings, "FAILED_PAGES_MAX_SHARE",
                                         minimum=0, maximum=1))


class FailedPagesGuard:
    """On ``spider_idle``: close the crawl as ``pages_failed`` when it lost too many pages."""

    def __init__(self, crawler: Crawler, config: FailedPagesConfig) -> None:
        self.stats = crawler.stats
        self.config = config

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> FailedPagesGuard:
        """Read the setting once; off at 1 and in a distributed crawl (``REDIS_URL`` set)."""
        config = read_or_refuse(crawler, FailedPagesConfig.from_settings)
        if config.max_share >= 1 or is_distributed(crawler.settings):
            raise NotConfigured
        extension = cls(crawler, config)
        crawler.signals.connect(extension.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def counts(self) -> tuple[int, int]:
        """Pages lost and pages found so far (found is at least lost: a resumed job's run
        counts only the pages it scheduled itself)."""
        failed = self.stats.get_value(FAILED_STAT, 0)
        return failed, max(self.stats.get_value(FOUND_STAT, 0), failed)

    def over_limit(self) -> bool:
        """Whether more than the allowed share of the pages found were lost."""
        failed, found = self.counts()
        return found > 0 and failed / found > self.config.max_share

    def spider_idle(self, spider: Spider) -> None:
        """The crawl would finish: close it as ``pages_failed`` when it lost too many pages
        (a crawl whose start pages failed is left to its own reason, ``start_failed``)."""
        if self.stats.get_value("crawl/start_failed") or not self.over_limit():
            return
        raise CloseSpider(PAGES_FAILED)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        """Say, once and before the summary, why a crawl so closed failed."""
        if reason != PAGES_FAILED:
            return
        failed, found = self.counts()
        self.stats.set_value("crawl/pages_failed_share", round(failed / found, 3))
        logger.error("%d of %d pages found (%.0f%%) were lost to server failures (timeouts, "
                     "dropped connections, HTTP 5xx or 429 after retries), more than "
                     "FAILED_PAGES_MAX_SHARE (%.0f%%): the crawl did not do its job",
                     failed, found, 100 * failed / found, 100 * self.config.max_share)
