"""``scrapy crawl``, with the process exit code decided by the spider's close reason.

Scrapy's own ``crawl`` exits 0 whenever the crawler started, so a crawl that could not do its job
(unreachable start URL, bad argument or setting, Redis unavailable, storage failure) looks like a
success to cron, Scrapyd or a wrapper script. This command runs the crawl the same way and then
exits with :func:`crawler.exit_codes.exit_code_for` of its close reason. Scrapyd runs
``scrapy crawl`` through the project's settings, so its jobs get the same codes.
"""

from __future__ import annotations

import argparse

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from crawler.exit_codes import UNKNOWN_FAILURE, exit_code_for


class Command(ScrapyCrawlCommand):
    """Run a spider of the project; the exit code tells how the crawl ended."""

    def long_desc(self) -> str:
        """Shown by ``scrapy crawl -h``."""
        return ("Run a spider of the project. Exit code 0: the crawl finished (or stopped at a "
                "limit it was given); 2: bad argument or setting; 3: start URL unreachable, or no "
                "start URL answered before a closespider limit; 6: every start URL failed; "
                "4: storage failure; 5: Redis unavailable; 7: more than FAILED_PAGES_MAX_SHARE of "
                "the pages lost to server failures; 1: any other failure.")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        """Crawl, then set the exit code from the close reason (1 if the crawl never started)."""
        if len(args) < 1:
            raise UsageError
        if len(args) > 1:
            raise UsageError("running 'scrapy crawl' with more than one spider is not supported")
        assert self.crawler_process
        crawler = self._create_crawler(args[0])
        self.crawler_process.crawl(crawler, **opts.spargs)
        self.crawler_process.start()
        if self.crawler_process.bootstrap_failed or crawler.stats is None:
            self.exitcode = UNKNOWN_FAILURE
            return
        self.exitcode = exit_code_for(crawler.stats.get_value("finish_reason"),
                                      crawler.stats.get_stats())
