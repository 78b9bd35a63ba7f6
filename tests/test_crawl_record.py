"""The crawl record extension: one `crawls` row per crawl, and a logged, counted error (never a
crash) when the database cannot take it."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest
from scrapy.utils.test import get_crawler

from crawler.crawls import read_crawls
from crawler.extensions.crawl_record import CrawlRecordExtension
from crawler.storage import open_database

START = "http://127.0.0.1:8000/"


def finish_crawl(db_path: Path) -> tuple[CrawlRecordExtension, dict]:
    """Drive the extension through one crawl's signals, as the engine does."""
    crawler = get_crawler(settings_dict={"SQLITE_PATH": str(db_path)})
    crawler.stats.open_spider()
    extension = CrawlRecordExtension.from_crawler(crawler)
    spider = SimpleNamespace(name="domain", config=SimpleNamespace(start_urls=(START,)))
    extension.spider_opened(spider)
    crawler.stats.set_value("summary/pages_found", 7)
    crawler.stats.set_value("skipped/non_html_extension", 2)
    extension.spider_closed(spider, "finished")
    extension.engine_stopped()
    return extension, crawler.stats.get_stats()


@pytest.mark.parametrize("where", ["new", "existing", "file_as_folder", "foreign"])
def test_a_crawl_is_recorded_or_the_failure_logged_and_counted(
        where: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db_path = tmp_path / "crawl.db"
    if where == "existing":
        open_database(db_path).conn.close()
    elif where == "file_as_folder":
        (tmp_path / "file").write_text("not a folder")
        db_path = tmp_path / "file" / "crawl.db"
    elif where == "foreign":
        conn = sqlite3.connect(db_path)
        conn.execute("CREATE TABLE invoices (id INTEGER)")
        conn.commit()
        conn.close()
    with caplog.at_level(logging.INFO, logger="crawler.extensions.crawl_record"):
        _, stats = finish_crawl(db_path)
    if where in ("new", "existing"):
        db = open_database(db_path)
        try:
            records = read_crawls(db)
        finally:
            db.conn.close()
        assert [(r.start_urls, r.close_reason) for r in records] == [([START], "finished")]
        assert records[0].stats["summary/pages_found"] == 7
        assert records[0].by_reason("skipped") == {"non_html_extension": 2}
        assert "crawl_record/error" not in stats and "Crawl recorded" in caplog.text
    else:
        assert stats["crawl_record/error"] == 1
        assert "Could not record the crawl" in caplog.text
        if where == "foreign":  # another application's file is left as it was
            conn = sqlite3.connect(db_path)
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            conn.close()
            assert tables == {"invoices"}


def test_nothing_is_recorded_when_the_spider_never_opened(tmp_path: Path) -> None:
    crawler = get_crawler(settings_dict={"SQLITE_PATH": str(tmp_path / "crawl.db")})
    CrawlRecordExtension.from_crawler(crawler).engine_stopped()
    assert not (tmp_path / "crawl.db").exists()
