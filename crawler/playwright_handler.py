"""scrapy-playwright's download handler, started at the first rendered page instead of at
engine start, so a ``render=auto`` crawl that meets no JavaScript page starts no Playwright
driver and no browser (and saves the seconds it takes to start them); and rendering into a pool
of browser pages that are navigated again rather than opened and closed for every request.

Opening a page costs chromium more CPU than rendering a documentation page into it (measured:
about 300 ms against about 400 ms on the benchmark machine), so each page of the pool serves
``RENDER_PAGE_REUSE`` requests before it is closed and replaced, which also bounds what a page
can accumulate (a script's leaks). The pages share one renderer process, which outlives any one
of them and grows with every page it renders; after ``RENDER_CONTEXT_REUSE`` requests the pool
waits for its pages to come back and closes them with their browser context, so chromium ends
that renderer and the next request starts afresh in a new context.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from playwright.async_api import Page
from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.http import Response
from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

logger = logging.getLogger(__name__)

#: The context scrapy-playwright uses when a request names none.
DEFAULT_CONTEXT = "default"


class PagePool:
    """Open pages of one browser context waiting for their next request, and how many requests
    each has served. At most ``size`` pages are in use or waiting at once."""

    def __init__(self, size: int, reuse: int, context_reuse: int = 0) -> None:
        self.reuse = reuse
        self.idle: list[Page] = []
        self.uses: dict[Page, int] = {}
        self.slots = asyncio.Semaphore(size)
        #: Requests the current browser context may serve (0: no limit), how many it has
        #: served, and how many are being rendered now.
        self.context_reuse = context_reuse
        self.context_served = 0
        self.rendering = 0
        #: Cleared while the context is due for renewal: new requests wait for the new one.
        self.context_open = asyncio.Event()
        self.context_open.set()

    def take_idle(self) -> Page | None:
        """A waiting page that is still open, or None."""
        while self.idle:
            page = self.idle.pop()
            if not page.is_closed():
                return page
            self.uses.pop(page, None)
        return None

    def worn_out(self, page: Page) -> bool:
        """Count a served request; whether the page has now served its share."""
        self.uses[page] = self.uses.get(page, 0) + 1
        return self.uses[page] >= self.reuse

    def finished(self) -> bool:
        """Count a finished request; whether the context is now due for renewal and no request
        is rendering in it any more (the caller then renews it)."""
        self.rendering -= 1
        self.context_served += 1
        if self.context_reuse and self.context_served >= self.context_reuse:
            self.context_open.clear()
        return not self.context_open.is_set() and self.rendering == 0


class LazyPlaywrightDownloadHandler(ScrapyPlaywrightDownloadHandler):
    """Plain requests go over HTTP as usual; the first ``playwright`` request starts Playwright.
    Rendered requests are served by reused pages (see the module's docstring) unless they bring
    their own page, ask for theirs (``playwright_include_page``) or name a context. Pages still
    waiting at the end close with the browser when the engine stops."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        # The parent starts Playwright on engine_started (one of two hooks, by Scrapy version).
        for receiver in (self._maybe_launch_in_thread, self._engine_started):
            crawler.signals.disconnect(receiver, signal=signals.engine_started)
        self._start_lock = asyncio.Lock()
        self._started = False
        self._page_pool: PagePool | None = None

    async def _download_request(self, request: Request, spider: Spider | None = None
                                ) -> Response:
        """Start Playwright once, then render in a pooled page (or as the parent does)."""
        if not self._started:
            async with self._start_lock:
                if not self._started:
                    logger.info("First page to render (%s): starting the browser %s",
                                request.url, self.config.launch_options.get("executable_path"))
                    await self._launch()
                    self._page_pool = self._make_pool()
                    self._started = True
        meta = request.meta
        if (self._page_pool is None or "playwright_page" in meta
                or meta.get("playwright_include_page")
                or meta.get("playwright_context", DEFAULT_CONTEXT) != DEFAULT_CONTEXT):
            return await super()._download_request(request, spider)
        return await self._download_in_pool(self._page_pool, request, spider)

    def _make_pool(self) -> PagePool | None:
        """The page pool the spider's render configuration asks for (None: a page a request)."""
        config = getattr(self._crawler.spider, "render_config", None)
        reuse = getattr(config, "page_reuse", 1)
        if reuse <= 1:
            return None
        return PagePool(self.config.max_pages_per_context, reuse,
                        getattr(config, "context_reuse", 0))

    async def _download_in_pool(self, pool: PagePool, request: Request,
                                spider: Spider | None) -> Response:
        """Render ``request`` in a waiting page (or a new one), then put the page back, or close
        it when it has served its share or the request failed (its state is then unknown)."""
        meta = request.meta
        async with pool.slots:
            await pool.context_open.wait()
            pool.rendering += 1
            page: Any = None
            succeeded = False
            try:
                page = pool.take_idle()
                if page is None:
                    page = await self._create_page(request, spider or self._crawler.spider)
                meta["playwright_page"] = page
                meta["playwright_include_page"] = True
                response = await super()._download_request(request, spider)
                succeeded = True
                return response
            finally:
                # The parent replaces a page that closed under it; that one is returned too.
                used = meta.pop("playwright_page", page)
                meta.pop("playwright_include_page", None)
                try:
                    for candidate in {page, used}:
                        await self._give_back(pool, candidate,
                                              keep=succeeded and candidate is used)
                finally:  # counted even when cancelled, or the pool would wait for it forever
                    if pool.finished():
                        await self._renew_context(pool)

    async def _renew_context(self, pool: PagePool) -> None:
        """Close the pool's waiting pages with their browser context (chromium then ends the
        renderer they shared); the next request opens a new context. Lets waiting requests on."""
        pool.idle.clear()
        pool.uses.clear()
        wrapper = self.context_wrappers.pop(DEFAULT_CONTEXT, None)
        try:
            if wrapper is not None:
                await wrapper.context.close()
                self.stats.inc_value("render/context_renewed")
        except Exception as exc:  # the browser may be gone; the context is then gone with it
            logger.debug("Closing a browser context failed: %s", exc)
        finally:
            pool.context_served = 0
            pool.context_open.set()

    async def _give_back(self, pool: PagePool, page: Any, *, keep: bool) -> None:
        """Return ``page`` to the pool, or close it."""
        if not isinstance(page, Page) or page.is_closed():
            pool.uses.pop(page, None)
            return
        if keep and not pool.worn_out(page):
            pool.idle.append(page)
            return
        pool.uses.pop(page, None)
        try:
            await page.close()
        except Exception as exc:  # the browser may be gone; the page is then gone with it
            logger.debug("Closing a rendered page failed: %s", exc)
        self.stats.inc_value("playwright/page_count/closed")
