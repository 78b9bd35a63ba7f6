"""A bound on the navigations a rendered page's scripts make.

A page's script may navigate once it runs (``location.reload()``, ``location.href = ...``): a
page that reloads itself, or two pages sending the browser to each other, never settle. Before,
the render's settle wait failed on the destroyed document (Playwright's ``Execution context was
destroyed``), or, when the script navigated before the page had loaded, the render ran to its
time limit: the page was lost, retried, and logged as one the browser could not load or whose
server never finished its answer. :class:`NavigationHold` counts the page's main-frame
navigations during one render (the render's own first); past the bound it cancels the next ones
(``aborted``: the document stays and no error page replaces it, as when a user stops a page), so
the page is stored as its last document stands.
"""

from __future__ import annotations

import asyncio
import logging
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
