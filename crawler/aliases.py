"""One page's content, one stored row: URLs that serve main text already stored under another
URL of the same domain are recorded as aliases of that first URL.

A case-insensitive server (``/Page`` and ``/page``), session tokens in URLs, or links that grow
a URL without changing the page, all show one page under many URLs. The storage pipeline looks
up each page's content hash (:func:`crawler.content_hash.content_hash` of its main text) among
the stored rows of its domain; when another URL holds it under the same title, the page becomes
a row of ``page_aliases`` instead of a second row of ``pages``.

The title is part of the identity because different pages of one site can extract to the same
main text: section pages whose only text is an "edit this page" link, or a category page that
prints its one post in full. Those have titles of their own and stay separate pages; the copies
a trap makes repeat the whole page, title included. Pages with fewer words than
``ALIAS_MIN_WORDS`` are never aliases (see :class:`crawler.pipelines.storage.SQLiteConfig`).

Table ``page_aliases``: ``url`` (primary key), ``alias_of`` (the stored URL), ``domain``,
``content_hash`` and ``first_seen``.
"""

from __future__ import annotations

from datetime import datetime, timezone

import sqlite_utils

from crawler.storage import PAGES_TABLE

ALIASES_TABLE = "page_aliases"


def ensure_aliases_table(db: sqlite_utils.Database) -> None:
    """Create the aliases table and the (domain, content_hash) index of `pages` if missing."""
    db.execute(f"CREATE TABLE IF NOT EXISTS [{ALIASES_TABLE}] ([url] TEXT PRIMARY KEY, "
               "[alias_of] TEXT NOT NULL, [domain] TEXT, [content_hash] TEXT, [first_seen] TEXT)")
    db.execute(f"CREATE INDEX IF NOT EXISTS [idx_{PAGES_TABLE}_domain_content_hash] "
               f"ON [{PAGES_TABLE}] ([domain], [content_hash])")


def first_url_with_content(db: sqlite_utils.Database, domain: str, digest: str,
                           url: str, title: str | None) -> str | None:
    """The stored URL of the domain holding this content under the same title, unless ``url``
    itself is stored (a re-crawl updates its own row) or no other URL holds it."""
    rows = db.execute(f"SELECT url FROM [{PAGES_TABLE}] WHERE domain = ? AND content_hash = ? "
                      "AND coalesce(title, '') = ? ORDER BY url = ? DESC, length(url), url "
                      "LIMIT 1", [domain, digest, title or "", url]).fetchall()
    if not rows or rows[0][0] == url:
        return None
    own = db.execute(f"SELECT 1 FROM [{PAGES_TABLE}] WHERE url = ?", [url]).fetchone()
    return None if own else rows[0][0]


def record_alias(db: sqlite_utils.Database, url: str, alias_of: str, domain: str,
                 digest: str) -> None:
    """Record ``url`` as an alias of ``alias_of`` (its first sighting is kept)."""
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    with db.conn:
        db.execute(f"INSERT INTO [{ALIASES_TABLE}] (url, alias_of, domain, content_hash, "
                   "first_seen) VALUES (?, ?, ?, ?, ?) ON CONFLICT(url) DO UPDATE SET "
                   "alias_of = excluded.alias_of, content_hash = excluded.content_hash",
                   [url, alias_of, domain, digest, now])
