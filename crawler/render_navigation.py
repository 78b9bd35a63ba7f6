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
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import suppress

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page, Route

logger = logging.getLogger(__name__)


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
        closing = asyncio.ensure_future(self._close(popup))
        self._closing.add(closing)
        closing.add_done_callback(self._closing.discard)

    @staticmethod
    async def _close(popup: Page) -> None:
        with suppress(PlaywrightError):
            await popup.close(run_before_unload=False)
