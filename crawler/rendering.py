"""When a page needs a browser, and how the browser is found and launched.

``looks_like_js_shell`` is a cheap text check on the plain download (no parse): a page whose
visible text is tiny, whose app root is empty, or whose ``<noscript>`` asks for JavaScript is
fetched again through scrapy-playwright.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)

RENDER_MODES = ("never", "auto", "always")

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
]

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


def should_abort_request(request: Any) -> bool:
    """PLAYWRIGHT_ABORT_REQUEST hook: skip images, fonts and media while rendering."""
    return request.resource_type in BLOCKED_RESOURCE_TYPES


def find_browser(configured: str | None) -> str | None:
    """Absolute path of an executable browser at the configured path (or on PATH), else None."""
    if not configured:
        return None
    if os.sep in configured:
        return configured if os.path.isfile(configured) and os.access(configured, os.X_OK) else None
    return shutil.which(configured)


def launch_options(executable: str, base: dict[str, Any] | None = None) -> dict[str, Any]:
    """PLAYWRIGHT_LAUNCH_OPTIONS for Debian's chromium at ``executable``."""
    options = dict(base or {})
    options["executable_path"] = executable
    options.setdefault("headless", True)
    args = list(options.get("args") or [])
    options["args"] = args + [a for a in CHROMIUM_ARGS if a not in args]
    return options
