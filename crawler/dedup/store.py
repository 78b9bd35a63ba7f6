"""The SQLite side of dedup: stream a domain's pages, store its fingerprint, write cleaned content.

Pages are read twice in batches (count, then strip and write), so a domain of any size is
analysed without holding its content in memory. Only `cleaned_content` and the
`domain_boilerplate` table are written; the extracted content is never modified. Pages marked
gone (`gone_at`) are left out of the analysis and keep their cleaned content.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

import sqlite_utils

from crawler.dedup.blocks import (BlockCounter, DomainFingerprint, RemovedBlock, RemovedBlockTally,
                                  strip_boilerplate_listing)
from crawler.dedup.config import DedupConfig
from crawler.decoding import decode_page
from crawler.dedup.page_text import page_lines
from crawler.storage import PAGES_TABLE, decompress_html, domains, iter_pages

logger = logging.getLogger(__name__)

BOILERPLATE_TABLE = "domain_boilerplate"

#: Column analysed and cleaned: the extracted main content as markdown.
SOURCE_COLUMN = "content_markdown"
CLEANED_COLUMN = "cleaned_content"

BOILERPLATE_COLUMNS: dict[str, type] = {
    "domain": str,
    "hashes": str,
    "short_hashes": str,
    "page_lines": str,
    "pages_analyzed": int,
    "blocks_total": int,
    "blocks_boilerplate": int,
    "bytes_total": int,
    "bytes_removed": int,
    "bytes_removed_avg": float,
    "pages_changed": int,
    "threshold_pct": float,
    "min_pages": int,
    "min_block_chars": int,
    "normalise": int,
    "whole_page": int,
    "top_blocks": str,
    "created_at": str,
    "updated_at": str,
}

#: How many of a domain's boilerplate blocks keep their text and figures in `top_blocks`
#: (the ones that removed the most bytes): enough to see what a site repeats.
TOP_BLOCKS_STORED = 20


@dataclass(frozen=True)
class DomainResult:
    """What one domain's dedup run found and changed."""

    domain: str
    fingerprint: DomainFingerprint
    bytes_total: int
    bytes_removed: int
    pages_changed: int
    seconds: float
    top_blocks: tuple[RemovedBlock, ...] = ()
    blocks_removed: int = 0

    @property
    def bytes_removed_avg(self) -> float:
        """Bytes removed per analysed page."""
        pages = self.fingerprint.pages_analyzed
        return self.bytes_removed / pages if pages else 0.0

    @property
    def removed_share(self) -> float:
        """Share of the domain's content bytes removed as boilerplate."""
        return self.bytes_removed / self.bytes_total if self.bytes_total else 0.0


def ensure_boilerplate_table(db: sqlite_utils.Database) -> None:
    """Create the `domain_boilerplate` table (one row per domain) if it is missing."""
    table = db[BOILERPLATE_TABLE]
    if not table.exists():
        table.create(BOILERPLATE_COLUMNS, pk="domain")
        return
    existing = set(table.columns_dict)
    for name, col_type in BOILERPLATE_COLUMNS.items():
        if name not in existing:
            table.add_column(name, col_type)


def dedup_database(db: sqlite_utils.Database, config: DedupConfig,
                   only: list[str] | None = None, batch_size: int = 500,
                   advance: Callable[[int], None] | None = None) -> list[DomainResult]:
    """Run :func:`dedup_domain` for every domain in ``only`` (default: all stored domains)."""
    return [dedup_domain(db, domain, config, batch_size=batch_size, advance=advance)
            for domain in (only if only is not None else domains(db))]


def dedup_domain(db: sqlite_utils.Database, domain: str, config: DedupConfig,
                 batch_size: int = 500,
                 advance: Callable[[int], None] | None = None) -> DomainResult:
    """Fingerprint all stored pages of ``domain``; write their cleaned content, the fingerprint.

    Each page is read twice (counted, then stripped); ``advance(n)`` is told of every ``n``
    pages read, for a progress display (2 x pages in all).
    """
    started = time.perf_counter()
    ensure_boilerplate_table(db)
    counter = BlockCounter(min_block_chars=config.min_block_chars, normalise=config.normalise)
    columns = [SOURCE_COLUMN, "raw_html", "encoding"] if config.whole_page else [SOURCE_COLUMN]
    for row in iter_pages(db, columns, domain=domain, batch_size=batch_size, live_only=True):
        counter.add(row[SOURCE_COLUMN])
        if config.whole_page:
            counter.add_page_lines(page_lines(stored_page_text(row["raw_html"], row["encoding"])))
        if advance is not None:
            advance(1)
    fingerprint = counter.fingerprint(threshold_pct=config.threshold_pct,
                                      min_pages=config.min_pages)
    tally = RemovedBlockTally(normalise=config.normalise)
    bytes_total, bytes_removed, pages_changed = _clean_pages(
        db, _iter_batches(db, domain, batch_size), fingerprint, config, tally, advance)
    result = DomainResult(domain=domain, fingerprint=fingerprint, bytes_total=bytes_total,
                          bytes_removed=bytes_removed, pages_changed=pages_changed,
                          seconds=time.perf_counter() - started,
                          top_blocks=tuple(tally.top(TOP_BLOCKS_STORED)),
                          blocks_removed=len(tally))
    _store_fingerprint(db, result, config)
    logger.info("dedup %s: %d pages, %d boilerplate blocks, %.1f%% of bytes removed",
                domain, fingerprint.pages_analyzed, fingerprint.blocks_boilerplate,
                100 * result.removed_share)
    return result


def _clean_pages(db: sqlite_utils.Database,
                 batches: Iterator[list[tuple[str, str | None, bytes | None, str | None]]],
                 fingerprint: DomainFingerprint, config: DedupConfig,
                 tally: RemovedBlockTally | None = None,
                 advance: Callable[[int], None] | None = None) -> tuple[int, int, int]:
    """Write the cleaned content of the pages in ``batches``; (bytes, bytes removed, pages
    whose cleaned content differs from their content). The blocks removed are added to
    ``tally``; ``advance(n)`` is told of each batch."""
    bytes_total = bytes_removed = pages_changed = 0
    for batch in batches:
        updates: list[tuple[str, str]] = []
        for url, content, raw, encoding in batch:
            content = content or ""
            cleaned, removed, blocks = strip_boilerplate_listing(
                content, fingerprint, config.min_block_chars, normalise=config.normalise,
                page_html=partial(stored_page_text, raw, encoding)
                if raw and fingerprint.page_lines else None)
            if tally is not None:
                tally.add(blocks)
            bytes_total += len(content.encode("utf-8"))
            bytes_removed += removed
            pages_changed += cleaned != content
            updates.append((cleaned, url))
        with db.conn:
            db.conn.executemany(
                f"UPDATE [{PAGES_TABLE}] SET [{CLEANED_COLUMN}] = ? WHERE url = ?", updates)
        if advance is not None:
            advance(len(batch))
    return bytes_total, bytes_removed, pages_changed


#: What :func:`refresh_domain` did to a domain.
REFRESH_FULL = "full"
REFRESH_INCREMENTAL = "incremental"
REFRESH_NOTHING = "unchanged"


@dataclass(frozen=True)
class DomainRefresh:
    """The outcome of :func:`refresh_domain`: what was done and why."""

    domain: str
    action: str
    pages_moved: int
    pages_analyzed_before: int
    pages_cleaned: int
    result: DomainResult | None = None


def refresh_domain(db: sqlite_utils.Database, domain: str, config: DedupConfig,
                   batch_size: int = 500) -> DomainRefresh:
    """Bring a domain's cleaned content up to date after a re-crawl, doing only what is needed.

    The fingerprint is a set of blocks found on at least ``T = max(min_pages, threshold_pct x
    n)`` of the ``n`` pages analysed. Pages new, changed or gone since that analysis (``moved``,
    read from the pages' ``last_changed`` and ``gone_at``) move any block's count by at most
    ``moved``, and ``T`` by at most ``threshold_pct x moved``, so only blocks whose count was
    within about ``moved`` of ``T`` can change side. The domain is therefore analysed again in
    full when there is no fingerprint yet, its parameters differ, or ``moved`` exceeds
    ``reanalyse_pct x n`` (5% by default: with the 0.7 threshold only blocks on 65-75% of the
    pages could flip, where boilerplate sits near 100% and content near one page). Otherwise
    the stored fingerprint cleans the moved pages only, and the moves keep counting towards the
    next full analysis. Nothing moved: nothing is done.
    """
    ensure_boilerplate_table(db)
    stored = db.conn.execute(
        f"SELECT updated_at, pages_analyzed, threshold_pct, min_pages, min_block_chars, "
        f"normalise, whole_page FROM [{BOILERPLATE_TABLE}] WHERE domain = ?",
        [domain]).fetchone()
    same_parameters = stored is not None and tuple(stored[2:]) == (
        config.threshold_pct, config.min_pages, config.min_block_chars, int(config.normalise),
        int(config.whole_page))
    if not same_parameters or not stored[0]:
        result = dedup_domain(db, domain, config, batch_size=batch_size)
        return DomainRefresh(domain, REFRESH_FULL, result.fingerprint.pages_analyzed,
                             stored[1] if stored else 0, result.fingerprint.pages_analyzed,
                             result)
    since, analyzed = stored[0], stored[1] or 0
    moved = db.conn.execute(
        f"SELECT count(*) FROM [{PAGES_TABLE}] WHERE domain = ? AND "
        f"((gone_at IS NULL AND last_changed >= ?) OR gone_at >= ?)",
        [domain, since, since]).fetchone()[0]
    if moved == 0:
        return DomainRefresh(domain, REFRESH_NOTHING, 0, analyzed, 0)
    if moved > config.reanalyse_pct * analyzed:
        result = dedup_domain(db, domain, config, batch_size=batch_size)
        return DomainRefresh(domain, REFRESH_FULL, moved, analyzed,
                             result.fingerprint.pages_analyzed, result)
    fingerprint = load_fingerprint(db, domain)
    assert fingerprint is not None
    batches = _iter_batches(db, domain, batch_size, changed_since=since)
    cleaned = 0

    def counted() -> Iterator[list[tuple[str, str | None, bytes | None, str | None]]]:
        nonlocal cleaned
        for batch in batches:
            cleaned += len(batch)
            yield batch

    _clean_pages(db, counted(), fingerprint, config)
    logger.info("dedup %s: %d of %d pages new, changed or gone since the last analysis; "
                "%d cleaned with the stored fingerprint", domain, moved, analyzed, cleaned)
    return DomainRefresh(domain, REFRESH_INCREMENTAL, moved, analyzed, cleaned)


def stored_stats(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    """Stored fingerprint rows (without the hash lists), one per domain, ordered by domain."""
    if not db[BOILERPLATE_TABLE].exists():
        return []
    present = set(db[BOILERPLATE_TABLE].columns_dict)  # older databases lack newer columns
    columns = [c for c in BOILERPLATE_COLUMNS
               if c in present and c not in ("hashes", "short_hashes", "page_lines")]
    names = ", ".join(f"[{c}]" for c in columns)
    sql = f"SELECT {names} FROM [{BOILERPLATE_TABLE}] ORDER BY domain"
    return [dict(zip(columns, row, strict=True)) for row in db.conn.execute(sql)]


def load_fingerprint(db: sqlite_utils.Database, domain: str) -> DomainFingerprint | None:
    """The stored fingerprint of ``domain``, or None when it was never analysed."""
    if not db[BOILERPLATE_TABLE].exists():
        return None
    row = db.conn.execute(
        f"SELECT hashes, short_hashes, page_lines, pages_analyzed, blocks_total, "
        f"blocks_boilerplate, threshold_pct, min_pages, min_block_chars "
        f"FROM [{BOILERPLATE_TABLE}] WHERE domain = ?", [domain]).fetchone()
    if row is None:
        return None
    hashes, short, lines, pages, total, boiler, pct, min_pages, min_chars = row
    return DomainFingerprint(hashes=frozenset(json.loads(hashes or "[]")),
                             short_hashes=frozenset(json.loads(short or "[]")),
                             page_lines=frozenset(json.loads(lines or "[]")),
                             page_lines_min_chars=min_chars,
                             pages_analyzed=pages, blocks_total=total, blocks_boilerplate=boiler,
                             min_occurrences=max(min_pages, int(pages * pct)))


def stored_page_text(raw_html: bytes | None, encoding: str | None) -> str:
    """A stored page's HTML as text, decoded with the charset the crawl recorded for it (as the
    extraction read it: a cp1252 page reads the same in both)."""
    return decode_page(decompress_html(raw_html), encoding)[0]


def _iter_batches(db: sqlite_utils.Database, domain: str, batch_size: int, *,
                  changed_since: str | None = None,
                  ) -> Iterator[list[tuple[str, str | None, bytes | None, str | None]]]:
    """(url, content, raw_html, encoding) of the live pages of ``domain`` (only those changed
    since ``changed_since`` if given) by URL, a batch at a time, no cursor left open."""
    last = ""
    changed = "AND last_changed >= ? " if changed_since else ""
    while True:
        batch = db.conn.execute(
            f"SELECT url, [{SOURCE_COLUMN}], raw_html, encoding FROM [{PAGES_TABLE}] "
            f"WHERE domain = ? AND gone_at IS NULL {changed}AND url > ? ORDER BY url LIMIT ?",
            [domain, *([changed_since] if changed_since else []), last,
             batch_size]).fetchall()
        if not batch:
            return
        yield batch
        last = batch[-1][0]


def _store_fingerprint(db: sqlite_utils.Database, result: DomainResult,
                       config: DedupConfig) -> None:
    """Upsert the domain's fingerprint row, keeping its first `created_at`."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    previous = db.conn.execute(
        f"SELECT created_at FROM [{BOILERPLATE_TABLE}] WHERE domain = ?",
        [result.domain]).fetchone()
    fp = result.fingerprint
    row = {
        "domain": result.domain,
        "hashes": json.dumps(sorted(fp.hashes)),
        "short_hashes": json.dumps(sorted(fp.short_hashes)),
        "page_lines": json.dumps(sorted(fp.page_lines), ensure_ascii=False),
        "pages_analyzed": fp.pages_analyzed,
        "blocks_total": fp.blocks_total,
        "blocks_boilerplate": fp.blocks_boilerplate,
        "bytes_total": result.bytes_total,
        "bytes_removed": result.bytes_removed,
        "bytes_removed_avg": round(result.bytes_removed_avg, 1),
        "pages_changed": result.pages_changed,
        "threshold_pct": config.threshold_pct,
        "min_pages": config.min_pages,
        "min_block_chars": config.min_block_chars,
        "normalise": int(config.normalise),
        "whole_page": int(config.whole_page),
        "top_blocks": json.dumps([b.as_dict() for b in result.top_blocks], ensure_ascii=False),
        "created_at": previous[0] if previous and previous[0] else now,
        "updated_at": now,
    }
    with db.conn:
        db[BOILERPLATE_TABLE].upsert(row, pk="domain")
