"""Figures of the crawl report, read from a crawl database (read-only; nothing is recomputed).

Pages come from `pages`, crawl-level counts (found, skipped and failed by reason) from `crawls`,
boilerplate from `domain_boilerplate`. A database written before one of these tables existed
gives a report without that part, never an error.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import sqlite_utils

from crawler.crawls import CrawlRecord, read_crawls
from crawler.dedup.store import stored_stats
from crawler.storage import PAGES_TABLE

#: Columns of each page in the report's page table, in this order (the browser reads them by
#: position to keep the index small).
INDEX_COLUMNS = ("url", "title", "page_type", "word_count", "quality_score", "quality_flagged",
                 "method", "domain", "framework", "rendered", "fetched_at")

#: Bins of the quality-score histogram over [0, 1].
QUALITY_BINS = 10


class ReportInputError(Exception):
    """The database cannot be reported on; the message is one sentence for the user."""


@dataclass
class DomainFigures:
    """One domain's pages and, when a crawl started there, its crawl-level counts."""

    domain: str
    stored: int = 0
    rendered: int = 0
    flagged: int = 0
    words: int = 0
    quality_sum: float = 0.0
    quality_count: int = 0
    first_fetched: str | None = None
    last_fetched: str | None = None
    found: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    crawls: int = 0

    @property
    def quality_mean(self) -> float | None:
        """Mean quality score of the pages that have one."""
        return self.quality_sum / self.quality_count if self.quality_count else None


@dataclass
class ReportData:
    """Everything the report's overview shows."""

    database: str
    pages: int = 0
    rendered: int = 0
    flagged: int = 0
    words: int = 0
    first_fetched: str | None = None
    last_fetched: str | None = None
    quality_histogram: list[int] = field(default_factory=lambda: [0] * QUALITY_BINS)
    no_quality: int = 0
    page_types: Counter[str] = field(default_factory=Counter)
    frameworks: Counter[str] = field(default_factory=Counter)
    methods: Counter[str] = field(default_factory=Counter)
    domains: dict[str, DomainFigures] = field(default_factory=dict)
    crawls: list[CrawlRecord] = field(default_factory=list)
    boilerplate: list[dict[str, Any]] = field(default_factory=list)

    @property
    def found(self) -> int:
        """Pages found by the recorded crawls (0 when none was recorded)."""
        return sum(c.count("summary/pages_found") for c in self.crawls)

    def reasons(self, prefix: str) -> Counter[str]:
        """``skipped`` or ``errors`` counts by reason over every recorded crawl."""
        total: Counter[str] = Counter()
        for crawl in self.crawls:
            total.update(crawl.by_reason(prefix))
        return total


def open_readonly(path: Path) -> sqlite_utils.Database:
    """Open an existing crawl database without writing to it."""
    if not path.is_file():
        raise ReportInputError(f"no crawl database at {path}.")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                               check_same_thread=False)
        db = sqlite_utils.Database(conn)
        if not db[PAGES_TABLE].exists():
            raise ReportInputError(f"{path} has no pages table; is it a crawl database?")
    except sqlite3.DatabaseError as exc:
        raise ReportInputError(f"{path} is not a readable SQLite database ({exc}).") from exc
    return db


def crawl_domains(crawl: CrawlRecord) -> set[str]:
    """The ``host[:port]`` of each start URL, as pages' ``domain`` column spells them."""
    return {urlsplit(url).netloc.lower() for url in crawl.start_urls if urlsplit(url).netloc}


def collect(db: sqlite_utils.Database, database_name: str) -> ReportData:
    """Aggregate the pages (one streaming pass over small columns), crawls and boilerplate."""
    data = ReportData(database=database_name)
    sql = (f"SELECT domain, rendered, quality_flagged, word_count, quality_score, page_type, "
           f"framework, method, fetched_at FROM [{PAGES_TABLE}]")
    for (domain, rendered, flagged, words, quality, page_type, framework, method,
         fetched) in _rows(db.conn.execute(sql)):
        figures = data.domains.get(domain or "")
        if figures is None:
            figures = data.domains[domain or ""] = DomainFigures(domain=domain or "")
        data.pages += 1
        figures.stored += 1
        if rendered:
            data.rendered += 1
            figures.rendered += 1
        if flagged:
            data.flagged += 1
            figures.flagged += 1
        data.words += words or 0
        figures.words += words or 0
        if quality is None:
            data.no_quality += 1
        else:
            data.quality_histogram[min(QUALITY_BINS - 1, max(0, int(quality * QUALITY_BINS)))] += 1
            figures.quality_sum += quality
            figures.quality_count += 1
        data.page_types[page_type or "(none)"] += 1
        data.frameworks[framework or "(none)"] += 1
        data.methods[method or "(none)"] += 1
        if fetched:
            data.first_fetched = min(filter(None, (data.first_fetched, fetched)))
            data.last_fetched = max(filter(None, (data.last_fetched, fetched)))
            figures.first_fetched = min(filter(None, (figures.first_fetched, fetched)))
            figures.last_fetched = max(filter(None, (figures.last_fetched, fetched)))
    data.crawls = read_crawls(db)
    for crawl in data.crawls:
        for domain in crawl_domains(crawl):
            figures = data.domains.setdefault(domain, DomainFigures(domain=domain))
            figures.crawls += 1
            figures.found += crawl.count("summary/pages_found")
            figures.skipped.update(crawl.by_reason("skipped"))
            figures.errors.update(crawl.by_reason("errors"))
    data.boilerplate = [_with_blocks(row) for row in stored_stats(db)]
    return data


def _rows(cursor: sqlite3.Cursor, batch_size: int = 2000) -> Iterator[tuple]:
    """A cursor's rows a batch at a time."""
    while rows := cursor.fetchmany(batch_size):
        yield from rows


def _with_blocks(row: dict[str, Any]) -> dict[str, Any]:
    """A stored boilerplate row with its `top_blocks` JSON read (empty when not stored)."""
    try:
        blocks = json.loads(row.get("top_blocks") or "[]")
    except ValueError:
        blocks = []
    return {**row, "top_blocks": [b for b in blocks if isinstance(b, dict)],
            "stored_blocks": row.get("top_blocks") is not None}


def iter_index(db: sqlite_utils.Database) -> Iterator[list[Any]]:
    """Each page's table row (:data:`INDEX_COLUMNS`), ordered by URL."""
    names = ", ".join(f"[{c}]" for c in INDEX_COLUMNS)
    for row in _rows(db.conn.execute(f"SELECT {names} FROM [{PAGES_TABLE}] ORDER BY url")):
        values = list(row)
        score = values[4]
        values[4] = round(score, 3) if isinstance(score, float) else score
        yield values
