"""``reextract``: run the extraction engine again on stored pages, without fetching them.

Each page's raw HTML is stored (compressed, with the encoding the crawl used), so after the
engine or the site rules change, the extracted columns can be brought up to date in place. The
domains touched then get their boilerplate analysis again, since ``cleaned_content`` derives
from the extracted markdown.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import multiprocessing
import os
import sys
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import sqlite_utils

from crawler.commands import add_database_arguments, jobs_problem
from crawler.commands.dedup import dedup_with_progress
from crawler.content_hash import content_hash
from crawler.decoding import decode_page
from crawler.dedup.config import DedupConfig
from crawler.extraction import extract
from crawler.items import EXTRACTED_FIELDS
from crawler.progress import Progress
from crawler.quiet_logs import quiet_third_party_warnings
from crawler.storage import PAGES_TABLE, decompress_html, domains, open_database

logger = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``reextract`` sub-command."""
    parser = subparsers.add_parser(
        "reextract", help="extract stored pages again (no fetching) and update their rows",
        description="Run the extraction engine on every stored page's raw HTML, update the "
                    "extracted columns, then re-run the domain boilerplate analysis.")
    add_database_arguments(parser, verb="extract")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="pages extracted at once, in processes (default: all cores)")
    parser.add_argument("--no-dedup", action="store_true",
                        help="do not re-run the boilerplate analysis afterwards")
    parser.set_defaults(func=run)


def extracted_values(url: str, html: str) -> dict[str, Any]:
    """Column values of one page's extraction (the work a process does)."""
    result = extract(html, url)
    values = {name: getattr(result, name) for name in EXTRACTED_FIELDS}
    values["quality_reasons"] = json.dumps(list(result.quality_reasons))
    # The hash follows the engine's output, so the next crawl compares like with like; the
    # page's history (last_changed, page_versions) is not touched: the page did not change.
    values["content_hash"] = content_hash(result.content_text)
    values["extraction_error"] = None  # extracted now, whatever failed at crawl time
    return values


def _extract_job(job: tuple[str, str | None]) -> tuple[str, dict[str, Any] | None, str | None]:
    url, html = job
    if html is None:
        return url, None, "its stored raw_html is corrupt (not zlib data)"
    try:
        return url, extracted_values(url, html), None
    except Exception as exc:  # noqa: BLE001 - one bad page must not stop the others
        return url, None, f"{type(exc).__name__}: {exc}"


def _jobs(db_path: Path, urls: list[str]) -> Iterator[tuple[str, str | None]]:
    """(url, decoded HTML) of each page, read through a connection of its own; the HTML is None
    when the stored blob cannot be decompressed (the page is skipped and counted, not fatal)."""
    reader = open_database(db_path)
    try:
        for url in urls:
            row = reader.conn.execute(
                f"SELECT raw_html, encoding FROM [{PAGES_TABLE}] WHERE url = ?", [url]).fetchone()
            if row is None:
                continue
            try:
                raw = decompress_html(row[0])
            except zlib.error:
                yield url, None
                continue
            yield url, decode_page(raw, row[1])[0]
    finally:
        reader.conn.close()


def _text_changed(db: sqlite_utils.Database, url: str, new_text: str) -> bool:
    """True when the stored main text of ``url`` differs from ``new_text`` (by content hash)."""
    row = db.conn.execute(f"SELECT content_text FROM [{PAGES_TABLE}] WHERE url = ?",
                          [url]).fetchone()
    return row is None or content_hash(row[0]) != content_hash(new_text)


def run(args: argparse.Namespace) -> int:
    """Re-extract the chosen pages, report the counts, re-run dedup on their domains."""
    if not args.db.exists():
        print(f"error: no database at {args.db}.", file=sys.stderr)
        return 1
    problem = jobs_problem(args.jobs)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    db = open_database(args.db)
    try:
        chosen = args.domain or domains(db)
        unknown = sorted(set(chosen) - set(domains(db)))
        if unknown:
            print(f"error: no pages of {', '.join(unknown)} in {args.db}.", file=sys.stderr)
            return 1
        marks = ", ".join("?" for _ in chosen)
        urls = [r[0] for r in db.conn.execute(
            f"SELECT url FROM [{PAGES_TABLE}] WHERE domain IN ({marks}) ORDER BY url", chosen)]
        started = time.perf_counter()
        updated = failed = changed = 0
        with contextlib.ExitStack() as stack:
            progress = stack.enter_context(Progress(len(urls), "reextract"))
            jobs = _jobs(args.db, urls)
            results: Iterator[tuple[str, dict[str, Any] | None, str | None]]
            if args.jobs > 1:
                pool = stack.enter_context(
                    multiprocessing.get_context("forkserver").Pool(
                        args.jobs, initializer=quiet_third_party_warnings))
                results = pool.imap_unordered(_extract_job, jobs, chunksize=4)
            else:
                results = map(_extract_job, jobs)
            for url, values, error in results:
                progress.update()
                if values is None:
                    failed += 1
                    logger.warning("Extraction failed for %s (%s); its row is unchanged",
                                   url, error)
                    continue
                changed += _text_changed(db, url, values["content_text"])
                with db.conn:
                    db[PAGES_TABLE].update(url, values)
                updated += 1
        elapsed = time.perf_counter() - started
        print(f"{updated} pages re-extracted, {failed} failed, in {elapsed:.1f} s "
              f"({updated / elapsed if elapsed else 0:.1f} pages/s); main text changed on "
              f"{changed} pages, the same on {updated - changed}")
        if not args.no_dedup and updated:
            for result in dedup_with_progress(db, DedupConfig(), list(chosen)):
                print(f"dedup {result.domain} (default settings; `dedup` takes others): "
                      f"{100 * result.removed_share:.1f}% of bytes removed as boilerplate")
    finally:
        db.conn.close()
    return 1 if failed and not updated else 0
