"""Re-crawls of a site that changes between crawls: conditional requests, sitemap lastmod, content
hashes and versions, gone pages, the summary and ``changes`` (see tests/changing_site.py)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode
from urllib.request import urlopen

import pytest

from crawler.content_hash import content_hash
from tests.changing_site import ChangingSiteServer, Hit, etag_of
from tests.conftest import REPO_ROOT, CrawlResult, run_crawl
from tests.test_scrapyd import PROJECT, Scrapyd, deploy, scrapyd, wait_until_finished  # noqa: F401

#: Extraction in threads: the crawls here are small and start-up dominates.
SETTINGS = {"EXTRACTION_EXECUTOR": "thread", "EXTRACTION_WORKERS": 1}


@pytest.fixture
def site() -> Iterator[ChangingSiteServer]:
    server = ChangingSiteServer()
    yield server
    server.stop()


def crawl(site: ChangingSiteServer, workdir: Path, name: str, **spider_args: Any,
          ) -> tuple[CrawlResult, list[Hit]]:
    """Crawl the site into ``workdir/crawl.db``; the result and the requests it made."""
    start = site.hit_count()
    result = run_crawl(site.origin + "/", workdir, feed_name=f"{name}.jsonl", settings=SETTINGS,
                       spider_args={"render": "never", **spider_args})
    assert result.returncode == 0, result.log[-3000:]
    return result, site.hits_since(start)


def rows(result: CrawlResult) -> dict[str, dict[str, Any]]:
    return {r["url"].split(":", 2)[2].split("/", 1)[1]: r for r in result.rows(
        "url, etag, last_modified, content_hash, content_text, first_seen, last_seen, "
        "last_changed, gone_at, fetched_at")}


def versions(result: CrawlResult) -> dict[str, list[str]]:
    conn = sqlite3.connect(result.db_path)
    try:
        found: dict[str, list[str]] = {}
        for url, text in conn.execute("SELECT url, content_text FROM page_versions "
                                      "ORDER BY replaced_at DESC, id DESC"):
            found.setdefault("/" + url.split("/", 3)[3], []).append(text)
        return found
    finally:
        conn.close()


def paths(hits: list[Hit], status: int | None = None) -> list[str]:
    return sorted(h.path for h in hits if status is None or h.status == status)


def extracted(result: CrawlResult) -> int:
    return sum(v for k, v in result.stats.items() if k.startswith("extraction/method/"))


def summary(result: CrawlResult) -> dict[str, int]:
    return {k: result.stats.get(f"summary/{k}", 0) for k in ("new", "changed", "unchanged", "gone")}


def test_recrawl_fetches_and_extracts_only_what_changed(site: ChangingSiteServer,
                                                        tmp_path: Path) -> None:
    first, first_hits = crawl(site, tmp_path, "first")
    assert summary(first) == {"new": 7, "changed": 0, "unchanged": 0, "gone": 0}
    assert extracted(first) == 7
    before = rows(first)
    assert set(before) == {"", "a", "b", "c", "d", "s", "t"}
    for path, row in before.items():
        assert row["first_seen"] == row["last_seen"] == row["last_changed"], path
        assert row["content_hash"] == content_hash(row["content_text"]) and row["content_text"]
        assert row["etag"] and row["last_modified"] and row["gone_at"] is None
    assert not any(h.if_none_match for h in first_hits)  # nothing stored yet: no validators

    site.state.version = 2
    # Stored times have whole seconds: the second crawl starts in a later second than the
    # first one's last row, or `changes --since` its start (below) lists the first crawl's
    # pages written in that same second as well.
    time.sleep(1)
    second, hits = crawl(site, tmp_path, "second")
    assert summary(second) == {"new": 1, "changed": 2, "unchanged": 3, "gone": 2}
    stats = second.stats
    assert stats["recrawl/not_modified"] == 1  # /a
    assert stats["recrawl/sitemap_unchanged"] == 1  # /s
    assert stats["recrawl/same_hash"] == 1  # the home page: new navigation, same main text
    assert stats["recrawl/gone/http_404"] == 1 and stats["recrawl/gone/not_reached"] == 1
    assert "1 new, 2 changed, 3 unchanged, 2 gone" in second.log
    # Only new and changed pages (and the home page, whose bytes changed) were extracted.
    assert extracted(second) == 4
    assert sorted(i["url"].removeprefix(site.origin) for i in second.items) == ["/", "/b", "/e",
                                                                               "/t"]
    # Validators went back for the stored pages; /s was not requested at all.
    a_request = next(h for h in hits if h.path == "/a")
    assert a_request.if_none_match == etag_of(site.versions[1].pages["/a"][0])
    assert a_request.if_modified_since == before["a"]["last_modified"]
    assert paths(hits, 304) == ["/a"]
    assert "/s" not in paths(hits) and "/t" in paths(hits, 200)
    assert "/c" in paths(hits, 404), "/c is linked from the stored copy of /a"
    assert "/d" not in paths(hits), "/d is no longer linked"

    after = rows(second)
    assert set(after) == set(before) | {"e"}  # nothing deleted
    assert after["c"]["gone_at"] and after["d"]["gone_at"]
    assert all(after[p]["gone_at"] is None for p in ("", "a", "b", "e", "s", "t"))
    for path in ("b", "t"):
        assert after[path]["last_changed"] > before[path]["last_changed"]
        assert after[path]["first_seen"] == before[path]["first_seen"]
        assert after[path]["content_hash"] != before[path]["content_hash"]
    for path in ("", "a", "s"):
        assert after[path]["last_changed"] == before[path]["last_changed"]
        assert after[path]["content_hash"] == before[path]["content_hash"]
        assert after[path]["last_seen"] > before[path]["last_seen"]
    assert after["a"]["fetched_at"] > before["a"]["fetched_at"]  # confirmed by the 304
    assert after["s"]["fetched_at"] == before["s"]["fetched_at"]  # only the sitemap said so
    assert after["e"]["first_seen"] == after["e"]["last_changed"] > before["a"]["first_seen"]
    assert versions(second) == {"/b": [before["b"]["content_text"]],
                                "/t": [before["t"]["content_text"]]}

    since = second.stats["start_time"]  # e.g. 2026-11-24 02:10:00.123456+00:00
    listed = subprocess.run([sys.executable, "-m", "crawler", "changes", str(second.db_path),
                             "--since", since, "--json"], cwd=REPO_ROOT, capture_output=True,
                            text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    changes = sorted((c["change"], c["url"].removeprefix(site.origin))
                     for c in map(json.loads, listed.stdout.splitlines()))
    assert changes == [("changed", "/b"), ("changed", "/t"), ("gone", "/c"), ("gone", "/d"),
                       ("new", "/e")]

    # refresh=all: no validators, no sitemap shortcut, every live page fetched and extracted.
    third, hits = crawl(site, tmp_path, "third", refresh="all")
    assert not any(h.if_none_match or h.if_modified_since for h in hits)
    assert set(paths(hits, 200)) == {"/", "/a", "/b", "/e", "/robots.txt", "/s", "/sitemap.xml",
                                     "/t"}
    assert extracted(third) == 6
    assert summary(third) == {"new": 0, "changed": 0, "unchanged": 6, "gone": 0}
    assert rows(third)["c"]["gone_at"] == after["c"]["gone_at"]  # gone once, date kept


def test_server_ignoring_validators_is_recognised_by_its_bytes(site: ChangingSiteServer,
                                                               tmp_path: Path) -> None:
    site.state.honour_validators = False
    crawl(site, tmp_path, "first")
    second, hits = crawl(site, tmp_path, "second")
    assert paths(hits, 304) == []
    assert second.stats["recrawl/same_body"] == 5  # /, /a, /b, /c, /d fetched again
    assert second.stats["recrawl/sitemap_unchanged"] == 2  # /s, /t
    assert summary(second) == {"new": 0, "changed": 0, "unchanged": 7, "gone": 0}
    assert extracted(second) == 0 and second.items == []
    assert all(r["gone_at"] is None for r in rows(second).values())


def test_a_304_for_a_url_never_stored_is_fetched_again(site: ChangingSiteServer,
                                                       tmp_path: Path) -> None:
    site.state.version = 2
    site.state.wrong_304 = {"/e"}
    first, hits = crawl(site, tmp_path, "first")
    e_hits = [h for h in hits if h.path == "/e"]
    assert [h.status for h in e_hits] == [304, 200]
    assert first.stats["recrawl/unexpected_304"] == 1
    assert "e" in rows(first) and rows(first)["e"]["content_text"]
    assert "errors/http_304" not in first.stats
    assert summary(first)["new"] == 6  # /, /a, /b, /e, /s, /t (/c is 404, /d unlinked)


def test_a_paused_crawl_does_not_mark_the_pages_of_its_first_run_gone(
        site: ChangingSiteServer, tmp_path: Path) -> None:
    crawl(site, tmp_path, "first")
    site.state.version = 2
    jobdir = tmp_path / "job"
    paused = run_crawl(site.origin + "/", tmp_path, feed_name="paused.jsonl",
                       settings={**SETTINGS, "JOBDIR": jobdir, "CLOSESPIDER_PAGECOUNT": 3,
                                 "CONCURRENT_REQUESTS": 1},
                       spider_args={"render": "never"})
    assert paused.returncode == 0, paused.log[-3000:]
    assert "not marked gone: the crawl ended early (closespider_pagecount)" in paused.log
    assert all(r["gone_at"] is None for r in rows(paused).values())
    resumed = run_crawl(site.origin + "/", tmp_path, feed_name="resumed.jsonl",
                        settings={**SETTINGS, "JOBDIR": jobdir}, spider_args={"render": "never"})
    assert resumed.returncode == 0, resumed.log[-3000:]
    gone = {p for p, r in rows(resumed).items() if r["gone_at"]}
    assert gone == {"c", "d"}
    assert not (jobdir / "recrawl-started").exists()


def test_nightly_scrapyd_jobs_share_one_database_and_list_the_changes(
        site: ChangingSiteServer, tmp_path: Path, scrapyd: Scrapyd) -> None:
    """The README's cron example: a job every night into one database, `changes` each morning."""
    deployed = deploy(scrapyd, tmp_path)
    assert deployed.returncode == 0, deployed.stdout + deployed.stderr
    database = tmp_path / "crawls" / "docs.db"
    for night, version in (("night-1", 1), ("night-2", 2)):
        site.state.version = version
        fields = [("project", PROJECT), ("spider", "domain"), ("jobid", night),
                  ("start", site.origin + "/"), ("render", "never"),
                  ("setting", f"SQLITE_PATH={database}"),
                  ("setting", "AUTOTHROTTLE_ENABLED=false"),
                  ("setting", "EXTRACTION_EXECUTOR=thread")]
        # Scrapyd lists the egg's spiders in a subprocess before it answers: slow on a busy
        # machine, so this waits longer than the fixture's 10 s.
        with urlopen(f"{scrapyd.url}schedule.json", data=urlencode(fields).encode(),
                     timeout=120) as answer:
            scheduled = json.load(answer)
        assert scheduled["status"] == "ok"
        wait_until_finished(scrapyd, night)
    log = (scrapyd.home / "logs" / PROJECT / "domain" / "night-2.log").read_text()
    assert "1 new, 2 changed, 3 unchanged, 2 gone" in log and "Traceback" not in log
    conn = sqlite3.connect(database)
    try:
        night_two = conn.execute("SELECT min(last_seen) FROM pages WHERE gone_at IS NULL "
                                 "AND last_seen > first_seen").fetchone()[0]
    finally:
        conn.close()
    morning = subprocess.run([sys.executable, "-m", "crawler", "changes", str(database),
                              "--since", night_two], cwd=REPO_ROOT, capture_output=True,
                             text=True, timeout=60)
    assert morning.returncode == 0, morning.stderr
    listed = sorted((line.split("\t")[1], line.split("\t")[2].removeprefix(site.origin))
                    for line in morning.stdout.splitlines())
    assert listed == [("changed", "/b"), ("changed", "/t"), ("gone", "/c"), ("gone", "/d"),
                      ("new", "/e")]


@pytest.mark.parametrize("stored_second_ago", [0, 5])
def test_a_crawl_starts_after_the_second_its_database_last_saw_a_page(
        tmp_path: Path, stored_second_ago: int) -> None:
    """Times are stored in whole seconds: a crawl starting in the second the previous one last saw
    a page would take that page for seen by itself (and not mark it gone)."""
    from datetime import UTC, datetime, timedelta

    from crawler.extensions.recrawl import last_seen_stored, start_after_stored
    from crawler.history import stored_time
    from crawler.storage import open_database

    path = tmp_path / "crawl.db"
    assert last_seen_stored(path) is None  # no database yet
    db = open_database(path)
    seen = stored_time(datetime.now(UTC) - timedelta(seconds=stored_second_ago))
    db.conn.execute("INSERT INTO pages (url, last_seen, fetched_at) VALUES (?, ?, ?)",
                    ["http://127.0.0.1/d", seen, seen])
    db.conn.commit()
    db.conn.close()
    assert last_seen_stored(path) == seen
    started = start_after_stored(path)
    assert started > seen  # strictly later, in stored form: the sweep's comparison
    if stored_second_ago:
        assert started <= stored_time(datetime.now(UTC))  # no wait was needed
