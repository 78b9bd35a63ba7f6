"""Page rows in SQLite: an upsert by URL inserts, updates only the columns it is given, and
adds a column the table does not have yet."""

from __future__ import annotations

from pathlib import Path

import pytest

from crawler.storage import decompress_html, iter_pages, open_database, upsert_page

URL = "https://example.com/a"


@pytest.mark.parametrize(("second_row", "expected"), [
    ({"url": URL, "title": "New title"},
     {"title": "New title", "status": 200, "cleaned_content": "kept"}),
    ({"url": URL, "status": 404, "quality_reasons": ["empty"]},
     {"title": "Old title", "status": 404, "quality_reasons": '["empty"]',
      "cleaned_content": "kept"}),
    ({"url": URL, "shard_note": "from another crawler version"},
     {"title": "Old title", "shard_note": "from another crawler version"}),
])
def test_upsert_updates_only_the_given_columns(second_row: dict, expected: dict,
                                               tmp_path: Path) -> None:
    db = open_database(tmp_path / "crawl.db")
    upsert_page(db, {"url": URL, "title": "Old title", "status": 200}, b"<p>first</p>")
    db.conn.execute("UPDATE pages SET cleaned_content = 'kept'")
    upsert_page(db, second_row, b"<p>second</p>")
    rows = list(iter_pages(db, [*expected, "raw_html"]))
    assert len(rows) == 1
    assert {c: rows[0][c] for c in expected} == expected
    assert decompress_html(rows[0]["raw_html"]) == b"<p>second</p>"
