"""Crawls of the hostile server: every case ends in a log line and a stat, never a crash, a hang
or a silently lost page, and the rest of the crawl completes."""

from __future__ import annotations

import asyncio
import gzip
import logging
import os
import re
import signal
import sqlite3
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from crawler.exit_codes import exit_code_for
from crawler.extraction import extract
from crawler.decoding import detect, looks_like_latin9
from crawler.middlewares.internal_addresses import is_internal, literal_address, resolve
from crawler.middlewares.robots import utf16_codec, without_control_bytes
from crawler.middlewares.traps import max_segment_repeats, strip_session_ids, url_pattern
from crawler.spiders.domain import DomainCrawlConfig, DomainSpider, SitemapProblem
from crawler.timebound import BoundedRunner, TimeLimitExceeded
from crawler.urls import same_site_other_name
from tests.conftest import REPO_ROOT, CrawlResult, crawl_command, project_settings, run_crawl
from tests.hostile import pages
from tests.hostile.crawl_settings import FAST, FULL_CRAWL, FULL_CRAWL_ARGS
from tests.hostile.heartbeat import settings_with_heartbeat
from tests.hostile.safety import unsafe_parts
from tests.hostile.server import HostileServer

@dataclass(frozen=True)
class Case:
    """One hostile case: the stats it must produce, the log line it must write, what is stored."""

    name: str
    stats: dict[str, int]
    log: str
    stored: tuple[str, ...] = ()
    not_stored: tuple[str, ...] = ()
    extra: dict[str, object] = field(default_factory=dict)


CASES = [
    Case("redirect loop", {"redirect/loop": 2}, "Redirect loop:",
         not_stored=("/redirect/loop/a", "/redirect/loop/b", "/redirect/loop/self")),
    Case("long redirect chain", {"redirect/max_reached": 1}, "Redirect chain too long",
         stored=("/redirect/chain/0",), not_stored=("/redirect/chain/10",)),
    Case("redirect to another host", {"redirect/other_host": 1, "offsite/filtered": 1},
         "Redirect to another host: {base}/redirect/offhost -> http://localhost:",
         not_stored=("/ok/offhost",)),
    Case("directory redirected to its index file", {"redirect/same_page": 3},
         "",
         stored=("/redirect/pretty/", "/redirect/pretty/guide/", "/redirect/pretty/refresh/")),
    Case("infinite calendar", {"trap/pattern_count": 1},
         "Spider trap (pattern_count)"),
    Case("endless pagination", {"trap/pattern_depth": 1}, "/list?page=12: 11 same-pattern links"),
    Case("repeated path segments", {"trap/repeated_segments": 1}, "Spider trap (repeated_segments)",
         stored=("/rep/a/a/a/",), not_stored=("/rep/a/a/a/a/",)),
    Case("ever-longer URL", {"urllength/request_ignored_count": 1}, "Ignoring link (url length"),
    Case("session ids in URLs", {"trap/session_id_stripped": 3},
         "Stripped a session id from a link",
         stored=("/session/item?id=1", "/session/item?id=2", "/session/item?id=3")),
    Case("session id added by a redirect", {}, "",
         stored=("/session/login",)),
    Case("404", {"errors/http_404": 1}, "/status/404: HTTP 404", not_stored=("/status/404",)),
    Case("410", {"errors/http_410": 1}, "/status/410: HTTP 410", not_stored=("/status/410",)),
    Case("500 retried then given up", {"errors/http_500": 1, "retry/max_reached": 1},
         "Gave up retrying <GET {base}/status/500>"),
    Case("429 with Retry-After, then 200", {"retry/retry_after_honoured": 1}, "(Retry-After)",
         stored=("/status/429-retry-after",)),
    Case("429 always", {"errors/http_429": 1}, "/status/429-always: HTTP 429"),
    Case("503 with a Retry-After too long", {"retry/retry_after_too_long": 1, "errors/http_503": 1},
         "> RETRY_AFTER_MAX"),
    Case("503 twice, then 200", {"retry/count": 2}, "/status/503-then-ok: retry 2 of 2 in 0.4 s",
         stored=("/status/503-then-ok",)),
    Case("server never answers, or answers a byte a second (headers, body)",
         {"errors/DownloadTimeoutError": 3}, "/drip/body took longer than 8",
         not_stored=("/hang", "/drip/body", "/drip/headers")),
    Case("connection dropped mid-body: Content-Length, chunked, on a kept-alive connection; "
         "reset mid-body where the close ends the body (a close keeps it)",
         {"errors/ResponseDataLossError": 4, "response/data_loss": 4 * 3 + 1},
         "Gave up retrying <GET {base}/drop/reset> (failed 3 times): the answer was cut short",
         stored=("/drop/close",),
         not_stored=("/drop", "/drop/chunked", "/drop/keep-alive", "/drop/reset")),
    Case("connection dropped mid-body once, then whole", {"response/data_loss": 1},
         "Answer of {base}/drop/then-ok cut short", stored=("/drop/then-ok",)),
    Case("50 MB body (with and without Content-Length)", {"errors/DownloadCancelledError": 2},
         "larger than download max size", not_stored=("/huge", "/huge/chunked")),
    Case("PDF served as text/html", {"response/binary_as_html/pdf": 1}, "Binary body (pdf)",
         not_stored=("/binary/pdf",)),
    Case("PNG served as text/html", {"response/binary_as_html/png": 1}, "Binary body (png)",
         not_stored=("/binary/png",)),
    Case("zip served as text/html", {"response/binary_as_html/zip": 1}, "Binary body (zip)",
         not_stored=("/binary/zip",)),
    Case("broken gzip", {"response/broken_content_encoding": 1}, "Broken gzip body",
         not_stored=("/gzip/broken",)),
    Case("truncated gzip", {"response/truncated_content_encoding": 1}, "Truncated gzip body",
         stored=("/gzip/truncated", "/gzip/ok")),
    Case("empty 200", {"response/empty": 1}, "Empty body:", not_stored=("/empty",)),
    Case("charset declared by neither", {"charset/detected": 4}, "(no charset declared)"),
    Case("charset declared wrongly", {"charset/corrected": 5}, "does not decode the body",
         stored=("/charset/utf-8-as-latin-1",)),
    Case("malformed HTML", {}, "",
         stored=("/malformed/unclosed", "/malformed/tables", "/malformed/long-line",
                 "/malformed/nulls")),
    Case("redirects to internal addresses", {"internal_address/refused/redirect": 3},
         "is an internal address (169.254.169.254)"),
    Case("links to internal addresses", {"links/filtered/offsite": 9}, ""),
    Case("same-page redirect, then a redirect to another host", {"offsite/filtered": 2},
         "", not_stored=("/redirect/escape/localhost/",)),
    Case("a 302 without a Location header", {"errors/http_302": 1},
         "Failed to fetch {base}/redirect/no-location: HTTP 302 without a Location header",
         not_stored=("/redirect/no-location",)),
    Case("redirect to an over-long URL", {"redirect/url_too_long": 1}, "Redirect to a URL of",
         not_stored=("/redirect/long",)),
    Case("meta refresh to an over-long URL", {"redirect/url_too_long": 2},
         "Meta refresh of {base}/refresh/long to a URL of ", stored=("/refresh/long",)),
    Case("meta refresh to javascript: and mailto:", {"redirect/refresh_ignored": 2},
         "Ignored the meta refresh of", stored=("/refresh/javascript", "/refresh/mailto")),
    Case("100,000-character canonical URL", {"canonical/dropped": 1},
         "Ignored the canonical link of", stored=("/canonical/long",)),
    Case("a javascript: canonical URL", {"canonical/dropped": 2},
         "Ignored the canonical link of {base}/canonical/javascript: javascript:",
         stored=("/canonical/javascript",)),
    Case("5xx and 429 with a non-HTML body, then 200", {"retry/count": 5}, "",
         stored=("/status/503-text-then-ok", "/status/500-json-then-ok",
                 "/status/429-empty-then-ok")),
    Case("broken brotli", {"response/broken_content_encoding": 2}, "Broken br body",
         stored=("/brotli/ok",), not_stored=("/brotli/broken",)),
    Case("100 cookies of 4 kB and one of 8 kB on every page",
         {"cookies/dropped/too_many": 1, "cookies/dropped/too_large": 1}, "Cookie from",
         stored=("/cookies/4",)),
    Case("page forbidden by robots.txt", {"robotstxt/forbidden": 1}, "",
         not_stored=("/private/page",)),
    Case("session ids under names no list knows (s=, token=, sessionkey=)",
         {"trap/volatile_param_learnt": 1, "duplicates/alias": 1}, "change on every link to the same page"),
    Case("query growing by one parameter per link", {"trap/growing_url": 1},
         "Spider trap (growing_url)", stored=("/qgrow",)),
    Case("path growing by one segment per link", {"trap/growing_url": 1}, "",
         stored=("/pgrow/",)),
    Case("case-insensitive server", {"duplicates/alias": 1}, "recorded as its alias",
         stored=("/ci/page",)),
    Case("sitemap indexes nested forever", {"sitemaps/depth_limited": 1},
         "> SITEMAP_MAX_DEPTH 3"),
    Case("redirects to file:, ftp:, data:, javascript:, http://[::1, a port out of range",
         {"redirect/invalid_target": 6}, "Redirect from {base}/redirect/nowhere/file to "
         "'file:///etc/passwd', which is no http(s) URL",
         not_stored=tuple(f"/redirect/nowhere/{kind}" for kind in ("file", "bracket", "port"))),
    Case("meta refresh to an unreadable URL", {"redirect/refresh_ignored": 3},
         "Ignored the meta refresh of {base}/refresh/unreadable", stored=("/refresh/unreadable",)),
    Case("a page whose meta refresh names its own URL (every minute, at once)",
         {"redirect/refresh_self": 2}, "{base}/refresh/self refreshes to itself",
         stored=("/refresh/self", "/refresh/self-now", "/redirect/pretty/refresh/")),
    Case("206 Partial Content to a request for the whole page", {"response/partial_content": 1},
         "Partial body: {base}/status/206 answered 206 Partial Content",
         stored=("/status/206-whole",), not_stored=("/status/206",)),
    Case("304 Not Modified to a request without validators", {"errors/http_304": 1},
         "Failed to fetch {base}/status/304: HTTP 304 Not Modified to a request for the whole "
         "page", not_stored=("/status/304",)),
    Case("an HTTP Refresh header to a page nothing links", {"redirect/refresh_header": 1},
         "{base}/refresh/header has an HTTP Refresh header to {base}/ok/refresh-header-target",
         stored=("/ok/refresh-header-target",), not_stored=("/refresh/header",)),
    Case("two pages refreshing to each other", {"redirect/refresh_loop": 1},
         "Meta refresh loop: {base}/refresh/loop-"),
    Case("a <base href> no URL parser reads", {"links/base_unreadable": 1},
         "{base}/malformed/unreadable-base has a <base href> no URL parser reads",
         stored=("/malformed/unreadable-base", "/ok/base-target")),
]


@pytest.fixture(scope="module")
def hostile_server():
    """The hostile server, for the crawls of this module."""
    server = HostileServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def full_crawl(hostile_server, tmp_path_factory) -> CrawlResult:
    """One crawl from the index page, which links every case."""
    before = len(hostile_server.hits())
    result = run_crawl(hostile_server.base + "/", tmp_path_factory.mktemp("hostile"), timeout=180,
                       spider_args=FULL_CRAWL_ARGS, settings=FULL_CRAWL)
    assert result.returncode == 0, result.log[-3000:]
    # the requests of this crawl (the module's other tests crawl the same server)
    result.extra["hits"] = hostile_server.hits()[before:]
    return result


def stored_paths(result: CrawlResult, server: HostileServer) -> list[str]:
    """Paths of the stored rows (all rows are on the server's own host)."""
    return [r["url"].removeprefix(server.base) for r in result.rows("url")]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_is_counted_logged_and_stored_as_expected(case: Case, full_crawl: CrawlResult,
                                                       hostile_server: HostileServer) -> None:
    for key, minimum in case.stats.items():
        assert full_crawl.stats.get(key, 0) >= minimum, f"{key}: {full_crawl.stats.get(key)}"
    if case.log:
        assert case.log.format(base=hostile_server.base) in full_crawl.log
    paths = set(stored_paths(full_crawl, hostile_server))
    assert set(case.stored) <= paths, set(case.stored) - paths
    assert not set(case.not_stored) & paths


def test_the_rest_of_the_crawl_completes(full_crawl: CrawlResult, hostile_server) -> None:
    paths = stored_paths(full_crawl, hostile_server)
    assert {"/", "/ok/1", "/ok/2", "/ok/3", "/ok/4", "/ok/5"} <= set(paths)
    assert full_crawl.stats["finish_reason"] == "finished"
    assert "Traceback" not in full_crawl.log
    assert "errors/extraction" not in full_crawl.stats
    assert len(paths) == len(set(paths)), "a page was stored twice"
    assert full_crawl.stats["summary/pages_stored"] == len(paths)


def test_traps_are_bounded(full_crawl: CrawlResult, hostile_server) -> None:
    paths = stored_paths(full_crawl, hostile_server)
    calendar = [p for p in paths if p.startswith("/cal/")]
    listing = [p for p in paths if p.startswith("/list")]
    # At most TRAP_MAX_PER_PATTERN months, at most TRAP_MAX_PATTERN_DEPTH (+1) in a row.
    assert 10 <= len(calendar) <= FAST["TRAP_MAX_PER_PATTERN"]
    assert 10 <= len(listing) <= FAST["TRAP_MAX_PATTERN_DEPTH"] + 2
    assert all(len(hostile_server.base + p) <= 2083 for p in paths)
    assert not any(re.search(r"sessid|sessionid|[?&;]sid=", p, re.I) for p in paths)
    fetched_items = [h.path for h in hostile_server.hits("/session/item")]
    assert len(fetched_items) == 3, fetched_items  # once per item, whatever the session id


def aliases(result: CrawlResult) -> dict[str, str]:
    """``page_aliases`` of a crawl: duplicate URL -> the stored URL it repeats."""
    conn = sqlite3.connect(result.db_path)
    try:
        return dict(conn.execute("SELECT url, alias_of FROM page_aliases"))
    finally:
        conn.close()


@pytest.mark.parametrize(("prefix", "stored", "max_fetches"), [
    # 3 items, however many tokens the server invents (requests queued before the tokens are
    # learnt are still fetched, up to TRAP_MAX_PER_PATTERN per item)
    ("/tsession/item", 3, 3 * FAST["TRAP_MAX_PER_PATTERN"] + 3),
    ("/qgrow", 1, 25),           # one page, caught some links into the growth (not 2083 chars)
    ("/pgrow/", 1, 25),
    ("/ci/", 1, 16),             # 16 letter-case spellings of "page" at most
])
def test_same_content_under_many_urls_is_stored_once(prefix: str, stored: int, max_fetches: int,
                                                     full_crawl, hostile_server) -> None:
    rows = [u for u in stored_paths(full_crawl, hostile_server) if u.startswith(prefix)]
    assert len(rows) == stored, rows
    fetched = hostile_server.hits(prefix)
    assert len(fetched) <= max_fetches, [h.path for h in fetched]
    duplicates = {u: first for u, first in aliases(full_crawl).items()
                  if u.startswith(hostile_server.base + prefix)}
    assert duplicates, "the duplicates are recorded"
    assert set(duplicates.values()) <= {hostile_server.base + r for r in rows}
    assert len(rows) + len(duplicates) <= len(fetched)


def test_retry_after_is_waited_out(full_crawl, hostile_server) -> None:
    hits = hostile_server.hits("/status/429-retry-after")
    assert len(hits) == 2
    assert hits[1].at - hits[0].at >= 1.0  # Retry-After: 1
    never = hostile_server.hits("/status/503-retry-after-long")
    assert len(never) == 1  # an hour's wait is not held: given up at once
    backoff = hostile_server.hits("/status/503-then-ok")
    assert len(backoff) == 3
    assert backoff[1].at - backoff[0].at >= FAST["RETRY_BACKOFF_BASE"]
    assert backoff[2].at - backoff[1].at >= 2 * FAST["RETRY_BACKOFF_BASE"]


@pytest.mark.parametrize("charset", sorted(pages.CHARSET_TEXTS))
@pytest.mark.parametrize("mode", pages.CHARSET_MODES)
def test_stored_text_is_right_in_every_charset(charset: str, mode: str, full_crawl,
                                               hostile_server) -> None:
    url = f"{hostile_server.base}/charset/{charset}/{mode}"
    rows = [r for r in full_crawl.rows("url, content_text") if r["url"] == url]
    assert rows, f"{url} not stored"
    for marker in pages.CHARSET_MARKERS[charset]:
        assert marker in rows[0]["content_text"]


@pytest.mark.parametrize("case", pages.CONFLICTING_CHARSET_CASES)
def test_conflicting_declarations_the_bytes_decide(case: str, full_crawl, hostile_server) -> None:
    url = f"{hostile_server.base}/charset/conflict/{case}"
    rows = [r for r in full_crawl.rows("url, content_text") if r["url"] == url]
    assert rows, f"{url} not stored"
    _, _, charset = pages.conflicting_charset_page(case)
    for marker in pages.CHARSET_MARKERS[charset]:
        assert marker in rows[0]["content_text"]
    assert "sample" in rows[0]["content_text"]


def test_which_declaration_won_is_counted(full_crawl) -> None:
    # The bytes beat the declarations on the three conflicts and on every wrong declaration.
    assert full_crawl.stats["charset/won/bytes"] >= 3 + 5


def test_utf8_declared_as_latin1_is_stored_right(full_crawl, hostile_server) -> None:
    url = f"{hostile_server.base}/charset/utf-8-as-latin-1"
    text = next(r["content_text"] for r in full_crawl.rows("url, content_text") if r["url"] == url)
    assert all(marker in text for marker in pages.CHARSET_MARKERS["cp1252"])


@pytest.mark.parametrize(("path", "kept", "author"), [
    ("/malformed/unreadable-urls", "Text around unreadable links.", "Ada Lovelace"),
    ("/malformed/json-ld-surrogates", "Text beside hostile JSON-LD.", "Ada \ufffd Lovelace"),
    ("/malformed/json-ld-deep", "Text beside hostile JSON-LD.", None),
])
def test_unreadable_urls_and_hostile_json_ld_keep_the_page(path: str, kept: str,
                                                           author: str | None, full_crawl,
                                                           hostile_server) -> None:
    """A link that is no URL (``http://[::1``) or JSON-LD no encoder can write (lone
    surrogates) or the decoder can read (nested 100,000 deep) costs the page nothing: it is
    stored with its content, its metadata and the good JSON-LD beside the bad."""
    rows = {r["url"]: r for r in full_crawl.rows("url, content_text, extraction_error, author, "
                                                  "published, canonical_url")}
    row = rows[hostile_server.base + path]
    assert kept in row["content_text"]
    assert row["extraction_error"] is None
    assert row["author"] == author
    if path.startswith("/malformed/json-ld"):
        assert row["published"].startswith("2026-03-04")
    else:
        assert row["canonical_url"] is None


@pytest.mark.parametrize(("maker", "author", "published"), [
    (pages.unreadable_urls_page, "Ada Lovelace", None),
    (lambda: pages.json_ld_page("surrogates"), "Ada \ufffd Lovelace", "2026-03-04"),
    (lambda: pages.json_ld_page("deep"), None, "2026-03-04"),
])
def test_hostile_urls_and_json_ld_extract_with_metadata(maker, author, published) -> None:
    result = extract(maker(), "http://127.0.0.1:1/page", trace=True)
    assert "Text " in result.content_text
    assert (result.author, result.published and result.published[:10]) == (author, published)
    assert not [step for step in result.trace or [] if step.get("error")]
    for value in vars(result).values():  # nothing an encoder cannot write
        str(value).encode("utf-8")


@pytest.fixture(scope="module")
def heavy_crawl(hostile_server, tmp_path_factory) -> CrawlResult:
    """A crawl of the pages that are slow to parse (one element with 150,000 attributes, an
    article around a 10,000-deep block), with a download timeout a busy machine can meet."""
    result = run_crawl(f"{hostile_server.base}/group/heavy", tmp_path_factory.mktemp("heavy"),
                       spider_args={"render": "never", "sitemaps": "false"},
                       settings={**FAST, "DOWNLOAD_TIMEOUT": 30})
    assert result.returncode == 0, result.log[-3000:]
    return result


@pytest.mark.parametrize(("path", "kept"), [
    ("/malformed/attributes", "Text after the attributes."),
    ("/malformed/deep", "Text after the deep block."),
    ("/malformed/deep", "Text before the deep block."),
    ("/ok/after-attributes", "Control page after-attributes."),  # its links were followed
])
def test_text_around_pathological_markup_is_kept(path: str, kept: str, heavy_crawl,
                                                 hostile_server) -> None:
    rows = {r["url"]: r for r in heavy_crawl.rows("url, content_text")}
    assert kept in rows[hostile_server.base + path]["content_text"]
    assert heavy_crawl.stats["response/attributes_cut"] == 1
    assert "with more than 1000 attributes" in heavy_crawl.log
    assert "Traceback" not in heavy_crawl.log


def test_a_trap_inventing_parameter_names_ends_by_its_own_limit(hostile_server,
                                                                tmp_path) -> None:
    """Each link a new parameter name: a new URL shape and pattern every time, bounded by the
    count of URLs with a query per path (the page budget is only a safety net)."""
    result = run_crawl(f"{hostile_server.base}/qnames", tmp_path, spider_args={
        "render": "never"}, settings={**FAST, "TRAP_MAX_QUERIES_PER_PATH": 15,
                                      "CLOSESPIDER_PAGECOUNT": 200})
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats["finish_reason"] == "finished"
    assert result.stats["trap/query_count"] >= 1
    assert "Spider trap (query_count): not following " in result.log
    assert "URLs with a query under 127.0.0.1:" in result.log
    fetched = [h.path for h in hostile_server.hits("/qnames")]
    assert "/qnames" in fetched  # the start page stays, and 15 of the pages it leads to
    assert len([p for p in fetched if "?" in p]) == 15


def test_links_per_page_are_capped(hostile_server, tmp_path) -> None:
    result = run_crawl(f"{hostile_server.base}/many/links/3000", tmp_path,
                       spider_args={"render": "never", "sitemaps": "false"},
                       settings={**FAST, "LINKS_MAX_PER_PAGE": 40, "DOWNLOAD_TIMEOUT": 30,
                                 "TRAP_MAX_PER_PATTERN": 0})
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats["links/capped_pages"] == 1
    assert "only the first 40 are followed" in result.log
    items = {u.removeprefix(hostile_server.base) for u in (r["url"] for r in result.rows("url"))}
    assert items == {"/many/links/3000"} | {f"/many/t/{i}" for i in range(40)}


def test_a_page_of_200000_links_does_not_block_the_reactor(hostile_server, tmp_path) -> None:
    """The page is read for links off the reactor thread, and the read stops at
    LINKS_MAX_PER_PAGE: the reactor thread never works long in one go (CPU time between two
    heartbeats, which a loaded machine does not inflate), and the linked pages are stored."""
    result = run_crawl(f"{hostile_server.base}/many/links/200000", tmp_path,
                       spider_args={"render": "never", "sitemaps": "false"},
                       settings={**FAST, "LINKS_MAX_PER_PAGE": 20, "DOWNLOAD_TIMEOUT": 30,
                                 "EXTRACTION_TIMEOUT": 5, "TRAP_MAX_PER_PATTERN": 0,
                                 "DOMAIN_DEDUP_ENABLED": "false", **settings_with_heartbeat()})
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats["links/capped_pages"] == 1
    # Reading the whole page on the reactor thread took 0.86 s of its CPU in one go (0.07 s
    # now, both on a loaded 2-core machine).
    assert result.stats["heartbeat/max_busy_seconds"] < 0.3, result.stats
    items = {u.removeprefix(hostile_server.base) for u in (r["url"] for r in result.rows("url"))}
    assert items == {"/many/links/200000"} | {f"/many/t/{i}" for i in range(20)}
    assert "Traceback" not in result.log


@pytest.fixture(scope="module")
def sitemap_server():
    """A hostile server whose robots.txt lists one sitemap of 40 small pages."""
    server = HostileServer().start()
    server.sitemap_paths = ["/many/sitemap/40.xml"]
    yield server
    server.stop()


@pytest.mark.parametrize(("settings", "spider_args", "stored", "stats", "log"), [
    # Every URL requested, never more than 5 alive at once; the rest waited on disk.
    ({"SITEMAP_QUEUE_MAX": 5}, {}, 40,
     {"sitemaps/urls": 40, "sitemaps/urls_read": 40, "sitemaps/queue_limited": 1},
     "they are requested 5 at a time (SITEMAP_QUEUE_MAX), the others wait on disk"),
    # Past SITEMAP_MAX_URLS: the first are requested, the others counted and logged.
    ({"SITEMAP_QUEUE_MAX": 5, "SITEMAP_MAX_URLS": 12}, {}, 12,
     {"sitemaps/urls": 12, "sitemaps/urls_read": 12, "sitemaps/urls_dropped": 28},
     "28 URL(s) not requested: the crawl has taken SITEMAP_MAX_URLS (12)"),
    # A crawl that stops early counts the URLs it never requested.
    ({"SITEMAP_QUEUE_MAX": 5}, {"max_pages": 8}, None,
     {"sitemaps/urls_read": 40},
     "read from sitemaps were not requested (the crawl stopped: max_pages)"),
])
def test_sitemap_urls_are_queued_a_batch_at_a_time(settings, spider_args, stored, stats, log,
                                                   sitemap_server, tmp_path) -> None:
    result = run_crawl(f"{sitemap_server.base}/ok/1", tmp_path,
                       spider_args={"render": "never", "follow_links": "false", **spider_args},
                       settings={**FAST, **settings})
    assert result.returncode == 0, result.log[-3000:]
    for name, value in stats.items():
        assert result.stats.get(name) == value, (name, result.stats)
    assert result.stats["sitemaps/requests_alive_max"] <= settings["SITEMAP_QUEUE_MAX"]
    assert log in result.log
    paths = [u.removeprefix(sitemap_server.base) for u in (r["url"] for r in result.rows("url"))]
    if stored is not None:
        assert sorted(paths) == sorted(["/ok/1", *(f"/many/t/{i}" for i in range(stored))])
    else:  # stopped early: what was not requested is counted, nothing is lost unsaid
        assert len(paths) == 8 and "/ok/1" in paths
        assert result.stats["sitemaps/urls"] + result.stats["sitemaps/urls_not_requested"] == 40
    assert "Traceback" not in result.log
    # Each request says where its URL was found, as a followed link does: a sitemap page
    # request its sitemap, the sitemap robots.txt.
    base = sitemap_server.base
    assert {h.referer for h in sitemap_server.hits("/many/t/")} == {f"{base}/many/sitemap/40.xml"}
    assert {h.referer for h in sitemap_server.hits("/many/sitemap/")} == {f"{base}/robots.txt"}


def test_one_of_two_pages_refreshing_to_each_other_is_stored(full_crawl, hostile_server) -> None:
    paths = set(stored_paths(full_crawl, hostile_server))
    assert len(paths & {"/refresh/loop-a", "/refresh/loop-b"}) == 1


@pytest.fixture(scope="module")
def hostile_sitemaps_crawl(tmp_path_factory) -> tuple[CrawlResult, HostileServer]:
    """A crawl of the sitemaps that hurt their parser (entities, broken XML), and sitemaps on
    another host (listed by an index and by robots.txt) and on the start host's other port
    (robots.txt; nothing listens there), and nothing else."""
    server = HostileServer().start()
    server.sitemap_paths = ["/sitemaps/entities.xml", "/sitemaps/broken.xml",
                            "/sitemaps/elsewhere.xml",
                            f"http://localhost:{server.port}/sitemaps/there.xml",
                            "http://127.0.0.1:1/sitemaps/port.xml"]
    try:
        result = run_crawl(f"{server.base}/ok/1", tmp_path_factory.mktemp("sitemaps"),
                           spider_args={"render": "never", "follow_links": "false"},
                           settings=FAST)
    finally:
        server.stop()
    assert result.returncode == 0, result.log[-3000:]
    return result, server


def test_sitemap_entities_are_never_expanded_and_cost_no_url(hostile_sitemaps_crawl) -> None:
    result, server = hostile_sitemaps_crawl
    paths = set(stored_paths(result, server))
    assert {"/ok/1", "/ok/after-entities", "/ok/before-break"} <= paths
    assert result.stats["sitemaps/doctype_removed"] == 1
    assert "declares a document type (entities); it was removed" in result.log
    assert not [h.path for h in server.hits() if "lol" in h.path or "root:" in h.path]
    assert "Traceback" not in result.log


def test_sitemap_entries_after_broken_xml_are_counted(hostile_sitemaps_crawl) -> None:
    result, server = hostile_sitemaps_crawl
    assert result.stats["sitemaps/entries_unreadable"] == 2
    assert "/broken.xml: 2 of its <loc> entries could not be read (broken XML)" in result.log
    assert "/ok/before-break" in set(stored_paths(result, server))


def test_sitemaps_on_other_hosts_are_counted_not_fetched(hostile_sitemaps_crawl) -> None:
    """An index and robots.txt listing a sitemap on another host (this server under the name
    localhost): neither is fetched, each is counted, the first said in one line (before, the
    index's was dropped without a word); the index's sitemap on the crawl's host is read."""
    result, server = hostile_sitemaps_crawl
    assert result.stats["sitemaps/out_of_scope"] == 3
    assert (f"Sitemap http://localhost:{server.port}/sitemaps/there.xml not fetched: its host is "
            "outside the crawl's scope") in result.log
    assert not [h for h in server.hits() if h.host.startswith("localhost")]
    assert "/ok/from-here" in set(stored_paths(result, server))


def test_sitemaps_on_the_start_host_on_another_port_are_counted_not_fetched(
        hostile_sitemaps_crawl) -> None:
    """A robots.txt listing a sitemap on the start host's other port: another site, as a link
    or a redirect there is, so counted with the other hosts' sitemaps and never requested
    (before, the offsite filter, which reads host names only, let it through: refused,
    retried, an ERROR line); the sitemaps on the start URL's own port are still read."""
    result, server = hostile_sitemaps_crawl
    assert result.stats["sitemaps/out_of_scope"] == 3
    assert not [line for line in result.log.splitlines()
                if "127.0.0.1:1/" in line and "not fetched" not in line]
    assert not result.stats.get("log_count/ERROR")
    assert {"/ok/after-entities", "/ok/from-here"} <= set(stored_paths(result, server))


def crawl_group(name: str, workdir: Path,
                sitemap_paths: tuple[str, ...] = ()) -> tuple[CrawlResult, HostileServer]:
    """A crawl of one group of cases (``/group/<name>``) on a server of its own."""
    server = HostileServer().start()
    if sitemap_paths:
        server.sitemap_paths = list(sitemap_paths)
    try:
        result = run_crawl(f"{server.base}/group/{name}", workdir,
                           spider_args={"render": "never"}, settings=FAST)
    finally:
        server.stop()
    assert result.returncode == 0, result.log[-3000:]
    return result, server


def check_group_case(case: Case, result: CrawlResult, server: HostileServer, name: str) -> None:
    """The case's exact stats, its log line, what is stored (with the group's entry page and
    its control page) and what is not, and no traceback."""
    for key, expected in case.stats.items():
        assert result.stats.get(key, 0) == expected, (key, result.stats.get(key))
    assert case.log.format(base=server.base) in result.log
    paths = set(stored_paths(result, server))
    assert set(case.stored) | {f"/group/{name}", "/ok/1"} <= paths
    assert not set(case.not_stored) & paths
    assert "Traceback" not in result.log


@pytest.fixture(scope="module")
def codings_crawl(tmp_path_factory) -> tuple[CrawlResult, HostileServer]:
    """A crawl of the content codings beyond one gzip, the answers that are no HTTP, the page
    of huge metadata, and a gzipped sitemap that decompresses past DOWNLOAD_MAXSIZE."""
    return crawl_group("codings", tmp_path_factory.mktemp("codings"),
                       sitemap_paths=("/sitemaps/bomb.xml.gz",))


CODING_CASES = [
    Case("broken zstd, broken deflate, gzip inside gzip whose inner gzip is broken",
         {"response/broken_content_encoding": 3}, "Broken zstd body: {base}/coding/zstd-broken",
         stored=("/coding/zstd-ok", "/coding/gzip-gzip"),
         not_stored=("/coding/zstd-broken", "/coding/deflate-broken", "/coding/gzip-gzip-broken")),
    Case("50 MB of HTML gzipped to 230 kB", {"response/decompressed_too_large": 1},
         "Compressed body too large: {base}/coding/bomb (228736 bytes of gzip decode to more "
         "than DOWNLOAD_MAXSIZE", not_stored=("/coding/bomb",)),
    Case("a status line that is no HTTP status line, a NUL in a header name, two "
         "Content-Length headers that disagree, a chunk size that is no number, a "
         "Transfer-Encoding: gzip, over plain HTML and over a gzipped page in chunks",
         {"response/not_http": 7},
         "Not an HTTP answer from {base}/bad-answer/garbage (non-integer status code: "
         "b'HELLO THERE'); not retried",
         not_stored=tuple(f"/bad-answer/{kind}" for kind in ("garbage", "code", "nul-header",
                                                             "two-lengths", "bad-chunk",
                                                             "transfer-gzip",
                                                             "te-gzip-chunked"))),
    Case("a Transfer-Encoding the crawl never asks for", {},
         "Not an HTTP answer from {base}/bad-answer/transfer-gzip (a Transfer-Encoding other "
         "than chunked, which the crawl never asks for and does not decode: b'gzip'); not "
         "retried"),
    Case("a gzipped page in chunks under Transfer-Encoding: gzip, chunked", {},
         "Not an HTTP answer from {base}/bad-answer/te-gzip-chunked (a Transfer-Encoding "
         "other than chunked, which the crawl never asks for and does not decode: b'gzip, "
         "chunked'); not retried"),
    Case("a chunk size that is no number", {},
         "Not an HTTP answer from {base}/bad-answer/bad-chunk (a malformed chunked body: "
         "'Chunk-size must be an integer.'); not retried"),
    Case("a coding no client knows (x-snappy) over a page and over binary bytes; identity",
         {"response/unknown_content_encoding": 2, "response/binary_as_html/binary": 1},
         "WARNING: Content-Encoding 'x-snappy' of {base}/coding/unknown-text is no coding the "
         "crawl can decode: the body is read as it came",
         stored=("/coding/unknown-text", "/coding/identity", "/coding/gzip-identity"),
         not_stored=("/coding/unknown-binary",)),
    Case("a body longer than its Content-Length (twice as long)", {"response/excess_body": 1},
         "WARNING: Body longer than its Content-Length: {base}/bad-answer/long-body (HTTP 200) "
         "sent more bytes than the ", stored=("/bad-answer/long-body",)),
    Case("7 MB of article text, past the size the extraction parses",
         {"extraction/html_cut": 1},
         "WARNING: Page {base}/malformed/huge-text too large to extract whole (",
         stored=("/malformed/huge-text",)),
    Case("header lines sent forever", {"response/headers_too_large": 1},
         "Answer of {base}/bad-answer/endless-headers not read: its header section larger than "
         "RESPONSE_HEADERS_MAX_SIZE (1048576 bytes) (the last line read began b'X-Header-",
         not_stored=("/bad-answer/endless-headers",)),
    Case("a gzipped sitemap that decompresses past DOWNLOAD_MAXSIZE", {"sitemaps/too_large": 1},
         "WARNING: Ignored {base}/sitemaps/bomb.xml.gz: a gzipped sitemap of ",
         not_stored=("/ok/bomb",)),
    Case("1 MB title, 100 kB author, description, site name and JSON-LD values",
         {"extraction/metadata_cut": 1, "extraction/metadata_cut/title": 1,
          "extraction/metadata_cut/authors": 1},
         "Metadata of {base}/metadata/huge too long, cut (2000 characters, 20000 for a "
         "description, 50 authors): title, author, site_name, description, authors",
         stored=("/metadata/huge",)),
]


@pytest.fixture(scope="module")
def quirks_crawl(tmp_path_factory) -> tuple[CrawlResult, HostileServer]:
    """A crawl of the answers browsers read in spite of an oddity."""
    return crawl_group("quirks", tmp_path_factory.mktemp("quirks"))


QUIRK_CASES = [
    Case("a page followed by 200 kB of NUL bytes; a PDF so padded, NULs through a page",
         {"response/nul_padding": 1, "response/binary_as_html/pdf": 1,
          "response/binary_as_html/binary": 1},
         "NUL padding: {base}/quirks/nul-padded (HTTP 200) ends in 200000 NUL and white-space "
         "bytes after its page", stored=("/quirks/nul-padded",),
         not_stored=("/quirks/nul-padded-pdf", "/quirks/nul-spread")),
    Case("a redirect whose Location holds raw Latin-1 bytes", {}, "",
         stored=("/ok/caf%E9?q=%E9",), not_stored=("/ok/caf%E9?q=%EF%BF%BD",)),
    Case("a meta refresh written URL = \"/x\" (spaces around =, quotes)",
         {"redirect/refresh_spaced": 1},
         "{base}/quirks/refresh-spaced has a meta refresh to {base}/ok/refresh-spaced-target "
         "written as browsers still read it",
         stored=("/ok/refresh-spaced-target",), not_stored=("/quirks/refresh-spaced",)),
    Case("a meta refresh to a port out of range: the log line names the URL",
         {"redirect/refresh_ignored": 1},
         "Ignored the meta refresh of {base}/quirks/refresh-bad-port to "
         "http://127.0.0.1:99999/ok/bad-port: not an http(s) URL (Port out of range 0-65535); "
         "the page is kept", stored=("/quirks/refresh-bad-port",)),
]


@pytest.mark.parametrize("case", QUIRK_CASES, ids=[c.name for c in QUIRK_CASES])
def test_quirk_case_is_read_as_browsers_read_it(case: Case, quirks_crawl) -> None:
    check_group_case(case, *quirks_crawl, "quirks")


def test_nul_padding_is_cut_from_the_stored_page(quirks_crawl) -> None:
    result, server = quirks_crawl
    row = next(r for r in result.rows() if r["url"] == f"{server.base}/quirks/nul-padded")
    assert "A page its server pads with NUL bytes." in row["content_text"]
    assert "\x00" not in row["content_text"]


@pytest.mark.parametrize("case", CODING_CASES, ids=[c.name for c in CODING_CASES])
def test_coding_case_is_counted_logged_and_stored_as_expected(case: Case,
                                                              codings_crawl) -> None:
    result, _ = codings_crawl
    check_group_case(case, *codings_crawl, "codings")
    assert "Failure" not in result.log
    # each is named, none a generic error (but the cut answer, a dropped connection)
    assert {k for k in result.stats if k.startswith("errors/")} <= {"errors/DownloadFailedError"}


@pytest.mark.parametrize("kind", ["garbage", "code", "nul-header", "two-lengths", "bad-chunk",
                                  "transfer-gzip", "te-gzip-chunked"])
def test_an_answer_that_is_no_http_is_not_retried(kind: str, codings_crawl) -> None:
    result, server = codings_crawl
    assert len(server.hits(f"/bad-answer/{kind}")) == 1
    assert f"Not an HTTP answer from {server.base}/bad-answer/{kind} (" in result.log


def test_identity_is_no_coding_and_an_unknown_one_is_said_once(codings_crawl) -> None:
    """``identity`` is no coding: Scrapy warned it could not decode it (a line per page); an
    unknown coding got that warning and no stat. Now each unknown one has our line alone."""
    result, server = codings_crawl
    assert "from unsupported encoding(s)" not in result.log
    assert result.log.count("is no coding the crawl can decode") == 2
    assert f"{server.base}/coding/identity is no coding" not in result.log


def test_header_lines_sent_forever_are_read_once_and_bounded(codings_crawl) -> None:
    """Header lines as fast as the client reads them: before, memory grew until DOWNLOAD_TIMEOUT
    (half a gigabyte in 3 s), which failed the answer and retried it twice. Now the answer is
    given up past RESPONSE_HEADERS_MAX_SIZE, once; the rest of the crawl is stored."""
    result, server = codings_crawl
    assert len(server.hits("/bad-answer/endless-headers")) == 1
    assert "errors/DownloadTimeoutError" not in result.stats
    assert {"/group/codings", "/ok/1", "/coding/zstd-ok"} <= set(stored_paths(result, server))


def test_an_answer_cut_short_is_retried_with_a_readable_line(codings_crawl) -> None:
    """A header line longer than the client reads makes it hang up (Twisted reports the
    connection as closed): retried like any dropped connection, with one readable line instead
    of a list of Failure objects."""
    result, server = codings_crawl
    assert len(server.hits("/bad-answer/long-header")) == FAST["RETRY_TIMES"] + 1
    assert (f"Gave up retrying <GET {server.base}/bad-answer/long-header> (failed 3 times): the "
            "answer could not be read (ConnectionDone: Connection was closed cleanly.)"
            in result.log)
    assert result.stats["errors/DownloadFailedError"] == 1
    assert "long-header" not in " ".join(stored_paths(result, server))


def test_a_huge_inline_script_costs_the_article_nothing(codings_crawl) -> None:
    """7 MB of script in the head passed the parser's size limit, which cut the page before its
    body: the article was lost. The script's text goes first now (extraction drops it anyway);
    the JSON-LD after it is read."""
    result, server = codings_crawl
    row = next(r for r in result.rows("url, title, author, content_text")
               if r["url"] == f"{server.base}/malformed/huge-script")
    assert "Text after a huge script." in row["content_text"]
    assert "var x" not in row["content_text"]
    assert (row["title"], row["author"]) == ("Huge inline script", "Ada Lovelace")


def test_huge_metadata_is_stored_bounded(codings_crawl) -> None:
    result, server = codings_crawl
    row = next(r for r in result.rows("url, title, author, description, site_name, "
                                      "content_text, published")
               if r["url"] == f"{server.base}/metadata/huge")
    assert "Text beside huge metadata." in row["content_text"]  # the page itself is kept
    assert row["published"].startswith("2026-03-04")
    assert row["title"].startswith("Endless Endless") and row["title"].endswith("\u2026")
    for name, most in (("title", 2000), ("author", 2000), ("site_name", 2000),
                       ("description", 20_000)):
        assert len(row[name]) == most, name
    item = next(i for i in result.items if i["url"] == f"{server.base}/metadata/huge")
    assert len(item["title"]) == 2000 and len(item["description"]) == 20_000


@pytest.mark.parametrize(("field_name", "value", "cut"), [
    ("title", "T" * 2000, False),
    ("title", "T" * 2001, True),
    ("description", "D" * 20_000, False),
    ("description", "D" * 20_001, True),
])
def test_metadata_bound_is_exact(field_name: str, value: str, cut: bool) -> None:
    head = (f"<title>{value}</title>" if field_name == "title"
            else f'<meta name="description" content="{value}">')
    html = pages.article("x", ["Some text of the page. " + pages.FILLER],
                         head=head).replace("<title>x</title>", "").replace("<h1>x</h1>", "")
    result = extract(html, "http://127.0.0.1/m")
    stored = getattr(result, field_name)
    assert (field_name in result.metadata_cut) is cut
    assert stored == (value[:len(value) - 2] + "\u2026" if cut else value)
    assert "Some text of the page." in result.content_text


#: Start URLs answered with no page, and the reason their line gives.
NO_PAGE_STARTS = {
    "/redirect/loop/a": "redirect loop", "/redirect/nowhere/file": "",
    "/binary/pdf": "binary body (pdf)", "/empty": "empty body", "/bad-answer/garbage": "",
    # before: stored as a page of nothing, and a crawl of nothing but these finished, exit 0
    "/empty/bom": "empty body", "/empty/bom16": "empty body",
    "/coding/bomb": "", "/coding/zstd-broken": "",
    # before: skipped with an INFO line, and a crawl of nothing but these finished, exit 0
    "/typed/octet-stream": "Content-Type application/octet-stream is not HTML",
    "/typed/json": "Content-Type application/json is not HTML",
    "/typed/two-types": "Content-Type application/pdf is not HTML",
    "/private/page": "Forbidden by robots.txt",
}


@pytest.mark.parametrize("with_page", [False, True])
def test_start_urls_answered_with_no_page_fail_the_crawl(with_page: bool, hostile_server,
                                                         tmp_path) -> None:
    """A start URL that answers, but with a redirect loop, a redirect to no web URL, a binary,
    an empty or a non-HTML body, or that robots.txt forbids, gives nothing to crawl: exit code
    6, as an HTTP error would, not 0. Beside a start URL that gives a page, each is said the
    same way and the crawl finishes."""
    starts = [*NO_PAGE_STARTS, *(["/ok/1"] if with_page else [])]
    result = run_crawl(",".join(hostile_server.base + s for s in starts), tmp_path,
                       spider_args={"render": "never", "sitemaps": "false"}, settings=FAST)
    assert result.returncode == (0 if with_page else 6), result.log[-3000:]
    assert result.stats["finish_reason"] == ("finished" if with_page else "start_failed")
    for start, why in NO_PAGE_STARTS.items():
        assert f"Start URL {hostile_server.base}{start} gave no page: {why}" in result.log
    assert stored_paths(result, hostile_server) == (["/ok/1"] if with_page else [])


@pytest.mark.parametrize(("failing", "settings", "code", "reason"), [
    (7, {}, 7, "pages_failed"),    # 7 of 11 pages lost: more than half (before: exit 0)
    (3, {}, 0, "finished"),        # 3 of 11: a broken section, the crawl did its job
])
def test_a_half_dead_server_fails_the_crawl(failing: int, settings: dict, code: int, reason: str,
                                            hostile_server, tmp_path) -> None:
    """A server whose pages mostly fail (503 and reset connections, after retries) while a few
    answer: the crawl stores what answered and, when it lost more than FAILED_PAGES_MAX_SHARE
    of the pages it found, ends as pages_failed with one line giving both counts."""
    result = run_crawl(f"{hostile_server.base}/half-dead/{failing}/", tmp_path,
                       spider_args={"render": "never", "sitemaps": "false"},
                       settings={**FAST, **settings})
    assert result.returncode == code, result.log[-3000:]
    assert result.stats["finish_reason"] == reason
    assert result.stats["pages/failed"] == failing
    answered = {f"/half-dead/{failing}/", *(f"/half-dead/{failing}/{i}"
                                           for i in range(failing + 1, 11))}
    assert set(stored_paths(result, hostile_server)) == answered
    line = (f"{failing} of 11 pages found ({100 * failing / 11:.0f}%) were lost to server "
            "failures")
    assert (line in result.log) == (reason == "pages_failed")
    assert "Traceback" not in result.log


def test_scrapys_data_loss_advice_stays_out_of_a_log_without_progress_lines(hostile_server,
                                                                          tmp_path) -> None:
    """Scrapy advises, at the first body cut short, turning off the check that keeps cut pages
    out of the crawl: that line is kept out of the log, also when LOGSTATS_INTERVAL = 0 turns
    the progress lines off (before, the filters went with them); the crawl's own line stays."""
    page = "/drop/then-ok?quiet="  # cut the first time this URL is asked for (of the module)
    result = run_crawl(f"{hostile_server.base}{page}", tmp_path,
                       spider_args={"render": "never", "sitemaps": "false"},
                       settings={**FAST, "LOGSTATS_INTERVAL": 0})
    assert result.returncode == 0, result.log[-3000:]
    assert "DOWNLOAD_FAIL_ON_DATALOSS" not in result.log
    assert result.stats["log/quiet/scrapy_dataloss_hint"] == 1
    assert f"Answer of {hostile_server.base}{page} cut short" in result.log
    assert stored_paths(result, hostile_server) == [page]


def test_urls_naming_a_user_and_password_are_fetched_without_them(hostile_server,
                                                                   tmp_path) -> None:
    """A start URL, a link and a redirect naming ``user:secret@``: Scrapy's client cannot
    fetch such a URL (``invalid hostname``), and robots.txt took the user for a host of its
    own whose robots.txt could not be read, so each page was lost (an ERROR line; the start
    URL failed the crawl). Each is fetched and stored without them."""
    named = hostile_server.base.replace("://", "://user:secret@")
    result = run_crawl(f"{named}/userinfo/", tmp_path,
                       spider_args={"render": "never", "sitemaps": "false"}, settings=FAST)
    assert result.returncode == 0, result.log[-3000:]
    assert set(stored_paths(result, hostile_server)) == {
        "/userinfo/", "/ok/userinfo-link", "/ok/userinfo-redirect"}
    assert result.stats["redirect/userinfo_dropped"] == 1
    assert "invalid hostname" not in result.log and "ERROR" not in result.log
    assert all("@" not in row["url"] for row in result.rows("url"))


def test_links_to_other_ports_of_the_host_are_another_site(hostile_server, tmp_path) -> None:
    """A page linking its host on 20 other ports: each is another site (an origin is scheme,
    host and port), counted, not requested. Before, each port's robots.txt was asked for
    (refused, retried, one ERROR line each); a page of links to thousands of ports kept a
    crawl busy for as many requests, and reached the services a host keeps on other ports.
    A redirect there (HTTP or a meta refresh) is refused the same way; it was followed. The
    page's link and redirect to its own port are followed."""
    result = run_crawl(f"{hostile_server.base}/ports/", tmp_path,
                       spider_args={"render": "never", "sitemaps": "false"}, settings=FAST)
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats["links/filtered/other_port"] == 20
    assert result.stats["redirect/other_port"] == 2
    for path, port, target in (("redirect", 1, "redirect"), ("refresh", 2, "refresh")):
        assert (f"Redirect from {hostile_server.base}/ports/{path} to http://127.0.0.1:{port}"
                f"/ok/other-port-{target}, its host on another port: another site, not "
                "followed") in result.log
    assert "robots.txt of 127.0.0.1:1 " not in result.log and "ERROR" not in result.log
    assert result.stats.get("robotstxt/request_count") == 1
    assert set(stored_paths(result, hostile_server)) == {"/ports/", "/ok/own-port",
                                                         "/ok/own-port-redirect"}


@pytest.mark.parametrize(("value", "problem"), [
    ("0.5", None), ("0", None),
    ("1", "off"),            # no crawl loses more than all its pages: the rule is left out
    ("1.5", "FAILED_PAGES_MAX_SHARE must be a number from 0 to 1, got '1.5'"),
    ("half", "FAILED_PAGES_MAX_SHARE must be a number from 0 to 1, got 'half'"),
])
def test_the_failed_pages_share_is_read_once_and_checked(value: str, problem: str | None) -> None:
    """A share outside 0 to 1 stops the crawl at start with one sentence (exit code 2, as any
    setting a component cannot use: ``crawler/startup.py``); 1 turns the rule off."""
    from scrapy.exceptions import NotConfigured
    from scrapy.utils.test import get_crawler

    from crawler.extensions.failed_pages import FailedPagesConfig, FailedPagesGuard
    from crawler.startup import SettingError

    crawler = get_crawler(settings_dict=project_settings(FAILED_PAGES_MAX_SHARE=value))
    if problem is None:
        guard = FailedPagesGuard.from_crawler(crawler)
        assert guard.config == FailedPagesConfig(max_share=float(value))
        return
    with pytest.raises(NotConfigured):
        FailedPagesGuard.from_crawler(crawler)
    if problem != "off":
        with pytest.raises(SettingError, match=re.escape(problem)):
            FailedPagesConfig.from_settings(crawler.settings)


@pytest.mark.parametrize(("starts", "code"), [
    (["/redirect/offhost"], 6),            # the only start URL: the crawl cannot do its job
    (["/redirect/offhost", "/ok/1"], 0),   # another start URL gives pages: said, and crawled
    (["/ports/redirect"], 6),              # the start host on another port: another site
])
def test_a_start_url_redirected_out_of_scope_is_a_failed_start(starts: list[str], code: int,
                                                               hostile_server, tmp_path) -> None:
    """A start URL whose server sends it to another host (the bare domain to www): the offsite
    filter dropped the redirect without a word, and the crawl ended with nothing stored, exit
    0 and "errors: none". The other host is ``localhost``, so the internal-address guard
    (which refuses it first) is off here. Sent to its host on another port, it was followed
    there as the same site."""
    result = run_crawl(",".join(hostile_server.base + s for s in starts), tmp_path,
                       spider_args={"render": "never", "sitemaps": "false",
                                    "follow_links": "false"},
                       settings={**FAST, "ALLOW_INTERNAL_ADDRESSES": True})
    assert result.returncode == code, result.log[-3000:]
    assert result.stats["crawl/start_redirected_offsite"] == 1
    target, where = (("http://127.0.0.1:1/ok/other-port-redirect",
                      "its host on another port, another site outside the crawl's scope")
                     if "/ports/redirect" in starts else
                     (f"http://localhost:{hostile_server.port}/ok/offhost",
                      "a host outside the crawl's scope"))
    assert (f"Start URL {hostile_server.base}{starts[0]} was redirected to {target}, "
            f"{where}" in result.log)
    # that line, and the crawl's own when it has nothing: the target is never asked for
    assert result.stats["log_count/ERROR"] == (2 if code else 1)
    assert result.stats.get("robotstxt/request_count") == 1
    assert [r["url"] for r in result.rows("url")] == (
        [f"{hostile_server.base}/ok/1"] if "/ok/1" in starts else [])
    if code:
        assert result.stats["finish_reason"] == "start_failed"


#: Names of the hostile server in the crawls through it as a proxy: no DNS knows them, so the
#: crawler asks the proxy for them as it would any site (``http_proxy``, as Scrapy reads it).
SITE_NAME = "hostile.test"


@pytest.mark.parametrize(("start_host", "case", "home_host", "code"), [
    (SITE_NAME, "www", f"www.{SITE_NAME}", 0),        # the bare domain sends to www
    (f"www.{SITE_NAME}", "bare", SITE_NAME, 0),       # www sends to the bare domain
    (SITE_NAME, "other", "other.test", 6),             # another domain: still a failed start
])
def test_a_start_url_redirected_to_the_sites_other_name_is_followed(
        start_host: str, case: str, home_host: str, code: int, tmp_path: Path) -> None:
    """A site answering under one of its names only (the bare domain 301 to ``www.``, or
    back): "crawl this domain" means that site, so its other name joins the crawl's scope,
    said once and counted, and the site is crawled. The start URL was a failed start (exit 6,
    nothing stored). Another domain stays outside the scope. The names are served through the
    hostile server as an HTTP proxy, so the crawler really asks for each host by name."""
    server = HostileServer().start()
    server.sitemap_paths = []
    try:
        start = f"http://{start_host}/canonical-host/{case}/"
        result = run_crawl(start, tmp_path, spider_args={"render": "never"}, settings=FAST,
                           env={"http_proxy": server.base, "no_proxy": "", "NO_PROXY": ""})
    finally:
        server.stop()
    assert result.returncode == code, result.log[-3000:]
    assert "Traceback" not in result.log
    urls = sorted(r["url"] for r in result.rows("url"))
    hosts_asked = {h.host for h in server.hits()}
    if code:  # what must go: another domain is never asked for, nothing stored
        assert urls == []
        assert result.stats["crawl/start_redirected_offsite"] == 1
        assert "crawl/scope_widened" not in result.stats
        assert f"Start URL {start} was redirected to http://other.test/" in result.log
        assert "other.test" not in hosts_asked
        return
    home = f"http://{home_host}/canonical-host/{case}/"
    # what must stay: the whole site, under the name it answers to
    assert urls == [home, home + "a", home + "b", home + "c"], urls
    assert result.stats["crawl/scope_widened"] == 1
    assert "crawl/start_redirected_offsite" not in result.stats
    assert result.log.count("the same site under its other name") == 1
    assert (f"Start URL {start} was redirected to {home}, the same site under its other "
            f"name: the crawl's scope now includes {home_host}") in result.log
    # its sitemaps are looked for under the new name as under the start host
    assert [h.host for h in server.hits("/sitemap.xml")].count(home_host) == 1
    assert result.stats["finish_reason"] == "finished"


def test_a_redirect_loop_across_the_sites_two_names_and_a_sitemap_index_listing_itself(
        tmp_path: Path) -> None:
    """The bare name sends to ``www.`` and ``www.`` back to the bare name: the first redirect
    widens the scope, the second is a loop, stopped at its first repeat (a failed start, one
    WARNING). The sitemap index listing itself (twice, once with a fragment) is read once under
    each name, and the page its other sitemap lists is still found and stored."""
    server = HostileServer().start()
    server.sitemap_paths = ["/sitemaps/self.xml"]
    start = "http://hostile.test/canonical-host/loop/"
    try:
        result = run_crawl(start, tmp_path, spider_args={"render": "never"}, settings=FAST,
                           env={"http_proxy": server.base, "no_proxy": "", "NO_PROXY": ""})
        hits = [(h.host, h.path) for h in server.hits()]
    finally:
        server.stop()
    assert result.returncode == 0, result.log[-3000:]  # a page was found through the sitemaps
    assert "Traceback" not in result.log
    assert result.stats["redirect/loop"] == 1
    assert result.stats["crawl/scope_widened"] == 1
    assert hits.count(("hostile.test", "/canonical-host/loop/")) == 1
    assert hits.count(("www.hostile.test", "/canonical-host/loop/")) == 1
    loops = [line for line in result.log.splitlines() if "Redirect loop:" in line]
    assert len(loops) == 1 and f"{start} -> http://www.hostile.test/canonical-host/loop/ -> " \
        f"{start}" in loops[0], loops
    assert f"Start URL {start} gave no page: redirect loop" in result.log
    for host in ("hostile.test", "www.hostile.test"):
        assert hits.count((host, "/sitemaps/self.xml")) == 1, hits
    assert {r["url"] for r in result.rows("url")} >= {"http://hostile.test/ok/1"}


@pytest.mark.parametrize(("host", "other", "same"), [
    ("site.example", "www.site.example", True),
    ("www.site.example", "site.example", True),
    ("WWW.Site.Example.", "site.example", True),
    ("site.example", "docs.site.example", False),      # another subdomain is another site
    ("site.example", "www.other.example", False),
    ("co.uk", "www.co.uk", False),                       # a public suffix is no site's name
    ("github.io", "www.github.io", False),               # nor a private one
    ("127.0.0.1", "www.127.0.0.1", False),
    ("site.example", "www.www.site.example", False),
])
def test_a_sites_other_name_is_only_its_www_name(host: str, other: str, same: bool) -> None:
    assert same_site_other_name(host, other) is same


@pytest.mark.parametrize(("start", "outcome"), [
    # refused with one sentence naming the argument (before: the parser's own message, such as
    # "Port could not be cast to integer value as 'alert(1)'", or a crawl of host b.c)
    ("javascript:alert(1)", "-a start='javascript:alert(1)': not an http(s) URL"),
    ("mailto:team@b.example", "-a start='mailto:team@b.example': not an http(s) URL"),
    ("data:text/html;base64", "-a start='data:text/html;base64': not an http(s) URL"),
    ("ftp://127.0.0.1/pub/", "-a start='ftp://127.0.0.1/pub/': not an http(s) URL"),
    ("http://[::1", "-a start='http://[::1': not a URL (Invalid IPv6 URL)"),
    ("http://127.0.0.1:99999/", "-a start='http://127.0.0.1:99999/': not a URL (Port out of"),
    ("http://site.example:x/", "-a start='http://site.example:x/': not a URL (Port could not"),
    ("http://site.example:0/", "-a start='http://site.example:0/': not an http(s) URL"),
    # kept: a host with a port, a bare host, an IDN host
    ("localhost:8080/docs", "https://localhost:8080/docs"),
    ("site.example", "https://site.example/"),
    ("http://ex\u00e4mple.example/", "http://xn--exmple-cua.example/"),
])
def test_a_start_url_that_is_no_web_url_is_refused_in_one_sentence(start: str,
                                                                   outcome: str) -> None:
    if outcome.startswith("-a start="):
        with pytest.raises(ValueError) as refused:
            DomainCrawlConfig.from_arguments(start)
        assert str(refused.value).startswith(outcome)
    else:
        assert DomainCrawlConfig.from_arguments(start).start_urls == (outcome,)


def test_long_canonical_url_is_not_stored(full_crawl, hostile_server) -> None:
    rows = {r["url"]: r for r in full_crawl.rows("url, canonical_url, content_text")}
    row = rows[f"{hostile_server.base}/canonical/long"]
    assert row["canonical_url"] is None
    assert "Long canonical." in row["content_text"]
    assert all(len(r["canonical_url"] or "") <= 2083 for r in rows.values())


def test_one_page_under_many_spellings_is_fetched_once(full_crawl, hostile_server) -> None:
    # /ok/dots under 8 spellings (dot segments, doubled slashes, %-escaped letters): one fetch.
    paths = [h.path for h in hostile_server.hits() if "ots" in h.path and "robots" not in h.path]
    assert paths == ["/ok/dots"], paths
    assert f"{hostile_server.base}/ok/dots" in [r["url"] for r in full_crawl.rows("url")]


def test_cookie_header_stays_bounded(full_crawl, hostile_server) -> None:
    hits = hostile_server.hits("/cookies/")
    assert sorted({h.path for h in hits}) == [f"/cookies/{n}" for n in range(5)]
    # COOKIES_MAX_HOST_BYTES at most (the server offers 100 more 4 kB cookies on every page).
    assert 4000 < max(h.cookie_bytes for h in hits) <= 8192 + 50 * 4
    # The public suffix list comes with the package: nothing tried to download it.
    assert "publicsuffix" not in full_crawl.log.lower()
    assert "suffix list" not in full_crawl.log.lower()


def test_nothing_internal_was_requested(full_crawl, hostile_server) -> None:
    hosts = {h.host.rsplit(":", 1)[0] for h in hostile_server.hits()}
    assert hosts == {"127.0.0.1"}, hosts  # never localhost, [::1], 2130706433 ...
    assert all(r["url"].startswith(hostile_server.base) for r in full_crawl.rows("url"))


def test_no_timeout_or_retry_storm(full_crawl, hostile_server) -> None:
    """The never-answering page costs its attempts and nothing more: no page is requested more
    than RETRY_TIMES + 1 times, only /hang and the answers trickled a byte a second are given
    up for a timeout, and the crawl waited no
    longer than its retry settings allow for the pages retried (backoff, and the Retry-After
    of 1 s the server asks). The crawl's wall time is measured by ``benchmarks/hostile.py
    --cases full``, not asserted here."""
    attempts = Counter((h.host, h.path) for h in full_crawl.extra["hits"])
    assert max(attempts.values()) <= FAST["RETRY_TIMES"] + 1, attempts.most_common(5)
    # the server that never answers, and the two that answer a byte a second: DOWNLOAD_TIMEOUT
    # bounds the whole answer, not the wait between two reads
    for path in ("/hang", "/drip/body", "/drip/headers"):
        assert attempts[(f"127.0.0.1:{hostile_server.port}", path)] == FAST["RETRY_TIMES"] + 1
        assert f"Gave up retrying <GET {hostile_server.base}{path}>" in full_crawl.log
        assert path not in stored_paths(full_crawl, hostile_server)
    assert full_crawl.stats["errors/DownloadTimeoutError"] == 3
    retried = sum(1 for n in attempts.values() if n > 1)
    most_waited = (retried * FAST["RETRY_BACKOFF_BASE"] * (2 ** FAST["RETRY_TIMES"] - 1)
                   + full_crawl.stats["retry/retry_after_honoured"] * 1.0)
    assert full_crawl.stats["retry/backoff_seconds"] <= most_waited + 0.01


# -- output safety ------------------------------------------------------------------------------

def test_crawled_xss_page_is_stored_safe(full_crawl, hostile_server) -> None:
    url = f"{hostile_server.base}/xss/1"
    row = next(r for r in full_crawl.rows("url, content_html, content_text") if r["url"] == url)
    assert "Paragraph 0 of XSS page 1" in row["content_text"]  # the content itself is kept
    assert unsafe_parts(row["content_html"]) == []


#: Payloads an HTML parser turns inert inside a fragment: ``<scr<script>`` is an element named
#: "scr<script", and a ``<body>`` start tag inside a fragment is dropped. They matter only if a
#: sanitiser reassembles them, which the per-payload test below would then catch.
INERT_IN_FRAGMENTS = {"<scr<script>ipt>alert('nested')</scr</script>ipt>",
                      "<body onload=alert('body')>"}


def test_safety_check_flags_every_raw_payload() -> None:
    unflagged = [p for p in pages.xss_payloads() if not unsafe_parts(f"<p>{p}</p>")]
    assert set(unflagged) == INERT_IN_FRAGMENTS


@pytest.mark.parametrize("payload", pages.xss_payloads())
def test_extracted_html_is_safe_for_every_payload(payload: str) -> None:
    html = pages.article("XSS sample", [f"Before the payload. {pages.FILLER}", payload,
                                        f"{payload} inline with {pages.FILLER}",
                                        f"After the payload. {pages.FILLER}"])
    result = extract(html, "http://127.0.0.1/xss")
    assert "After the payload" in result.content_text
    assert unsafe_parts(result.content_html) == []


# -- malformed HTML: bounded extraction time -----------------------------------------------------

@pytest.mark.parametrize("maker", [pages.unclosed_tags_page, pages.nested_tables_page,
                                   pages.null_bytes_page, pages.long_line_page])
def test_malformed_html_extracts(maker) -> None:
    """Each gives a result whose counts agree with its text (its extraction time is measured
    by ``benchmarks/hostile.py --cases malformed``; a crawl bounds it by EXTRACTION_TIMEOUT)."""
    body = maker()
    html = body.decode("utf-8") if isinstance(body, bytes) else body
    result = extract(html, "http://127.0.0.1/malformed")
    assert result.content_text
    assert result.word_count == len(result.content_text.split())


def test_bounded_runner_gives_up_past_its_limit_and_keeps_serving() -> None:
    async def scenario() -> tuple[bool, int]:
        runner = BoundedRunner(timeout=0.2, workers=2)
        try:
            await runner.run(time.sleep, 0.6)
        except TimeLimitExceeded:
            gave_up = True
        else:
            gave_up = False
        value = await runner.run(sum, [1, 2, 3])  # the other worker is free
        runner.close()
        return gave_up, value

    assert asyncio.run(scenario()) == (True, 6)


@pytest.mark.parametrize("depth", [100, 300, 500])
def test_text_inside_deeply_nested_tables_is_extracted(depth: int) -> None:
    result = extract(pages.nested_tables_page(depth), "http://127.0.0.1/malformed/tables")
    assert result.content_text.startswith("Innermost cell.")


def test_text_of_unclosed_tags_is_extracted() -> None:
    result = extract(pages.unclosed_tags_page(), "http://127.0.0.1/malformed/unclosed")
    assert result.title == "Unclosed tags"
    assert "Unclosed paragraph 150." in result.content_text
    assert "Unclosed paragraph 299." in result.content_text


def test_nesting_beyond_the_parser_limit_gives_a_result() -> None:
    result = extract(pages.nested_tables_page(5000), "http://127.0.0.1/malformed/tables")
    assert result.title == "Nested tables"


def test_extraction_time_limit_stores_the_page_without_content(hostile_server, tmp_path) -> None:
    # 40,000 linked cards cost the engine about 6 s of CPU on a fast, quiet machine, the other
    # pages a few ms: a limit of 1 s leaves a wide margin on both sides whatever the machine's
    # speed or load (the 5 MB single line, 0.7 s, finished within 1 s on such a machine).
    result = run_crawl(f"{hostile_server.base}/group/slow", tmp_path, timeout=120,
                       spider_args={"render": "never"},
                       settings={**FAST, "EXTRACTION_TIMEOUT": 1.0})
    assert result.returncode == 0, result.log[-3000:]
    rows = {r["url"].removeprefix(hostile_server.base): r
            for r in result.rows("url, content_text, raw_html, extraction_error")}
    assert result.stats["extraction/timeout"] >= 1
    assert "took longer than EXTRACTION_TIMEOUT (1 s)" in result.log
    assert "never retrieved" not in result.log  # the given-up call's end is collected
    assert rows["/malformed/cards"]["content_text"] == ""  # stored, not lost
    assert rows["/malformed/cards"]["raw_html"]
    assert rows["/malformed/cards"]["extraction_error"] == "timeout"
    assert rows["/ok/1"]["extraction_error"] is None
    assert rows["/malformed/nulls"]["content_text"]
    assert rows["/ok/1"]["content_text"]


# -- internal addresses ---------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["127.0.0.1", "[::1]", "10.1.2.3", "172.16.0.1", "192.168.1.1",
                                  "169.254.169.254", "0.0.0.0", "[fe80::1]", "100.64.0.1",
                                  "[::ffff:127.0.0.1]", "[fd00:ec2::254]"])
def test_internal_literals_are_refused(host: str) -> None:
    address = literal_address(host)
    assert address is not None and is_internal(address)


@pytest.mark.parametrize("host", ["93.184.216.34", "[2606:2800:220:1:248:1893:25c8:1946]",
                                  "8.8.8.8"])
def test_public_literals_pass(host: str) -> None:
    address = literal_address(host)
    assert address is not None and not is_internal(address)


@pytest.mark.parametrize("name", ["localhost", "2130706433", "0x7f.1", "127.1"])
def test_names_resolving_to_loopback_are_internal(name: str) -> None:
    assert literal_address(name) is None  # not written as an IP: only resolving tells
    addresses = resolve(name)
    assert addresses and all(is_internal(a) for a in addresses)


def test_guard_can_be_turned_off(hostile_server, tmp_path) -> None:
    start = f"{hostile_server.base}/group/internal"
    guarded = run_crawl(start, tmp_path / "on", spider_args={"render": "never"}, settings=FAST)
    unguarded = run_crawl(start, tmp_path / "off", spider_args={"render": "never"},
                          settings={**FAST, "ALLOW_INTERNAL_ADDRESSES": True})
    assert guarded.returncode == unguarded.returncode == 0
    assert guarded.stats["internal_address/refused"] == 2  # 10.255.255.1 and [::1] at scheduling
    assert "internal_address/refused" not in unguarded.stats
    disabled = "Disabled crawler.middlewares.internal_addresses.InternalAddressMiddleware"
    assert disabled in unguarded.log
    # With the guard off the redirects reach the next filter (the crawl's scope) instead.
    assert unguarded.stats["offsite/filtered"] >= 3


def test_same_page_redirect_cannot_leave_the_crawl(hostile_server, tmp_path) -> None:
    # With the guard off, only the crawl's scope stands between a redirect and another host:
    # localhost, 127.0.0.2, 0, 2130706434 and [::ffff:127.0.0.2] are other hosts.
    result = run_crawl(f"{hostile_server.base}/group/escape", tmp_path,
                       spider_args={"render": "never", "sitemaps": "false"},
                       settings={**FAST, "ALLOW_INTERNAL_ADDRESSES": True})
    assert result.returncode == 0, result.log[-3000:]
    urls = [r["url"] for r in result.rows("url")]
    assert f"{hostile_server.base}/ok/1" in urls  # the rest of the crawl
    assert all(u.startswith(hostile_server.base + "/") for u in urls), urls
    assert not any("escaped" in u for u in urls)
    assert result.stats["redirect/same_page"] == 5
    assert result.stats["offsite/filtered"] + result.stats.get("offsite/final_url", 0) >= 5
    assert "Traceback" not in result.log


@pytest.mark.parametrize("mode", ["hang", "error", "huge"])
def test_unreadable_robots_txt_disallows_the_host(mode: str, tmp_path) -> None:
    server = HostileServer(robots=mode).start()
    try:
        result = run_crawl(f"{server.base}/", tmp_path, timeout=120,
                           spider_args={"render": "never"},
                           settings={**FAST, "ROBOTSTXT_TIMEOUT": 1})
        robots_attempts = len(server.hits("/robots.txt"))
        fetched = {h.path for h in server.hits()} - {"/robots.txt"}
    finally:
        server.stop()
    # nothing could be fetched: the start URL is a failed start (before: exit 0)
    assert result.returncode == 6, result.log[-3000:]
    assert (f"Start URL {server.base}/ gave no page: Forbidden by robots.txt" in result.log)
    assert result.stats["robotstxt/unreadable"] == 1
    assert f"robots.txt of 127.0.0.1:{server.port} could not be read completely" in result.log
    assert fetched == set()  # not the start page, not /private/: nothing widened
    assert result.rows("url") == []
    assert "Traceback" not in result.log
    # its wait is bounded: the robots.txt check tries ROBOTSTXT_RETRY_TIMES (1) + 1 times, and
    # the search for sitemaps of a host so disallowed is not sent again (before: RETRY_TIMES + 1
    # attempts more, each with DOWNLOAD_TIMEOUT)
    assert robots_attempts <= 2
    assert result.stats["robotstxt/sitemaps_not_searched"] == 1


def crawl_robots_group(robots: str, workdir: Path) -> tuple[CrawlResult, HostileServer]:
    """A crawl of ``/group/robots`` (it links /private/page and /ok/past-limit) on a hostile
    server whose robots.txt is of the given mode; the server is stopped, its hits kept."""
    server = HostileServer(robots=robots).start()
    try:
        result = run_crawl(f"{server.base}/group/robots", workdir,
                           spider_args={"render": "never", "sitemaps": "false"}, settings=FAST)
    finally:
        server.stop()
    return result, server


def test_robots_txt_is_read_up_to_its_size_limit(tmp_path) -> None:
    """1.5 MB of rules: the first 500 KiB are read (its Disallow: /private/ holds), the rest,
    which would cost every request of the crawl its check, is not."""
    result, server = crawl_robots_group("long", tmp_path)
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats["robotstxt/truncated"] == 1
    assert f"robots.txt of 127.0.0.1:{server.port} is 1788" in result.log
    assert "(ROBOTSTXT_MAX_SIZE, up to the last whole line) are read" in result.log
    paths = set(stored_paths(result, server))
    assert {"/group/robots", "/ok/past-limit", "/ok/1"} <= paths
    assert not server.hits("/private/")
    assert "robotstxt/unreadable" not in result.stats


ODD_ROBOTS = [
    # (server's robots mode, stat counted, log line): each forbids /private/ and /ok/past-limit
    # in a form the parser did not read, so both were fetched
    ("utf-16", "robotstxt/utf16", "is written in UTF-16"),      # with a byte-order mark
    ("utf-16-be", "robotstxt/utf16", "is written in UTF-16"),   # big-endian, without one
    # a NUL ending each line: ``User-agent: *\\0`` named no crawler
    ("nul", "robotstxt/control_bytes", "holds 4 control bytes"),
]


@pytest.mark.parametrize(("mode", "stat", "said"), ODD_ROBOTS, ids=[c[0] for c in ODD_ROBOTS])
def test_a_robots_txt_the_parser_could_not_read_is_obeyed(mode: str, stat: str, said: str,
                                                           tmp_path: Path) -> None:
    """A robots.txt in UTF-16, or with control bytes in its lines: its rules hold now."""
    result, server = crawl_robots_group(mode, tmp_path)
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats[stat] == 1
    assert f"robots.txt of 127.0.0.1:{server.port} {said}" in result.log
    paths = set(stored_paths(result, server))
    assert {"/group/robots", "/ok/1"} <= paths  # what must stay
    assert not server.hits("/private/") and not server.hits("/ok/past-limit")  # what must go
    assert result.stats["robotstxt/forbidden"] == 2


@pytest.mark.parametrize(("body", "readable"), [
    (b"User-agent: *\x00\nDisallow: /x\x00\n", b"User-agent: *\nDisallow: /x\n"),
    (b"User-agent: *\r\n\tDisallow: /x\x7f\x1b\n", b"User-agent: *\r\n\tDisallow: /x\n"),
    (b"User-agent: *\nDisallow: /caf\xc3\xa9\n", b"User-agent: *\nDisallow: /caf\xc3\xa9\n"),
])
def test_control_bytes_of_a_robots_txt_are_read_as_nothing(body: bytes, readable: bytes) -> None:
    """What must go (NUL, ESC, DEL) and what must stay (tab, line ends, UTF-8 letters)."""
    assert without_control_bytes(body) == readable


def test_a_robots_txt_redirecting_without_end_is_no_robots_txt(tmp_path: Path) -> None:
    """A robots.txt whose redirect loops was unreadable, so the host was disallowed whole:
    nothing stored, exit 6. RFC 9309 takes a robots.txt not reached within five redirects as
    unavailable, as a 4xx is: everything may be fetched."""
    result, server = crawl_robots_group("loop", tmp_path)
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats["robotstxt/endless_redirect"] == 1
    assert f"robots.txt of 127.0.0.1:{server.port} redirects without end" in result.log
    assert "robotstxt/unreadable" not in result.stats  # what must go: the host disallowed
    assert "robotstxt/forbidden" not in result.stats
    paths = set(stored_paths(result, server))
    assert {"/group/robots", "/ok/1", "/private/page"} <= paths  # what must stay
    assert len(server.hits("/robots.txt")) == 1
    assert "Traceback" not in result.log


def test_a_start_url_with_an_ipv6_address_is_crawled(tmp_path: Path) -> None:
    """``-a start=http://[::1]:PORT/``: the offsite filter compared the URL's host name (``::1``)
    with the scope's ``[::1]`` and dropped the start request without a word (nothing stored,
    exit 0, "errors: none"); then Scrapy's resolver, IPv4 only, failed robots.txt and the host
    was disallowed. The site is crawled now."""
    try:
        server = HostileServer(host="::1").start()
    except OSError:
        pytest.skip("no IPv6 loopback on this machine")
    try:
        result = run_crawl(f"{server.base}/group/robots", tmp_path,
                           spider_args={"render": "never", "sitemaps": "false"}, settings=FAST)
    finally:
        server.stop()
    assert result.returncode == 0, result.log[-3000:]
    paths = {r["url"].removeprefix(server.base) for r in result.rows("url")}
    assert {"/group/robots", "/ok/1"} <= paths  # what must stay
    assert not server.hits("/private/")  # robots.txt read and obeyed
    assert "offsite/filtered" not in result.stats
    assert "robotstxt/unreadable" not in result.stats
    assert "Traceback" not in result.log


@pytest.mark.parametrize(("body", "codec"), [
    ("User-agent: *\nDisallow: /x\n".encode("utf-16"), "utf-16-le"),   # BOM, little-endian
    (b"\xfe\xff" + "Disallow: /x".encode("utf-16-be"), "utf-16-be"),
    ("User-agent: *\nDisallow: /x\n".encode("utf-16-le"), "utf-16-le"),  # no BOM
    ("User-agent: *\nDisallow: /x\n".encode("utf-16-be"), "utf-16-be"),
    (b"User-agent: *\nDisallow: /x\n", None),                          # what must stay
    (b"\xef\xbb\xbfUser-agent: *\n", None),                            # UTF-8 BOM: UTF-8
    (b"User-agent: *\n\x00\x00Disallow: /x\n", None),                   # a stray NUL or two
])
def test_utf16_robots_txt_is_told_by_its_bytes(body: bytes, codec: str | None) -> None:
    assert utf16_codec(body) == codec


def test_robots_txt_redirected_to_another_host_is_read_there(tmp_path: Path) -> None:
    """``http://site/robots.txt`` answering 301 to another host (the bare domain to www, http
    to https) is read there, as RFC 9309 asks: the offsite filter dropped the redirect and the
    whole host was disallowed (nothing stored, exit 0, "errors: none"). The other host is
    ``localhost``, so the internal-address guard is off here; with it on, the redirect is
    refused and the host disallowed, as for any robots.txt that cannot be read."""
    server = HostileServer(robots="offhost").start()
    try:
        result = run_crawl(f"{server.base}/group/robots", tmp_path,
                           spider_args={"render": "never", "sitemaps": "false"},
                           settings={**FAST, "ALLOW_INTERNAL_ADDRESSES": True})
    finally:
        server.stop()
    assert result.returncode == 0, result.log[-3000:]
    assert "robotstxt/unreadable" not in result.stats
    assert {h.host.split(":")[0] for h in server.hits("/robots.txt")} == {"127.0.0.1",
                                                                          "localhost"}
    paths = set(stored_paths(result, server))
    assert {"/group/robots", "/ok/past-limit", "/ok/1"} <= paths  # what must stay
    assert not server.hits("/private/")  # what must go: its rules hold
    assert result.stats["robotstxt/forbidden"] == 1


def test_sitemap_count_is_bounded(hostile_server, tmp_path) -> None:
    result = run_crawl(f"{hostile_server.base}/ok/1", tmp_path,
                       spider_args={"render": "never", "follow_links": "false"},
                       settings={**FAST, "SITEMAP_MAX_COUNT": 10})
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats["sitemaps/count_limited"] >= 1
    assert "(SITEMAP_MAX_COUNT)" in result.log
    assert result.stats["sitemaps/read"] <= 10
    assert [r["url"] for r in result.rows("url")] == [f"{hostile_server.base}/ok/1"]


# -- kill -9 and restart --------------------------------------------------------------------------

def stored_urls(db: Path) -> list[str]:
    """URLs in the pages table, duplicates included."""
    if not db.exists():
        return []
    conn = sqlite3.connect(db, timeout=10)
    try:
        return [r[0] for r in conn.execute("SELECT url FROM pages")]
    except sqlite3.OperationalError:
        return []  # the table is not created yet
    finally:
        conn.close()


def test_kill_9_and_restart_loses_no_page_and_duplicates_no_row(tmp_path) -> None:
    # Wide enough that Scrapy has flushed part of its seen-request list before the kill: the
    # restart then knows pages as seen that were never stored (plain Scrapy stops there).
    server = HostileServer(site_pages=400, site_fanout=20, site_delay=0.02).start()
    try:
        start = f"{server.base}/site/0"
        args = {"render": "never", "sitemaps": "false"}
        settings = {**FAST, "TRAP_MAX_PER_PATTERN": 0, "JOBDIR": str(tmp_path / "job"),
                    "CONCURRENT_REQUESTS": 4}
        command = crawl_command(start, tmp_path, spider_args=args, settings=settings,
                                feed_name="first.jsonl")
        process = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        seen = tmp_path / "job" / "requests.seen"
        deadline = time.monotonic() + 90
        while not (seen.exists() and seen.stat().st_size
                   and stored_urls(tmp_path / "crawl.db")) and time.monotonic() < deadline:
            assert process.poll() is None, "the crawl ended before it could be killed"
            time.sleep(0.02)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        before = set(stored_urls(tmp_path / "crawl.db"))
        assert 0 < len(before) < 400

        server.site_delay = 0
        second = run_crawl(start, tmp_path, spider_args=args, feed_name="second.jsonl",
                           settings={**settings, "CONCURRENT_REQUESTS": 16}, timeout=120)
        assert second.returncode == 0, second.log[-3000:]
        after = stored_urls(tmp_path / "crawl.db")
        assert len(after) == len(set(after)), "duplicate rows"
        assert before <= set(after), "a stored page was lost"
        assert set(after) == {f"{server.base}/site/{n}" for n in range(400)}
        assert second.stats["jobdir/unclean_restart"] == 1
        assert "was not closed cleanly" in second.log
    finally:
        server.stop()


def test_clean_restart_resumes_without_discarding_state(tmp_path) -> None:
    server = HostileServer(site_pages=7).start()
    try:
        start = f"{server.base}/site/0"
        settings = {**FAST, "TRAP_MAX_PER_PATTERN": 0, "JOBDIR": str(tmp_path / "job")}
        args = {"render": "never", "sitemaps": "false"}
        first = run_crawl(start, tmp_path, spider_args=args, settings=settings, feed_name="a.jsonl")
        second = run_crawl(start, tmp_path, spider_args=args, settings=settings,
                           feed_name="b.jsonl")
        assert first.returncode == second.returncode == 0
        assert "jobdir/unclean_restart" not in second.stats
        assert "Resuming the crawl in JOBDIR" in second.log
        assert len(stored_urls(tmp_path / "crawl.db")) == 7
    finally:
        server.stop()


# -- pure rules ------------------------------------------------------------------------------

@pytest.mark.parametrize(("url", "expected"), [
    ("http://h/item?PHPSESSID=abc&id=1", "http://h/item?id=1"),
    ("http://h/item;jsessionid=ABC123?id=2", "http://h/item?id=2"),
    ("http://h/item?id=3&sid=f00", "http://h/item?id=3"),
    ("http://h/item?id=4&side=left", "http://h/item?id=4&side=left"),
    # escapes of bytes that are no UTF-8 stay themselves (they were made %EF%BF%BD)
    ("http://h/item?q=%E9&sid=f00&r=%C3%A9", "http://h/item?q=%E9&r=%C3%A9"),
])
def test_session_ids_are_stripped(url: str, expected: str) -> None:
    assert strip_session_ids(url) == expected


def test_url_patterns_abstract_numbers() -> None:
    assert url_pattern("http://h/cal/2026/11") == url_pattern("http://h/cal/2031/02")
    assert url_pattern("http://h/list?page=2") == url_pattern("http://h/list?page=300")
    assert url_pattern("http://h/list?page=2") != url_pattern("http://h/list?tag=2")
    assert max_segment_repeats("http://h/a/b/a/b/a/") == 3


@pytest.mark.parametrize(("text", "latin9"), [
    ("L'œuvre coûte 20 € et Œdipe lit Šibenik", True),
    ("Add 1½ cups of flour to the bowl, then stir the crème gently.", False),
])
def test_latin9_is_told_from_cp1252(text: str, latin9: bool) -> None:
    encoded = text.encode("iso8859_15" if latin9 else "cp1252")
    assert looks_like_latin9(encoded) is latin9
    assert detect(encoded * 3) == ("iso8859_15" if latin9 else "cp1252")


# -- responses that are no sitemap --------------------------------------------------------------

SITEMAP_URL = "https://docs.example.com/sitemap.xml"
GOOD_SITEMAP = (b'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/'
                b'schemas/sitemap/0.9"><url><loc>https://docs.example.com/a</loc></url></urlset>')


@pytest.mark.parametrize(("body", "problem", "level", "phrase"), [
    (b"<html><body><p>A page, not a sitemap</p></body></html>", SitemapProblem.INVALID,
     logging.INFO, "not a sitemap"),
    (b"\x1f\x8b\x08\x00" + b"not gzip at all" * 20, SitemapProblem.BROKEN_GZIP, logging.WARNING,
     "a gzipped sitemap that does not decompress"),
    (gzip.compress(GOOD_SITEMAP.replace(b"</urlset>", b" " * 200_000 + b"</urlset>")),
     SitemapProblem.TOO_LARGE, logging.WARNING, "decompresses to more than DOWNLOAD_MAXSIZE"),
])
def test_a_response_that_is_no_sitemap_is_counted_and_logged_at_the_level_of_its_kind(
        body: bytes, problem: SitemapProblem, level: int, phrase: str,
        caplog: pytest.LogCaptureFixture) -> None:
    """The kind of problem (a typed field, not its phrase) picks the stat and the log level: a
    page that is no sitemap is common and costs nothing (INFO), a broken or oversized gzip loses
    the URLs the site lists (WARNING)."""
    from scrapy import Request
    from scrapy.http import Response
    from scrapy.utils.test import get_crawler

    crawler = get_crawler(DomainSpider, project_settings(ROBOTSTXT_OBEY=False,
                                                         DOWNLOAD_MAXSIZE=100_000))
    spider = DomainSpider.from_crawler(crawler, start="https://docs.example.com/", render="never")
    response = Response(SITEMAP_URL, body=body, request=Request(SITEMAP_URL))

    async def read() -> list[object]:
        return [request async for request in spider.parse_sitemap(response)]

    with caplog.at_level(logging.DEBUG, logger="crawler.spiders.domain"):
        assert asyncio.run(read()) == []
    ignored = [r for r in caplog.records if r.getMessage().startswith(f"Ignored {SITEMAP_URL}")]
    assert len(ignored) == 1 and ignored[0].levelno == level and phrase in ignored[0].getMessage()
    stats = crawler.stats.get_stats()
    assert stats.get(f"sitemaps/{problem.stat}") == 1
    # nothing else is counted for it: it is no sitemap read, and no other problem
    assert "sitemaps/read" not in stats
    assert [k for k in stats if k.startswith("sitemaps/")] == [f"sitemaps/{problem.stat}"]


@pytest.mark.parametrize(("reason", "stats", "code"), [
    ("closespider_timeout", {"crawl/start_requests": 1}, 3),       # no start URL answered
    ("closespider_timeout_no_item", {"crawl/start_requests": 2}, 3),
    ("closespider_timeout", {"crawl/start_requests": 2, "crawl/start_answered": 1}, 0),
    ("closespider_timeout", {"crawl/start_requests": 1, "pages/stored": 3}, 0),  # sitemaps
    ("closespider_timeout", {}, 0),         # a distributed worker: starts not tracked
    ("closespider_timeout", None, 0),
    ("finished", {"crawl/start_requests": 1}, 0),
    ("max_pages", {"crawl/start_requests": 1}, 0),
    ("start_failed", {"crawl/start_requests": 1}, 6),
    (None, {"crawl/start_requests": 1}, 1),
])
def test_exit_code_of_a_limit_reached_before_any_start_url_answered(
        reason: str | None, stats: dict[str, int] | None, code: int) -> None:
    assert exit_code_for(reason, stats) == code


@pytest.mark.parametrize(("paths", "exit_code", "stored"), [
    (["/hang"], 3, set()),                 # the only start URL never answers
    (["/hang", "/ok/1"], 0, {"/ok/1"}),    # what must stay: one start URL answered
])
def test_a_time_limit_reached_before_any_start_url_answered_fails_the_crawl(
        paths: list[str], exit_code: int, stored: set[str], tmp_path: Path) -> None:
    """``-s CLOSESPIDER_TIMEOUT=2`` and a start URL whose server accepts the connection and
    never answers: the limit stopped a crawl that had done nothing, and it exited 0 with
    nothing stored (``closespider_timeout``, "errors: none"). It exits 3 now, as a start URL
    that does not answer does, with one ERROR line; a crawl stopped by the limit after a start
    URL answered still exits 0."""
    server = HostileServer().start()
    try:
        result = run_crawl(",".join(server.base + p for p in paths), tmp_path,
                           spider_args={"render": "never", "sitemaps": "false",
                                        "max_depth": "0"},
                           settings={**FAST, "CLOSESPIDER_TIMEOUT": 2, "DOWNLOAD_TIMEOUT": 4})
    finally:
        server.stop()
    assert result.stats["finish_reason"] == "closespider_timeout", result.log[-3000:]
    assert result.returncode == exit_code, result.log[-3000:]
    assert {r["url"].removeprefix(server.base) for r in result.rows("url")} == stored
    assert f"(closespider_timeout, exit code {exit_code})" in result.log
    said = result.log.count("before any start URL answered")
    if exit_code:
        assert said == 1 and f"{server.base}/hang" in result.log
        assert result.stats["crawl/start_timed_out"] == 1
        assert "errors: start_timed_out=1" in result.log
    else:
        assert said == 0 and "crawl/start_timed_out" not in result.stats
    assert "Traceback" not in result.log


@pytest.mark.parametrize(("meta", "followed"), [({}, True), ({"dont_redirect": True}, False)])
def test_a_refresh_header_is_followed_as_a_meta_refresh_is(meta: dict, followed: bool) -> None:
    """The HTTP ``Refresh`` header is followed where a ``<meta http-equiv=refresh>`` would be,
    and not for a request that asks for no redirect (the page itself is then the answer)."""
    from scrapy import Request
    from scrapy.http import HtmlResponse
    from scrapy.utils.test import get_crawler

    from crawler.middlewares.redirects import LoopAwareMetaRefreshMiddleware

    middleware = LoopAwareMetaRefreshMiddleware.from_crawler(
        get_crawler(settings_dict=project_settings()))
    request = Request("http://site.example/old", meta=meta)
    response = HtmlResponse("http://site.example/old", request=request, encoding="utf-8",
                            headers={"Refresh": "0; url=/new"},
                            body=b"<html><body><p>Moved.</p></body></html>")
    result = middleware.process_response(request, response)
    if followed:
        assert isinstance(result, Request) and result.url == "http://site.example/new"
    else:
        assert result is response


@pytest.mark.parametrize(("head", "target"), [
    ('<meta http-equiv="refresh" content=\'0; URL = "/new"\'>', "/new"),  # spaces, quotes
    ("<meta http-equiv=refresh content=\"0, url = '/new' more\">", "/new"),
    ('<meta http-equiv="Refresh" content="0 url=/new">', "/new"),
    ('<meta http-equiv="refresh" content="0; /new">', "/new"),  # no url= at all
    ('<meta http-equiv="refresh" content="0; url=/plain">', "/plain"),  # w3lib's own
    ('<meta http-equiv="refresh" content="60">', None),  # a page reloading itself
    ('<meta http-equiv="refresh" content="url=/new">', None),  # no delay: browsers ignore it
    ('<noscript><meta http-equiv="refresh" content="0; URL = \'/new\'"></noscript>', None),
    # past the characters Scrapy's meta refresh reads (REFRESH_SCAN_CHARS), as before
    ("<!--" + "x" * 5000 + '--><meta http-equiv="refresh" content="0; URL = \'/new\'">', None),
])
def test_a_meta_refresh_is_read_as_browsers_read_it(head: str, target: str | None) -> None:
    """The standard's refresh steps: spaces around ``=``, a quoted URL, a comma or a space
    after the delay, no ``url=``; a refresh in ``<noscript>`` stays ignored, as Scrapy's is."""
    from scrapy import Request
    from scrapy.http import HtmlResponse
    from scrapy.utils.test import get_crawler

    from crawler.middlewares.redirects import LoopAwareMetaRefreshMiddleware

    middleware = LoopAwareMetaRefreshMiddleware.from_crawler(
        get_crawler(settings_dict=project_settings()))
    request = Request("http://site.example/old")
    response = HtmlResponse("http://site.example/old", request=request, encoding="utf-8",
                            body=f"<html><head>{head}</head><body><p>Moved.</p></body></html>"
                            .encode())
    result = middleware.process_response(request, response)
    if target is None:
        assert result is response
    else:
        assert isinstance(result, Request) and result.url == "http://site.example" + target
