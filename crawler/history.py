"""The history of each stored page: when it was first and last seen, when its main text last
changed, when it disappeared, and the previous texts of changed pages.

A re-crawl into the same database classifies every page it reaches:

- ``new``: no row yet; ``first_seen``, ``last_seen`` and ``last_changed`` are set to now.
- ``changed``: the main text's :func:`~crawler.content_hash.content_hash` differs from the stored
  one (or the page had been marked gone and is back); the previous text goes to the table
  ``page_versions`` (at most ``keep_versions`` per URL) and ``last_changed`` is set.
- ``unchanged``: same hash, or not fetched again at all (HTTP 304, sitemap ``lastmod``, the same
  bytes as stored); only ``last_seen`` moves.
- ``kept``: fetched, but its extraction failed or ran out of time (``extraction_error``); the
  stored content, hash and history stay as they were, so a failure is never taken for a change.
- ``gone``: HTTP 404/410, or not reached by a crawl that reached everything; ``gone_at`` is set
  and the row is kept.

No Scrapy here: the crawl's components and the command line share these functions.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import sqlite_utils

from crawler.content_hash import content_hash
from crawler.items import CONTENT_FIELDS
from crawler.storage import (PAGES_COLUMNS, PAGES_TABLE, decompress_html, page_values,
                             write_page_values)

VERSIONS_TABLE = "page_versions"

#: One row per replaced version of a page: its text, when it was fetched and when it was replaced.
VERSIONS_COLUMNS: dict[str, type] = {
    "url": str,
    "content_hash": str,
    "title": str,
    "content_text": str,
    "content_markdown": str,
    "fetched_at": str,
    "replaced_at": str,
}

NEW = "new"
CHANGED = "changed"
UNCHANGED = "unchanged"
KEPT = "kept"
GONE = "gone"
#: What ``changes`` lists, in this order.
CHANGE_KINDS = (NEW, CHANGED, GONE, UNCHANGED)


def utc_now() -> str:
    """The current time as stored: ISO 8601, UTC, whole seconds."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def stored_time(moment: datetime) -> str:
    """A datetime in the stored form (naive times are taken as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def parse_time(text: str | None) -> datetime | None:
    """A stored or W3C (sitemap) date-time as an aware UTC datetime; None when unreadable.

    A date without a time stands for the whole day, so it is read as the end of that day: a page
    fetched during the day its ``lastmod`` names may have changed after the fetch.
    """
    if not text:
        return None
    text = text.strip()
    try:
        if len(text) == 10:
            return datetime.combine(date.fromisoformat(text) + timedelta(days=1),
                                    datetime.min.time(), UTC)
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except (ValueError, OverflowError):  # OverflowError: 9999-12-31 (its end), or an offset
        return None  # past year 1 or 9999 (a sitemap's lastmod made the page's request raise)


def ensure_versions_table(db: sqlite_utils.Database) -> None:
    """Create ``page_versions`` (and its indexes) if missing."""
    table = db[VERSIONS_TABLE]
    if not table.exists():
        table.create({"id": int, **VERSIONS_COLUMNS}, pk="id")
    db.conn.execute(f"CREATE UNIQUE INDEX IF NOT EXISTS [idx_{VERSIONS_TABLE}_version] "
                    f"ON [{VERSIONS_TABLE}] (url, content_hash, fetched_at)")


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction (BEGIN IMMEDIATE ... COMMIT), rolled back on any error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@dataclass(frozen=True)
class KnownPage:
    """What the database knows of a URL before it is fetched again."""

    url: str
    etag: str | None
    last_modified: str | None
    fetched_at: str | None
    gone_at: str | None
    has_html: bool

    @property
    def reusable(self) -> bool:
        """Whether its stored HTML can stand for the page (it is not gone and was stored)."""
        return self.gone_at is None and self.has_html


def known_page(db: sqlite_utils.Database, url: str) -> KnownPage | None:
    """The stored validators and state of ``url``, or None when it was never stored."""
    row = db.conn.execute(
        f"SELECT etag, last_modified, fetched_at, gone_at, raw_html IS NOT NULL "
        f"FROM [{PAGES_TABLE}] WHERE url = ?", [url]).fetchone()
    if row is None:
        return None
    return KnownPage(url, row[0], row[1], row[2], row[3], bool(row[4]))


@dataclass(frozen=True)
class StoredPage:
    """A stored page's bytes and how to read them, to stand in for a download."""

    raw_html: bytes
    encoding: str | None
    content_type: str | None


def stored_page(db: sqlite_utils.Database, url: str) -> StoredPage | None:
    """The stored HTML of ``url`` (decompressed), or None when there is none."""
    row = db.conn.execute(
        f"SELECT raw_html, encoding, content_type FROM [{PAGES_TABLE}] WHERE url = ?",
        [url]).fetchone()
    if row is None or not row[0]:
        return None
    return StoredPage(decompress_html(row[0]), row[1], row[2])


def touch_seen(db: sqlite_utils.Database, url: str, now: str, *, confirmed: bool) -> None:
    """Record that ``url`` was seen unchanged now; ``confirmed`` (the server said so, or sent
    the same bytes) also moves ``fetched_at``, the time the stored copy is known current."""
    if confirmed:
        sql = f"UPDATE [{PAGES_TABLE}] SET last_seen = ?, fetched_at = ? WHERE url = ?"
        params: list[Any] = [now, now, url]
    else:
        sql = f"UPDATE [{PAGES_TABLE}] SET last_seen = ? WHERE url = ?"
        params = [now, url]
    with db.conn:
        db.conn.execute(sql, params)


def mark_gone(db: sqlite_utils.Database, url: str, now: str) -> bool:
    """Mark a stored, live page as gone; whether it was (the row itself is kept)."""
    with db.conn:
        cursor = db.conn.execute(
            f"UPDATE [{PAGES_TABLE}] SET gone_at = ? WHERE url = ? AND gone_at IS NULL",
            [now, url])
    return cursor.rowcount > 0


def record_page(db: sqlite_utils.Database, row: dict[str, Any], raw_html: bytes, *,
                keep_versions: int, now: str | None = None) -> str:
    """Store a fetched and extracted page with its history; return NEW, CHANGED or UNCHANGED.

    One transaction: the previous text of a changed page is kept in ``page_versions`` (the
    oldest beyond ``keep_versions`` dropped), then the row is upserted. A page without a
    ``content_hash`` in ``row`` is hashed from its ``content_text``. A page whose extraction
    failed (``extraction_error``) and that is stored already keeps its stored content (KEPT).
    """
    now = now or utc_now()
    values = dict(row)
    if not values.get("content_hash"):
        values["content_hash"] = content_hash(values.get("content_text"))
    _add_unknown_columns(db, values)
    with transaction(db.conn):
        previous = db.conn.execute(
            f"SELECT content_hash, content_text, first_seen, last_changed, gone_at, fetched_at, "
            f"title, content_markdown FROM [{PAGES_TABLE}] WHERE url = ?",
            [values["url"]]).fetchone()
        if previous is not None and values.get("extraction_error"):
            for name in CONTENT_FIELDS:  # columns left out keep their stored values
                values.pop(name, None)
            values.update(last_seen=now, gone_at=None)
            write_page_values(db, page_values(values, raw_html))
            return KEPT
        if previous is None:
            outcome = NEW
            values.update(first_seen=now, last_seen=now, last_changed=now, gone_at=None)
        else:
            old_hash, old_text, first_seen, last_changed, gone_at, fetched_at, title, markdown = (
                previous)
            old_hash = old_hash or content_hash(old_text)
            same = old_hash == values["content_hash"]
            outcome = UNCHANGED if same and gone_at is None else CHANGED
            if not same:
                _keep_version(db, values["url"], old_hash, title, old_text, markdown,
                              fetched_at, now, keep_versions)
            values.update(first_seen=first_seen or fetched_at or now, last_seen=now,
                          last_changed=now if outcome == CHANGED
                          else last_changed or first_seen or fetched_at or now,
                          gone_at=None)
        write_page_values(db, page_values(values, raw_html))
    return outcome


def _add_unknown_columns(db: sqlite_utils.Database, values: dict[str, Any]) -> None:
    """Add a column for any value the table lacks (an item field newer than the schema)."""
    unknown = values.keys() - PAGES_COLUMNS.keys()
    if unknown:
        existing = set(db[PAGES_TABLE].columns_dict)
        for name in sorted(unknown - existing):
            db[PAGES_TABLE].add_column(name, type(values[name]) if values[name] is not None
                                       else str)


def _keep_version(db: sqlite_utils.Database, url: str, old_hash: str, title: str | None,
                  text: str | None, markdown: str | None, fetched_at: str | None, now: str,
                  keep_versions: int) -> None:
    """Save the replaced text of ``url`` and drop its versions beyond the newest ``keep``."""
    if keep_versions <= 0:
        return
    ensure_versions_table(db)
    db.conn.execute(
        f"INSERT OR IGNORE INTO [{VERSIONS_TABLE}] (url, content_hash, title, content_text, "
        f"content_markdown, fetched_at, replaced_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [url, old_hash, title, text, markdown, fetched_at, now])
    trim_versions(db, keep_versions, url=url)


def trim_versions(db: sqlite_utils.Database, keep_versions: int, *, url: str | None = None,
                  ) -> int:
    """Delete all but the newest ``keep_versions`` versions of ``url`` (or of every URL)."""
    if not db[VERSIONS_TABLE].exists():
        return 0
    scope = "WHERE url = ?" if url is not None else ""
    params: list[Any] = [url] if url is not None else []
    cursor = db.conn.execute(
        f"DELETE FROM [{VERSIONS_TABLE}] WHERE id IN (SELECT id FROM (SELECT id, row_number() "
        f"OVER (PARTITION BY url ORDER BY replaced_at DESC, id DESC) AS rank "
        f"FROM [{VERSIONS_TABLE}] {scope}) WHERE rank > ?)", [*params, max(keep_versions, 0)])
    return cursor.rowcount


def versions_of(db: sqlite_utils.Database, url: str) -> list[dict[str, Any]]:
    """Stored previous versions of ``url``, newest first."""
    if not db[VERSIONS_TABLE].exists():
        return []
    columns = list(VERSIONS_COLUMNS)
    names = ", ".join(f"[{c}]" for c in columns)
    rows = db.conn.execute(f"SELECT {names} FROM [{VERSIONS_TABLE}] WHERE url = ? "
                           f"ORDER BY replaced_at DESC, id DESC", [url])
    return [dict(zip(columns, r, strict=True)) for r in rows]


def sweep_gone(db: sqlite_utils.Database, started: str, in_scope: Callable[[str], bool],
               now: str | None = None, batch_size: int = 500) -> list[str]:
    """Mark gone every live page in scope not seen since ``started``; return their URLs.

    For a crawl that reached everything it could: a stored page it did not reach is no longer
    part of the site. Nothing is marked when the crawl saw no page in scope at all (a crawl that
    fetched nothing proves nothing).
    """
    now = now or utc_now()
    seen = _urls(db, f"SELECT url FROM [{PAGES_TABLE}] WHERE last_seen >= ? AND gone_at IS NULL",
                 [started], in_scope, limit=1)
    if not seen:
        return []
    stale = _urls(db, f"SELECT url FROM [{PAGES_TABLE}] WHERE gone_at IS NULL "
                      f"AND COALESCE(last_seen, fetched_at, '') < ?", [started], in_scope)
    for start in range(0, len(stale), batch_size):
        with db.conn:
            db.conn.executemany(
                f"UPDATE [{PAGES_TABLE}] SET gone_at = ? WHERE url = ? AND gone_at IS NULL",
                [(now, url) for url in stale[start:start + batch_size]])
    return stale


def _urls(db: sqlite_utils.Database, sql: str, params: list[Any],
          in_scope: Callable[[str], bool], limit: int | None = None) -> list[str]:
    """URLs a query returns that are in scope (at most ``limit``)."""
    found: list[str] = []
    for (url,) in db.conn.execute(sql, params):
        if in_scope(url):
            found.append(url)
            if limit is not None and len(found) >= limit:
                break
    return found


@dataclass(frozen=True)
class Change:
    """One line of ``changes``: a page, what happened to it and when."""

    url: str
    kind: str
    at: str
    domain: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        """The change as a JSON object."""
        return {"url": self.url, "change": self.kind, "at": self.at, "domain": self.domain}


def changes_since(db: sqlite_utils.Database, since: str, *, kinds: tuple[str, ...] = (
        NEW, CHANGED, GONE), domain: str | None = None) -> list[Change]:
    """Pages new, changed, gone (and, when asked, seen unchanged) at or after ``since``, by time.

    A page first stored and later edited within the period is listed both as new and as changed.
    """
    where_domain = " AND domain = ?" if domain else ""
    extra = [domain] if domain else []
    queries = {
        NEW: f"SELECT url, first_seen, domain FROM [{PAGES_TABLE}] WHERE first_seen >= ?",
        CHANGED: f"SELECT url, last_changed, domain FROM [{PAGES_TABLE}] WHERE last_changed >= ? "
                 f"AND last_changed > COALESCE(first_seen, '')",
        GONE: f"SELECT url, gone_at, domain FROM [{PAGES_TABLE}] WHERE gone_at >= ?",
        UNCHANGED: f"SELECT url, last_seen, domain FROM [{PAGES_TABLE}] WHERE last_seen >= ? "
                   f"AND gone_at IS NULL AND COALESCE(last_changed, '') < ?",
    }
    found: list[Change] = []
    for kind in kinds:
        params = [since, since] if kind == UNCHANGED else [since]
        for url, at, page_domain in db.conn.execute(queries[kind] + where_domain,
                                                    [*params, *extra]):
            found.append(Change(url, kind, at, page_domain))
    order = {kind: i for i, kind in enumerate(CHANGE_KINDS)}
    return sorted(found, key=lambda c: (c.at, order[c.kind], c.url))
