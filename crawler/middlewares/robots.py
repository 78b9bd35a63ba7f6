"""robots.txt that cannot be read completely never widens what the crawl may fetch.

Scrapy's RobotsTxtMiddleware allows everything on a host whose robots.txt times out, is cut
off, is over ``DOWNLOAD_MAXSIZE`` or answers with a server error: a robots.txt of 20 MB is
dropped with a warning and its ``Disallow`` lines are then ignored. Here, as Google documents
for robots.txt that answers 5xx or cannot be reached, such a host is treated as **disallow
all**: nothing of it is fetched, with one ERROR line naming the host and why, and the stat
``robotstxt/unreadable``. A 4xx (no robots.txt) still allows everything, as it does for every
crawler. So does a robots.txt whose redirects loop or run past ``REDIRECT_MAX_TIMES``: RFC 9309
(2.3.1.2) lets a crawler take a robots.txt not reached within five redirects as unavailable, as a
4xx is, and Google does; it was disallowed whole, so the site was not crawled
(``robotstxt/endless_redirect``, one WARNING; its ``Sitemap:`` lines are not searched, there
being none to read).

Every request waiting for a host's robots.txt gets its rules (Scrapy's own middleware, under
the asyncio reactor, hands them to the first waiter only and lets the others through).

The robots.txt request waits at most ``ROBOTSTXT_TIMEOUT`` seconds (10) and is retried at most
``ROBOTSTXT_RETRY_TIMES`` times (1), because every request to the host waits for it.

Only the first ``ROBOTSTXT_MAX_SIZE`` bytes (500 KiB, the limit RFC 9309 allows and Google
applies) of a robots.txt are read, up to the last whole line: the rules are parsed on the
reactor thread and every request is checked against all of them, so a robots.txt of hundreds of
thousands of rules would slow every request of the crawl (``robotstxt/truncated``).

The spider reads each start host's robots.txt for its ``Sitemap:`` lines too. That request,
marked with ``REUSE_ROBOTS_META``, is answered with the copy this middleware fetched for the
rules (its status, headers and ``Sitemap:`` lines; the rules are not kept twice) instead of
being downloaded a second time (``robotstxt/reused``). When that copy could not be read, the
host is disallowed whole, so its sitemaps could give no page: the spider's request is refused
at once (``robotstxt/sitemaps_not_searched``) rather than sent again with the crawl's longer
timeout and retries (a robots.txt that never answers kept a crawl that could fetch nothing
open for another ``RETRY_TIMES + 1`` times ``DOWNLOAD_TIMEOUT``: 90 s by default).

A robots.txt saved as UTF-16 (with its byte-order mark, or without one: every second byte of its
ASCII rules is then NUL) is read as the text it is: the parser reads UTF-8 only, found no rule
in it and allowed everything (``robotstxt/utf16``). RFC 9309 asks for UTF-8; the file's owner
still meant its rules.

Control bytes (NUL and the other C0 controls but tab and line ends, DEL) are read as nothing:
one after ``User-agent: *`` made the group name no crawler, so its ``Disallow`` lines applied
to none and a forbidden path was fetched (``robotstxt/control_bytes``, one WARNING).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.http import Response
from scrapy.http.request import NO_CALLBACK
from scrapy.robotstxt import RobotParser
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.misc import build_from_crawler
from twisted.internet.defer import Deferred

from crawler.startup import read_number, read_or_refuse
from crawler.unusable import EndlessRedirect

logger = logging.getLogger(__name__)

#: Meta key of a request for a host's robots.txt to answer with the copy fetched for its rules.
REUSE_ROBOTS_META = "reuse_robotstxt"
#: What an unreadable robots.txt is taken to say.
DISALLOW_ALL = b"User-agent: *\nDisallow: /\n"
#: UTF-16 byte-order marks and the codec each names.
UTF16_MARKS = ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
#: Bytes of a robots.txt looked at to tell UTF-16 without a byte-order mark.
UTF16_SNIFF_BYTES = 512


def utf16_codec(body: bytes) -> str | None:
    """The UTF-16 codec a robots.txt is written in, or None: by its byte-order mark, else by
    its ASCII rules' NUL bytes (every odd byte NUL: little-endian, every even one: big-endian)."""
    for mark, codec in UTF16_MARKS:
        if body.startswith(mark):
            return codec
    head = body[:UTF16_SNIFF_BYTES]
    if len(head) < 4 or head.count(0) < len(head) // 2 - 1:
        return None
    if not any(head[1::2]):
        return "utf-16-le"
    if not any(head[0::2]):
        return "utf-16-be"
    return None


#: Bytes no rule holds: the C0 controls but tab, line feed and carriage return, and DEL. Glued
#: to a token (``User-agent: *\\0``) one made its group name no crawler, so its rules applied
#: to none.
CONTROL_BYTES = bytes(b for b in range(32) if b not in b"\t\n\r") + b"\x7f"


def without_control_bytes(body: bytes) -> bytes:
    """A robots.txt without its control bytes (``CONTROL_BYTES``), each read as nothing."""
    return body.translate(None, CONTROL_BYTES)


def sitemap_lines(body: bytes) -> bytes:
    """The ``Sitemap:`` lines of a robots.txt (all its spider reads), one per line."""
    return b"\n".join(line.strip() for line in body.splitlines()
                      if line.lstrip()[:8].lower() == b"sitemap:")


#: Statuses of a robots.txt answer that say "cannot be read now", not "there is none".
UNREADABLE_STATUSES = frozenset({429}) | frozenset(range(500, 600))


@dataclass(frozen=True)
class RobotsConfig:
    """How long and how often the robots.txt of a host is tried, and how much of it is read."""

    timeout: float
    retry_times: int
    max_size: int

    @classmethod
    def from_settings(cls, settings) -> RobotsConfig:  # noqa: ANN001 - Scrapy Settings
        """Read ROBOTSTXT_TIMEOUT (never above DOWNLOAD_TIMEOUT), ROBOTSTXT_RETRY_TIMES and
        ROBOTSTXT_MAX_SIZE (SettingError when it is not a whole number of at least 0)."""
        timeout = settings.getfloat("ROBOTSTXT_TIMEOUT")
        download_timeout = settings.getfloat("DOWNLOAD_TIMEOUT")
        return cls(timeout=min(timeout, download_timeout) if timeout > 0 else download_timeout,
                   retry_times=max(0, settings.getint("ROBOTSTXT_RETRY_TIMES")),
                   max_size=read_number(settings, "ROBOTSTXT_MAX_SIZE", whole=True, minimum=0))


class SafeRobotsTxtMiddleware(RobotsTxtMiddleware):
    """RobotsTxtMiddleware whose failures disallow the host instead of allowing it."""

    def __init__(self, crawler: Crawler) -> None:
        self.config = read_or_refuse(crawler, RobotsConfig.from_settings)
        super().__init__(crawler)
        #: The answer each host's robots.txt gave, with its Sitemap: lines for a body, until a
        #: request marked REUSE_ROBOTS_META takes it.
        self._answers: dict[str, Response] = {}
        #: Hosts whose robots.txt gave no rules to read, with why its Sitemap: lines are not
        #: searched: one that could not be read (the host disallowed whole), one that redirects
        #: without end (no robots.txt: the host allowed whole).
        self._no_sitemaps: dict[str, str] = {}

    async def process_request(self, request: Request,
                              spider: Spider | None = None) -> Response | None:
        """Obey the host's rules; a request for its robots.txt marked ``REUSE_ROBOTS_META`` is
        answered with the copy fetched for those rules, when there is one (once)."""
        await super().process_request(request)
        if not request.meta.get(REUSE_ROBOTS_META):
            return None
        url = urlparse_cached(request)
        if url.path != "/robots.txt":
            return None
        why = self._no_sitemaps.get(url.netloc)
        if why is not None:
            self._stats.inc_value("robotstxt/sitemaps_not_searched")
            raise IgnoreRequest(f"robots.txt of {url.netloc} {why}")
        answer = self._answers.get(url.netloc)
        if answer is None:
            return None
        del self._answers[url.netloc]
        self._stats.inc_value("robotstxt/reused")
        return answer.replace(request=request)

    async def robot_parser(self, request: Request) -> RobotParser | None:
        """The rules of the request's host, fetching its robots.txt once (bounded in time and
        retries); a failure disallows the host, with one ERROR line and no traceback."""
        url = urlparse_cached(request)
        netloc = url.netloc
        if netloc not in self._parsers:
            self._parsers[netloc] = Deferred()
            robots_request = Request(
                f"{url.scheme}://{netloc}/robots.txt", priority=self.DOWNLOAD_PRIORITY,
                # allow_offsite: a robots.txt redirected to another host (http to https, the
                # bare domain to www) is followed there, as RFC 9309 asks; the offsite filter
                # dropped it, and the host was then disallowed whole. The internal-address
                # guard still applies to the redirect.
                meta={"dont_obey_robotstxt": True, "download_timeout": self.config.timeout,
                      "max_retry_times": self.config.retry_times, "allow_offsite": True},
                callback=NO_CALLBACK)
            try:
                response = await self.crawler.engine.download_async(robots_request)
                await self._parse_robots(response, netloc, request)
            except Exception as exc:  # any failure: the host's rules are unknown
                self._robots_error(exc, netloc)
            self._stats.inc_value("robotstxt/request_count")
        parser = self._parsers[netloc]
        if isinstance(parser, Deferred):
            # Read the result from the table: a Deferred awaited as a Future hands its result to
            # the first waiter only (the others get None, which would allow everything).
            await maybe_deferred_to_future(parser)
            parser = self._parsers[netloc]
        return None if isinstance(parser, Deferred) else parser

    async def _parse_robots(self, response: Response, netloc: str, request: Request) -> None:
        """Parse the answer (kept, reduced to its Sitemap: lines, for the spider's request of
        it); a server error, or a body cut short, disallows the host."""
        if response.status in UNREADABLE_STATUSES:
            return self._disallow_all(netloc, f"HTTP {response.status}")
        if "download_stopped" in response.flags or "dataloss" in response.flags:
            return self._disallow_all(netloc, "the body was cut short")
        codec = utf16_codec(response.body)
        if codec is not None:
            text = response.body.decode(codec, errors="replace").lstrip("\ufeff")
            self._stats.inc_value("robotstxt/utf16")
            logger.info("robots.txt of %s is written in UTF-16 (%s): read as such", netloc,
                        codec)
            response = response.replace(body=text.encode("utf-8"))
        readable = without_control_bytes(response.body)
        if len(readable) != len(response.body):
            self._stats.inc_value("robotstxt/control_bytes")
            logger.warning("robots.txt of %s holds %d control bytes (NUL and the like): read "
                           "without them", netloc, len(response.body) - len(readable))
            response = response.replace(body=readable)
        self._answers[netloc] = response.replace(body=sitemap_lines(response.body))
        limit = self.config.max_size
        if limit and len(response.body) > limit:
            kept = response.body[:limit]
            kept = kept[:kept.rfind(b"\n") + 1]  # a rule cut in two is no rule
            self._stats.inc_value("robotstxt/truncated")
            logger.warning("robots.txt of %s is %d bytes: only its first %d (ROBOTSTXT_MAX_SIZE, "
                           "up to the last whole line) are read", netloc, len(response.body),
                           len(kept))
            response = response.replace(body=kept)
        return await super()._parse_robots(response, netloc, request)

    def _robots_error(self, exc: Exception, netloc: str) -> None:
        """A robots.txt that could not be downloaded (timeout, over DOWNLOAD_MAXSIZE, dropped
        connection, refused) disallows the host."""
        if isinstance(exc, EndlessRedirect):
            return self._allow_all(netloc, str(exc))
        if not isinstance(exc, IgnoreRequest):
            self._stats.inc_value(f"robotstxt/exception_count/{type(exc)}")
        self._disallow_all(netloc, str(exc).split("\n", 1)[0][:200] or type(exc).__name__)

    def _allow_all(self, netloc: str, why: str) -> None:
        """Resolve the host's pending parser with no rules: its robots.txt redirects without
        end, so it is unavailable (RFC 9309 2.3.1.2), as a 4xx is (logged once)."""
        self._stats.inc_value("robotstxt/endless_redirect")
        logger.warning("robots.txt of %s redirects without end (%s): taken as no robots.txt, as "
                       "RFC 9309 allows past five redirects; everything on that host may be "
                       "fetched", netloc, why[:200])
        self._no_sitemaps[netloc] = "redirects without end: no Sitemap: lines to search"
        self._resolve(netloc, build_from_crawler(self._parserimpl, self.crawler, b""))

    def _disallow_all(self, netloc: str, why: str) -> None:
        """Resolve the host's pending parser with rules that forbid everything (logged once)."""
        self._stats.inc_value("robotstxt/unreadable")
        logger.error("robots.txt of %s could not be read completely (%s): nothing on that host "
                     "will be fetched, as if it said 'Disallow: /'", netloc, why)
        self._no_sitemaps[netloc] = ("could not be read: its host is disallowed, its Sitemap: "
                                     "lines not searched")
        self._resolve(netloc, build_from_crawler(self._parserimpl, self.crawler, DISALLOW_ALL))

    def _resolve(self, netloc: str, parser: RobotParser) -> None:
        """Make ``parser`` the host's rules, handing them to the requests waiting for them."""
        pending = self._parsers[netloc]
        self._parsers[netloc] = parser
        if isinstance(pending, Deferred):
            pending.callback(parser)
