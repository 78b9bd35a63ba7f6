"""Process exit codes of a crawl, decided by the spider's close reason.

A crawl that did its job exits 0, including one stopped by a limit the user asked for
(``closespider_*``, ``max_pages``). A crawl that could not do its job exits non-zero, with a code
that tells an operator (cron, Scrapyd, a wrapper script) which kind of failure it was.
"""

from __future__ import annotations

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

EXIT_CODES: dict[str, int] = {
    STARTUP_ERROR: 2,
    START_UNREACHABLE: 3,
    START_FAILED: 6,
    STORAGE_ERROR: 4,
    REDIS_UNAVAILABLE: 5,
    PAGES_FAILED: 7,
}

#: Exit code of a crawl that ended for a reason not listed above but not normally either
#: (``shutdown`` after a second Ctrl-C is the operator's choice and exits 0 like Scrapy's).
UNKNOWN_FAILURE = 1


def exit_code_for(close_reason: str | None) -> int:
    """0 for a crawl that finished or hit a requested limit, else the failure's code."""
    if close_reason is None:
        return UNKNOWN_FAILURE
    return EXIT_CODES.get(close_reason, 0)
