"""When a page needs a browser, and how the browser is found and launched.

Two moments decide it under ``render=auto``:

- before extraction, ``looks_like_js_shell`` is a cheap text check on the plain download (no
  parse): a page whose visible text is tiny, whose app root is empty, or whose ``<noscript>``
  asks for JavaScript is fetched again through scrapy-playwright;
- after extraction, a page whose main content came out thin (or failed the quality gate) is
  fetched again when ``javascript_signals`` finds that scripts build its content: an empty app
  root, a ``<noscript>`` asking for JavaScript, a large inline state blob (``__NEXT_DATA__``,
  ``window.__INITIAL_STATE__ = {...}``), or most of the body's bytes inside ``<script>``. This
  catches single-page apps that server-render their chrome (header, navigation, carousels, a
  cookie banner, a footer) around an empty root, whose visible text is long.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scrapy.settings import BaseSettings
from scrapy_playwright.page import PageMethod

from crawler.startup import SettingError, read_number

logger = logging.getLogger(__name__)

RENDER_MODES = ("never", "auto", "always")
#: Page events Playwright's ``goto`` can wait for (RENDER_WAIT_UNTIL).
WAIT_EVENTS = ("commit", "domcontentloaded", "load", "networkidle")

#: Chromium flags for a headless browser run as root on a machine without outside network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
    "--mute-audio",
    # Less memory per browser (measured: -70 MiB with the same CPU per page): the GPU thread in
    # the browser process instead of a process of its own.
    "--in-process-gpu",
    "--disable-extensions",
    # No window a page's script opens (window.open) comes to be: each would load its URL and run
    # its scripts outside the crawl's scope and accounting, until the context closes (a page
    # opening three windows like itself made 52 requests in 8 s; one, with this switch).
    "--block-new-web-contents",
]

#: Chromium features a crawl turns off, passed as one ``--disable-features``: chromium keeps only
#: the last such switch, so this one repeats the list Playwright (1.65, pinned) passes itself,
#: which it would otherwise replace (HTTPS upgrades of http:// pages, a redirect restart that
#: fails under request interception, ...), and adds ours. Ours: a new document host for every
#: navigation (RenderDocument) and a new browsing instance before it
#: (ProactivelySwapBrowsingInstance), both meant for the back-forward cache a crawl never uses;
#: without them the headless shell renders a documentation page into a reused page for about
#: 20% less CPU (170 against 210-217 ms in the browser and its renderer, README "Rendering
#: throughput").
DISABLED_FEATURES = (
    # Playwright's own
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
    "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
    # ours
    "RenderDocument", "ProactivelySwapBrowsingInstance",
)
_DISABLE_FEATURES = "--disable-features="

#: ``Request.meta`` key under which a render leaves the body the server sent for the page (its
#: navigation's answer, before any script ran): the body checks judge those bytes, not the DOM
#: the browser made of them (an empty document for an empty body, text for a PDF's bytes).
SERVER_BODY_META = "render_server_body"

#: Resource types the browser does not fetch when rendering (they add nothing to the text).
BLOCKED_RESOURCE_TYPES = frozenset({"image", "font", "media"})

_DROP_BLOCKS = re.compile(
    r"<(script|style|noscript|template|svg)\b[^>]*>.*?</\1\s*>|<!--.*?-->", re.I | re.S)
_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")
_NOSCRIPT = re.compile(r"<noscript\b[^>]*>(.*?)</noscript\s*>", re.I | re.S)
_NOSCRIPT_ASKS_JS = re.compile(r"(enable|turn on|activate|requires?|need)\W+(\w+\W+){0,3}javascript"
                               r"|javascript\W+(\w+\W+){0,3}(required|disabled|enabled|needed)",
                               re.I)
_EMPTY_APP_ROOT = re.compile(
    r"<(div|main|section)\b[^>]*\bid\s*=\s*[\"']?(root|app|__next|__nuxt|___gatsby|svelte|"
    r"application|main-app|react-root)[\"']?[^>]*>\s*</\1\s*>", re.I)
_BODY = re.compile(r"<body\b[^>]*>(.*)", re.I | re.S)

#: Below this many characters of visible text a page is taken for a shell.
MIN_VISIBLE_CHARS = 200

_INLINE_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.I | re.S)
_SCRIPT_SRC = re.compile(r"\bsrc\s*=", re.I)
#: An inline script that hands the page's data to the app: JSON data island, or a global
#: assigned an object literal (``window.__INITIAL_STATE__ = {``, ``self.__next_f.push(``).
_STATE_SCRIPT = re.compile(
    r"^\s*(?:(?:window|self|globalThis)\.[\w$]+\s*=|(?:var|let|const)\s+__[\w$]+\s*=|"
    r"(?:window|self)\.[\w$]+\.push\()\s*[\[{(\"']", re.S)
_JSON_TYPE = re.compile(r"\btype\s*=\s*[\"']?application/(?:ld\+)?json", re.I)
_LD_JSON_TYPE = re.compile(r"\btype\s*=\s*[\"']?application/ld\+json", re.I)
#: An inline state blob at least this long (characters) is the page's data waiting for a script.
#: Small ones are configuration (a few hundred characters); a page's data runs to kilobytes.
MIN_STATE_BLOB_CHARS = 1000
#: Share of the body's characters inside <script> above which scripts are most of the page.
SCRIPT_BODY_SHARE = 0.5


@dataclass(frozen=True)
class ShellVerdict:
    """Whether a page looks like a JavaScript shell, and why (a stat key)."""

    is_shell: bool
    reason: str = ""


def visible_text_length(html: str) -> int:
    """Length of the text a reader would see in the body, without scripts, styles and tags."""
    body_match = _BODY.search(html)
    body = body_match.group(1) if body_match else html
    text = _TAG.sub(" ", _DROP_BLOCKS.sub(" ", body))
    return len(_SPACE.sub(" ", text).strip())


def looks_like_js_shell(html: str) -> ShellVerdict:
    """Decide from the plain download whether the page needs a browser to show its content."""
    visible = visible_text_length(html)
    if _EMPTY_APP_ROOT.search(html) and visible < 2 * MIN_VISIBLE_CHARS:
        return ShellVerdict(True, "empty_app_root")
    for noscript in _NOSCRIPT.findall(html):
        if _NOSCRIPT_ASKS_JS.search(_TAG.sub(" ", noscript)) and visible < 4 * MIN_VISIBLE_CHARS:
            return ShellVerdict(True, "noscript_asks_javascript")
    if visible < MIN_VISIBLE_CHARS and "<script" in html.lower():
        return ShellVerdict(True, "little_visible_text")
    return ShellVerdict(False)


#: Runs in the page after the load event: resolves once the DOM has not changed for ``quiet``
#: ms, or ``limit`` ms after it started, whichever comes first. Content that scripts insert
#: right after load (from an inline state, or a fast API call) is then in the page; a page that
#: never stops changing (a ticker, an animation) costs at most ``limit``.
SETTLE_SCRIPT = """([quiet, limit]) => new Promise((resolve) => {
  let timer = null;
  const done = () => { observer.disconnect(); clearTimeout(timer); resolve(); };
  const observer = new MutationObserver(() => {
    clearTimeout(timer);
    timer = setTimeout(done, quiet);
  });
  observer.observe(document, {childList: true, subtree: true, characterData: true});
  timer = setTimeout(done, quiet);
  setTimeout(done, limit);
})"""


@dataclass(frozen=True)
class RenderConfig:
    """How a page is rendered: the event ``goto`` waits for, its time limit, and the DOM-quiet
    window waited for after it (``settle_max_ms`` 0: none)."""

    wait_until: str
    timeout_ms: int
    settle_quiet_ms: int = 0
    settle_max_ms: int = 0
    #: Requests a browser page serves before it is closed and replaced (1: a page a request).
    page_reuse: int = 1
    #: Requests the pooled pages' browser context serves before it is closed with its pages
    #: and a new one opened (0: never), which lets chromium end the renderer they shared.
    context_reuse: int = 0
    #: A pooled renderer that answers no trivial script for this long is held by a busy
    #: script: the renders in flight beside it are rendered again alone at once (0: only at
    #: the render's time limit).
    stall_ms: int = 0

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> RenderConfig:
        """Read the RENDER_* settings; SettingError names a bad one."""
        wait_until = str(settings.get("RENDER_WAIT_UNTIL")).strip().lower()
        if wait_until not in WAIT_EVENTS:
            raise SettingError(f"RENDER_WAIT_UNTIL must be one of {', '.join(WAIT_EVENTS)}, "
                               f"got {settings.get('RENDER_WAIT_UNTIL')!r}")
        return cls(wait_until=wait_until,
                   timeout_ms=read_number(settings, "RENDER_TIMEOUT_MS", whole=True,
                                          minimum=1000, maximum=600_000),
                   settle_quiet_ms=read_number(settings, "RENDER_SETTLE_QUIET_MS", whole=True,
                                               minimum=0, maximum=10_000),
                   settle_max_ms=read_number(settings, "RENDER_SETTLE_MAX_MS", whole=True,
                                             minimum=0, maximum=60_000),
                   page_reuse=read_number(settings, "RENDER_PAGE_REUSE", whole=True, minimum=1,
                                          maximum=100_000),
                   context_reuse=read_number(settings, "RENDER_CONTEXT_REUSE", whole=True,
                                             minimum=0, maximum=1_000_000),
                   stall_ms=read_number(settings, "RENDER_STALL_MS", whole=True, minimum=0,
                                        maximum=600_000))

    def request_meta(self) -> dict[str, Any]:
        """``Request.meta`` that sends a request through the browser."""
        meta: dict[str, Any] = {
            "playwright": True,
            "playwright_page_goto_kwargs": {"wait_until": self.wait_until,
                                            "timeout": self.timeout_ms}}
        if self.settle_max_ms and self.settle_quiet_ms:
            meta["playwright_page_methods"] = [
                PageMethod("evaluate", SETTLE_SCRIPT, [self.settle_quiet_ms, self.settle_max_ms])]
        return meta


def javascript_signals(html: str) -> list[str]:
    """Why the page looks built by scripts (stat keys, strongest first); empty when it does not.

    Unlike :func:`looks_like_js_shell` this ignores how much text the page shows: it is asked
    only about pages whose extracted main content came out thin.
    """
    signals = []
    if _EMPTY_APP_ROOT.search(html):
        signals.append("empty_app_root")
    if any(_NOSCRIPT_ASKS_JS.search(_TAG.sub(" ", n)) for n in _NOSCRIPT.findall(html)):
        signals.append("noscript_asks_javascript")
    inline = [(attributes, code) for attributes, code in _INLINE_SCRIPT.findall(html)
              # external code, or structured data that the extraction reads already
              if not (_SCRIPT_SRC.search(attributes) or _LD_JSON_TYPE.search(attributes))]
    if any(len(code) >= MIN_STATE_BLOB_CHARS
           and (_JSON_TYPE.search(attributes) or _STATE_SCRIPT.match(code))
           for attributes, code in inline):
        signals.append("inline_state_blob")
    body_match = _BODY.search(html)
    body = body_match.group(1) if body_match else html
    body_scripts = sum(len(code) for attributes, code in _INLINE_SCRIPT.findall(body)
                       if not _LD_JSON_TYPE.search(attributes))
    if body and body_scripts / len(body) > SCRIPT_BODY_SHARE:
        signals.append("script_heavy_body")
    return signals


def should_abort_request(request: Any) -> bool:
    """PLAYWRIGHT_ABORT_REQUEST hook: skip images, fonts and media while rendering, and the
    documents of frames inside the page (embedded widgets, ads, videos): the stored page is the
    top document's DOM, which holds an ``<iframe>`` element but never its document, so they
    change nothing stored; each costs the browser a renderer, and the load event waits for it."""
    if request.resource_type in BLOCKED_RESOURCE_TYPES:
        return True
    if request.resource_type == "document":
        frame = request.frame
        return frame.parent_frame is not None
    return False


def find_browser(configured: str | Sequence[str] | None) -> str | None:
    """The first executable browser among the configured paths or names on PATH (one, or a
    list in order of preference), as an absolute path; None when there is none."""
    candidates = [configured] if isinstance(configured, str) else list(configured or [])
    for candidate in candidates:
        candidate = candidate.strip()
        if not candidate:
            continue
        if os.sep in candidate:
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
        elif found := shutil.which(candidate):
            return found
    return None


def launch_options(executable: str, base: dict[str, Any] | None = None,
                   renderer_processes: int = 0) -> dict[str, Any]:
    """PLAYWRIGHT_LAUNCH_OPTIONS for Debian's chromium (or its headless shell) at
    ``executable``; with
    ``renderer_processes`` chromium runs the pages in at most that many renderer processes."""
    options = dict(base or {})
    options["executable_path"] = executable
    options.setdefault("headless", True)
    args = [a for a in options.get("args") or [] if not a.startswith(_DISABLE_FEATURES)]
    # features the user's own --disable-features names are kept, in the one switch chromium reads
    features = dict.fromkeys(DISABLED_FEATURES)
    for arg in options.get("args") or []:
        if arg.startswith(_DISABLE_FEATURES):
            features.update(dict.fromkeys(filter(None, arg[len(_DISABLE_FEATURES):].split(","))))
    wanted = list(CHROMIUM_ARGS) + [_DISABLE_FEATURES + ",".join(features)]
    if renderer_processes:
        wanted.append(f"--renderer-process-limit={renderer_processes}")
    options["args"] = args + [a for a in wanted if a not in args]
    return options
