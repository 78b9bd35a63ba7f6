"""``python -m crawler reextract``: stored pages are extracted again without being fetched."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, run_crawl


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m crawler ...`` as a user would."""
    return subprocess.run([sys.executable, "-m", "crawler", *args], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=120)


def extracted(db: Path) -> dict[str, tuple[str, str, int]]:
    """url -> (title, content_text, word_count) of every stored page."""
    with sqlite3.connect(db) as conn:
        return {url: (title, text, words) for url, title, text, words in conn.execute(
            "SELECT url, title, content_text, word_count FROM pages")}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_reextract_restores_extracted_columns_from_the_stored_html(jobs: str, serve_site,
                                                                   tmp_path: Path) -> None:
    server = serve_site("behaviours")
    crawl = run_crawl(server.url("/"), tmp_path, spider_args={"render": "never"})
    assert crawl.returncode == 0, crawl.log[-3000:]
    original = extracted(crawl.db_path)
    assert len(original) >= 8
    server.shutdown()  # nothing may be fetched from here on
    with sqlite3.connect(crawl.db_path) as conn:
        conn.execute("UPDATE pages SET title = 'stale', content_text = '', word_count = 0")

    completed = cli("reextract", str(crawl.db_path), "--jobs", jobs)
    assert completed.returncode == 0, completed.stderr
    assert f"{len(original)} pages re-extracted, 0 failed" in completed.stdout
    assert "dedup 127.0.0.1:" in completed.stdout
    assert extracted(crawl.db_path) == original


def test_reextract_names_an_unknown_domain(serve_site, tmp_path: Path) -> None:
    server = serve_site("behaviours")
    crawl = run_crawl(server.url("/"), tmp_path,
                      spider_args={"render": "never", "max_depth": "0", "sitemaps": "false"})
    completed = cli("reextract", str(crawl.db_path), "--domain", "nowhere.example")
    assert completed.returncode == 1
    assert "no pages of nowhere.example" in completed.stderr
    missing = cli("reextract", str(tmp_path / "missing.db"))
    assert missing.returncode == 1 and "no database at" in missing.stderr
