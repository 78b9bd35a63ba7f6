"""RenderFallbackPipeline: under ``render=auto``, send a page through the browser when its
extracted main content came out thin and the page shows that scripts build its content.

The spider's check before extraction sees only pages with little visible text. A single-page
app that server-renders its chrome (header, navigation, a "customers also viewed" carousel, a
cookie banner, a footer) around an empty app root shows plenty of text, and extraction then
keeps the carousel or the footer. Here, after extraction, a page whose content is under
``RENDER_THIN_WORDS`` words (or below ``QUALITY_GATE_MIN_SCORE``) and that shows JavaScript
signals (:func:`crawler.rendering.javascript_signals`) is requested again through the browser;
the unrendered copy is dropped, and the rendered item says why in ``render_reason``.

Stats: ``render/requested/after_extraction`` and ``render/requested/after_extraction/<signal>``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem

from crawler.decoding import decode_page
from crawler.items import PageItem
from crawler.rendering import javascript_signals
from crawler.startup import SettingError, read_number, stop_if_misconfigured

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RenderFallbackConfig:
    """When extracted content counts as thin."""

    thin_words: int
    min_quality: float


class RenderFallbackPipeline:
    """Re-request thin JavaScript-built pages through the browser (``render=auto`` only)."""

    def __init__(self, crawler: Crawler, config: RenderFallbackConfig | None,
                 startup_error: str | None = None) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.config = config
        self.startup_error = startup_error

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RenderFallbackPipeline:
        """Read RENDER_THIN_WORDS (0 turns the fallback off) and QUALITY_GATE_MIN_SCORE."""
        try:
            config = RenderFallbackConfig(
                thin_words=read_number(crawler.settings, "RENDER_THIN_WORDS", whole=True,
                                       minimum=0),
                min_quality=read_number(crawler.settings, "QUALITY_GATE_MIN_SCORE",
                                        minimum=0, maximum=1))
        except SettingError as exc:
            return cls(crawler, None, startup_error=str(exc))
        return cls(crawler, config)

    def open_spider(self, spider: Spider | None = None) -> None:
        """Stop the crawl before the first request when a setting is invalid (one sentence)."""
        stop_if_misconfigured(self.stats, self.startup_error)

    def process_item(self, item: PageItem, spider: Spider | None = None) -> PageItem:
        """Pass the item on, or request the page through the browser and drop this copy."""
        config = self.config
        assert config is not None
        spider = self.crawler.spider
        if (item.rendered or item.extraction_error or not config.thin_words
                or getattr(spider, "render_mode", "") != "auto"):
            return item
        if item.word_count >= config.thin_words and (
                item.quality_score is None or item.quality_score >= config.min_quality):
            return item
        signals = javascript_signals(decode_page(item.raw_html, item.encoding)[0])
        if not signals:
            return item
        why = "thin_content" if item.word_count < config.thin_words else "low_quality"
        reason = "+".join([why, *signals])
        self.stats.inc_value("render/requested/after_extraction")
        for signal in signals:
            self.stats.inc_value(f"render/requested/after_extraction/{signal}")
        logger.info("Rendering %s in the browser: %d words extracted, %s", item.url,
                    item.word_count, ", ".join(signals))
        self.crawler.engine.crawl(spider.render_again(item, reason))
        raise DropItem(f"{item.url} is fetched again through the browser ({reason})",
                       log_level="DEBUG")
