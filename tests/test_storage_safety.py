"""The crawl database is never lost, corrupted or mistaken: a full disk stops the crawl cleanly,
and a path that cannot hold our database (another application's SQLite file, a directory, a
garbage or empty file, a read-only place) is refused at start and left untouched."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from crawler.database_identity import APPLICATION_ID, SCHEMA_VERSION, DatabaseRefused
from crawler.storage import PAGES_COLUMNS, open_database, upsert_page
from tests.conftest import REPO_ROOT, crawl_command, run_crawl
from tests.filesystems import make_read_only, small_filesystem
from tests.linked_site import build_linked_site

SITE_PAGES = 150


@pytest.fixture(scope="module")
def linked_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("site")
    build_linked_site(root, SITE_PAGES)
    return root


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def log_lines(log: str, needle: str) -> list[str]:
    return [line for line in log.splitlines() if needle in line]


# -- a full disk ---------------------------------------------------------------------------------

def test_full_disk_stops_the_crawl_cleanly(linked_site: Path, serve_site, tmp_path: Path) -> None:
    server = serve_site(linked_site)
    with small_filesystem(tmp_path / "small", 256) as small:
        result = run_crawl(server.url("/"), tmp_path / "out",
                           spider_args={"render": "never"},
                           settings={"SQLITE_PATH": str(small / "crawl.db")})
        stats = result.stats
        # Stopped, with its own close reason, one clear line and no traceback.
        assert stats["finish_reason"] == "storage_error"
        assert result.returncode == 4  # crawler/exit_codes.py: storage_error
        assert "Traceback" not in result.log
        errors = log_lines(result.log, "] ERROR: ")
        assert len(errors) == 1, errors
        assert "Cannot write to the crawl database" in errors[0]
        assert "database or disk is full" in errors[0]
        # Nothing reported as stored that was not: the rows, the stat and the feed agree.
        conn = sqlite3.connect(small / "crawl.db")
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            urls = [r[0] for r in conn.execute("SELECT url FROM pages WHERE content_text != ''")]
        finally:
            conn.close()
    assert 0 < len(urls) < SITE_PAGES
    assert stats["pages/stored"] == len(urls) == stats["summary/pages_stored"]
    assert sorted(result.urls()) == sorted(urls)
    # The pages that reached storage and were not written are counted and summarised.
    assert stats["errors/storage"] >= 1
    assert stats["summary/pages_unstored"] == stats["errors/storage"]
    summary = log_lines(result.log, "Crawl summary (storage_error, exit code 4)")
    assert len(summary) == 1 and f"storage={stats['errors/storage']}" in summary[0]


def test_full_disk_under_the_feed_stops_the_crawl_cleanly(linked_site: Path, serve_site,
                                                          tmp_path: Path) -> None:
    """The JSONL feed on a full disk, the database elsewhere: Scrapy's exporter raised for every
    page after the first failed write (a traceback each), and the crawl ended 'finished', exit
    0, with a feed lacking them. Now: one line, a stat, and the database's exit code 4."""
    server = serve_site(linked_site)
    with small_filesystem(tmp_path / "small", 96) as small:
        command = crawl_command(server.url("/"), small, spider_args={"render": "never"},
                                settings={"SQLITE_PATH": str(tmp_path / "crawl.db"),
                                          "CRAWL_STATS_PATH": str(tmp_path / "stats.json")})
        completed = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True,
                                   timeout=240)
        feed_lines = (small / "items.jsonl").read_bytes().count(b"\n")  # its last one cut
    log = completed.stdout + completed.stderr
    stats = json.loads((tmp_path / "stats.json").read_text())
    assert stats["finish_reason"] == "storage_error"
    assert completed.returncode == 4, log[-3000:]
    assert "Traceback" not in log
    errors = log_lines(log, "] ERROR: ")
    assert len(errors) == 1, errors
    assert f"Cannot write the feed {small / 'items.jsonl'}" in errors[0]
    assert "No space left on device" in errors[0]
    assert stats["errors/feed_storage"] == 1
    # what must stay: the pages stored before and after, in an intact database
    conn = sqlite3.connect(tmp_path / "crawl.db")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = conn.execute("SELECT COUNT(*) FROM pages").fetchone()[0]
    finally:
        conn.close()
    assert stored == stats["pages/stored"] > feed_lines
    summary = log_lines(log, "Crawl summary (storage_error, exit code 4)")
    assert len(summary) == 1 and "feed_storage=1" in summary[0]


# -- paths that cannot hold our database --------------------------------------------------------

def other_application_db(path: Path) -> Path:
    """Another application's SQLite file with a `pages` table keyed differently from ours."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT UNIQUE, title TEXT)")
    conn.execute("INSERT INTO pages (url, title) VALUES ('https://a.example/', 'Theirs')")
    conn.commit()
    conn.close()
    return path


def stamped_other_application(path: Path) -> Path:
    """A SQLite file whose header names another application."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 1234")
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.commit()
    conn.close()
    return path


def newer_crawl_db(path: Path) -> Path:
    """A crawl database written by a later version of the crawler."""
    open_database(path).conn.close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    return path


def garbage_file(path: Path) -> Path:
    path.write_bytes(bytes(range(256)) * 64)
    return path


def empty_file(path: Path) -> Path:
    path.write_bytes(b"")
    return path


def text_file(path: Path) -> Path:
    path.write_text("url,title\nhttps://a.example/,A\n")
    return path


def corrupt_sqlite(path: Path) -> Path:
    path.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 16)
    return path


def directory(path: Path) -> Path:
    path.mkdir()
    return path


def under_regular_file(path: Path) -> Path:
    path.write_text("a regular file")
    return path / "crawl.db"


#: (case, how the path is made, a phrase of the one sentence)
UNUSABLE: list[tuple[str, Callable[[Path], Path], str]] = [
    ("another application's SQLite file", other_application_db,
     "is another application's SQLite database"),
    ("another application's stamped file", stamped_other_application,
     "belongs to another application"),
    ("a crawl database of a newer version", newer_crawl_db, "written by a newer version"),
    ("garbage bytes", garbage_file, "is not a SQLite database"),
    ("a text file", text_file, "is not a SQLite database"),
    ("an empty file", empty_file, "is an empty file"),
    ("a SQLite header over garbage", corrupt_sqlite, "is not a readable SQLite database"),
    ("a directory", directory, "is a directory"),
    ("a path under a regular file", under_regular_file, "is a file, not a directory"),
]


def snapshot(path: Path) -> dict[str, str]:
    """Every file in the folder holding ``path`` (or its first existing ancestor), by digest."""
    folder = path if path.is_dir() else path.parent
    while not folder.exists():
        folder = folder.parent
    if folder.is_file():
        folder = folder.parent
    return {str(p): file_digest(p) if p.is_file() else "dir" for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize(("case", "make", "phrase"), UNUSABLE, ids=[c[0] for c in UNUSABLE])
def test_unusable_database_is_refused_untouched(case: str, make: Callable[[Path], Path],
                                                phrase: str, tmp_path: Path) -> None:
    place = tmp_path / "place"
    place.mkdir()
    path = make(place / "crawl.db")
    before = snapshot(path)
    with pytest.raises(DatabaseRefused, match=phrase):
        open_database(path)
    assert snapshot(path) == before  # not a byte changed, no -wal or -journal file beside it


@pytest.mark.parametrize(("case", "make", "phrase"),
                         [UNUSABLE[0], UNUSABLE[3], UNUSABLE[8]],
                         ids=["foreign sqlite", "garbage", "under a file"])
def test_crawl_refuses_an_unusable_database_at_start(case: str, make: Callable[[Path], Path],
                                                     phrase: str, tmp_path: Path,
                                                     serve_site, linked_site: Path) -> None:
    server = serve_site(linked_site)
    place = tmp_path / "place"
    place.mkdir()
    path = make(place / "crawl.db")
    before = snapshot(path)
    result = run_crawl(server.url("/"), tmp_path / "out", spider_args={"render": "never"},
                       settings={"SQLITE_PATH": str(path)})
    assert result.stats["finish_reason"] == "startup_error"
    refusals = log_lines(result.log, "Cannot start the crawl: SQLITE_PATH:")
    assert len(refusals) == 1 and phrase in refusals[0]
    assert "Traceback" not in result.log and "AssertionError" not in result.log
    assert "never awaited" not in result.log
    assert result.items == []
    assert "/notes/" not in "".join(server.request_counts())  # no page fetched
    assert snapshot(path) == before


def test_read_only_filesystem_is_refused_at_start(tmp_path: Path, serve_site,
                                                  linked_site: Path) -> None:
    server = serve_site(linked_site)
    with small_filesystem(tmp_path / "ro", 512) as mount:
        ours = mount / "ours.db"
        db = open_database(ours)
        upsert_page(db, {"url": "https://a.example/", "title": "Kept"}, b"<p>kept</p>")
        db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.conn.close()
        for sidecar in (mount / "ours.db-wal", mount / "ours.db-shm"):
            sidecar.unlink(missing_ok=True)
        make_read_only(mount)
        before = snapshot(ours)
        for path, phrase in ((mount / "new.db", "cannot be created: Read-only file system"),
                             (ours, "cannot be written (Read-only file system)")):
            result = run_crawl(server.url("/"), tmp_path / "out", spider_args={"render": "never"},
                               settings={"SQLITE_PATH": str(path)})
            assert result.stats["finish_reason"] == "startup_error"
            refusals = log_lines(result.log, "Cannot start the crawl: SQLITE_PATH:")
            assert len(refusals) == 1 and phrase in refusals[0], result.log[-2000:]
            assert "Traceback" not in result.log
        assert snapshot(ours) == before
        assert not (mount / "new.db").exists()
        # Read-only commands can still read it.
        reader = open_database(ours, readonly=True)
        assert [r[0] for r in reader.conn.execute("SELECT title FROM pages")] == ["Kept"]
        reader.conn.close()


# -- our own databases: stamped, versioned, upgraded ---------------------------------------------

def test_new_database_is_stamped_with_our_id_and_version(tmp_path: Path) -> None:
    db = open_database(tmp_path / "crawl.db")
    assert db.conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.conn.close()


def test_database_from_before_the_header_is_upgraded_with_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    # The schema of the first release: the columns of that time, no application id.
    legacy = [c for c in PAGES_COLUMNS if c not in ("cleaned_content",)]
    conn = sqlite3.connect(path)
    conn.execute(f"CREATE TABLE pages ({', '.join(f'[{c}]' for c in legacy)}, "
                 "PRIMARY KEY (url))")
    conn.execute("INSERT INTO pages (url, domain, title) VALUES ('https://a.example/x', "
                 "'a.example', 'Old page')")
    conn.commit()
    conn.close()
    db = open_database(path)
    assert db.conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert "cleaned_content" in db["pages"].columns_dict  # completed on open
    upsert_page(db, {"url": "https://a.example/y", "domain": "a.example", "title": "New"}, b"")
    titles = [r[0] for r in db.conn.execute("SELECT title FROM pages ORDER BY url")]
    db.conn.close()
    assert titles == ["Old page", "New"]


def test_stamped_database_without_tables_is_completed(tmp_path: Path) -> None:
    # A crawl killed between stamping and creating its tables opens again as ours.
    path = tmp_path / "crawl.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.close()
    db = open_database(path)
    assert db["pages"].exists()
    db.conn.close()


def test_foreign_file_is_never_created_by_read_only_opening(tmp_path: Path) -> None:
    with pytest.raises(DatabaseRefused, match="no crawl database at"):
        open_database(tmp_path / "missing.db", readonly=True)
    assert os.listdir(tmp_path) == []


# -- several connections of one process ------------------------------------------------------

def _rows_seen_by_another_process(path: Path) -> int:
    code = ("import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("
            "'SELECT count(*) FROM pages').fetchone()[0])")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                         text=True, check=True, timeout=60)
    return int(out.stdout)


def test_opening_the_database_again_keeps_the_first_connections_writes_visible(
        tmp_path: Path) -> None:
    """A crawl opens its database several times (storage, re-crawl, crawl record). Checking
    the file must not drop the first connection's locks: otherwise the next process to close
    a connection deletes the write-ahead log under it, and its later writes are seen by no
    other process (a report, a search, or the database after a kill)."""
    path = tmp_path / "crawl.db"
    first = open_database(path)
    first.conn.execute("INSERT INTO pages (url, domain) VALUES ('https://a.example/1', 'a.example')")
    open_database(path).conn.close()
    assert _rows_seen_by_another_process(path) == 1
    first.conn.execute("INSERT INTO pages (url, domain) VALUES ('https://a.example/2', 'a.example')")
    assert _rows_seen_by_another_process(path) == 2
    assert (tmp_path / "crawl.db-wal").exists()
    first.conn.close()
