"""Third-party warnings that tell a crawl's user nothing, kept out of the log (and counted).

trafilatura logs ``discarding data: None`` whenever its candidate holds too little text, which is
an ordinary outcome here (it only competes with our own candidates); Scrapy's meta-copy check
warns once when the spider sends a page back through the browser with the fetch's meta;
Scrapy's HTTP handler, at the first body cut short, advises turning off the check that keeps cut
pages out of the crawl; scrapy-playwright prints a traceback for each navigation that fails in a
page it opened, which the crawl says in one line of its own (``Rendering URL failed: ...``).
Each is matched by its logger and the start of its message, so any other warning of those
libraries still shows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class QuietWarning:
    """One known, uninformative warning: a short name (for its stat), its logger, its text."""

    name: str
    logger: str
    contains: str


QUIET_WARNINGS = (
    QuietWarning("trafilatura_discarding_data", "trafilatura.core", "discarding data"),
    QuietWarning("scrapy_meta_copy", "scrapy.spidermiddlewares.metacopy",
                 "yielded a request containing internal meta keys"),
    # advice to store cut pages as if whole; the cut answer is said in the crawl's own line
    QuietWarning("scrapy_dataloss_hint", "scrapy.core.downloader.handlers.http11",
                 "If you want to process broken responses"),
    # with the failure's traceback, for every navigation that fails in a page scrapy-playwright
    # opened (a request naming a browser context); the render's failure is said in one line
    QuietWarning("scrapy_playwright_failed_request", "scrapy-playwright",
                 "Closing page due to failed request"),
)


class QuietFilter(logging.Filter):
    """Drops the records of one :class:`QuietWarning`, telling ``on_drop`` of each."""

    def __init__(self, warning: QuietWarning, on_drop: Callable[[str], None] | None) -> None:
        super().__init__()
        self.warning = warning
        self.on_drop = on_drop

    def filter(self, record: logging.LogRecord) -> bool:
        """False (drop) for the quiet warning, True for anything else."""
        if self.warning.contains not in record.getMessage():
            return True
        if self.on_drop is not None:
            self.on_drop(self.warning.name)
        return False


def quiet_third_party_warnings(on_drop: Callable[[str], None] | None = None
                               ) -> list[tuple[logging.Logger, QuietFilter]]:
    """Attach a filter for every quiet warning to its logger (once per logger); return what was
    attached, for :func:`restore`."""
    attached = []
    for warning in QUIET_WARNINGS:
        target = logging.getLogger(warning.logger)
        if any(isinstance(f, QuietFilter) and f.warning == warning for f in target.filters):
            continue
        quiet = QuietFilter(warning, on_drop)
        target.addFilter(quiet)
        attached.append((target, quiet))
    return attached


def restore(attached: list[tuple[logging.Logger, QuietFilter]]) -> None:
    """Remove filters attached by :func:`quiet_third_party_warnings`."""
    for target, quiet in attached:
        target.removeFilter(quiet)
