"""Default settings of the crawler project.

Components read their own settings once, in ``from_crawler``; values here are defaults that
``-s NAME=value``, ``custom_settings`` or a Scrapyd job can override.
"""

from __future__ import annotations

import os

from crawler import __version__
from crawler.items import FEED_FIELDS

BOT_NAME = "crawler"
SPIDER_MODULES = ["crawler.spiders"]
NEWSPIDER_MODULE = "crawler.spiders"
# `scrapy crawl` exits with a code decided by the close reason (crawler/exit_codes.py).
COMMANDS_MODULE = "crawler.scrapy_commands"

# An honest User-Agent that names the project; override with -s USER_AGENT=...
USER_AGENT = f"crawler-extract/{__version__} (+Scrapy content-extraction crawler)"

ROBOTSTXT_OBEY = True
# A robots.txt that cannot be read completely (timeout, 5xx, over DOWNLOAD_MAXSIZE, cut short)
# disallows its host; its request waits at most this many seconds and is retried this often.
ROBOTSTXT_TIMEOUT = 10.0
ROBOTSTXT_RETRY_TIMES = 1
# Bytes of a robots.txt that are read (0: all). RFC 9309 lets a crawler stop at 500 KiB, as
# Google does: a robots.txt of 200,000 rules (4.5 MB) took 10 s of CPU to parse on the reactor
# thread and 0.15 s to check each request against; at 500 KiB, about a tenth of that.
ROBOTSTXT_MAX_SIZE = 500 * 1024

# Politeness: AutoThrottle adapts the delay to the server's latency.
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0
CONCURRENT_REQUESTS = 16
# Breadth-first: each page is first reached by its shortest path, so the shallow pages come
# first (what max_pages keeps) and same-pattern link chains (the trap rule) stay short.
DEPTH_PRIORITY = 1
SCHEDULER_DISK_QUEUE = "scrapy.squeues.PickleFifoDiskQueue"
SCHEDULER_MEMORY_QUEUE = "scrapy.squeues.FifoMemoryQueue"
CONCURRENT_REQUESTS_PER_DOMAIN = 8
DOWNLOAD_TIMEOUT = 30
RETRY_TIMES = 2

# Bodies larger than this are cancelled (and counted); past the warning size a line is logged.
DOWNLOAD_MAXSIZE = 10 * 1024 * 1024
DOWNLOAD_WARNSIZE = 5 * 1024 * 1024
# Bytes of an answer's status line and header lines; past them it fails, counted, not retried
# (a server sending header lines forever filled memory; chromium stops at 256 KiB, but a page
# setting 100 cookies of 4 kB sends 400 kB of them). 0: no bound.
RESPONSE_HEADERS_MAX_SIZE = 1024 * 1024
DOWNLOAD_HANDLERS = {
    "http": "crawler.http_client.BoundedHeadersDownloadHandler",
    "https": "crawler.http_client.BoundedHeadersDownloadHandler",
}

# One page reached under several URLs (fragments, tracking parameters, query order) is one page.
REQUEST_FINGERPRINTER_CLASS = "crawler.fingerprint.CanonicalRequestFingerprinter"

# Skip non-HTML responses from their headers, before the body is downloaded.
EXTENSIONS = {
    "crawler.extensions.content_type.ContentTypeFilter": 100,
    "crawler.extensions.summary.CrawlSummary": 900,
    # Before the summary: a crawl that lost most of its pages to server failures has failed.
    "crawler.extensions.failed_pages.FailedPagesGuard": 850,
    # Before the summary: marks gone the stored pages a complete crawl did not reach.
    "crawler.extensions.recrawl.GoneSweep": 800,
    "crawler.extensions.resume.ResumeGuard": 0,
    "crawler.extensions.gc_tuning.GarbageCollectionTuning": 950,
    # One row per crawl in the database's `crawls` table: times, close reason, final stats.
    "crawler.extensions.crawl_record.CrawlRecordExtension": 990,
    # The periodic stats line: pages stored, pages/s, queue and errors (extends LogStats).
    "scrapy.extensions.logstats.LogStats": None,
    "crawler.extensions.progress_log.CrawlProgress": 0,
    # Known uninformative third-party warnings kept out of the log (counted), with or without
    # progress lines.
    "crawler.extensions.quiet_log.QuietThirdPartyLog": 0,
    # A feed that cannot be written (full disk) stops the crawl with storage_error, said once.
    "scrapy.extensions.feedexport.FeedExporter": None,
    "crawler.extensions.feed_export.StorageSafeFeedExporter": 0,
}
# Seconds between two progress lines of a crawl (0: none).
LOGSTATS_INTERVAL = 30.0
# A scraped or dropped page is logged as one line with its URL, never as its whole record.
LOG_FORMATTER = "crawler.logformatter.PageLogFormatter"
CONTENT_TYPE_FILTER_ENABLED = True
# Content-Type values kept (anything else is stopped once its headers arrive).
CONTENT_TYPE_FILTER_ALLOWED = ["text/html", "application/xhtml+xml"]
# A crawl restarted on a JOBDIR that a killed run left unclean starts again from its start URLs.
RESUME_GUARD_ENABLED = True
# Once the crawl has started, objects loaded at start-up are frozen (cheaper older collections)
# and the young generation is collected every this many allocations; 0: Python's collector as is.
# Larger values save collector CPU but let responses and trees in reference cycles pile up.
GC_YOUNG_THRESHOLD = 700

# Hostile-web guards (README, "Hostile input"): internal addresses refused, retries with
# backoff and Retry-After, broken/empty/binary bodies counted, charsets checked, spider traps.
DOWNLOADER_MIDDLEWARES = {
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "crawler.middlewares.robots.SafeRobotsTxtMiddleware": 100,
    "scrapy.downloadermiddlewares.cookies.CookiesMiddleware": None,
    "crawler.middlewares.cookies.BoundedCookiesMiddleware": 700,
    "crawler.middlewares.internal_addresses.InternalAddressMiddleware": 40,
    "scrapy.downloadermiddlewares.retry.RetryMiddleware": None,
    "crawler.middlewares.retry.BackoffRetryMiddleware": 550,
    "crawler.middlewares.charset.CharsetMiddleware": 560,
    "crawler.middlewares.body_checks.BodyCheckMiddleware": 570,
    "crawler.middlewares.protocol_errors.ProtocolErrorMiddleware": 575,
    "crawler.middlewares.content_coding.ContentCodingCheckMiddleware": 595,
    "scrapy.downloadermiddlewares.httpcompression.HttpCompressionMiddleware": None,
    "crawler.middlewares.decompression.BoundedDecompressionMiddleware": 590,
    "scrapy.downloadermiddlewares.redirect.RedirectMiddleware": None,
    "crawler.middlewares.redirects.LoopAwareRedirectMiddleware": 600,
    "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware": None,
    "crawler.middlewares.redirects.LoopAwareMetaRefreshMiddleware": 580,
    # Conditional requests and stored stand-ins for unchanged pages; its responses are seen
    # after decompression (590) and before the body checks (570).
    "crawler.middlewares.recrawl.RecrawlMiddleware": 585,
    # A <base href> no URL parser reads, left out before anything reads the page (the meta
    # refresh, 580, the first).
    "crawler.middlewares.base_href.UnreadableBaseMiddleware": 583,
}
SPIDER_MIDDLEWARES = {
    "crawler.middlewares.traps.TrapMiddleware": 750,
}
# Cookies kept per host (count, and bytes of name + value together: servers refuse a Cookie
# header over about 8 kB), and the largest single cookie kept, as browsers bound them.
COOKIES_MAX_PER_HOST = 50
COOKIES_MAX_HOST_BYTES = 8192
COOKIES_MAX_SIZE = 4096
# True lets links and redirects reach loopback/private/link-local/metadata addresses.
ALLOW_INTERNAL_ADDRESSES = False
# Host names resolved to IPv4 and IPv6 addresses (getaddrinfo), as the internal-address guard
# resolves them: Scrapy's default resolver reads IPv4 only, so a start URL http://[::1]:8080/
# failed its robots.txt ("DNS lookup failed") and the host was disallowed whole. Cached as the
# default's is (DNSCACHE_ENABLED); DNS_TIMEOUT does not apply, DOWNLOAD_TIMEOUT bounds a request.
TWISTED_DNS_RESOLVER = "scrapy.resolver.CachingHostnameResolver"
# Each guard can be turned off: empty and binary bodies, charset detection, broken gzip/deflate.
BODY_CHECK_EMPTY = True
BODY_CHECK_BINARY = True
# A 206 Partial Content (the crawl asks for no range) whose Content-Range is not the whole page.
BODY_CHECK_PARTIAL = True
CHARSET_DETECTION = True
CONTENT_CODING_CHECK = True
# A <base href> no URL parser reads (http://[::1) is left out of the page (its links resolve
# against the page's own URL, as browsers resolve them); it made every reading of the page raise.
BASE_HREF_CHECK = True
RETRY_BACKOFF_BASE = 1.0
RETRY_BACKOFF_MAX = 60.0
RETRY_AFTER_MAX = 120.0
# A crawl that ends on its own having lost more than this share of the pages it found to server
# failures (timeouts, dropped connections, HTTP 5xx or 429 after retries) has failed: close
# reason pages_failed, exit code 7. Half: a crawl that lost most of its pages did not do its
# job, while a site with a broken section (a third of it answering 500) is still crawled; a
# healthy site loses a page or two in a hundred. 1 turns the rule off.
FAILED_PAGES_MAX_SHARE = 0.5
TRAP_RULES_ENABLED = True
# Session ids (PHPSESSID=, ;jsessionid=, sid=...) stripped from followed links and stored URLs.
TRAP_STRIP_SESSION_IDS = True
TRAP_MAX_SEGMENT_REPEATS = 3
TRAP_MAX_PATTERN_DEPTH = 30
# Distinct URLs followed per URL shape (host, path with numbers and tokens abstracted, query
# parameter names): whatever a trap invents, the crawl ends. Raise it for a site with more
# numbered pages of one shape (0: no cap).
TRAP_MAX_PER_PATTERN = 10000
# Distinct URLs with a query followed per host and path (numbers and tokens abstracted), whatever
# the parameter names: a trap inventing a new name per link makes a new shape each time, and so
# do a shop's filter combinations. Raise it with TRAP_MAX_PER_PATTERN (0: no cap).
TRAP_MAX_QUERIES_PER_PATH = 10000
# Links followed per page (the first in document order; 0: all). A page of 200,000 links would
# otherwise put 200,000 requests in the scheduler at once.
LINKS_MAX_PER_PAGE = 5000
# Sitemap indexes nested deeper than this (robots.txt and /sitemap.xml are depth 0), and sitemaps
# beyond this many per crawl, are not fetched (0: no bound).
SITEMAP_MAX_DEPTH = 3
SITEMAP_MAX_COUNT = 1000
# The page URLs sitemaps list wait on disk (in JOBDIR under a job directory) and are handed to
# the scheduler as it drains, at most this many alive (queued or downloading) at once: a sitemap
# of 50,000 URLs otherwise puts 50,000 requests in memory at once (0: all as they are read).
SITEMAP_QUEUE_MAX = 1000
# Page URLs one crawl takes from sitemaps in all; those beyond are counted and logged (0: all).
SITEMAP_MAX_URLS = 1_000_000
# Seconds one page's extraction may take before the page is stored without content.
EXTRACTION_TIMEOUT = 30.0
# Pages extracted at once, off the reactor thread, in "process" or "thread" workers. Processes
# use one core each (measured: 1.6x the pages/s of threads on 2 cores, +230 MiB); threads share
# one core through the GIL.
EXTRACTION_WORKERS = 2
EXTRACTION_EXECUTOR = "process"

# Distributed crawl: with -s REDIS_URL=redis://HOST:PORT/DB, workers share one scrapy-redis
# frontier (scheduler queue + dupefilter); without REDIS_URL the add-on does nothing.
ADDONS = {
    "crawler.feeds.DefaultFeed": 0,
    "crawler.distributed.addon.RedisFrontier": 0,
}
REDIS_URL = None
# Redis keys of the shared frontier (%(spider)s is the spider's name): scrapy-redis's defaults.
SCHEDULER_QUEUE_KEY = "%(spider)s:requests"
SCHEDULER_DUPEFILTER_KEY = "%(spider)s:dupefilter"
# Seconds an idle worker waits for the shared frontier to refill before it closes.
REDIS_IDLE_TIMEOUT = 30.0

ITEM_PIPELINES = {
    "crawler.pipelines.extraction.ExtractionPipeline": 300,
    "crawler.pipelines.render_fallback.RenderFallbackPipeline": 350,
    "crawler.pipelines.quality.QualityGatePipeline": 400,
    "crawler.pipelines.storage.SQLitePipeline": 500,
    "crawler.pipelines.dedup.DomainDedupPipeline": 600,
}

# Quality gate (QualityGatePipeline): "flag" keeps every page and sets quality_flagged below
# the minimum score, "drop" drops those pages.
QUALITY_GATE_ENABLED = True
QUALITY_GATE_POLICY = "flag"
QUALITY_GATE_MIN_SCORE = 0.5

# Domain boilerplate (DomainDedupPipeline): when the spider closes, blocks found on at least
# max(MIN_PAGES, THRESHOLD_PCT x pages) of a domain's stored pages are dropped from
# pages.cleaned_content. Ranges: 0.1-1.0, 2-100, 10-500 characters; a bad value stops the crawl.
DOMAIN_DEDUP_ENABLED = True
DOMAIN_DEDUP_THRESHOLD_PCT = 0.7
DOMAIN_DEDUP_MIN_PAGES = 5
DOMAIN_DEDUP_MIN_BLOCK_CHARS = 50
# Compare blocks with IDs, dates and counters replaced; also count the lines of each whole page.
DOMAIN_DEDUP_NORMALISE = True
DOMAIN_DEDUP_WHOLE_PAGE = True
# After a re-crawl, a domain is analysed again only when more than this share (0.0-1.0) of the
# pages of its last analysis are new, changed or gone; below it the stored fingerprint cleans
# the new and changed pages (dedup/store.py refresh_domain says why 5% is safe).
DOMAIN_DEDUP_REANALYSE_PCT = 0.05

# Where to write the final stats as JSON when the crawl ends (empty: nowhere).
CRAWL_STATS_PATH = ""

# The MCP server for agents (`crawler mcp`): databases live under MCP_ROOT (the `crawl` tool
# writes MCP_ROOT/crawls/); a crawl stops at MCP_CRAWL_MAX_PAGES pages and MCP_CRAWL_TIMEOUT
# seconds (it is killed a minute later if it has not closed); `extract` of a URL reads at most
# MCP_FETCH_MAX_BYTES within MCP_FETCH_TIMEOUT seconds. Internal addresses (loopback, private,
# link-local, metadata) are refused except for the hosts in MCP_ALLOWED_HOSTS (`--allow-host`).
MCP_ROOT = "output"
MCP_CRAWL_MAX_PAGES = 500
MCP_CRAWL_TIMEOUT = 600.0
MCP_FETCH_TIMEOUT = 30.0
MCP_FETCH_MAX_BYTES = 10 * 1024 * 1024
MCP_ALLOWED_HOSTS: tuple[str, ...] = ()

# SQLite database of crawled pages (table `pages`, keyed by URL).
SQLITE_PATH = "output/crawl.db"
# A page whose main text is stored already under another URL of its domain is recorded in
# `page_aliases` (alias_of that URL) instead of being stored again. Only pages with the same
# title and at least ALIAS_MIN_WORDS words of main text: the Hugo Book test site has section
# pages whose only text is a three-word edit link, which are different pages, not copies.
ALIAS_DUPLICATE_CONTENT = True
ALIAS_MIN_WORDS = 20
# Re-crawls: previous main texts kept per changed page (table page_versions; 0 keeps none).
RECRAWL_KEEP_VERSIONS = 3

# One JSONL feed per crawl in output/ (added by the DefaultFeed add-on only when no feed is
# configured, so `-o/-O FILE` on the command line replaces it). Empty: no default feed.
DEFAULT_FEED_URI = "output/%(name)s-%(time)s.jsonl"
FEED_EXPORT_FIELDS = FEED_FIELDS
# A feed is written only when it has items: a crawl that stops at start (a bad argument, an
# unreachable start URL) leaves no empty file behind (-o/-O, the default feed, Scrapyd's items).
FEED_STORE_EMPTY = False
FEED_EXPORT_ENCODING = "utf-8"

# Rendering (scrapy-playwright), installed by the spider only when render != never.
# The browser is the first executable of CHROMIUM_PATH (paths or names on PATH, a list or a
# comma-separated string): Debian's chromium-headless-shell (chromium's old headless shell, no
# browser UI: about 40% less CPU per rendered page than chromium, README "Rendering throughput")
# when it is installed, else Debian's chromium. CHROMIUM_PATH or the environment variable
# CRAWLER_CHROMIUM_PATH points elsewhere.
CHROMIUM_PATH = (os.environ.get("CRAWLER_CHROMIUM_PATH")
                 or ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"])
# A rendered page is read once its load event has fired and its DOM has then stayed unchanged for
# RENDER_SETTLE_QUIET_MS (at most RENDER_SETTLE_MAX_MS after load; either 0: no wait after load).
RENDER_WAIT_UNTIL = "load"
RENDER_SETTLE_QUIET_MS = 150
RENDER_SETTLE_MAX_MS = 1500
# A render past RENDER_TIMEOUT_MS (navigation) or RENDER_TIMEOUT_MS + RENDER_SETTLE_MAX_MS (in all)
# has the script holding the shared renderer stopped and is rendered again alone; a page that
# times out alone too fails (README, "Rendering").
RENDER_TIMEOUT_MS = 30000
# While pooled renders are in flight their renderer is asked a trivial script every half second;
# one that gives no answer for RENDER_STALL_MS is held by a busy script: its script is stopped and
# the renders in flight are rendered again alone at once instead of at RENDER_TIMEOUT_MS (0: off).
# Five seconds: no page's own script holds the main thread that long in one go on a busy machine
# without being a loop; a false alarm costs the pages in flight a render alone, not the page.
RENDER_STALL_MS = 5000
# Requests one browser page serves before it is closed and a new one opened (1: a new page for
# every request). Opening a page costs chromium about as much CPU as rendering one (README,
# "Rendering throughput"); replacing pages now and then bounds what they accumulate.
RENDER_PAGE_REUSE = 50
# Requests the pooled pages' browser context serves before it is closed with its pages and a new
# one opened (0: never): the renderer the pages share grows with every page and ends only with
# them, so renewing the context keeps the browser's memory flat over a long crawl (README,
# "Rendering throughput").
RENDER_CONTEXT_REUSE = 100
# Extra options of the browser launch (the executable path is added from CHROMIUM_PATH).
PLAYWRIGHT_LAUNCH_OPTIONS: dict = {}
# Renderer processes chromium may start (0: its own choice, about one per page open): one
# renderer for the pages open at once holds the tree's memory down at no cost in pages/s
# (README, "Rendering").
RENDER_RENDERER_PROCESSES = 1
# render=auto: a page whose extracted content has fewer words than this (or fails the quality
# gate's score) and shows JavaScript signals is fetched again through the browser; 0: never.
RENDER_THIN_WORDS = 100
PLAYWRIGHT_BROWSER_TYPE = "chromium"
PLAYWRIGHT_MAX_CONTEXTS = 1
PLAYWRIGHT_MAX_PAGES_PER_CONTEXT = 4
PLAYWRIGHT_ABORT_REQUEST = "crawler.rendering.should_abort_request"

TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
LOG_LEVEL = "INFO"
