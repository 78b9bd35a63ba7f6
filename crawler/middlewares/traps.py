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
- ``TRAP_MAX_PER_PATTERN`` (10,000): distinct URLs followed per URL shape: host, path with
  digit runs and token-like segments abstracted, and the query's parameter *names* (values
  dropped) (``trap/pattern_count``). Whatever a trap invents, a crawl ends by itself; a site
  with more numbered pages of one shape than this needs a higher value. The URLs a sitemap
  lists are the site's own list of pages, not links: the spider hands them to the scheduler
  itself, bounded by ``SITEMAP_MAX_URLS``, and this rule does not see them.
- ``TRAP_MAX_QUERIES_PER_PATH`` (10,000): distinct URLs with a query followed per host and path
  (digit runs and token-like segments abstracted, as in the shape above), whatever the query's
  parameter names (``trap/query_count``). A trap that invents a new parameter *name* on each link
  (``?ba=1`` -> ``?kofe=1`` -> ...) makes a new shape, and a new pattern, with each, so the two
  rules above never stopped it; so do a shop's filters, each combination of them a set of names.
- Session-id parameters (``jsessionid``, ``PHPSESSID``, ``sid``, ...) are removed from followed
  URLs, so one page is not fetched once per session (``trap/session_id_stripped``).
- Parameters of any name whose token-like values change on every link to the same page
  (``s=``, ``token=``, ``sessionkey=``): learnt from content. When a page's main text turns out
  to be stored already under a URL that differs only in such values (the ``page_duplicate``
  signal of the storage pipeline), those parameters are stripped from every later link of the
  host (``trap/volatile_param_stripped``).
- Ever-longer URLs with the same content (a query that gains a parameter per link, relative
  links that add a path segment per page): when a page duplicates the content of a URL it
  extends, the pages linked from it do not extend their URL further (``trap/growing_url``).
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
from crawler.startup import read_bool, read_number, read_or_refuse, read_switch

from crawler import signals
from crawler.fingerprint import CANONICAL_URL_META
from crawler.urls import QUERY_BYTES_CODEC, canonicalize_url

logger = logging.getLogger(__name__)

#: Query parameters (lower-cased) that carry a session id rather than content.
SESSION_PARAMS = frozenset({
    "jsessionid", "phpsessid", "sid", "sessionid", "session_id", "sessid", "aspsessionid",
    "cfid", "cftoken", "zenid", "oscsid", "s_id", "sess",
})
#: ``;jsessionid=...`` style path parameters.
SESSION_PATH_PARAM = re.compile(r";(?:jsessionid|phpsessid|sid|sessionid)=[^/?#;]*", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")
#: A path segment or value that is an identifier rather than a word: hex runs, or long mixes of
#: letters and digits (session ids, hashes, random names).
_TOKEN = re.compile(r"^(?:[0-9a-fA-F]{8,}|(?=[^/]*\d)(?=[^/]*[A-Za-z])[A-Za-z0-9_\-.~%]{16,})$")
PATTERN_META = "trap_pattern"


def strip_session_ids(url: str) -> str:
    """The URL without session-id query and path parameters (unchanged if it has none)."""
    parts = urlsplit(url)
    path = SESSION_PATH_PARAM.sub("", parts.path)
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True, encoding=QUERY_BYTES_CODEC)
        kept = [(k, v) for k, v in pairs
                if k.lower() not in SESSION_PARAMS and not k.lower().startswith("aspsessionid")]
        if len(kept) != len(pairs):
            query = urlencode(kept, encoding=QUERY_BYTES_CODEC)
    if path == parts.path and query == parts.query:
        return url
    return urlunsplit((parts.scheme, parts.netloc, path, query, parts.fragment))


def url_pattern(url: str) -> str:
    """The URL with digit runs abstracted and query keys sorted: one pattern per template."""
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    keys = sorted(f"{k}={_DIGITS.sub('#', v)}" for k, v in pairs)
    return f"{parts.netloc}{_DIGITS.sub('#', parts.path)}?{'&'.join(keys)}"


def url_shape(url: str) -> str:
    """The URL's shape for counting: host, path with digit runs and token-like segments
    abstracted, and the sorted query parameter names (values dropped)."""
    parts = urlsplit(url)
    segments = ["*" if _TOKEN.match(seg) else _DIGITS.sub("#", seg)
                for seg in parts.path.split("/")]
    names = sorted({k for k, _ in parse_qsl(parts.query, keep_blank_values=True)})
    return f"{parts.netloc}{'/'.join(segments)}?{'&'.join(names)}"


def path_shape(url: str) -> str:
    """The shape of the URL's host and path alone (the query dropped, names too)."""
    return url_shape(urlsplit(url)._replace(query="").geturl()).rstrip("?")


def is_token(value: str) -> bool:
    """Whether a parameter value looks like a generated identifier (a session id, a token)."""
    return bool(_TOKEN.match(value))


def volatile_params(url: str, first_url: str) -> set[str]:
    """Parameters whose token-like values are all that tell ``url`` from ``first_url`` (same
    host, path and parameter names); empty when the URLs differ otherwise."""
    a, b = urlsplit(url), urlsplit(first_url)
    if (a.netloc, a.path) != (b.netloc, b.path):
        return set()
    qa, qb = dict(parse_qsl(a.query, keep_blank_values=True)), dict(
        parse_qsl(b.query, keep_blank_values=True))
    if qa.keys() != qb.keys():
        return set()
    changed = {k for k in qa if qa[k] != qb[k]}
    if changed and all(is_token(qa[k]) and is_token(qb[k]) for k in changed):
        return changed
    return set()


def extends(url: str, base: str) -> bool:
    """Whether ``url`` is ``base`` grown longer: the same host, and the path continued, or the
    same path with the query's parameters kept and more (or longer values) added."""
    a, b = urlsplit(url), urlsplit(base)
    if a.netloc != b.netloc or len(url) <= len(base):
        return False
    if a.path != b.path:
        return a.path.startswith(b.path.rstrip("/") + "/") and a.query == b.query
    qa = parse_qsl(a.query, keep_blank_values=True)
    qb = dict(parse_qsl(b.query, keep_blank_values=True))
    grown = dict(qa)
    return all(k in grown and grown[k].startswith(v) for k, v in qb.items())


def strip_params(url: str, names: set[str]) -> str:
    """The URL without the named query parameters (unchanged if it has none of them)."""
    parts = urlsplit(url)
    if not parts.query:
        return url
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    kept = [(k, v) for k, v in pairs if k not in names]
    if len(kept) == len(pairs):
        return url
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(kept), parts.fragment))


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
    max_queries_per_path: int
    strip_session_ids: bool

    @classmethod
    def from_settings(cls, settings) -> TrapConfig:  # noqa: ANN001 - Scrapy Settings
        """Read and validate the TRAP_* settings."""
        return cls(
            max_segment_repeats=read_number(settings, "TRAP_MAX_SEGMENT_REPEATS", whole=True,
                                            minimum=0),
            max_pattern_depth=read_number(settings, "TRAP_MAX_PATTERN_DEPTH", whole=True,
                                          minimum=0),
            max_per_pattern=read_number(settings, "TRAP_MAX_PER_PATTERN", whole=True,
                                        minimum=0),
            max_queries_per_path=read_number(settings, "TRAP_MAX_QUERIES_PER_PATH", whole=True,
                                             minimum=0),
            strip_session_ids=read_bool(settings, "TRAP_STRIP_SESSION_IDS"),
        )


class TrapMiddleware:
    """Spider middleware: drops (or, for session ids, rewrites) links that look like traps."""

    def __init__(self, crawler: Crawler, config: TrapConfig) -> None:
        self.stats = crawler.stats
        self.config = config
        self._per_pattern: dict[str, set[int]] = {}
        #: Per path shape, the URLs with a query followed there.
        self._per_path: dict[str, set[int]] = {}
        self._logged: set[tuple[str, str]] = set()
        #: Per host, parameters learnt to carry a per-link token rather than content.
        self._volatile: dict[str, set[str]] = {}
        #: URLs whose content duplicates a URL they extend (growth traps), by host and path.
        self._growing: dict[tuple[str, str], list[str]] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> TrapMiddleware:
        """Build from settings; NotConfigured when TRAP_RULES_ENABLED is off."""
        enabled = read_switch(crawler, "TRAP_RULES_ENABLED")
        config = read_or_refuse(crawler, TrapConfig.from_settings)
        if not enabled:
            raise NotConfigured("TRAP_RULES_ENABLED is off")
        middleware = cls(crawler, config)
        crawler.signals.connect(middleware.page_duplicate, signal=signals.page_duplicate)
        return middleware

    def page_duplicate(self, url: str, first_url: str) -> None:
        """Learn from a page stored already under another URL: token parameters that change
        per link, or a URL grown from the one first holding the content."""
        host = urlsplit(url).netloc
        learnt = volatile_params(url, first_url) - self._volatile.get(host, set())
        if learnt:
            self._volatile.setdefault(host, set()).update(learnt)
            self.stats.inc_value("trap/volatile_param_learnt", len(learnt))
            logger.info("Spider trap: parameter(s) %s of %s change on every link to the same "
                        "page (%s has the content of %s); stripped from later links",
                        ", ".join(sorted(learnt)), host, url[:200], first_url[:200])
        if extends(url, first_url):
            parts = urlsplit(url)
            self._growing.setdefault((parts.netloc, parts.path), []).append(url)

    def _in_growth(self, page: str) -> bool:
        """Whether the page is, or extends, a URL found to repeat a shorter URL's content."""
        if not self._growing:
            return False
        parts = urlsplit(page)
        segments = parts.path.split("/")
        prefixes = {"/".join(segments[:n]) + "/" for n in range(1, len(segments))}
        prefixes.add(parts.path)
        for prefix in prefixes:
            for grown in self._growing.get((parts.netloc, prefix), ()):
                if grown == page or extends(page, grown):
                    return True
        return False

    def process_spider_output(self, response: Response, result: Iterable[Any],
                              spider: Spider | None = None) -> Iterator[Any]:
        """Filter the spider's requests (items pass untouched)."""
        page = canonicalize_url(response.url)
        growing = self._in_growth(page)
        for obj in result:
            checked = self._check(response, page, growing, obj)
            if checked is not None:
                yield checked

    async def process_spider_output_async(self, response: Response, result: AsyncIterator[Any],
                                          spider: Spider | None = None) -> AsyncIterator[Any]:
        """Async variant of :meth:`process_spider_output`."""
        page = canonicalize_url(response.url)
        growing = self._in_growth(page)
        async for obj in result:
            checked = self._check(response, page, growing, obj)
            if checked is not None:
                yield checked

    def _check(self, response: Response, page: str, growing: bool, obj: Any) -> Any:
        """The object, a rewritten request, or None when a rule drops it."""
        if not isinstance(obj, Request) or obj.meta.get("crawl_role", "page") != "page":
            return obj  # items, and robots.txt and sitemaps (bounded by their own settings)
        request = obj
        cfg = self.config
        volatile = self._volatile.get(urlsplit(request.url).netloc)
        if volatile:
            stripped = strip_params(request.url, volatile)
            if stripped != request.url:
                self.stats.inc_value("trap/volatile_param_stripped")
                request = request.replace(url=stripped)
                request.meta[CANONICAL_URL_META] = stripped
        if growing and extends(request.url, page):
            return self._drop("growing_url", request.url,
                              f"{page[:200]} repeats the content of a shorter URL and "
                              "this link grows it further")
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
                              f"{cfg.max_pattern_depth} ({pattern})", url_shape(url))
        if cfg.max_per_pattern:
            shape = url_shape(url)
            if not self._admit(self._per_pattern, shape, url, cfg.max_per_pattern):
                return self._drop("pattern_count", url,
                                  f"more than {cfg.max_per_pattern} URLs of shape {shape} "
                                  "(TRAP_MAX_PER_PATTERN)", shape)
        if cfg.max_queries_per_path and urlsplit(url).query:
            shape = path_shape(url)
            if not self._admit(self._per_path, shape, url, cfg.max_queries_per_path):
                return self._drop("query_count", url,
                                  f"more than {cfg.max_queries_per_path} URLs with a query under "
                                  f"{shape} (TRAP_MAX_QUERIES_PER_PATH)", shape)
        request.meta[PATTERN_META] = (pattern, depth)
        return request

    @staticmethod
    def _admit(counted: dict[str, set[int]], shape: str, url: str, limit: int) -> bool:
        """Whether ``url`` is one of the first ``limit`` URLs of ``shape`` (counted if new)."""
        seen = counted.setdefault(shape, set())
        key = hash(url)
        if key in seen:
            return True
        if len(seen) >= limit:
            return False
        seen.add(key)
        return True

    def _drop(self, rule: str, url: str, why: str, shape: str | None = None) -> None:
        """Count a dropped link; the first per rule and ``shape`` (the shape the rule counted,
        which the caller has at hand; else the URL's host) logs at INFO, the rest at DEBUG."""
        self.stats.inc_value(f"trap/{rule}")
        key = (rule, shape if shape is not None else urlsplit(url).netloc)
        level = logging.DEBUG if key in self._logged else logging.INFO
        self._logged.add(key)
        logger.log(level, "Spider trap (%s): not following %s: %s", rule, url[:300], why)
        return None
