"""The `crawls` table: one row per crawl (start, end, close reason, final stats as JSON).

Pages say what was stored; only the crawl's stats say what was found, skipped and failed, and
they vanish with the process. Keeping them beside the pages lets the report (and SQL) show the
whole crawl. The stats are stored whole, so figures other components add to the crawl summary
appear without a schema change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlite_utils

CRAWLS_TABLE = "crawls"

CRAWLS_COLUMNS: dict[str, type] = {
    "id": int,
    "spider": str,
    "start_urls": str,
    "started_at": str,
    "finished_at": str,
    "close_reason": str,
    "stats": str,
}


@dataclass(frozen=True)
class CrawlRecord:
    """One finished crawl as stored: when, why it ended, and its final stats."""

    id: int
    spider: str
    start_urls: list[str]
    started_at: str | None
    finished_at: str | None
    close_reason: str | None
    stats: dict[str, Any]

    def count(self, key: str) -> int:
        """An integer stat, 0 when absent."""
        value = self.stats.get(key, 0)
        return int(value) if isinstance(value, (int, float)) else 0

    def by_reason(self, prefix: str) -> dict[str, int]:
        """Counts under ``prefix/`` (``skipped``, ``errors``) by the reason after the slash."""
        return {key[len(prefix) + 1:]: int(value) for key, value in sorted(self.stats.items())
                if key.startswith(prefix + "/") and isinstance(value, (int, float)) and value}


def ensure_crawls_table(db: sqlite_utils.Database) -> None:
    """Create the `crawls` table if it is missing (older databases have none)."""
    if not db[CRAWLS_TABLE].exists():
        db[CRAWLS_TABLE].create(CRAWLS_COLUMNS, pk="id")


def _json_value(value: Any) -> Any:
    """Stats values as JSON can hold them (datetimes as ISO text)."""
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")
    return value


def record_crawl(db: sqlite_utils.Database, *, spider: str, start_urls: list[str],
                 started_at: str | None, finished_at: str | None, close_reason: str | None,
                 stats: dict[str, Any]) -> int:
    """Insert one crawl row; returns its id."""
    ensure_crawls_table(db)
    row = {
        "spider": spider,
        "start_urls": json.dumps(start_urls),
        "started_at": started_at,
        "finished_at": finished_at,
        "close_reason": close_reason,
        "stats": json.dumps({k: _json_value(v) for k, v in stats.items()}, default=str,
                            sort_keys=True),
    }
    with db.conn:
        cursor = db.conn.execute(
            f"INSERT INTO [{CRAWLS_TABLE}] (spider, start_urls, started_at, finished_at, "
            f"close_reason, stats) VALUES (?, ?, ?, ?, ?, ?)", tuple(row.values()))
    return int(cursor.lastrowid or 0)


def copy_crawls(db: sqlite_utils.Database, schema: str) -> int:
    """Append the crawl rows of the attached database ``schema`` (a shard being merged) to
    ``db``'s `crawls` table, with new ids; returns how many (0 when the shard has none)."""
    found = db.conn.execute(f"SELECT count(*) FROM {schema}.sqlite_master WHERE type = 'table' "
                            f"AND name = ?", [CRAWLS_TABLE]).fetchone()[0]
    if not found:
        return 0
    ensure_crawls_table(db)
    names = ", ".join(c for c in CRAWLS_COLUMNS if c != "id")
    with db.conn:
        cursor = db.conn.execute(f"INSERT INTO main.[{CRAWLS_TABLE}] ({names}) "
                                 f"SELECT {names} FROM {schema}.[{CRAWLS_TABLE}] ORDER BY id")
    return cursor.rowcount


def read_crawls(db: sqlite_utils.Database) -> list[CrawlRecord]:
    """Every stored crawl, oldest first (empty for a database written before the table)."""
    if not db[CRAWLS_TABLE].exists():
        return []
    rows = db.conn.execute(
        f"SELECT id, spider, start_urls, started_at, finished_at, close_reason, stats "
        f"FROM [{CRAWLS_TABLE}] ORDER BY id").fetchall()
    records = []
    for id_, spider, start_urls, started, finished, reason, stats in rows:
        records.append(CrawlRecord(id=id_, spider=spider or "",
                                   start_urls=_json_list(start_urls), started_at=started,
                                   finished_at=finished, close_reason=reason,
                                   stats=_json_dict(stats)))
    return records


def _json_list(text: str | None) -> list[str]:
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return []
    return [str(v) for v in value] if isinstance(value, list) else []


def _json_dict(text: str | None) -> dict[str, Any]:
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
