"""``python -m crawler merge SHARD.db ... -o crawl.db``: merge crawl shards, then re-run dedup.

Workers of a distributed crawl each write their own database (``-s SQLITE_PATH=shard-N.db``).
This command upserts every shard's pages into one database by URL, keeping the newest fetch
(``fetched_at``) of a URL seen in several shards, and then runs the domain boilerplate analysis
on the merged pages, since per-shard statistics only saw part of each domain. Rows are copied
inside SQLite (``INSERT ... SELECT``), so shards of any size merge in constant memory.
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
    try:
        config = None if args.no_dedup else DedupConfig.from_values(
            threshold_pct=args.threshold_pct, min_pages=args.min_pages,
            min_block_chars=args.min_block_chars, normalise=not args.exact,
            names={"threshold_pct": "--threshold-pct", "min_pages": "--min-pages",
                   "min_block_chars": "--min-block-chars"})
        results, dedup = merge_shards(args.shards, args.output, dedup=config)
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
                 ) -> tuple[list[ShardResult], list[DomainResult]]:
    """Upsert every shard into ``output`` (newest ``fetched_at`` wins), then dedup it."""
    _check_paths(shards, output)
    db = open_database(output)
    try:
        results = [_merge_one(db, shard) for shard in track(shards, "merge", unit="shards")]
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


def _merge_one(db: sqlite_utils.Database, shard: Path) -> ShardResult:
    """Upsert one shard's pages into ``db`` inside SQLite; return the counts."""
    conn = db.conn
    conn.execute(f"ATTACH DATABASE ? AS {SHARD_ALIAS}", [str(shard)])
    try:
        shard_columns = _shard_columns(conn, shard)
        _add_missing_columns(db, shard_columns)
        columns = [c for c in db[PAGES_TABLE].columns_dict if c in shard_columns]
        if "url" not in columns:
            raise MergeError(f"{shard}: its `{PAGES_TABLE}` table has no url column")
        names = ", ".join(f"[{c}]" for c in columns)
        updates = ", ".join(f"[{c}] = excluded.[{c}]" for c in columns if c != "url")
        rows = conn.execute(f"SELECT count(*) FROM {SHARD_ALIAS}.[{PAGES_TABLE}]").fetchone()[0]
        before = db[PAGES_TABLE].count
        # Strictly newer wins; a missing fetched_at counts as oldest; equal times keep the first.
        with conn:
            cursor = conn.execute(
                f"INSERT INTO main.[{PAGES_TABLE}] ({names}) "
                f"SELECT {names} FROM {SHARD_ALIAS}.[{PAGES_TABLE}] WHERE url IS NOT NULL "
                f"ON CONFLICT(url) DO UPDATE SET {updates} "
                f"WHERE excluded.fetched_at IS NOT NULL "
                f"AND (main.[{PAGES_TABLE}].fetched_at IS NULL "
                f"OR excluded.fetched_at > main.[{PAGES_TABLE}].fetched_at)")
            changed = cursor.rowcount
        inserted = db[PAGES_TABLE].count - before
        copy_crawls(db, SHARD_ALIAS)  # each worker's crawl record, for the report
    finally:
        conn.execute(f"DETACH DATABASE {SHARD_ALIAS}")
    result = ShardResult(path=shard, rows=rows, inserted=inserted, updated=changed - inserted)
    logger.info("merged %s: %d pages (%d new, %d replaced)", shard, rows, inserted, result.updated)
    return result


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
