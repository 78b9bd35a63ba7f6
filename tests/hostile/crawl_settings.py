"""Settings of the crawls of the hostile server, shared by its tests and its benchmark."""

from __future__ import annotations

#: Short timeouts and backoff keep the suite quick; every limit is still really exercised.
FAST = {
    "DOWNLOAD_TIMEOUT": 3,
    "RETRY_TIMES": 2,
    "RETRY_BACKOFF_BASE": 0.2,
    "TRAP_MAX_PATTERN_DEPTH": 10,
    "TRAP_MAX_PER_PATTERN": 15,
    "DOWNLOAD_MAXSIZE": 10 * 1024 * 1024,
    "SITEMAP_MAX_COUNT": 500,
}

#: The crawl of the whole server: 10 MB of ``/huge/chunked`` must arrive within the time limit
#: to be cancelled at DOWNLOAD_MAXSIZE, also while other test files' crawls share the cores, and
#: the never-answering page's three attempts run beside the rest of the crawl.
FULL_CRAWL = {**FAST, "DOWNLOAD_TIMEOUT": 8}

#: Spider arguments of the crawl of the whole server, from its index page.
FULL_CRAWL_ARGS = {"render": "never", "max_depth": 40}
