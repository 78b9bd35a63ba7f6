"""Bounds on the navigations a rendered page's scripts make: in its own window, and in the
windows it opens.

A page's script may navigate once it runs (``location.reload()``, ``location.href = ...``): a
page that reloads itself, or two pages sending the browser to each other, never settle. Before,
the render's settle wait failed on the destroyed document (Playwright's ``Execution context was
destroyed``), or, when the script navigated before the page had loaded, the render ran to its
time limit: the page was lost, retried, and logged as one the browser could not load or whose
server never finished its answer. :class:`NavigationHold` counts the page's main-frame
navigations during one render (the render's own first); past the bound it cancels the next ones
(``aborted``: the document stays and no error page replaces it, as when a user stops a page), so
the page is stored as its last document stands.

A page's script may open windows (``window.open``): each loads its URL and runs its scripts in
the render's browser context, outside the crawl's scope, robots.txt and accounting, and lives
until the context closes; a window that opens three more like itself grew to 52 requests of the
page in 8 s of a crawl. The headless shell opens none (``--block-new-web-contents``, in
``rendering.CHROMIUM_ARGS``); a browser that ignores the switch (Debian's full chromium) opens
them, and :class:`PopupCloser` closes each window a rendered page opens as soon as Playwright
tells of it, counted. Playwright tells of a window once it has loaded, so the windows that one
opened first escape it (22 requests of the page instead of 52 in that crawl) until the context
closes (``RENDER_CONTEXT_REUSE``).

A page's script may also start a download (``location.href`` to an attachment): chromium wrote it
to disk for as long as the browser context lived, outside ``DOWNLOAD_MAXSIZE`` (486 MB in the 5 s
before a two-page crawl ended; a long crawl's context lives for hundreds of renders).
:class:`DownloadCanceller` cancels every download a page starts but the one a render asked for
(a URL rendered that answers as an attachment, which scrapy-playwright reads within the render's
limits).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from contextlib import suppress
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Download, Frame, Page, Route

logger = logging.getLogger(__name__)


def run_soon(step: Coroutine[Any, Any, None], pending: set[asyncio.Future]) -> None:
    """Run ``step`` on the loop from an event callback, held in ``pending`` until done."""
    future = asyncio.ensure_future(step)
    pending.add(future)
    future.add_done_callback(pending.discard)


class NavigationHold:
    """Watches one render of ``page``: after ``limit`` navigations of its scripts (beyond the
    render's own), the page's further navigations are cancelled; ``held`` then says so, and
    the page keeps the route that cancels them (close it after the render)."""

    def __init__(self, page: Page, limit: int) -> None:
        self.page = page
        self.limit = limit
        #: Main-frame documents committed during the render (the render's own first).
        self.navigations = 0
        self.held = False
        self._frame = page.main_frame
        self._route: asyncio.Future | None = None

    def start(self) -> None:
        """Count the page's navigations from now on."""
        self.page.on("framenavigated", self._navigated)

    async def stop(self) -> None:
        """Stop counting (the route that cancels navigations stays on a held page)."""
        self.page.remove_listener("framenavigated", self._navigated)
        if self._route is not None:
            with suppress(PlaywrightError):
                await self._route

    def _navigated(self, frame: Frame) -> None:
        if frame != self._frame or self.held:
            return
        self.navigations += 1
        if self.navigations > self.limit + 1:
            self.held = True
            self._route = asyncio.ensure_future(self.page.route("**/*", self._hold))

    async def _hold(self, route: Route) -> None:
        """Cancel a navigation of the page; let every other request through."""
        if route.request.is_navigation_request() and route.request.frame == self._frame:
            await route.abort("aborted")
        else:
            await route.fallback()


class PopupCloser:
    """Closes the windows the watched pages open, telling ``on_closed`` of each."""

    def __init__(self, on_closed: Callable[[Page], None]) -> None:
        self._on_closed = on_closed
        #: Closings under way (held so that none is collected before it runs).
        self._closing: set[asyncio.Future] = set()

    def watch(self, page: Page) -> None:
        """Close every window ``page`` opens from now on."""
        page.on("popup", self._opened)

    def _opened(self, popup: Page) -> None:
        self._on_closed(popup)
        run_soon(self._close(popup), self._closing)

    @staticmethod
    async def _close(popup: Page) -> None:
        with suppress(PlaywrightError):
            await popup.close(run_before_unload=False)


class DownloadCanceller:
    """Cancels the downloads the watched pages start, but those of a URL being rendered (the
    render's own answer), telling ``on_cancelled`` of each."""

    def __init__(self, on_cancelled: Callable[[Download], None]) -> None:
        self._on_cancelled = on_cancelled
        #: URLs being rendered now, by how many renders.
        self._rendering: dict[str, int] = {}
        #: Cancellations under way (held so that none is collected before it runs).
        self._cancelling: set[asyncio.Future] = set()
        #: The URL of the last download cancelled, by the page that started it, until taken.
        self._cancelled_on: dict[Any, str] = {}

    def watch(self, page: Page) -> None:
        """Cancel the downloads ``page`` starts from now on."""
        page.on("download", self._started)

    def rendering(self, url: str, now: bool) -> None:
        """Say that ``url`` is being rendered (``now``), or no longer is."""
        count = self._rendering.get(url, 0) + (1 if now else -1)
        if count > 0:
            self._rendering[url] = count
        else:
            self._rendering.pop(url, None)

    def take(self, page: Page) -> str | None:
        """The URL of the last download ``page`` started and that was cancelled since this was
        last asked (None when none was), forgotten once told."""
        return self._cancelled_on.pop(page, None)

    def _started(self, download: Download) -> None:
        if download.url in self._rendering:
            return
        self._cancelled_on[download.page] = download.url
        self._on_cancelled(download)
        run_soon(self._cancel(download), self._cancelling)

    @staticmethod
    async def _cancel(download: Download) -> None:
        with suppress(PlaywrightError):
            await download.cancel()
