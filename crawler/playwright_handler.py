"""scrapy-playwright's download handler, started at the first rendered page instead of at
engine start, so a ``render=auto`` crawl that meets no JavaScript page starts no Playwright
driver and no browser (and saves the seconds it takes to start them)."""

from __future__ import annotations

import asyncio
import logging

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.http import Response
from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

logger = logging.getLogger(__name__)


class LazyPlaywrightDownloadHandler(ScrapyPlaywrightDownloadHandler):
    """Plain requests go over HTTP as usual; the first ``playwright`` request starts Playwright."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        # The parent starts Playwright on engine_started (one of two hooks, by Scrapy version).
        for receiver in (self._maybe_launch_in_thread, self._engine_started):
            crawler.signals.disconnect(receiver, signal=signals.engine_started)
        self._start_lock = asyncio.Lock()
        self._started = False

    async def _download_request(self, request: Request, spider: Spider | None = None
                                ) -> Response:
        """Start Playwright once, then render as the parent does."""
        if not self._started:
            async with self._start_lock:
                if not self._started:
                    logger.info("First page to render (%s): starting the browser", request.url)
                    await self._launch()
                    self._started = True
        return await super()._download_request(request, spider)
