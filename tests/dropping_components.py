"""Crawl components that drop the crawl's start requests without a word, as a user's own
middleware or Scrapy's offsite filter can: a crawl whose start request so vanishes must say so
and fail (``tests/test_crawl.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest

from crawler.spiders.domain import START_URL_META


class DropStartRequests:
    """Spider middleware whose ``process_start`` filters the start page requests out."""

    async def process_start(self, start: AsyncIterator[Any]) -> AsyncIterator[Any]:
        """Everything the spider starts with but its start pages."""
        async for item_or_request in start:
            if isinstance(item_or_request, Request) and START_URL_META in item_or_request.meta:
                continue
            yield item_or_request


class RefuseStartsAtScheduling:
    """Downloader middleware that refuses start page requests as they are scheduled, the way
    Scrapy's offsite filter refuses a host it does not match: no response, no errback."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RefuseStartsAtScheduling:
        """Listen to ``request_scheduled``."""
        middleware = cls()
        crawler.signals.connect(middleware.request_scheduled, signal=signals.request_scheduled)
        return middleware

    def request_scheduled(self, request: Request, spider: Spider) -> None:
        """Refuse a start page request."""
        if START_URL_META in request.meta:
            raise IgnoreRequest("refused at scheduling")
