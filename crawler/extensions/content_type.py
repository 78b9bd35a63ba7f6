"""Stop the download of a page whose headers say it is not HTML, before its body arrives."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured, StopDownload
from scrapy.http import Headers

logger = logging.getLogger(__name__)

HTML_TYPES = ("text/html", "application/xhtml+xml")


@dataclass(frozen=True)
class ContentTypeFilterConfig:
    """Which media types count as pages."""

    allowed_types: tuple[str, ...]


class ContentTypeFilter:
    """On ``headers_received`` of a page request: stop (and count) non-HTML responses."""

    def __init__(self, crawler: Crawler, config: ContentTypeFilterConfig) -> None:
        self.stats = crawler.stats
        self.config = config

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ContentTypeFilter:
        """Read settings once; ``CONTENT_TYPE_FILTER_ENABLED = False`` turns the filter off."""
        if not crawler.settings.getbool("CONTENT_TYPE_FILTER_ENABLED", True):
            raise NotConfigured
        types = tuple(t.lower() for t in crawler.settings.getlist(
            "CONTENT_TYPE_FILTER_ALLOWED", list(HTML_TYPES)))
        extension = cls(crawler, ContentTypeFilterConfig(allowed_types=types))
        crawler.signals.connect(extension.headers_received, signal=signals.headers_received)
        return extension

    def headers_received(self, headers: Headers, body_length: int, request: Request,
                         spider: Any) -> None:
        """Raise StopDownload for a page whose declared media type is not HTML."""
        if request.meta.get("crawl_role") != "page":
            return
        raw = headers.get(b"Content-Type")
        if not raw:
            return  # undeclared: the body decides later
        media_type = raw.decode("latin-1").split(";", 1)[0].strip().lower()
        if media_type in self.config.allowed_types:
            return
        self.stats.inc_value("skipped/non_html_content_type")
        logger.info("Skipped %s: Content-Type %s is not HTML (body not downloaded)",
                    request.url, media_type or "?")
        raise StopDownload(fail=True)
