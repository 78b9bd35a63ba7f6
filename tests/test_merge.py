"""``python -m crawler merge``: shards upserted by URL (newest fetch wins), then dedup."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from crawler.storage import decompress_html, open_database, upsert_page

REPO_ROOT = Path(__file__).resolve().parent.parent

BANNER = ("We use cookies to improve this site. Read the cookie policy to learn which ones and "
          "why, then choose what to accept.")
DOMAIN = "docs.example"


def page(path: str, fetched_at: str, body: str) -> dict[str, object]:
    """A stored page row whose markdown ends with the domain's cookie banner."""
    return {
        "url": f"https://{DOMAIN}{path}",
        "domain": DOMAIN,
        "status": 200,
        "fetched_at": fetched_at,
        "rendered": False,
        "content_type": "text/html",
        "encoding": "utf-8",
        "title": body.split(".")[0],
        "content_markdown": f"{body}\n\n{BANNER}",
        "content_text": f"{body}\n\n{BANNER}",
        "word_count": len(body.split()),
    }


def write_shard(path: Path, rows: list[dict[str, object]]) -> Path:
    """A crawl database holding ``rows``, written through the storage module like a crawl does."""
    db = open_database(path)
    for row in rows:
        upsert_page(db, row, f"<html><body>{row['content_text']}</body></html>".encode())
    db.close()
    return path


def unique_body(n: int, version: str = "first") -> str:
    """A paragraph long enough to be a block, different for every page (and version)."""
    return (f"Page {n} ({version} fetch) explains topic number {n} in its own words, with an "
            f"example that no other page of this documentation repeats.")


def run_merge(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """``python -m crawler merge ...`` from the project root, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "crawler", "merge", *map(str, args)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)


def rows_by_url(path: Path, columns: str) -> dict[str, sqlite3.Row]:
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        return {r["url"]: r for r in conn.execute(f"SELECT url, {columns} FROM pages")}
    finally:
        conn.close()


@pytest.fixture
def shards(tmp_path: Path) -> list[Path]:
    """Three shards: pages 0-5, 4-9 (4 and 5 refetched later) and page 9 fetched earliest."""
    one = write_shard(tmp_path / "shard-1.db", [
        page(f"/p{n}", "2026-11-20T10:00:00+00:00", unique_body(n)) for n in range(6)])
    two = write_shard(tmp_path / "shard-2.db", [
        page(f"/p{n}", "2026-11-20T11:00:00+00:00", unique_body(n, "second"))
        for n in range(4, 10)])
    three = write_shard(tmp_path / "shard-3.db", [
        page("/p9", "2026-11-20T09:00:00+00:00", unique_body(9, "stale"))])
    return [one, two, three]


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 2, 0)])
def test_merge_keeps_the_newest_fetch_of_every_url_in_any_order(
        shards: list[Path], tmp_path: Path, order: tuple[int, ...]) -> None:
    out = tmp_path / "crawl.db"
    result = run_merge(*[shards[i] for i in order], "-o", out)
    assert result.returncode == 0, result.stderr
    rows = rows_by_url(out, "fetched_at, content_text, raw_html")
    assert sorted(rows) == sorted(f"https://{DOMAIN}/p{n}" for n in range(10))
    for n in range(10):
        row = rows[f"https://{DOMAIN}/p{n}"]
        version = "second" if n >= 4 else "first"
        assert row["content_text"].startswith(unique_body(n, version)), n
        assert decompress_html(row["raw_html"]).decode().find(f"({version} fetch)") > 0
    assert f"{out}: 10 pages" in result.stdout


def test_merge_reports_what_each_shard_contributed(shards: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "crawl.db"
    result = run_merge(*shards, "-o", out)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert f"{shards[0]}: 6 pages, 6 new, 0 replaced by a newer fetch, 0 older and skipped" in lines
    assert f"{shards[1]}: 6 pages, 4 new, 2 replaced by a newer fetch, 0 older and skipped" in lines
    assert f"{shards[2]}: 1 pages, 0 new, 0 replaced by a newer fetch, 1 older and skipped" in lines


def test_merge_runs_the_boilerplate_analysis_on_the_merged_pages(
        shards: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "crawl.db"
    result = run_merge(*shards, "-o", out)
    assert result.returncode == 0, result.stderr
    conn = sqlite3.connect(out)
    try:
        pages_analyzed, boilerplate = conn.execute(
            "SELECT pages_analyzed, blocks_boilerplate FROM domain_boilerplate WHERE domain = ?",
            [DOMAIN]).fetchone()
        cleaned = dict(conn.execute("SELECT url, cleaned_content FROM pages"))
    finally:
        conn.close()
    # Each shard alone holds at most six pages; the merged analysis sees all ten.
    assert (pages_analyzed, boilerplate) == (10, 1)
    for url, text in cleaned.items():
        assert BANNER not in text, url
        assert "in its own words" in text, url
    assert f"dedup {DOMAIN}: 10 pages, 1 boilerplate blocks" in result.stdout


def test_no_dedup_leaves_cleaned_content_alone(shards: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "crawl.db"
    result = run_merge(*shards, "-o", out, "--no-dedup")
    assert result.returncode == 0, result.stderr
    rows = rows_by_url(out, "cleaned_content")
    assert len(rows) == 10 and all(r["cleaned_content"] is None for r in rows.values())


def test_merging_into_an_existing_database_keeps_its_newer_rows(
        shards: list[Path], tmp_path: Path) -> None:
    out = write_shard(tmp_path / "crawl.db", [
        page("/p0", "2026-11-21T08:00:00+00:00", unique_body(0, "latest"))])
    result = run_merge(shards[0], "-o", out)
    assert result.returncode == 0, result.stderr
    rows = rows_by_url(out, "content_text")
    assert len(rows) == 6
    assert rows[f"https://{DOMAIN}/p0"]["content_text"].startswith(unique_body(0, "latest"))


def test_a_column_only_a_shard_has_is_carried_over(shards: list[Path], tmp_path: Path) -> None:
    conn = sqlite3.connect(shards[2])
    conn.execute("ALTER TABLE pages ADD COLUMN crawl_job TEXT")
    conn.execute("UPDATE pages SET crawl_job = 'job-3'")
    conn.commit()
    conn.close()
    out = tmp_path / "crawl.db"
    result = run_merge(shards[2], "-o", out)
    assert result.returncode == 0, result.stderr
    assert rows_by_url(out, "crawl_job")[f"https://{DOMAIN}/p9"]["crawl_job"] == "job-3"


@pytest.mark.parametrize("case, message", [
    ("missing", "no such database file"),
    ("output_is_shard", "is both a shard and the output"),
    ("not_a_crawl", "not a crawl database"),
    ("bad_dedup_option", "--threshold-pct must be a number from 0.1 to 1.0"),
])
def test_bad_shards_stop_the_merge_with_a_sentence(
        shards: list[Path], tmp_path: Path, case: str, message: str) -> None:
    out = tmp_path / "crawl.db"
    if case == "missing":
        args = [shards[0], tmp_path / "nope.db", "-o", out]
    elif case == "output_is_shard":
        args = [shards[0], "-o", shards[0]]
    elif case == "bad_dedup_option":
        args = [shards[0], "-o", out, "--threshold-pct", "5"]
    else:
        other = tmp_path / "other.db"
        sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
        args = [other, "-o", out]
    result = run_merge(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_each_shards_crawl_record_is_carried_over(shards: list[Path], tmp_path: Path) -> None:
    from crawler.crawls import read_crawls, record_crawl

    for number, shard in enumerate(shards[:2], start=1):
        db = open_database(shard)
        record_crawl(db, spider="domain", start_urls=[f"https://{DOMAIN}/"],
                     started_at=f"2026-11-20T0{number}:00:00+00:00",
                     finished_at=f"2026-11-20T0{number}:30:00+00:00", close_reason="finished",
                     stats={"summary/pages_stored": 6, "worker": number})
        db.close()
    out = tmp_path / "merged.db"
    assert run_merge(*shards, "-o", out).returncode == 0
    db = open_database(out)
    try:
        records = read_crawls(db)
    finally:
        db.close()
    # both workers' records (the third shard has none), in order; the pages are still merged
    assert [r.stats["worker"] for r in records] == [1, 2]
    assert [r.started_at for r in records] == ["2026-11-20T01:00:00+00:00",
                                               "2026-11-20T02:00:00+00:00"]
    assert len(rows_by_url(out, "title")) == 10
