"""Keep the known uninformative third-party warnings out of a crawl's log, counting each under
``log/quiet/<name>`` (the warnings: :mod:`crawler.quiet_logs`).

Its own extension, on in every crawl: the filters were attached by the progress line's
extension, which ``LOGSTATS_INTERVAL = 0`` turns off, and with it they went, so a crawl without
progress lines printed Scrapy's advice to store pages cut short as if whole.
"""

from __future__ import annotations

import logging

from scrapy import signals
from scrapy.crawler import Crawler

from crawler.quiet_logs import QuietFilter, quiet_third_party_warnings, restore


class QuietThirdPartyLog:
    """Attaches the quiet filters when the crawl is set up, takes them away when it is over."""

    def __init__(self, attached: list[tuple[logging.Logger, QuietFilter]]) -> None:
        self.attached = attached

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> QuietThirdPartyLog:
        """Attach the filters, each dropped warning counted in the crawl's stats."""
        extension = cls(quiet_third_party_warnings(
            lambda name: crawler.stats.inc_value(f"log/quiet/{name}")))
        crawler.signals.connect(extension.engine_stopped, signal=signals.engine_stopped)
        return extension

    def engine_stopped(self) -> None:
        """Take the filters away when the crawl is over."""
        restore(self.attached)
