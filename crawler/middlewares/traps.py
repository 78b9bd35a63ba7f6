"""Spider-trap rules applied to every link a spider follows: repeated path segments,
same-pattern chains (calendars, endless pagination) and session ids in URLs.

Over-long URLs are Scrapy's UrlLengthMiddleware's (``URLLENGTH_LIMIT``,
``urllength/request_ignored_count``); depth is the spider's ``max_depth``. Rules here, each with
a setting, a stat and a log line:

- ``TRAP_MAX_SEGMENT_REPEATS`` (3): a path naming one segment more often is dropped
  (``/a/a/a/a/``; ``trap/repeated_segments``).
- ``TRAP_MAX_PATTERN_DEPTH`` (30): a link with the same URL pattern (digits abstracted) as the
  page it was found on extends that page's chain; longer chains are dropped
  (``/cal/2026/11`` -> ``/cal/2026/12`` -> ...; ``trap/pattern_depth``).
- ``TRAP_MAX_PER_PATTERN`` (0, off): distinct URLs followed per pattern (``trap/pattern_count``);
  off by default because a site of numbered articles is one large legitimate pattern.
- Session-id parameters (``jsessionid``, ``PHPSESSID``, ``sid``, ...) are removed from followed
  URLs, so one page is not fetched once per session (``trap/session_id_stripped``).
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response

logger = logging.getLogger(__name__)

#: Query parameters (lower-cased) that carry a session id rather than content.
SESSION_PARAMS = frozenset({
    "jsessionid", "phpsessid", "sid", "sessionid", "session_id", "sessid", "aspsessionid",
    "cfid", "cftoken", "zenid", "oscsid", "s_id", "sess",
})
#: ``;jsessionid=...`` style path parameters.
SESSION_PATH_PARAM = re.compile(r";(?:jsessionid|phpsessid|sid|sessionid)=[^/?#;]*", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")
PATTERN_META = "trap_pattern"


def strip_session_ids(url: str) -> str:
    """The URL without session-id query and path parameters (unchanged if it has none)."""
    parts = urlsplit(url)
    path = SESSION_PATH_PARAM.sub("", parts.path)
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        kept = [(k, v) for k, v in pairs
                if k.lower() not in SESSION_PARAMS and not k.lower().startswith("aspsessionid")]
        if len(kept) != len(pairs):
            query = urlencode(kept)
    if path == parts.path and query == parts.query:
        return url
    return urlunsplit((parts.scheme, parts.netloc, path, query, parts.fragment))


def url_pattern(url: str) -> str:
    """The URL with digit runs abstracted and query keys sorted: one pattern per template."""
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    keys = sorted(f"{k}={_DIGITS.sub('#', v)}" for k, v in pairs)
    return f"{parts.netloc}{_DIGITS.sub('#', parts.path)}?{'&'.join(keys)}"


def max_segment_repeats(url: str) -> int:
    """How often the most repeated non-empty path segment occurs."""
    segments = [s for s in urlsplit(url).path.split("/") if s]
    return max(Counter(segments).values(), default=0)


@dataclass(frozen=True)
class TrapConfig:
    """Trap-rule limits, read once from settings (0 turns a rule off)."""

    max_segment_repeats: int
    max_pattern_depth: int
    max_per_pattern: int
    strip_session_ids: bool

    @classmethod
    def from_settings(cls, settings) -> TrapConfig:  # noqa: ANN001 - Scrapy Settings
        """Read and validate the TRAP_* settings."""
        config = cls(
            max_segment_repeats=settings.getint("TRAP_MAX_SEGMENT_REPEATS"),
            max_pattern_depth=settings.getint("TRAP_MAX_PATTERN_DEPTH"),
            max_per_pattern=settings.getint("TRAP_MAX_PER_PATTERN"),
            strip_session_ids=settings.getbool("TRAP_STRIP_SESSION_IDS"),
        )
        for name in ("max_segment_repeats", "max_pattern_depth", "max_per_pattern"):
            if getattr(config, name) < 0:
                raise ValueError(f"TRAP_{name.upper()} must be 0 (off) or a positive number")
        return config


class TrapMiddleware:
    """Spider middleware: drops (or, for session ids, rewrites) links that look like traps."""

    def __init__(self, crawler: Crawler, config: TrapConfig) -> None:
        self.stats = crawler.stats
        self.config = config
        self._per_pattern: dict[str, set[str]] = {}
        self._logged: set[tuple[str, str]] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> TrapMiddleware:
        """Build from settings; NotConfigured when TRAP_RULES_ENABLED is off."""
        if not crawler.settings.getbool("TRAP_RULES_ENABLED"):
            raise NotConfigured("TRAP_RULES_ENABLED is off")
        return cls(crawler, TrapConfig.from_settings(crawler.settings))

    def process_spider_output(self, response: Response, result: Iterable[Any],
                              spider: Spider | None = None) -> Iterator[Any]:
        """Filter the spider's requests (items pass untouched)."""
        for obj in result:
            checked = self._check(response, obj)
            if checked is not None:
                yield checked

    async def process_spider_output_async(self, response: Response, result: AsyncIterator[Any],
                                          spider: Spider | None = None) -> AsyncIterator[Any]:
        """Async variant of :meth:`process_spider_output`."""
        async for obj in result:
            checked = self._check(response, obj)
            if checked is not None:
                yield checked

    def _check(self, response: Response, obj: Any) -> Any:
        """The object, a rewritten request, or None when a rule drops it."""
        if not isinstance(obj, Request):
            return obj
        request = obj
        cfg = self.config
        if cfg.strip_session_ids:
            stripped = strip_session_ids(request.url)
            if stripped != request.url:
                self.stats.inc_value("trap/session_id_stripped")
                key = ("session_id", urlsplit(stripped).netloc)
                level = logging.DEBUG if key in self._logged else logging.INFO
                self._logged.add(key)
                logger.log(level, "Stripped a session id from a link: %s -> %s (first of this host "
                           "logged at INFO)", request.url[:300], stripped[:300])
                request = request.replace(url=stripped)
        url = request.url
        if cfg.max_segment_repeats:
            repeats = max_segment_repeats(url)
            if repeats > cfg.max_segment_repeats:
                return self._drop("repeated_segments", url,
                                  f"a path segment repeats {repeats} times > "
                                  f"{cfg.max_segment_repeats}")
        pattern = url_pattern(url)
        parent_pattern, parent_depth = response.meta.get(PATTERN_META,
                                                         (url_pattern(response.url), 0))
        depth = parent_depth + 1 if pattern == parent_pattern else 0
        if cfg.max_pattern_depth and depth > cfg.max_pattern_depth:
            return self._drop("pattern_depth", url,
                              f"{depth} same-pattern links in a row > "
                              f"{cfg.max_pattern_depth} ({pattern})")
        if cfg.max_per_pattern:
            seen = self._per_pattern.setdefault(pattern, set())
            if url not in seen:
                if len(seen) >= cfg.max_per_pattern:
                    return self._drop("pattern_count", url,
                                      f"more than {cfg.max_per_pattern} URLs of pattern {pattern}")
                seen.add(url)
        request.meta[PATTERN_META] = (pattern, depth)
        return request

    def _drop(self, rule: str, url: str, why: str) -> None:
        """Count a dropped link; the first per rule and pattern logs at INFO, the rest at DEBUG."""
        self.stats.inc_value(f"trap/{rule}")
        key = (rule, url_pattern(url) if rule.startswith("pattern") else urlsplit(url).netloc)
        level = logging.DEBUG if key in self._logged else logging.INFO
        self._logged.add(key)
        logger.log(level, "Spider trap (%s): not following %s: %s", rule, url[:300], why)
        return None
