"""Stop the download of a page whose headers say it is not HTML, before its body arrives.

The download stops without failing: the response (status and headers, no body) still goes
through the downloader middlewares, so a 500, 503 or 429 whose error page is ``text/plain`` or
JSON is retried like any other, and a redirect is followed. The spider drops what reaches it
with the mark :data:`STOPPED_TYPE_META` (``skipped/non_html_content_type``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured, StopDownload
from scrapy.http import Headers
from crawler.startup import read_switch

logger = logging.getLogger(__name__)

HTML_TYPES = ("text/html", "application/xhtml+xml")
#: ``request.meta`` key: the declared media type of a response whose body was not downloaded.
STOPPED_TYPE_META = "non_html_content_type"


@dataclass(frozen=True)
class ContentTypeFilterConfig:
    """Which media types count as pages."""

    allowed_types: tuple[str, ...]


class ContentTypeFilter:
    """On ``headers_received`` of a page request: stop the body of non-HTML responses."""

    def __init__(self, crawler: Crawler, config: ContentTypeFilterConfig) -> None:
        self.stats = crawler.stats
        self.config = config

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ContentTypeFilter:
        """Read settings once; ``CONTENT_TYPE_FILTER_ENABLED = False`` turns the filter off."""
        enabled = read_switch(crawler, "CONTENT_TYPE_FILTER_ENABLED")
        if not enabled:
            raise NotConfigured
        types = tuple(t.lower() for t in crawler.settings.getlist(
            "CONTENT_TYPE_FILTER_ALLOWED"))
        extension = cls(crawler, ContentTypeFilterConfig(allowed_types=types))
        crawler.signals.connect(extension.headers_received, signal=signals.headers_received)
        return extension

    def headers_received(self, headers: Headers, body_length: int, request: Request,
                         spider: Any) -> None:
        """Stop (without failing) the body of a page whose declared media type is not HTML."""
        if request.meta.get("crawl_role") != "page":
            return
        raw = headers.get(b"Content-Type")
        if not raw:
            return  # undeclared: the body decides later
        media_type = raw.decode("latin-1").split(";", 1)[0].strip().lower()
        if media_type in self.config.allowed_types:
            return
        request.meta[STOPPED_TYPE_META] = media_type or "?"
        raise StopDownload(fail=False)
