"""Stop a crawl before its first request when its configuration is wrong: one sentence in the
log, the reason in the stats, no traceback."""

from __future__ import annotations

import logging

from scrapy.exceptions import CloseSpider
from scrapy.statscollectors import StatsCollector

from crawler.exit_codes import STARTUP_ERROR

logger = logging.getLogger(__name__)


def stop_if_misconfigured(stats: StatsCollector, problem: str | None) -> None:
    """Raise CloseSpider (after logging ``problem``) when there is a problem; else do nothing."""
    if not problem:
        return
    logger.error("Cannot start the crawl: %s", problem)
    stats.set_value("crawl/startup_error", problem)
    raise CloseSpider(STARTUP_ERROR)
