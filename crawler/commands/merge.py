"""``python -m crawler merge SHARD.db ... -o crawl.db``: merge crawl shards, then re-run dedup.

Workers of a distributed crawl each write their own database (``-s SQLITE_PATH=shard-N.db``).
This command upserts every shard's pages into one database by URL, keeping the newest row of a
URL seen in several shards (the latest of ``fetched_at``, ``last_seen`` and ``gone_at``), and
then runs the domain boilerplate analysis on the merged pages, since per-shard statistics only
saw part of each domain. The history is kept: ``first_seen`` is the earliest of the rows,
``last_changed`` stays when the content hash did not change, the text a newer row replaces goes
to ``page_versions`` with the shards' own versions (at most ``--keep-versions`` per URL). Rows
are copied inside SQLite (``INSERT ... SELECT``), so shards of any size merge in constant memory.
"""

from __future__ import annotations

import argparse
import logging
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from crawler.crawls import copy_crawls
from crawler.dedup.config import DedupConfig, DedupConfigError
from crawler.commands.dedup import dedup_with_progress
from crawler.dedup.store import DomainResult
from crawler.progress import track
from crawler import settings as project_settings
from crawler.history import (VERSIONS_COLUMNS, VERSIONS_TABLE, ensure_versions_table,
                             transaction, trim_versions)
from crawler.storage import PAGES_TABLE, ensure_pages_table, open_database
from crawler.storage import domains as stored_domains

logger = logging.getLogger(__name__)

SHARD_ALIAS = "shard"


class MergeError(Exception):
    """A shard cannot be merged; the message is one sentence for the operator."""


@dataclass(frozen=True)
class ShardResult:
    """What merging one shard did to the output database."""

    path: Path
    rows: int
    inserted: int
    updated: int

    @property
    def kept_newer(self) -> int:
        """Rows of the shard not taken because the output already held a newer fetch."""
        return self.rows - self.inserted - self.updated


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``merge`` sub-command."""
    parser = subparsers.add_parser(
        "merge", help="merge shard databases into one (newest fetch wins) and re-run dedup",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("shards", nargs="+", type=Path, metavar="SHARD.db",
                        help="crawl databases written by the workers")
    parser.add_argument("-o", "--output", required=True, type=Path, metavar="OUT.db",
                        help="merged database (created, or merged into when it exists)")
    parser.add_argument("--keep-versions", type=int, default=project_settings.RECRAWL_KEEP_VERSIONS,
                        metavar="N", help="previous texts kept per page in page_versions "
                                          "(default %(default)s, as RECRAWL_KEEP_VERSIONS)")
    parser.add_argument("--no-dedup", action="store_true",
                        help="skip the domain boilerplate analysis of the merged database")
    defaults = DedupConfig()
    parser.add_argument("--threshold-pct", default=defaults.threshold_pct, metavar="P",
                        help="dedup: share of a domain's pages a block must appear on (0.1-1.0, "
                             "default %(default)s)")
    parser.add_argument("--min-pages", default=defaults.min_pages, metavar="N",
                        help="dedup: fewest pages a block must appear on (2-100, "
                             "default %(default)s)")
    parser.add_argument("--min-block-chars", default=defaults.min_block_chars, metavar="N",
                        help="dedup: shortest block counted (10-500, default %(default)s)")
    parser.add_argument("--exact", action="store_true",
                        help="dedup: compare blocks exactly, without replacing IDs, dates and "
                             "counters")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Merge the shards named on the command line; return the exit code."""
    if args.keep_versions < 0:
        print("error: --keep-versions must be 0 or more.", file=sys.stderr)
        return 2
    try:
        config = None if args.no_dedup else DedupConfig.from_values(
            threshold_pct=args.threshold_pct, min_pages=args.min_pages,
            min_block_chars=args.min_block_chars, normalise=not args.exact,
            names={"threshold_pct": "--threshold-pct", "min_pages": "--min-pages",
                   "min_block_chars": "--min-block-chars"})
        results, dedup = merge_shards(args.shards, args.output, dedup=config,
                                      keep_versions=args.keep_versions)
    except (MergeError, DedupConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for result in results:
        print(f"{result.path}: {result.rows} pages, {result.inserted} new, "
              f"{result.updated} replaced by a newer fetch, {result.kept_newer} older and skipped")
    db = open_database(args.output)
    total = db[PAGES_TABLE].count
    db.close()
    print(f"{args.output}: {total} pages")
    for domain in dedup:
        print(f"dedup {domain.domain}: {domain.fingerprint.pages_analyzed} pages, "
              f"{domain.fingerprint.blocks_boilerplate} boilerplate blocks, "
              f"{100 * domain.removed_share:.1f}% of content bytes removed")
    return 0


def merge_shards(shards: list[Path], output: Path, *, dedup: DedupConfig | None = DedupConfig(),
                 keep_versions: int = project_settings.RECRAWL_KEEP_VERSIONS,
                 ) -> tuple[list[ShardResult], list[DomainResult]]:
    """Upsert every shard into ``output`` (the newest row wins, history kept), then dedup it."""
    _check_paths(shards, output)
    db = open_database(output)
    try:
        ensure_versions_table(db)
        results = [_merge_one(db, shard, keep_versions)
                   for shard in track(shards, "merge", unit="shards")]
        domains = dedup_with_progress(db, dedup, stored_domains(db)) if dedup is not None else []
    finally:
        db.close()
    return results, domains


def _check_paths(shards: list[Path], output: Path) -> None:
    """Refuse missing shards, shards that are not crawl databases and an output that is also an
    input."""
    resolved_output = output.resolve()
    for shard in shards:
        if not shard.is_file():
            raise MergeError(f"{shard}: no such database file")
        if shard.resolve() == resolved_output:
            raise MergeError(f"{shard} is both a shard and the output; write to another file")
    if len({s.resolve() for s in shards}) != len(shards):
        raise MergeError("a shard is named twice")
    for shard in shards:
        # Refuses (DatabaseRefused) a file that is not a crawl database, before anything is
        # written: another application's columns must never reach the output.
        open_database(shard, readonly=True).conn.close()


def _newest(table: str) -> str:
    """SQL for the latest thing known of a row: its fetch, last sighting or disappearance."""
    return (f"max(COALESCE({table}.fetched_at, ''), COALESCE({table}.last_seen, ''), "
            f"COALESCE({table}.gone_at, ''))")


def _earliest(first: str, second: str) -> str:
    """SQL for the earlier of two nullable times."""
    return (f"CASE WHEN {first} IS NULL THEN {second} WHEN {second} IS NULL THEN {first} "
            f"WHEN {first} < {second} THEN {first} ELSE {second} END")


#: Columns whose merged value is not simply the newer row's.
_HISTORY_UPDATES = {
    "first_seen": _earliest(f"main.[{PAGES_TABLE}].first_seen", "excluded.first_seen"),
    "last_changed": (f"CASE WHEN excluded.content_hash IS main.[{PAGES_TABLE}].content_hash "
                     f"THEN {_earliest(f'main.[{PAGES_TABLE}].last_changed', 'excluded.last_changed')} "
                     f"ELSE excluded.last_changed END"),
}


def _keep_replaced_versions(conn: sqlite3.Connection) -> None:
    """Before the upsert, save as versions the texts that lose to a row with another hash: the
    output's row replaced by a newer shard row, and an older shard row the output keeps."""
    version_cols = ", ".join(f"[{c}]" for c in VERSIONS_COLUMNS)
    pages = f"main.[{PAGES_TABLE}]"
    for old, new in (("m", "s"), ("s", "m")):
        conn.execute(
            f"INSERT OR IGNORE INTO main.[{VERSIONS_TABLE}] ({version_cols}) "
            f"SELECT {old}.url, {old}.content_hash, {old}.title, {old}.content_text, "
            f"{old}.content_markdown, {old}.fetched_at, {_newest(new)} "
            f"FROM {pages} AS m JOIN {SHARD_VIEW} AS s ON s.url = m.url "
            f"WHERE {old}.content_hash IS NOT NULL AND {new}.content_hash IS NOT NULL "
            f"AND {old}.content_hash != {new}.content_hash "
            f"AND {_newest(new)} > {_newest(old)}")


def _copy_shard_versions(conn: sqlite3.Connection) -> None:
    """Add the shard's own page versions (the same version twice is kept once)."""
    exists = conn.execute(f"SELECT 1 FROM {SHARD_ALIAS}.sqlite_master WHERE type = 'table' "
                          f"AND name = ?", [VERSIONS_TABLE]).fetchone()
    if not exists:
        return
    shard_cols = {row[1] for row in conn.execute(
        f"PRAGMA {SHARD_ALIAS}.table_info([{VERSIONS_TABLE}])")}
    columns = ", ".join(f"[{c}]" for c in VERSIONS_COLUMNS if c in shard_cols)
    conn.execute(f"INSERT OR IGNORE INTO main.[{VERSIONS_TABLE}] ({columns}) "
                 f"SELECT {columns} FROM {SHARD_ALIAS}.[{VERSIONS_TABLE}]")


def _merge_one(db: sqlite_utils.Database, shard: Path, keep_versions: int) -> ShardResult:
    """Upsert one shard's pages and versions into ``db`` inside SQLite; return the counts."""
    conn = db.conn
    conn.execute(f"ATTACH DATABASE ? AS {SHARD_ALIAS}", [str(shard)])
    try:
        shard_columns = _shard_columns(conn, shard)
        _add_missing_columns(db, shard_columns)
        columns = [c for c in db[PAGES_TABLE].columns_dict if c in shard_columns]
        if "url" not in columns:
            raise MergeError(f"{shard}: its `{PAGES_TABLE}` table has no url column")
        names = ", ".join(f"[{c}]" for c in columns)
        updates = ", ".join(f"[{c}] = {_HISTORY_UPDATES.get(c, f'excluded.[{c}]')}"
                            for c in columns if c != "url")
        rows = conn.execute(f"SELECT count(*) FROM {SHARD_ALIAS}.[{PAGES_TABLE}]").fetchone()[0]
        before = db[PAGES_TABLE].count
        _create_shard_view(conn, shard_columns, columns)
        # Strictly newer wins; a row with no time counts as oldest; equal times keep the first.
        with transaction(conn):
            _keep_replaced_versions(conn)
            cursor = conn.execute(
                f"INSERT INTO main.[{PAGES_TABLE}] ({names}) "
                f"SELECT {names} FROM {SHARD_VIEW} WHERE url IS NOT NULL "
                f"ON CONFLICT(url) DO UPDATE SET {updates} "
                f"WHERE {_newest('excluded')} > {_newest(f'main.[{PAGES_TABLE}]')}")
            changed = cursor.rowcount
            _copy_shard_versions(conn)
            trim_versions(db, keep_versions)
        inserted = db[PAGES_TABLE].count - before
        copy_crawls(db, SHARD_ALIAS)  # each worker's crawl record, for the report
    finally:
        conn.execute(f"DROP VIEW IF EXISTS {SHARD_VIEW}")
        conn.execute(f"DETACH DATABASE {SHARD_ALIAS}")
    result = ShardResult(path=shard, rows=rows, inserted=inserted, updated=changed - inserted)
    logger.info("merged %s: %d pages (%d new, %d replaced)", shard, rows, inserted, result.updated)
    return result


#: Columns the merge reads from every shard; an older shard without them reads NULL.
_MERGE_READS = ("url", "fetched_at", "last_seen", "gone_at", "content_hash", "title",
                "content_text", "content_markdown", "first_seen", "last_changed")
SHARD_VIEW = "temp.shard_pages"


def _create_shard_view(conn: sqlite3.Connection, shard_columns: dict[str, str],
                       columns: list[str]) -> None:
    """A temporary view of the shard's pages with every column the merge reads (missing ones as
    NULL), so one query fits shards of every version and the shard file is not modified."""
    wanted = list(dict.fromkeys([*columns, *_MERGE_READS]))
    select = ", ".join(f"[{c}]" if c in shard_columns else f"NULL AS [{c}]" for c in wanted)
    conn.execute(f"DROP VIEW IF EXISTS {SHARD_VIEW}")
    conn.execute(f"CREATE TEMP VIEW shard_pages AS SELECT {select} "
                 f"FROM {SHARD_ALIAS}.[{PAGES_TABLE}]")


def _shard_columns(conn: sqlite3.Connection, shard: Path) -> dict[str, str]:
    """Column names and declared types of the shard's pages table."""
    try:
        info = conn.execute(f"PRAGMA {SHARD_ALIAS}.table_info([{PAGES_TABLE}])").fetchall()
    except sqlite3.DatabaseError as exc:
        raise MergeError(f"{shard}: not a SQLite database ({exc})") from None
    if not info:
        raise MergeError(f"{shard}: not a crawl database (no `{PAGES_TABLE}` table)")
    return {row[1]: row[2] for row in info}


def _add_missing_columns(db: sqlite_utils.Database, shard_columns: dict[str, str]) -> None:
    """Give the output every column a shard has (a newer version may have added some)."""
    ensure_pages_table(db)
    existing = set(db[PAGES_TABLE].columns_dict)
    for name, declared in shard_columns.items():
        if name not in existing:
            db.conn.execute(f"ALTER TABLE [{PAGES_TABLE}] ADD COLUMN [{name}] {declared or ''}")
