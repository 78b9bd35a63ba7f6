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

Because the pooled pages share one renderer, a page whose script never yields (``while(true){}``)
stalls every page rendering beside it, and all of them reach the render's time limit together.
A pooled render that times out therefore stops the script holding the renderer (the DevTools
protocol's ``Runtime.terminateExecution``, sent through a session opened with the page, since a
session opened on a busy page gets no answer), closes its page and is rendered again alone, in a
browser context of its own (chromium gives each context its own renderer, so neither the pool
nor the other renders alone wait for it; as many at once as the pool has pages). A page that
times out even alone is the busy one: its script is stopped, its context closed, the request
fails, counted (``render/script_terminated``) and logged once; unless nothing runs in it (the
navigation never committed, or its renderer still answers): then the page never finished
arriving, which is said so (``render/load_timeout``), not blamed on its scripts.

A navigation that fails (``net::ERR_...``: a connection refused or reset, an answer that is no
HTTP) is raised as :class:`RenderFailed` with one line naming the network error
(``render/failed/<ERR_...>``), which the retry middleware retries as a network error.

The pages beside a busy one need not wait for the time limit to learn it: while pooled renders
are in flight, the pool's renderer is asked a trivial script every ``STALL_CHECK_INTERVAL_S``;
when it gives no answer for ``RENDER_STALL_MS`` (a page's script holds it), the script is stopped
and every pooled render in flight is rendered again alone at once (``render/stalled``,
``render/stall_rendered_alone``), so the innocent pages are stored seconds after the stall
instead of after ``RENDER_TIMEOUT_MS``; the busy page, alone, still fails at its own limit.

Requests that bring their own page, ask for theirs (``playwright_include_page``) or name a
browser context are rendered as scrapy-playwright does, outside the pool, within the same time
limit (``render/timeout_unpooled``). Past it, one that only names a context is rendered again
alone like a pooled one (in a plain context: the named context's options do not follow it);
one whose callback owns its page fails with a WARNING, its page closed: the page cannot be
rendered again elsewhere without taking it from the callback, and its script cannot be stopped
(a session opened on a busy page gets no answer).

The rendered response holds the DOM chromium made of the page, never the server's own bytes: an
empty body becomes an empty ``<html>`` document, a PDF served as ``text/html`` a page of its
bytes as text. So every render also keeps the body of its navigation's answer (the page's
document, after redirects) in the request's meta (``SERVER_BODY_META``), read from the browser
within the render's time limit, for the body checks to judge as they judge a plain download. A
document answer that announces or sends more than ``DOWNLOAD_MAXSIZE`` bytes stops the render as
it arrives (``render_body_limit.DocumentBodyWatch``) and fails as a plain download over the limit
(``DownloadCancelledError``, ``render/too_large``): it is never stored, nor read back. An
answer with a header line longer than a plain download's HTTP client reads (which hangs up on
it) fails as that download does: a network error, retried (``render/failed/header_line_too_long``).

A page whose script navigates once it has loaded (``location.reload()``, ``location.href = ...``)
destroys the document the settle wait runs in: the wait is run again in the new document
(``render/navigated_while_settling``). A page whose scripts navigate more than
``SCRIPT_NAVIGATIONS_MAX`` times in one render has its next navigations cancelled and is
stored as it stands (``render_navigation.NavigationHold``, ``render/navigations_cancelled``, one
INFO line), its browser page closed after instead of serving another render. Before, a page
reloading itself was lost with Playwright's ``Execution context was destroyed``, and one
navigating before it had loaded ran to the render's time limit, alone too, said to be a page
whose server never finished its answer. The windows a rendered page's scripts open
(``window.open``) are not opened by the headless shell, and closed as they open in a browser
that opens them (``render_navigation.PopupCloser``, ``render/popups_closed``); a download a page's script starts
is cancelled (``render_navigation.DownloadCanceller``, ``render/downloads_cancelled``), in the
pool and alone. A page whose script starts one before the page has loaded never loads: it fails
at the render's time limit with a line naming the download (``render/download_before_load``),
not rendered again alone.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Response as PlaywrightResponse
from playwright.async_api import TimeoutError as PlaywrightTimeoutError
from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DownloadCancelledError
from scrapy.http import Response
from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler
from twisted.web._newclient import HTTPClientParser

from crawler.http_client import bound_response_headers
from crawler.render_body_limit import DocumentBodyWatch
from crawler.render_navigation import DownloadCanceller, NavigationHold, PopupCloser
from crawler.rendering import SERVER_BODY_META

logger = logging.getLogger(__name__)

#: The context scrapy-playwright uses when a request names none.
DEFAULT_CONTEXT = "default"
#: Seconds a DevTools command to stop a page's script may take (it answers in milliseconds).
TERMINATE_WAIT_S = 5.0
#: The URL of a page no navigation has committed to yet.
BLANK_PAGE = "about:blank"
#: Seconds a renderer may take to evaluate a trivial script after a render timed out before it
#: counts as busy (a free one answers in milliseconds, a loaded machine's in well under this).
BUSY_CHECK_S = 2.0
#: Seconds between two checks that the pooled renderer still runs scripts (a check answers in
#: milliseconds; the stall limit, RENDER_STALL_MS, is what a check may wait).
STALL_CHECK_INTERVAL_S = 0.5


#: Navigations a page's scripts may make in one render (a reload, a script's redirect) before
#: the next are cancelled: a page that moves once or twice is stored as the document it ends in,
#: one navigating forever as it stands once they are cancelled.
SCRIPT_NAVIGATIONS_MAX = 3
#: ``Request.meta`` key: the render's page has its navigations refused (a page navigating
#: forever), so it is closed after the render instead of serving another.
NAVIGATION_HELD_META = "render_navigation_held"
#: Meta key: the URL of a download the page's script started during its last render (cancelled).
DOWNLOAD_STARTED_META = "render_download_started"
#: Playwright's message of a page method whose document a navigation replaced.
_CONTEXT_DESTROYED = "Execution context was destroyed"


class RendererStalled(Exception):
    """The pool's renderer answered no script for RENDER_STALL_MS: a page's script holds it.
    The renders in flight beside it are given up in the pool and rendered again alone."""


#: A render past its time limit: Playwright's own (navigation), the pool's deadline (a page
#: method, such as the settle wait, on a renderer that no longer runs anything else), or a
#: renderer found stalled before either.
RENDER_TIMEOUTS = (PlaywrightTimeoutError, asyncio.TimeoutError, RendererStalled)


class RenderFailed(ConnectionError):
    """The browser could not load the page: a network error (``net::ERR_...``: the connection
    refused or reset, an answer that is no HTTP, a body shorter than its Content-Length) or
    another failure of the navigation. A ``ConnectionError``, so the retry middleware retries
    it as it does a plain download's network errors."""


#: Chromium's name of a network error in a Playwright message (``net::ERR_EMPTY_RESPONSE``).
_NET_ERROR = re.compile(r"net::(ERR_[A-Z0-9_]+)")
#: Characters of a failure's message kept in its one line when it names no network error.
MESSAGE_CHARS = 200
#: Bytes of the longest header line (name, ``: ``, value) a plain download's HTTP client reads;
#: it hangs up on a longer one. A rendered answer is held to the same limit.
HEADER_LINE_LIMIT: int = HTTPClientParser.MAX_LENGTH


def render_failure(exc: PlaywrightError) -> tuple[str, str]:
    """The kind of a failed navigation (its ``net::ERR_`` name, else the error's class) and one
    line saying it: Playwright's message spans lines (a call log under it)."""
    text = str(exc)
    net_error = _NET_ERROR.search(text)
    if net_error:
        kind, said = net_error.group(1), f"net::{net_error.group(1)}"
    else:
        kind = type(exc).__name__
        said = (text.strip().splitlines() or [kind])[0][:MESSAGE_CHARS]
    return kind, f"the browser could not load the page ({said})"


class RenderTimeout(Exception):
    """A page kept the browser busy past the render's time limit even when rendered alone, or
    never finished loading within it (its server never completed the answer).

    Not an ``OSError`` (as ``asyncio.TimeoutError`` is), which Scrapy's retry would send back
    into the pool to stall the pages beside it again."""


async def terminate_script(session: CDPSession | None) -> None:
    """Stop the script running in the renderer behind ``session`` (a no-op when none runs)."""
    if session is None:
        return
    try:
        await asyncio.wait_for(session.send("Runtime.terminateExecution"), TERMINATE_WAIT_S)
    except Exception as exc:  # the page or browser may be gone; closing the page follows
        logger.debug("Stopping a page's script failed: %s", exc)


async def renderer_is_busy(session: CDPSession | None) -> bool:
    """Whether the renderer behind ``session`` runs a script that does not yield: it gives no
    answer to a trivial one within BUSY_CHECK_S. A page whose server never finished its answer
    leaves the renderer free (it answers)."""
    if session is None:
        return False
    try:
        await asyncio.wait_for(session.send("Runtime.evaluate", {"expression": "0"}),
                               BUSY_CHECK_S)
    except asyncio.TimeoutError:
        return True
    except Exception as exc:  # the page or browser may be gone: nothing of it runs any more
        logger.debug("Checking a renderer failed: %s", exc)
    return False


class PagePool:
    """Open pages of one browser context waiting for their next request, and how many requests
    each has served. At most ``size`` pages are in use or waiting at once."""

    def __init__(self, size: int, reuse: int, context_reuse: int = 0) -> None:
        self.reuse = reuse
        self.idle: list[Page] = []
        self.uses: dict[Page, int] = {}
        #: A DevTools session per open page, opened with it (a busy page answers no new one).
        self.sessions: dict[Page, CDPSession] = {}
        self.slots = asyncio.Semaphore(size)
        #: Requests the current browser context may serve (0: no limit), how many it has
        #: served, and how many are being rendered now.
        self.context_reuse = context_reuse
        self.context_served = 0
        self.rendering = 0
        #: Cleared while the context is due for renewal: new requests wait for the new one.
        self.context_open = asyncio.Event()
        self.context_open.set()
        #: Set when the renderer is found stalled; renders started before then watch this one,
        #: later ones a new one.
        self.stalled = asyncio.Event()
        #: The task checking the renderer while renders are in flight, if one runs.
        self.watchdog: asyncio.Task | None = None

    def any_session(self) -> CDPSession | None:
        """A DevTools session of an open page of the pool (they share its renderer)."""
        for page, session in list(self.sessions.items()):
            if not page.is_closed():
                return session
        return None

    def take_idle(self) -> Page | None:
        """A waiting page that is still open, or None."""
        while self.idle:
            page = self.idle.pop()
            if not page.is_closed():
                return page
            self.forget(page)
        return None

    def forget(self, page: Page) -> None:
        """Drop what the pool holds about a page it no longer uses."""
        self.uses.pop(page, None)
        self.sessions.pop(page, None)

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
        bound_response_headers(self._pool, crawler)  # plain requests, as without rendering
        # The parent starts Playwright on engine_started (one of two hooks, by Scrapy version).
        for receiver in (self._maybe_launch_in_thread, self._engine_started):
            crawler.signals.disconnect(receiver, signal=signals.engine_started)
        self._start_lock = asyncio.Lock()
        self._started = False
        self._page_pool: PagePool | None = None
        #: Seconds a pooled render may take in all (navigation and page methods).
        self._render_deadline_s = 0.0
        #: Seconds the pooled renderer may give no answer before it counts as stalled (0: off).
        self._stall_s = 0.0
        #: Timed-out renders rendered again alone at once, each in its own context (renderer).
        self._alone_slots = asyncio.Semaphore(self.config.max_pages_per_context)
        #: The DevTools session of each page being rendered alone.
        self._alone_sessions: dict[Page, CDPSession] = {}
        #: Bytes of the server's body a render reads back from the browser (0: no limit), and
        #: the seconds reading it may take where no render's time limit bounds it.
        self._max_body_bytes = crawler.settings.getint("DOWNLOAD_MAXSIZE")
        self._body_read_s = crawler.settings.getfloat("DOWNLOAD_TIMEOUT")
        #: Closes the windows a rendered page's scripts open (``window.open``).
        self._popups = PopupCloser(self._popup_closed)
        #: Cancels the downloads a rendered page's scripts start.
        self._downloads = DownloadCanceller(self._download_cancelled)

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
        try:
            if (self._page_pool is None or "playwright_page" in meta
                    or meta.get("playwright_include_page")
                    or meta.get("playwright_context", DEFAULT_CONTEXT) != DEFAULT_CONTEXT):
                return await self._render_unpooled(request, spider)
            return await self._download_in_pool(self._page_pool, request, spider)
        except PlaywrightError as exc:
            kind, message = render_failure(exc)
            self._count_failure(kind)
            logger.debug("Rendering %s failed: %s", request.url, message)
            raise RenderFailed(message) from exc

    async def _create_page(self, request: Request, spider: Spider) -> Page:
        """A page of the parent's, whose scripts' windows are closed as they open."""
        page = await super()._create_page(request, spider)
        self._popups.watch(page)
        self._downloads.watch(page)
        return page

    def _download_cancelled(self, download: Any) -> None:
        """Count a download a rendered page's script started (cancelled); say the first."""
        if not self.stats.get_value("render/downloads_cancelled"):
            logger.info("A rendered page's script started a download (%s): cancelled, as every "
                        "download a page starts (render/downloads_cancelled)", download.url[:300])
        self.stats.inc_value("render/downloads_cancelled")

    def _popup_closed(self, popup: Page) -> None:
        """Count a window a rendered page opened (closed at once); say the first."""
        if not self.stats.get_value("render/popups_closed"):
            logger.info("A rendered page opened a window (window.open, %s): closed at once, as "
                        "every window a page opens (render/popups_closed); the crawl stores the "
                        "pages it asks for", popup.url)
        self.stats.inc_value("render/popups_closed")

    def _count_failure(self, kind: str) -> None:
        """Count a render the browser could not load, in all and by its kind."""
        self.stats.inc_value("render/failed")
        self.stats.inc_value(f"render/failed/{kind}")

    async def _render_unpooled(self, request: Request, spider: Spider | None) -> Response:
        """Render as scrapy-playwright does (a request with its own page or context), within
        the render's time limit. Past it, a request that only names a context is rendered
        again alone like a pooled one (its context's pages share a renderer too, so a busy
        page among them stalls the others); one that brought its page or asked for it (whose
        callback owns the page) fails, and the page it brought is closed."""
        if not self._render_deadline_s:  # a spider without a render configuration
            return await super()._download_request(request, spider)
        meta = request.meta
        owns_page = "playwright_page" in meta or bool(meta.get("playwright_include_page"))
        try:
            return await asyncio.wait_for(super()._download_request(request, spider),
                                          self._render_deadline_s)
        except RENDER_TIMEOUTS as exc:
            self.stats.inc_value("render/timeout_unpooled")
            if DOWNLOAD_STARTED_META in meta:
                raise self._sent_to_download(request) from exc
            if not owns_page:
                self.stats.inc_value("render/timeout_rendered_alone")
                logger.info("Rendering %s in browser context %r timed out (%s): rendering it "
                            "again alone", request.url, meta.get("playwright_context"),
                            type(exc).__name__)
            else:
                logger.warning("Rendering %s in a page its request brought or asked for took "
                               "longer than the render's time limit (%.1f s): failed, not "
                               "rendered again (the page's script could not be stopped)",
                               request.url, self._render_deadline_s)
                page = meta.get("playwright_page")
                if isinstance(page, Page):
                    try:
                        await page.close(run_before_unload=False)
                    except Exception as close_exc:  # the browser may be gone, the page too
                        logger.debug("Closing a rendered page failed: %s", close_exc)
                raise RenderTimeout(f"the render took longer than "
                                    f"{self._render_deadline_s:.1f} s in its own page") from exc
        return await self._render_alone(request, spider)

    async def _download_request_with_page(self, request: Request, page: Page,
                                          spider: Spider) -> Response:
        """Render as the parent does, with the page's own navigations bounded
        (``NavigationHold``): a page navigating forever is stored as it stands, and closed
        after instead of serving another render."""
        request.meta.pop(NAVIGATION_HELD_META, None)  # said of an earlier attempt's page
        request.meta.pop(DOWNLOAD_STARTED_META, None)
        self._downloads.take(page)  # one an earlier render of this pooled page started
        hold = NavigationHold(page, SCRIPT_NAVIGATIONS_MAX)
        hold.start()
        self._downloads.rendering(request.url, True)
        try:
            return await super()._download_request_with_page(request, page, spider)
        finally:
            self._downloads.rendering(request.url, False)
            download_url = self._downloads.take(page)
            if download_url:
                request.meta[DOWNLOAD_STARTED_META] = download_url
            await hold.stop()
            if hold.held:
                request.meta[NAVIGATION_HELD_META] = True
                self.stats.inc_value("render/navigations_cancelled")
                logger.info("%s navigated more than %d times by its scripts while it rendered (a "
                            "page that reloads or redirects itself forever): its next navigations "
                            "were cancelled and it is stored as it stood at %s", request.url,
                            SCRIPT_NAVIGATIONS_MAX, page.url)

    async def _apply_page_methods(self, page: Page, request: Request, spider: Spider) -> None:
        """The request's page methods (the settle wait), run again in the new document when the
        page's scripts navigate meanwhile (NavigationHold bounds how often)."""
        for attempt in range(SCRIPT_NAVIGATIONS_MAX + 2):
            try:
                await super()._apply_page_methods(page, request, spider)
                return
            except PlaywrightError as exc:
                if _CONTEXT_DESTROYED not in str(exc):
                    raise
                if not attempt:
                    self.stats.inc_value("render/navigated_while_settling")
                await page.wait_for_load_state(timeout=self.config.navigation_timeout_ms)

    async def _get_response_and_download(self, request: Request, page: Page,
                                         spider: Spider) -> tuple[Any, Any]:
        """Navigate as scrapy-playwright does, then hold the answer to a plain download's
        limits: fail one with a header line longer than its client reads, and keep the
        server's body (``SERVER_BODY_META``) for the body checks."""
        request.meta.pop(SERVER_BODY_META, None)  # a body of an earlier attempt
        response, download = await self._navigate_within_size(request, page, spider)
        if isinstance(response, PlaywrightResponse):
            await self._refuse_long_header_line(request, response)
            body = await self._server_body(request, response)
            if body is not None:
                request.meta[SERVER_BODY_META] = body
        return response, download

    async def _navigate_within_size(self, request: Request, page: Page,
                                    spider: Spider) -> tuple[Any, Any]:
        """The parent's navigation, stopped as soon as the page's document answer announces or
        has sent more than DOWNLOAD_MAXSIZE bytes: the request then fails as a plain download
        over the limit does (``DownloadCancelledError``, not retried), and the caller closes
        the page, which ends the load in the browser. Pages rendered in the pool or alone are
        watched through the DevTools session opened with them; a page scrapy-playwright opens
        (a request naming a context) is held to the limit once loaded (``_server_body``)."""
        navigation = super()._get_response_and_download(request, page, spider)
        session = self._alone_sessions.get(page) or (
            self._page_pool.sessions.get(page) if self._page_pool is not None else None)
        if not self._max_body_bytes or session is None:
            return await navigation
        watch = DocumentBodyWatch(session, self._max_body_bytes)
        try:
            await watch.start()
            task = asyncio.ensure_future(navigation)
            waiter = asyncio.ensure_future(watch.exceeded.wait())
            try:
                await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                waiter.cancel()
                if not task.done():  # over the limit, or this render cancelled (its time limit)
                    task.cancel()
                await asyncio.gather(task, return_exceptions=True)
            if watch.exceeded.is_set():
                raise self._too_large(watch.reason())
            return task.result()
        finally:
            watch.stop()

    async def _refuse_long_header_line(self, request: Request,
                                       response: PlaywrightResponse) -> None:
        """Raise :class:`RenderFailed` (retried as a network error) for an answer with a header
        line longer than HEADER_LINE_LIMIT, as a plain download of it fails."""
        longest = max((len(h["name"]) + 2 + len(h["value"])
                       for h in await response.headers_array()), default=0)
        if longest <= HEADER_LINE_LIMIT:
            return
        self._count_failure("header_line_too_long")
        logger.debug("Rendering %s: a header line of %d bytes", request.url, longest)
        raise RenderFailed(f"the answer could not be read (a header line of {longest} bytes, "
                           f"longer than the {HEADER_LINE_LIMIT} a plain download reads)")

    async def _server_body(self, request: Request, response: PlaywrightResponse) -> bytes | None:
        """The body the server sent for the page, as the browser received it; None when the
        browser no longer has it (the body checks then see the rendered DOM). A body larger
        than DOWNLOAD_MAXSIZE (one the navigation's watch did not stop) fails the request as a
        plain download over the limit, before it is read. Waits for the body's end, so a
        navigation that returned before it (``wait_until=commit``) is bounded by the render's
        time limit, or DOWNLOAD_TIMEOUT for a spider without a render configuration."""
        try:
            sizes = await asyncio.wait_for(response.request.sizes(),
                                           self._render_deadline_s or self._body_read_s)
            size = sizes["responseBodySize"]
            if self._max_body_bytes and size > self._max_body_bytes:
                raise self._too_large(f"the answer's body of {size} bytes is larger than "
                                      f"DOWNLOAD_MAXSIZE ({self._max_body_bytes} bytes): "
                                      f"not stored")
            body = await response.body()
        except (PlaywrightError, asyncio.TimeoutError) as exc:
            logger.debug("Rendering %s: the server's body could not be read back: %s",
                         request.url, exc)
            return None
        if self._max_body_bytes and len(body) > self._max_body_bytes:
            # a small encoded body that decoded past the limit
            raise self._too_large(f"the answer's body decodes to {len(body)} bytes, more than "
                                  f"DOWNLOAD_MAXSIZE ({self._max_body_bytes} bytes): not stored")
        return body

    def _too_large(self, reason: str) -> DownloadCancelledError:
        """The failure of a render whose answer is over DOWNLOAD_MAXSIZE, counted
        (``render/too_large``): raised as a plain download over the limit fails."""
        self.stats.inc_value("render/too_large")
        return DownloadCancelledError(reason)

    def _make_pool(self) -> PagePool | None:
        """The page pool the spider's render configuration asks for (``page_reuse`` 1: each
        page closed after its request); None for a spider without one (rendered as
        scrapy-playwright does)."""
        config = getattr(self._crawler.spider, "render_config", None)
        if config is None:
            return None
        # the navigation's limit, then the settle wait after it, each of which a busy renderer
        # would stretch without end
        self._render_deadline_s = (config.timeout_ms + config.settle_max_ms) / 1000
        self._stall_s = config.stall_ms / 1000
        return PagePool(self.config.max_pages_per_context, config.page_reuse,
                        config.context_reuse)

    async def _download_in_pool(self, pool: PagePool, request: Request,
                                spider: Spider | None) -> Response:
        """Render ``request`` in the pool; when that times out (the page, or one beside it,
        kept the shared renderer busy), render it again alone."""
        try:
            return await self._render_pooled(pool, request, spider)
        except RendererStalled:
            self.stats.inc_value("render/stall_rendered_alone")
            logger.info("Rendering %s stopped (its renderer stalled): rendering it again alone",
                        request.url)
        except RENDER_TIMEOUTS as exc:
            if DOWNLOAD_STARTED_META in request.meta:
                raise self._sent_to_download(request) from exc
            self.stats.inc_value("render/timeout_rendered_alone")
            logger.info("Rendering %s timed out (%s): rendering it again alone", request.url,
                        type(exc).__name__)
        return await self._render_alone(request, spider)

    def _sent_to_download(self, request: Request) -> RenderTimeout:
        """The failure of a render past its time limit during which the page's script sent
        the browser to a download (cancelled): the page never fired its load event, whatever
        its server did; said so, counted, not rendered again (it would do the same)."""
        self.stats.inc_value("render/download_before_load")
        logger.warning("Rendering %s: its script sent the browser to a download (%s, cancelled) "
                       "before the page had loaded, and the page never finished loading within "
                       "the render's time limit (%.1f s): not stored, not rendered again "
                       "(render/download_before_load)", request.url,
                       str(request.meta[DOWNLOAD_STARTED_META])[:300], self._render_deadline_s)
        return RenderTimeout("the page's script sent the browser to a download before the page "
                             "had loaded")

    async def _watch_renderer(self, pool: PagePool) -> None:
        """While pooled renders are in flight, check that their renderer answers a trivial
        script; when it gives none for RENDER_STALL_MS, stop the script holding it and tell the
        renders in flight (they are rendered again alone)."""
        try:
            while pool.rendering > 0:
                session = pool.any_session()
                if session is not None:
                    try:
                        await asyncio.wait_for(
                            session.send("Runtime.evaluate", {"expression": "0"}), self._stall_s)
                    except asyncio.TimeoutError:
                        await terminate_script(session)
                        self.stats.inc_value("render/stalled")
                        logger.warning("The renderer of the pooled pages answered nothing for "
                                       "%.1f s (RENDER_STALL_MS; a page's script never yields): "
                                       "its script was stopped and the %d renders in flight are "
                                       "rendered again alone", self._stall_s, pool.rendering)
                        stalled, pool.stalled = pool.stalled, asyncio.Event()
                        stalled.set()
                    except Exception as exc:  # a page navigating or closing: not a stall
                        logger.debug("Renderer check failed: %s", exc)
                await asyncio.sleep(STALL_CHECK_INTERVAL_S)
        finally:
            pool.watchdog = None

    async def _until_stalled(self, download: Any, stalled: asyncio.Event) -> Response:
        """The result of ``download`` (a coroutine), or :class:`RendererStalled` when
        ``stalled`` is set first (the download is then cancelled)."""
        task = asyncio.ensure_future(download)
        waiter = asyncio.ensure_future(stalled.wait())
        try:
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
            if not task.done():
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        if task.cancelled():
            raise RendererStalled("the renderer stalled")
        return task.result()

    async def _render_alone(self, request: Request, spider: Spider | None) -> Response:
        """Render ``request`` in a browser context of its own (and so a renderer of its own),
        closed afterwards; a page that times out even here has its script stopped and fails
        with :class:`RenderTimeout`."""
        meta = request.meta
        async with self._alone_slots:
            await self._maybe_launch_browser()
            context = await self.browser.new_context()
            page: Page | None = None
            try:
                page = await context.new_page()
                self._popups.watch(page)
                self._downloads.watch(page)
                session = await context.new_cdp_session(page)
                self._alone_sessions[page] = session
                meta["playwright_page"] = page
                meta["playwright_include_page"] = True
                try:
                    return await asyncio.wait_for(super()._download_request(request, spider),
                                                  self._render_deadline_s)
                except RENDER_TIMEOUTS as exc:
                    if DOWNLOAD_STARTED_META in meta:
                        raise self._sent_to_download(request) from exc
                    # a navigation never committed (no answer came) left the new page blank,
                    # and nothing of it runs; a committed one may hold a busy script
                    if page.url == BLANK_PAGE or not await renderer_is_busy(session):
                        # nothing runs: the page itself never finished arriving (a server that
                        # never answers, or stops half-way) or never fired its load event
                        self.stats.inc_value("render/load_timeout")
                        logger.warning("Rendering %s: the page did not finish loading within "
                                       "the render's time limit (%.1f s), rendered alone; its "
                                       "server never completed the answer, or a resource it "
                                       "waits for", request.url, self._render_deadline_s)
                        raise RenderTimeout(f"the page did not finish loading within "
                                            f"{self._render_deadline_s:.1f} s") from exc
                    await terminate_script(session)
                    self.stats.inc_value("render/script_terminated")
                    logger.warning("Stopped the scripts of %s: rendered alone, the page kept "
                                   "the browser busy past the render's time limit (%.1f s)",
                                   request.url, self._render_deadline_s)
                    raise RenderTimeout(f"the page's scripts kept the browser busy past "
                                        f"{self._render_deadline_s:.1f} s") from exc
            finally:
                meta.pop("playwright_page", None)
                meta.pop("playwright_include_page", None)
                if page is not None:
                    self._alone_sessions.pop(page, None)
                    self._downloads.take(page)  # one started after the render: page closing
                try:
                    await context.close()
                except Exception as exc:  # the browser may be gone; the context with it
                    logger.debug("Closing a browser context failed: %s", exc)

    async def _render_pooled(self, pool: PagePool, request: Request,
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
                    pool.sessions[page] = await page.context.new_cdp_session(page)
                meta["playwright_page"] = page
                meta["playwright_include_page"] = True
                download = asyncio.wait_for(super()._download_request(request, spider),
                                            self._render_deadline_s)
                try:
                    if self._stall_s:
                        if pool.watchdog is None:
                            pool.watchdog = asyncio.ensure_future(self._watch_renderer(pool))
                        response = await self._until_stalled(download, pool.stalled)
                    else:
                        response = await download
                except RENDER_TIMEOUTS:
                    # the renderer's pages share one script thread: free it for the others
                    await terminate_script(pool.sessions.get(page))
                    raise
                succeeded = True
                return response
            finally:
                # The parent replaces a page that closed under it; that one is returned too.
                used = meta.pop("playwright_page", page)
                meta.pop("playwright_include_page", None)
                held = meta.pop(NAVIGATION_HELD_META, False)
                try:
                    for candidate in {page, used}:
                        await self._give_back(pool, candidate,
                                              keep=succeeded and candidate is used and not held)
                finally:  # counted even when cancelled, or the pool would wait for it forever
                    if pool.finished():
                        await self._renew_context(pool)

    async def _renew_context(self, pool: PagePool) -> None:
        """Close the pool's waiting pages with their browser context (chromium then ends the
        renderer they shared); the next request opens a new context. Lets waiting requests on."""
        pool.idle.clear()
        pool.uses.clear()
        pool.sessions.clear()
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
            pool.forget(page)
            return
        if keep and not pool.worn_out(page):
            pool.idle.append(page)
            return
        pool.forget(page)
        self._downloads.take(page)
        try:
            await page.close(run_before_unload=False)
        except Exception as exc:  # the browser may be gone; the page is then gone with it
            logger.debug("Closing a rendered page failed: %s", exc)
        self.stats.inc_value("playwright/page_count/closed")
