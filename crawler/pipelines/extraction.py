"""ExtractionPipeline: run the extraction engine on each page and copy its result onto the item."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from scrapy import Spider
from scrapy.crawler import Crawler

from crawler.content_hash import content_hash
from crawler.decoding import decode_page
from crawler.extraction import THRESHOLDS, Extraction, extract
from crawler.extraction.document import MAX_HTML_BYTES
from crawler.extraction.frameworks import load_rules
from crawler.gc_tuning import YOUNG_THRESHOLD
from crawler.items import EXTRACTED_FIELDS, PageItem
from crawler.startup import SettingError, read_number, stop_if_misconfigured
from crawler.timebound import EXECUTOR_KINDS, BoundedRunner, TimeLimitExceeded

logger = logging.getLogger(__name__)

#: A small page extracted by each worker when it starts: imports, site rules and lazily built
#: tables are ready before the first page's time limit starts.
WARM_UP_PAGE = ("<html><head><title>Warm-up</title></head><body><main><h1>Warm-up</h1>"
                "<p>A paragraph that reads like content, long enough to be kept.</p>"
                "</main></body></html>")


def warm_up_extraction() -> None:
    """Extract :data:`WARM_UP_PAGE` once (run in each worker process as it starts)."""
    extract(WARM_UP_PAGE, "http://localhost/warm-up")



@dataclass(frozen=True)
class ExtractionConfig:
    """How pages are extracted: time limit per page, parallel workers and their kind, and how
    often worker processes collect garbage."""

    timeout: float
    workers: int
    executor: str
    gc_young_threshold: int = YOUNG_THRESHOLD
    #: Longest canonical URL kept (Scrapy's URLLENGTH_LIMIT; 0: no limit).
    max_url_length: int = 2083

    def problem(self) -> str | None:
        """A sentence naming the first invalid setting, or None."""
        if self.timeout < 0:
            return f"EXTRACTION_TIMEOUT must be 0 (no limit) or positive, got {self.timeout!r}"
        if self.workers < 1:
            return f"EXTRACTION_WORKERS must be 1 or more, got {self.workers!r}"
        if self.executor not in EXECUTOR_KINDS:
            return (f"EXTRACTION_EXECUTOR must be one of {', '.join(EXECUTOR_KINDS)}, "
                    f"got {self.executor!r}")
        return None


class ExtractionPipeline:
    """Extract main content and metadata; a failing page is kept, counted and logged."""

    def __init__(self, crawler: Crawler, config: ExtractionConfig | None,
                 startup_error: str | None = None) -> None:
        self.stats = crawler.stats
        self.timeout = config.timeout if config else 0.0
        self.max_url_length = config.max_url_length if config else 0
        self.startup_error = startup_error or (
            (config.problem() if config else None) or load_rules().problem())
        self.runner: BoundedRunner | None = None
        if self.startup_error is None and config is not None:
            self.runner = BoundedRunner(config.timeout, config.workers, name="extraction",
                                        kind=config.executor,
                                        gc_young_threshold=config.gc_young_threshold,
                                        warm_up=warm_up_extraction)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractionPipeline:
        """Scrapy's factory hook: EXTRACTION_TIMEOUT bounds each page (seconds, 0 = none);
        EXTRACTION_WORKERS pages are extracted at once, in threads or processes
        (EXTRACTION_EXECUTOR)."""
        settings = crawler.settings
        try:
            config = ExtractionConfig(
                timeout=read_number(settings, "EXTRACTION_TIMEOUT"),
                workers=read_number(settings, "EXTRACTION_WORKERS", whole=True),
                executor=settings.get("EXTRACTION_EXECUTOR"),
                gc_young_threshold=read_number(settings, "GC_YOUNG_THRESHOLD",
                                               whole=True, minimum=0),
                max_url_length=settings.getint("URLLENGTH_LIMIT"))
        except SettingError as exc:
            return cls(crawler, None, startup_error=str(exc))
        return cls(crawler, config)

    def open_spider(self, spider: Spider | None = None) -> None:
        """Stop the crawl before the first request when a setting or the site rules folder is
        invalid (one sentence)."""
        stop_if_misconfigured(self.stats, self.startup_error)
        if self.runner is not None:
            self.runner.start()  # workers warm up while the first pages download

    def close_spider(self, spider: Spider | None = None) -> None:
        """Release the extraction workers."""
        if self.runner is not None:
            self.runner.close()

    async def process_item(self, item: PageItem, spider: Spider | None = None) -> PageItem:
        """Fill the item's content and metadata fields from its raw HTML."""
        html, _ = decode_page(item.raw_html, item.encoding)
        try:
            assert self.runner is not None
            result = await self.runner.run(extract, html, item.url)
        except TimeLimitExceeded:
            self.stats.inc_value("extraction/timeout")
            logger.warning("Extraction of %s took longer than EXTRACTION_TIMEOUT (%g s); the page "
                           "is stored without new content", item.url, self.timeout)
            item.extraction_error = "timeout"
            return item
        except Exception:
            self.stats.inc_value("errors/extraction")
            logger.exception("Extraction failed for %s; the page is stored without new content",
                             item.url)
            item.extraction_error = "failed"
            return item
        self.apply(result, item)
        if result.metadata_cut:
            self.count_metadata_cut(item.url, result.metadata_cut)
        if result.html_cut:
            self.stats.inc_value("extraction/html_cut")
            logger.warning("Page %s too large to extract whole (%d bytes): only its first %d "
                           "characters (MAX_HTML_BYTES, once the text it never shows, scripts, "
                           "styles and comments, is dropped) are extracted; the text after them "
                           "is not stored",
                           item.url, len(item.raw_html), MAX_HTML_BYTES)
        item.content_hash = content_hash(item.content_text)
        self.stats.inc_value(f"extraction/method/{result.method or 'none'}")
        if not result.content_text:
            self.stats.inc_value("extraction/empty")
        return item

    def count_metadata_cut(self, url: str, cut: list[str]) -> None:
        """Count and log a page whose metadata was longer than the engine keeps (a 1 MB title)."""
        self.stats.inc_value("extraction/metadata_cut")
        for name in cut:
            self.stats.inc_value(f"extraction/metadata_cut/{name}")
        logger.warning("Metadata of %s too long, cut (%d characters, %d for a description, "
                       "%d authors): %s", url, THRESHOLDS.metadata_max_chars,
                       THRESHOLDS.description_max_chars, THRESHOLDS.metadata_max_authors,
                       ", ".join(cut))

    def apply(self, result: Extraction, item: PageItem) -> None:
        """Copy the extraction's fields onto the item (the page's own canonical link wins; one
        longer than URLLENGTH_LIMIT is not an address and is not kept)."""
        for name in EXTRACTED_FIELDS:
            setattr(item, name, getattr(result, name))
        if not item.canonical_url and result.canonical_url:
            if self.max_url_length and len(result.canonical_url) > self.max_url_length:
                self.stats.inc_value("canonical/dropped")
            else:
                item.canonical_url = result.canonical_url
