"""Process exit codes of a crawl, decided by the spider's close reason.

A crawl that did its job exits 0, including one stopped by a limit the user asked for
(``closespider_*``, ``max_pages``). A crawl that could not do its job exits non-zero, with a code
that tells an operator (cron, Scrapyd, a wrapper script) which kind of failure it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Close reasons of crawls that stopped because of a problem, and the exit code of each.
#: ``startup_error``: a bad argument or setting refused before the first request.
STARTUP_ERROR = "startup_error"
#: ``start_unreachable``: no start URL answered.
START_UNREACHABLE = "start_unreachable"
#: ``start_failed``: every start URL's server answered, but with an error (an HTTP error status,
#: a broken or refused response), and no page was found any other way (sitemaps).
START_FAILED = "start_failed"
#: ``storage_error``: a page could not be written (disk full, I/O error). A database that cannot
#: be used at all (read-only, another application's file) is refused at open: ``startup_error``.
STORAGE_ERROR = "storage_error"
#: ``redis_unavailable``: the shared frontier of a distributed crawl could not be reached.
REDIS_UNAVAILABLE = "redis_unavailable"
#: ``pages_failed``: the crawl ended on its own, but more than ``FAILED_PAGES_MAX_SHARE`` of the
#: pages it found were lost to server failures (timeouts, dropped connections, 5xx after retries).
PAGES_FAILED = "pages_failed"
#: ``start_timed_out``: not a close reason but what one means: a limit the user gave
#: (``closespider_timeout``, any ``closespider_*``) stopped a crawl in which no start URL had
#: answered yet (no response, no error) and nothing was stored. The crawl did nothing: it
#: fails as a start URL that did not answer does (exit code 3), not as a limit reached (0).
START_TIMED_OUT = "start_timed_out"

#: Stats the spider keeps for :func:`failure_reason`: start requests sent (one per start URL,
#: less those the duplicate filter found to be another one's page), and how many of them
#: were answered (a response, an error, a refusal counted as a failed start).
START_REQUESTS_STAT = "crawl/start_requests"
START_ANSWERED_STAT = "crawl/start_answered"
#: Pages written to the database.
STORED_STAT = "pages/stored"

EXIT_CODES: dict[str, int] = {
    STARTUP_ERROR: 2,
    START_UNREACHABLE: 3,
    START_FAILED: 6,
    STORAGE_ERROR: 4,
    REDIS_UNAVAILABLE: 5,
    PAGES_FAILED: 7,
    START_TIMED_OUT: 3,
}

#: Exit code of a crawl that ended for a reason not listed above but not normally either
#: (``shutdown`` after a second Ctrl-C is the operator's choice and exits 0 like Scrapy's).
UNKNOWN_FAILURE = 1


def failure_reason(close_reason: str | None,
                   stats: Mapping[str, Any] | None = None) -> str | None:
    """The reason that decides how the crawl ended: its close reason, except a user's limit
    (``closespider_*``) reached before any start URL answered (``stats``: the crawl's stats)
    with nothing stored, which is :data:`START_TIMED_OUT`."""
    if close_reason is None or not close_reason.startswith("closespider_") or not stats:
        return close_reason
    if (stats.get(START_REQUESTS_STAT, 0) > 0 and not stats.get(START_ANSWERED_STAT, 0)
            and not stats.get(STORED_STAT, 0)):
        return START_TIMED_OUT
    return close_reason


def exit_code_for(close_reason: str | None, stats: Mapping[str, Any] | None = None) -> int:
    """0 for a crawl that finished or hit a requested limit after it had started, else the
    failure's code (see :func:`failure_reason` for what ``stats`` changes)."""
    reason = failure_reason(close_reason, stats)
    if reason is None:
        return UNKNOWN_FAILURE
    return EXIT_CODES.get(reason, 0)
