"""Full-text search: the FTS5 index follows every write to ``pages``, and ``crawler search``
ranks a real crawl's pages with a snippet."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import sqlite_utils

from crawler.search import SearchError, fts_query, search
from crawler.storage import INDEXED_COLUMNS, open_database, upsert_page
from tests.conftest import REPO_ROOT, CrawlResult
from tests.filesystems import make_read_only, small_filesystem

URL = "https://docs.example/guide"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m crawler ...`` as a user would."""
    return subprocess.run([sys.executable, "-m", "crawler", *args], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=120)


def urls(hits: list) -> list[str]:
    return [hit.url for hit in hits]


@pytest.mark.parametrize(("query", "expected"), [
    ('tabs', '"tabs"'),
    ('mermaid diagrams', '"mermaid" "diagrams"'),
    ('"file tree" menu', '"file tree" "menu"'),
    ('short*', '"short"*'),
    ('AND OR NOT (', '"AND" "OR" "NOT"'),
    ('say "hi"" there -', '"say" "hi" "there"'),
    ('it\'s "x""', '"it\'s" "x"'),
    ('   ', ''),
])
def test_a_typed_query_becomes_a_safe_fts_query(query: str, expected: str) -> None:
    assert fts_query(query) == expected


def test_the_index_follows_upserts_updates_and_deletes(tmp_path: Path) -> None:
    path = tmp_path / "crawl.db"
    db = open_database(path)
    upsert_page(db, {"url": URL, "domain": "docs.example", "title": "Installing",
                     "content_text": "Install the wheel with pip."}, b"<p>x</p>")
    upsert_page(db, {"url": URL + "/2", "domain": "docs.example", "title": "Other",
                     "content_text": "Nothing about that here."}, b"<p>y</p>")
    assert urls(search(path, "wheel")) == [URL]

    # a re-crawl changes the text: the old word goes, the new one comes, the other page stays
    upsert_page(db, {"url": URL, "title": "Installing", "content_text": "Use conda."}, b"<p>z</p>")
    assert search(path, "wheel") == []
    assert urls(search(path, "conda")) == [URL]
    assert urls(search(path, "nothing")) == [URL + "/2"]

    # a re-extraction or any plain UPDATE, and a column the index ignores
    db.conn.execute("UPDATE pages SET content_text = 'Build from source.' WHERE url = ?", [URL])
    db.conn.execute("UPDATE pages SET cleaned_content = 'ignored words' WHERE url = ?", [URL])
    assert search(path, "conda") == [] and search(path, "ignored") == []
    assert urls(search(path, "source")) == [URL]

    db.conn.execute("DELETE FROM pages WHERE url = ?", [URL])
    assert search(path, "source") == []
    assert urls(search(path, "nothing")) == [URL + "/2"]
    db.conn.execute("INSERT INTO pages_fts(pages_fts, rank) VALUES ('integrity-check', 1)")
    db.conn.close()


def test_a_database_made_before_the_index_gets_it_on_open(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = sqlite_utils.Database(sqlite3.connect(path))
    kept = {"fetched_at": "2025-01-01T00:00:00+00:00", "content_html": "", "content_markdown": "",
            "raw_html": b""}  # the columns of a crawl database from the first release on
    old["pages"].insert_all([
        {"url": URL, "domain": "docs.example:8080", "title": "Old page",
         "content_text": "legacy words", **kept},
        {"url": URL + "/x", "domain": "docs.example:8080", "title": "Legacy title",
         "content_text": "x", **kept},
    ], pk="url")
    old["pages"].create_index(["domain"])
    old.conn.close()

    before = path.read_bytes()
    with pytest.raises(SearchError, match="has no search index"):  # a search writes nothing
        search(path, "legacy")
    assert path.read_bytes() == before
    open_database(path).conn.close()  # what a crawl or reextract into it does

    hits = search(path, "legacy")
    assert urls(hits) == [URL + "/x", URL]  # the title match ranks first
    assert hits[1].snippet == "[legacy] words"
    with sqlite3.connect(path) as conn:
        indexes = {row[1] for row in conn.execute("PRAGMA index_list(pages)")}
        columns = {row[1] for row in conn.execute("PRAGMA table_info(pages)")}
    assert {f"idx_pages_{c}" for c in INDEXED_COLUMNS} <= indexes
    assert {"raw_html", "cleaned_content", "url", "title"} <= columns


@pytest.fixture
def docs_db(crawled_docs_site: CrawlResult) -> Path:
    return crawled_docs_site.db_path


def test_search_ranks_a_real_crawl_with_snippets(docs_db: Path) -> None:
    completed = cli("search", str(docs_db), "mermaid diagrams", "--limit", "3")
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0] == "1. Mermaid"
    assert lines[1].endswith("/docs/content/shortcodes/mermaid/")
    assert "[diagrams]" in lines[3] and "[Mermaid]" in lines[3]
    assert len([line for line in lines if line[:1].isdigit()]) <= 3

    hits = [json.loads(line) for line in cli("search", str(docs_db), "shortcode*", "--json",
                                             "--limit", "50").stdout.splitlines()]
    assert len(hits) >= 5 and any("[shortcodes]" in hit["snippet"].lower() for hit in hits)
    assert hits[0]["url"].endswith("/docs/content/shortcodes/")
    assert all(a["score"] >= b["score"] for a, b in zip(hits, hits[1:]))
    assert {"url", "title", "domain", "snippet", "score", "quality_score", "page_type"} == set(hits[0])


@pytest.mark.parametrize(("domain", "found"), [
    ("127.0.0.1", True),          # without the port
    ("{netloc}", True),           # exactly as stored
    ("127.0.0.1:1", False),       # another port
    ("127.0.0.10", False),        # a longer host is not a match
])
def test_search_filters_by_domain_with_or_without_port(domain: str, found: bool, docs_db: Path,
                                                        crawled_docs_site: CrawlResult) -> None:
    netloc = crawled_docs_site.items[0]["domain"]
    completed = cli("search", str(docs_db), "katex", "--domain", domain.format(netloc=netloc))
    if found:
        assert completed.returncode == 0 and "/docs/content/shortcodes/katex/" in completed.stdout
    else:
        assert completed.returncode == 1 and completed.stdout == ""
        assert f"it holds {netloc}" in completed.stderr


@pytest.mark.parametrize(("args", "code", "message"), [
    (["{db}", "zzzunknownword"], 1, "No page matches 'zzzunknownword'."),
    (["{db}", "  "], 2, "error: the query has no words to search for."),
    (["{db}", "x", "--limit", "0"], 2, "error: the limit must be from 1 to 1,000,000."),
    # a limit SQLite cannot hold: OverflowError and a traceback before
    (["{db}", "x", "--limit", "99999999999999999999"], 2, "error: the limit must be from 1"),
    # 33 prefix terms: FTS5's time grows with their square (800 took 80 s), and agents search
    (["{db}", "a* " * 33], 2, "error: the query has more than 32 words and phrases"),
    (["{missing}", "x"], 2, "error: no database at"),
])
def test_search_refuses_bad_input_with_one_sentence(args: list[str], code: int, message: str,
                                                    docs_db: Path, tmp_path: Path) -> None:
    completed = cli("search", *[a.format(db=docs_db, missing=tmp_path / "none.db") for a in args])
    assert completed.returncode == code
    assert message in completed.stderr and "Traceback" not in completed.stderr
    assert not (tmp_path / "none.db").exists()


def test_search_opens_the_database_read_only(docs_db: Path, tmp_path: Path) -> None:
    """A search changes nothing: it works on a database on a read-only filesystem (opening
    it for writing failed there), and leaves its bytes as they were."""
    size_kib = docs_db.stat().st_size // 1024 + 512
    with small_filesystem(tmp_path / "mnt", size_kib) as mountpoint:
        copy = mountpoint / "crawl.db"
        with sqlite3.connect(docs_db) as source, sqlite3.connect(copy) as target:
            source.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")  # one file, as a copied database is
        target.close()
        before = copy.read_bytes()
        make_read_only(mountpoint)
        completed = cli("search", str(copy), "katex")
        hits = search(copy, "katex")
        assert copy.read_bytes() == before
    assert completed.returncode == 0, completed.stderr
    assert "/docs/content/shortcodes/katex/" in completed.stdout
    assert any("/katex/" in hit.url for hit in hits)


def test_search_raises_for_callers(tmp_path: Path) -> None:
    with pytest.raises(SearchError, match="no database"):
        search(tmp_path / "absent.db", "x")
    shutil.rmtree(tmp_path)
