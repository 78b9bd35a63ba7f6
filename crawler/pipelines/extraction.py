"""ExtractionPipeline: run the extraction engine on each page and copy its result onto the item."""

from __future__ import annotations

import logging
from dataclasses import fields

from scrapy import Spider
from scrapy.crawler import Crawler

from crawler.extraction import Extraction, extract
from crawler.items import PageItem
from crawler.timebound import BoundedRunner, TimeLimitExceeded

logger = logging.getLogger(__name__)

#: Extraction fields that have a PageItem field of the same name.
_SHARED_FIELDS = tuple(f.name for f in fields(Extraction)
                       if f.name in {g.name for g in fields(PageItem)} and f.name != "url"
                       and f.name != "canonical_url")


class ExtractionPipeline:
    """Extract main content and metadata; a failing page is kept, counted and logged."""

    def __init__(self, crawler: Crawler, timeout: float = 0.0, workers: int = 2) -> None:
        self.stats = crawler.stats
        self.timeout = timeout
        self.runner = BoundedRunner(timeout, workers, name="extraction")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractionPipeline:
        """Scrapy's factory hook; EXTRACTION_TIMEOUT bounds each page (seconds, 0 = none)."""
        return cls(crawler, crawler.settings.getfloat("EXTRACTION_TIMEOUT", 30.0),
                   crawler.settings.getint("EXTRACTION_WORKERS", 2))

    def close_spider(self, spider: Spider | None = None) -> None:
        """Release the extraction workers."""
        self.runner.close()

    async def process_item(self, item: PageItem, spider: Spider | None = None) -> PageItem:
        """Fill the item's content and metadata fields from its raw HTML."""
        try:
            html = item.raw_html.decode(item.encoding or "utf-8", errors="replace")
        except LookupError:
            html = item.raw_html.decode("utf-8", errors="replace")
        try:
            result = await self.runner.run(extract, html, item.url)
        except TimeLimitExceeded:
            self.stats.inc_value("extraction/timeout")
            logger.warning("Extraction of %s took longer than EXTRACTION_TIMEOUT (%g s); the page "
                           "is stored without content", item.url, self.timeout)
            return item
        except Exception:
            self.stats.inc_value("errors/extraction")
            logger.exception("Extraction failed for %s; the page is stored without content",
                             item.url)
            return item
        self.apply(result, item)
        self.stats.inc_value(f"extraction/method/{result.method or 'none'}")
        if not result.content_text:
            self.stats.inc_value("extraction/empty")
        return item

    @staticmethod
    def apply(result: Extraction, item: PageItem) -> None:
        """Copy the extraction's fields onto the item (the page's own canonical link wins)."""
        for name in _SHARED_FIELDS:
            setattr(item, name, getattr(result, name))
        if not item.canonical_url and result.canonical_url:
            item.canonical_url = result.canonical_url
