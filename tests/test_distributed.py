"""Distributed crawl on scrapy-redis with a real redis-server: workers, one frontier, merge."""

from __future__ import annotations

import pickle
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT, CrawlResult, crawl_command, read_crawl, run_crawl
from tests.hostile.server import HostileServer
from tests.linked_site import build_linked_site
from tests.ports import closed_port
from tests.redis_server import RedisServer, redis_server_binary

PAGES = 300
WORKERS = 2
#: Short, so the test does not wait long once the frontier is empty (the default is 30 s).
IDLE_TIMEOUT = 3

BINARY = redis_server_binary()
needs_redis = pytest.mark.skipif(
    BINARY is None, reason="redis-server is not installed (Debian package redis-server; "
                           "`make test` installs it)")


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A redis-server of its own on a free 127.0.0.1 port, without persistence."""
    assert BINARY is not None
    server = RedisServer(tmp_path / "redis", BINARY).start()
    yield server
    server.stop()


def run_workers(start: str, workdir: Path, redis_url: str, count: int) -> list[CrawlResult]:
    """Run ``count`` crawler processes at once against one Redis frontier; wait for all."""
    processes = []
    for n in range(1, count + 1):
        command = crawl_command(start, workdir, feed_name=f"items-{n}.jsonl",
                                db_name=f"shard-{n}.db",
                                settings={"REDIS_URL": redis_url,
                                          "REDIS_IDLE_TIMEOUT": IDLE_TIMEOUT})
        processes.append(subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT, text=True))
    results = []
    for n, process in enumerate(processes, start=1):
        log, _ = process.communicate(timeout=240)
        results.append(read_crawl(process.returncode, log, workdir, f"items-{n}.jsonl",
                                  f"shard-{n}.db"))
    return results


def merge(shards: list[Path], output: Path) -> subprocess.CompletedProcess[str]:
    """``python -m crawler merge SHARDS -o OUTPUT``."""
    return subprocess.run([sys.executable, "-m", "crawler", "merge", *map(str, shards),
                           "-o", str(output)], cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=120)


def boilerplate_stats(db_path: Path) -> list[dict[str, Any]]:
    """The `domain_boilerplate` rows (hashes included), without timestamps."""
    conn = sqlite3.connect(db_path)
    conn.row_factory = sqlite3.Row
    try:
        rows = [dict(r) for r in conn.execute("SELECT * FROM domain_boilerplate ORDER BY domain")]
    finally:
        conn.close()
    for row in rows:
        row.pop("created_at", None)
        row.pop("updated_at", None)
    return rows


def cleaned_contents(db_path: Path) -> dict[str, str]:
    conn = sqlite3.connect(db_path)
    try:
        return dict(conn.execute("SELECT url, cleaned_content FROM pages"))
    finally:
        conn.close()


@needs_redis
def test_two_workers_fetch_every_page_once_and_merge_to_a_single_process_result(
        tmp_path: Path, serve_site: Any, redis_server: RedisServer) -> None:
    paths = build_linked_site(tmp_path / "site", PAGES)
    server = serve_site(tmp_path / "site")
    page_urls = {server.url(p) for p in paths}

    workers = run_workers(server.url("/"), tmp_path / "distributed", redis_server.url, WORKERS)
    for worker in workers:
        assert worker.returncode == 0, worker.log[-3000:]
        assert "Shared frontier stayed empty" in worker.log
    fetched = server.request_counts()

    # Every page fetched exactly once in total; the start page and the sitemap too, although
    # each worker asked for them at start (only robots.txt is read by every worker: each one
    # needs the rules to obey them).
    assert {p: fetched[p] for p in paths if fetched[p] != 1} == {}
    assert fetched["/sitemap.xml"] == 1
    assert sum(n for p, n in fetched.items() if p.endswith((".html", "/"))) == PAGES

    # The work was split: each worker stored a share, and no page is in two shards.
    shard_urls = [{row["url"] for row in worker.rows("url")} for worker in workers]
    assert all(len(urls) >= PAGES // 10 for urls in shard_urls), [len(u) for u in shard_urls]
    assert not shard_urls[0] & shard_urls[1]
    assert shard_urls[0] | shard_urls[1] == page_urls
    assert sorted(len(w.items) for w in workers) == sorted(len(u) for u in shard_urls)

    # The frontier's keys outlive the workers until redis-clear removes them.
    client = redis_server.client()
    assert client.scard("domain:dupefilter") >= PAGES
    cleared = subprocess.run([sys.executable, "-m", "crawler", "redis-clear", redis_server.url],
                             cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert cleared.returncode == 0, cleared.stderr
    assert client.keys("domain:*") == []

    merged_path = tmp_path / "crawl.db"
    merged = merge([w.db_path for w in workers], merged_path)
    assert merged.returncode == 0, merged.stderr
    assert {row for row in cleaned_contents(merged_path)} == page_urls

    # The same site crawled by one process without Redis (nothing distributed switches on):
    # its own boilerplate analysis at close finds what the merge found.
    single = run_crawl(server.url("/"), tmp_path / "single")
    assert single.returncode == 0, single.log[-3000:]
    assert "Distributed crawl" not in single.log
    assert not any(key.startswith("scheduler/enqueued/redis") for key in single.stats)
    assert {row["url"] for row in single.rows("url")} == page_urls

    stats = boilerplate_stats(merged_path)
    assert stats == boilerplate_stats(single.db_path)
    assert stats[0]["pages_analyzed"] == PAGES and stats[0]["blocks_boilerplate"] >= 1
    assert cleaned_contents(merged_path) == cleaned_contents(single.db_path)


@needs_redis
def test_redis_clear_refuses_while_requests_are_queued(redis_server: RedisServer) -> None:
    client = redis_server.client()
    client.zadd("domain:requests", {b"pending-request": 0})
    client.sadd("domain:dupefilter", "0" * 40)
    command = [sys.executable, "-m", "crawler", "redis-clear", redis_server.url]
    refused = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1
    assert "1 requests are still queued" in refused.stderr
    assert sorted(client.keys("domain:*")) == [b"domain:dupefilter", b"domain:requests"]
    forced = subprocess.run(command + ["--force"], cwd=REPO_ROOT, capture_output=True, text=True,
                            timeout=60)
    assert forced.returncode == 0, forced.stderr
    assert "deleted 2 keys" in forced.stdout
    assert client.keys("domain:*") == []



@pytest.mark.parametrize("settings, sentence", [
    ({"REDIS_URL": "http://127.0.0.1:6379/0"},
     "REDIS_URL='http://127.0.0.1:6379/0': expected redis://HOST:PORT/DB"),
    ({"REDIS_URL": "redis://127.0.0.1:{closed_port}/0"},
     "cannot reach Redis at redis://127.0.0.1:"),
    ({"REDIS_URL": "redis://127.0.0.1:{closed_port}/0", "REDIS_IDLE_TIMEOUT": "soon"},
     "REDIS_IDLE_TIMEOUT='soon': expected a number of seconds"),
])
def test_a_bad_redis_setting_stops_the_crawl_with_a_sentence(
        tmp_path: Path, serve_site: Any, settings: dict[str, str], sentence: str) -> None:
    paths = build_linked_site(tmp_path / "site", 5)
    server = serve_site(tmp_path / "site")
    with closed_port() as port:
        result = run_crawl(server.url("/"), tmp_path / "crawl",
                           settings={k: v.format(closed_port=port) for k, v in settings.items()})
    assert "Cannot start the distributed crawl: " + sentence in result.log
    assert "Traceback" not in result.log
    assert "Spider closed (redis_unavailable)" in result.log
    assert result.items == [] and not any(server.request_counts()[p] for p in paths)


@needs_redis
@pytest.mark.parametrize("first, second", [
    ("http://site.example/a", "http://site.example/a?utm_source=newsletter"),
    ("http://site.example/a#intro", "http://site.example/a"),
    ("http://site.example/list?b=2&a=1", "http://Site.Example:80/list?a=1&b=2"),
])
def test_a_url_seen_by_one_worker_is_seen_by_every_worker_under_any_spelling(
        redis_server: RedisServer, first: str, second: str) -> None:
    from scrapy import Request
    from scrapy.utils.test import get_crawler

    from crawler.distributed.dupefilter import CanonicalRedisDupeFilter
    from crawler.spiders.domain import DomainSpider
    from tests.conftest import project_settings

    settings = project_settings(
        REDIS_URL=redis_server.url,
        REQUEST_FINGERPRINTER_CLASS="crawler.fingerprint.CanonicalRequestFingerprinter")
    workers = []
    for _ in range(2):
        crawler = get_crawler(DomainSpider, settings)
        spider = DomainSpider.from_crawler(crawler, start="http://site.example/", render="never")
        workers.append(CanonicalRedisDupeFilter.from_spider(spider))
    assert workers[0].request_seen(Request(first)) is False
    assert workers[1].request_seen(Request(second)) is True
    assert workers[1].request_seen(Request("http://site.example/other")) is False
    assert redis_server.client().scard("domain:dupefilter") == 2


@needs_redis
def test_a_scope_widened_by_one_worker_is_learnt_by_the_others(
        tmp_path: Path, redis_server: RedisServer) -> None:
    """The start URL is redirected to the site's other name (``www.``): the worker that follows
    it widens the crawl's scope and queues that name's pages. A worker that then takes them
    from the shared queue dropped them as off-site (and, marked seen, nobody fetched them); it
    now reads the widened scope from Redis and crawls them. The first worker stops after its
    first page (one request at a time, slowly), so the second finds the others queued."""
    server = HostileServer().start()
    server.sitemap_paths = []
    start = "http://hostile.test/canonical-host/www/"
    home = "http://www.hostile.test/canonical-host/www/"
    env = {"http_proxy": server.base, "no_proxy": "", "NO_PROXY": ""}
    shared = {"REDIS_URL": redis_server.url, "REDIS_IDLE_TIMEOUT": IDLE_TIMEOUT,
              "AUTOTHROTTLE_ENABLED": False}
    try:
        first = run_crawl(start, tmp_path, env=env, feed_name="items-1.jsonl",
                          db_name="shard-1.db",
                          spider_args={"render": "never", "sitemaps": "false", "max_pages": "1"},
                          settings={**shared, "CONCURRENT_REQUESTS": 1, "DOWNLOAD_DELAY": 3})
        queued = set(queued_urls(redis_server))
        second = run_crawl(start, tmp_path, env=env, feed_name="items-2.jsonl",
                           db_name="shard-2.db",
                           spider_args={"render": "never", "sitemaps": "false"},
                           settings=shared)
    finally:
        server.stop()
    assert first.returncode == second.returncode == 0, (first.log[-2000:], second.log[-2000:])
    assert first.stats["crawl/scope_widened"] == 1
    assert [r["url"] for r in first.rows("url")] == [home]
    left = {home + "a", home + "b"} & queued  # what the first worker left in the queue
    assert left, queued
    # what must stay: every page of the other name left queued, crawled by the second worker
    assert {r["url"] for r in second.rows("url")} >= left
    assert second.stats["crawl/scope_learnt"] == 1
    assert "offsite/filtered" not in second.stats, second.stats
    assert "crawl/scope_widened" not in second.stats  # the start URL was the first's
    assert second.log.count("the same site under its other name") == 1
    assert redis_server.client().smembers("domain:scope") == {b"hostile.test www.hostile.test"}


def queued_urls(redis_server: RedisServer) -> list[str]:
    """The URLs of the requests waiting in the shared queue (scrapy-redis's pickled dicts)."""
    client = redis_server.client()
    return [pickle.loads(raw)["url"] for raw in client.zrange("domain:requests", 0, -1)]
