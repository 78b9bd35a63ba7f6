"""``dedup`` and ``dedup-stats``: re-run the domain boilerplate analysis, read it out.

The JSONL feed written during a crawl cannot hold cleaned content (items leave the pipelines
before the spider closes and dedup runs); ``export`` writes pages with ``cleaned_content``.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

import sqlite_utils

from crawler.commands import add_database_arguments
from crawler.dedup.config import DedupConfig, DedupConfigError
from crawler.dedup.store import DomainResult, dedup_database, stored_stats
from crawler.progress import Progress
from crawler.storage import PAGES_TABLE, domains, open_database

logger = logging.getLogger(__name__)

def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``dedup`` and ``dedup-stats`` sub-commands."""
    defaults = DedupConfig()
    dedup = subparsers.add_parser(
        "dedup", help="find blocks repeated across each domain's pages and write cleaned_content",
        description="Fingerprint the blocks repeated across each domain's stored pages, store the "
                    "fingerprint in domain_boilerplate and write pages.cleaned_content.")
    add_database_arguments(dedup, verb="analyse")
    dedup.add_argument("--threshold-pct", default=defaults.threshold_pct, metavar="P",
                       help="share of a domain's pages a block must appear on (0.1-1.0, "
                            "default %(default)s)")
    dedup.add_argument("--min-pages", default=defaults.min_pages, metavar="N",
                       help="fewest pages a block must appear on (2-100, default %(default)s)")
    dedup.add_argument("--min-block-chars", default=defaults.min_block_chars, metavar="N",
                       help="shortest block counted (10-500, default %(default)s)")
    dedup.add_argument("--exact", action="store_true",
                       help="compare blocks exactly, without replacing IDs, dates and counters")
    dedup.add_argument("--no-whole-page", action="store_true",
                       help="count only the extracted content, not the lines of each whole page")
    dedup.set_defaults(func=run_dedup)

    stats = subparsers.add_parser("dedup-stats", help="print the stored boilerplate statistics",
                                  description="Print the statistics stored by the last dedup run "
                                              "of each domain.")
    stats.add_argument("db", type=Path, metavar="DB", help="crawl database")
    stats.set_defaults(func=run_stats)


def _require_database(path: Path) -> bool:
    """True when ``path`` is an existing file; otherwise print why not."""
    if path.is_file():
        return True
    print(f"error: no crawl database at {path}.", file=sys.stderr)
    return False


def run_dedup(args: argparse.Namespace) -> int:
    """Re-run the analysis and print one line of figures per domain."""
    try:
        config = DedupConfig.from_values(
            threshold_pct=args.threshold_pct, min_pages=args.min_pages,
            min_block_chars=args.min_block_chars, normalise=not args.exact,
            whole_page=not args.no_whole_page,
            names={"threshold_pct": "--threshold-pct", "min_pages": "--min-pages",
                   "min_block_chars": "--min-block-chars"})
    except DedupConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not _require_database(args.db):
        return 1
    db = open_database(args.db)
    try:
        if args.domain:
            known = set(domains(db))
            unknown = [d for d in args.domain if d not in known]
            if unknown:
                print(f"error: no pages of {', '.join(unknown)} in {args.db}.", file=sys.stderr)
                return 1
        results = dedup_with_progress(db, config, args.domain or domains(db))
    finally:
        db.conn.close()
    print(f"{'domain':32s} {'pages':>6s} {'boilerplate':>11s} {'removed':>8s}")
    for result in results:
        fp = result.fingerprint
        print(f"{result.domain:32s} {fp.pages_analyzed:6d} {fp.blocks_boilerplate:11d} "
              f"{100 * result.removed_share:7.1f}%")
    return 0


def dedup_with_progress(db: sqlite_utils.Database, config: DedupConfig,
                        chosen: list[str]) -> list[DomainResult]:
    """Run the boilerplate analysis of the ``chosen`` domains with a progress display."""
    marks = ", ".join("?" for _ in chosen)
    pages = db.conn.execute(f"SELECT count(*) FROM [{PAGES_TABLE}] WHERE domain IN ({marks})",
                            chosen).fetchone()[0]
    with Progress(2 * pages, "dedup (each page read twice)") as progress:
        return dedup_database(db, config, only=chosen, advance=progress.update)


def run_stats(args: argparse.Namespace) -> int:
    """Print the stored statistics, one line per analysed domain."""
    if not _require_database(args.db):
        return 1
    db = open_database(args.db, readonly=True)
    try:
        rows = stored_stats(db)
    finally:
        db.conn.close()
    if not rows:
        print(f"no dedup statistics in {args.db}; run: python -m crawler dedup {args.db}")
        return 0
    print(f"{'domain':32s} {'pages':>6s} {'blocks':>7s} {'boilerplate':>11s} {'removed':>8s} "
          f"{'avg bytes':>9s}  updated")
    for row in rows:
        share = row["bytes_removed"] / row["bytes_total"] if row["bytes_total"] else 0.0
        print(f"{row['domain']:32s} {row['pages_analyzed']:6d} {row['blocks_total']:7d} "
              f"{row['blocks_boilerplate']:11d} {100 * share:7.1f}% "
              f"{row['bytes_removed_avg']:9.0f}  "
              f"{row['updated_at']}")
    return 0
