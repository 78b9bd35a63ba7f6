"""The crawl report: one HTML file to open in a browser, and the page views beside it.

``build_report(db, out)`` writes ``out`` (overview, crawls, per-domain figures, boilerplate and
the sortable, filterable page table, with its style, script and charts inline: no network) and
the folder ``<out stem>_files/`` holding each page's view (sanitised content, markdown,
metadata, quality reasons, extraction trace) in chunk files loaded only when a page is opened.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from crawler.report.collect import ReportInputError, collect, iter_index, open_readonly
from crawler.report.html import index_payload, render_report
from crawler.report.page_views import (PAGES_PER_CHUNK, PageViewOptions, script_json,
                                       write_page_views)

logger = logging.getLogger(__name__)

__all__ = ["ReportInputError", "ReportResult", "build_report", "files_directory"]


@dataclass(frozen=True)
class ReportResult:
    """What was written and what it took."""

    report: Path
    files: Path
    pages: int
    traces: int
    report_bytes: int
    files_bytes: int
    seconds: float


def files_directory(report: Path) -> Path:
    """The folder of page views beside a report: ``report.html`` -> ``report_files/``."""
    return report.with_name(report.stem + "_files")


def build_report(db_path: Path, report: Path,
                 options: PageViewOptions | None = None) -> ReportResult:
    """Write the report of the crawl database ``db_path`` to ``report`` (and its page views)."""
    started = time.perf_counter()
    options = options or PageViewOptions()
    db = open_readonly(db_path)
    try:
        data = collect(db, db_path.name)
        files = files_directory(report)
        report.parent.mkdir(parents=True, exist_ok=True)
        pages, traces = write_page_views(db, files, options)
        rows = list(iter_index(db))
    finally:
        db.conn.close()
    payload = index_payload(rows, quote(files.name), PAGES_PER_CHUNK)
    report.write_text(render_report(data, script_json(payload)), encoding="utf-8")
    files_bytes = sum(p.stat().st_size for p in files.iterdir() if p.is_file())
    return ReportResult(report=report, files=files, pages=pages, traces=traces,
                        report_bytes=report.stat().st_size, files_bytes=files_bytes,
                        seconds=time.perf_counter() - started)
