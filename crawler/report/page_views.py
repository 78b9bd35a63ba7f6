"""Per-page views of the crawl report, written as script files beside the report.

A report of 50,000 pages cannot hold every page's content and trace in one HTML file, so each
page's view lives in a chunk file (``<report>_files/pages-NNNNN.js``, :data:`PAGES_PER_CHUNK`
pages in URL order) that the report loads with a ``<script>`` element only when a page is
opened (``fetch`` is refused on ``file://`` pages; a script element is not).

Each view holds the stored metadata, quality reasons, the content HTML sanitised again (the
database is not trusted), the markdown and, when asked for, the extraction trace of the page,
produced by extracting its stored raw HTML again with the current engine.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import nh3
import sqlite_utils

from crawler.extraction.output import ALLOWED_ATTRIBUTES, ALLOWED_TAGS, sanitize_html
from crawler.decoding import decode_page
from crawler.progress import Progress
from crawler.storage import PAGES_TABLE, decompress_html

logger = logging.getLogger(__name__)

#: Pages per chunk file: small enough that opening a page loads a few hundred KB, large enough
#: that a 50,000-page report is 1,000 files.
PAGES_PER_CHUNK = 50

#: Which pages get an extraction trace (extracting again costs as much as the crawl's extraction).
TraceChoice = Literal["all", "flagged", "none"]
TRACE_CHOICES: tuple[str, ...] = ("all", "flagged", "none")

#: Stored columns shown as the page's metadata, in this order.
METADATA_COLUMNS = ("url", "canonical_url", "domain", "status", "fetched_at", "rendered",
                    "content_type", "encoding", "depth", "title", "author", "published",
                    "modified", "language", "description", "site_name", "page_type",
                    "framework", "method", "word_count", "quality_score", "quality_flagged")
_CONTENT_COLUMNS = ("content_html", "content_markdown", "cleaned_content", "quality_reasons",
                    "raw_html")


@dataclass(frozen=True)
class PageViewOptions:
    """What goes into each page view."""

    traces: TraceChoice = "all"
    jobs: int = 1


def chunk_name(chunk: int) -> str:
    """File name of chunk ``chunk`` (also computed by the report's script: keep in step)."""
    return f"pages-{chunk:05d}.js"


def script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element or a script file (no ``</script>``,
    no HTML comment openers, no line separators that end a JavaScript string)."""
    text = json.dumps(value, ensure_ascii=False, default=str, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def page_trace(raw_html: bytes | None, encoding: str | None, url: str) -> dict[str, Any]:
    """The extraction trace of a stored page, extracted again from its raw HTML (in a worker)."""
    from crawler.extraction import extract

    if not raw_html:
        return {"trace": None, "trace_note": "no raw HTML stored for this page"}
    try:
        html = decode_page(decompress_html(raw_html), encoding)[0]  # as the crawl read it
        result = extract(html, url, trace=True)
    except Exception as exc:  # noqa: BLE001 - one broken page must not stop the report
        return {"trace": None, "trace_note": f"extraction failed: {type(exc).__name__}: {exc}"}
    return {"trace": json.loads(json.dumps(result.trace, default=str)),
            "trace_method": result.method, "trace_quality": result.quality_score}


def _reasons(value: str | None) -> list[str]:
    """Stored quality reasons (a JSON list) as a list of strings."""
    if not value:
        return []
    try:
        parsed = json.loads(value)
    except ValueError:
        return [value]
    return [str(r) for r in parsed] if isinstance(parsed, list) else [str(parsed)]


def _iter_chunks(db: sqlite_utils.Database, columns: tuple[str, ...],
                 size: int) -> Iterator[list[dict[str, Any]]]:
    """Full page rows in URL order, ``size`` at a time (keyset paging: no cursor held open)."""
    names = ", ".join(f"[{c}]" for c in columns)
    last: str | None = None
    while True:
        if last is None:
            rows = db.conn.execute(f"SELECT {names} FROM [{PAGES_TABLE}] ORDER BY url LIMIT ?",
                                   [size]).fetchall()
        else:
            rows = db.conn.execute(f"SELECT {names} FROM [{PAGES_TABLE}] WHERE url > ? "
                                   f"ORDER BY url LIMIT ?", [last, size]).fetchall()
        if not rows:
            return
        yield [dict(zip(columns, row, strict=True)) for row in rows]
        last = rows[-1][0]


def without_image_sources(html: str) -> str:
    """Sanitised content with every image's ``src`` removed (the ``alt`` text stays): the report
    makes no network request, and a page's images are the one thing in its content that a
    browser fetches on its own."""

    def drop_image_source(tag: str, attr: str, value: str) -> str | None:
        return None if tag == "img" and attr == "src" else value

    return nh3.clean(html, tags=set(ALLOWED_TAGS),
                     attributes={k: set(v) for k, v in ALLOWED_ATTRIBUTES.items()},
                     attribute_filter=drop_image_source, link_rel="nofollow")


def _view(row: dict[str, Any]) -> dict[str, Any]:
    """The page view without its trace."""
    url = row["url"] or ""
    return {
        "meta": {name: row.get(name) for name in METADATA_COLUMNS},
        "reasons": _reasons(row.get("quality_reasons")),
        "html": without_image_sources(sanitize_html(row.get("content_html") or "", url)),
        "markdown": row.get("content_markdown") or "",
        "cleaned": row.get("cleaned_content"),
    }


def _wants_trace(row: dict[str, Any], choice: TraceChoice) -> bool:
    return choice == "all" or (choice == "flagged" and bool(row.get("quality_flagged")))


def chunk_script(chunk: int, rows: list[dict[str, Any]], choice: TraceChoice) -> tuple[str, int]:
    """The script file of one chunk of pages and how many traces it holds (run in a worker:
    sanitising and tracing are the CPU-bound part of the report)."""
    views = []
    traced = 0
    for row in rows:
        view = _view(row)
        if _wants_trace(row, choice):
            view.update(page_trace(row.get("raw_html"), row.get("encoding"), row["url"] or ""))
            traced += 1
        views.append(view)
    return f"window.reportPages({chunk},{script_json(views)});\n", traced


def write_page_views(db: sqlite_utils.Database, directory: Path,
                     options: PageViewOptions) -> tuple[int, int]:
    """Write every page's view into chunk files in ``directory``; returns (pages, traces).

    With ``jobs`` above 1 chunks are built in worker processes, at most two per worker in
    flight, so memory stays bounded whatever the number of pages. Progress goes to stderr (a
    bar on a terminal, a plain line otherwise), page by page as chunks are written.
    """
    directory.mkdir(parents=True, exist_ok=True)
    for stale in directory.glob("pages-*.js"):
        stale.unlink()
    columns = (*METADATA_COLUMNS, *_CONTENT_COLUMNS)
    if options.traces == "none":
        columns = columns[:-1]  # no raw HTML needed
    total = db.execute(f"SELECT count(*) FROM [{PAGES_TABLE}]").fetchone()[0]
    with Progress(total, "report page views") as progress:
        return _write_chunks(db, directory, columns, options, progress)


def _write_chunks(db: sqlite_utils.Database, directory: Path, columns: tuple[str, ...],
                  options: PageViewOptions, progress: Progress) -> tuple[int, int]:
    """Build and write the chunk files (see :func:`write_page_views`)."""
    pages = traced = 0
    chunks = enumerate(_iter_chunks(db, columns, PAGES_PER_CHUNK))

    def write(chunk: int, script: str, size: int) -> None:
        (directory / chunk_name(chunk)).write_text(script, encoding="utf-8")
        progress.update(size)

    if options.jobs <= 1:
        for chunk, rows in chunks:
            script, count = chunk_script(chunk, rows, options.traces)
            write(chunk, script, len(rows))
            pages, traced = pages + len(rows), traced + count
        return pages, traced
    with ProcessPoolExecutor(max_workers=options.jobs) as executor:
        pending: deque[tuple[int, int, Future[tuple[str, int]]]] = deque()
        for chunk, rows in chunks:
            pending.append((chunk, len(rows),
                            executor.submit(chunk_script, chunk, rows, options.traces)))
            while len(pending) > 2 * options.jobs or (pending and pending[0][2].done()):
                done_chunk, size, future = pending.popleft()
                script, count = future.result()
                write(done_chunk, script, size)
                pages, traced = pages + size, traced + count
        for done_chunk, size, future in pending:
            script, count = future.result()
            write(done_chunk, script, size)
            pages, traced = pages + size, traced + count
    return pages, traced


def default_jobs() -> int:
    """Worker processes for the page views: every core."""
    return os.cpu_count() or 1
