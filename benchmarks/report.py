"""Benchmark of the crawl report at scale: a generated database of N pages (50,000 by default).

Usage: python benchmarks/report.py [--pages N] [--work DIR] [--runs N] [--no-browser]

The database is built from the real pages of the test sites (``tests/sites``), each extracted
once by the project's engine and then stored under many URLs with varied titles, quality scores,
page types and dates (raw HTML included, compressed as a crawl stores it), plus one crawl record.
Printed, in one run:

- report generation without traces (``--traces none``): wall time (median of ``--runs``), peak
  RSS, size of the HTML file and of the page-view folder; the reference in the same run is
  ``python -m crawler export`` of the same database to JSONL (it reads the same rows);
- the cost of a page's extraction trace: extraction of every distinct test page with
  ``trace=True`` against ``trace=False``, median ms per page, and what traces for all N pages
  would add on this machine's cores;
- opening the report in headless chromium (Debian's, as the tests use): time until the page
  table is filled, to sort it by words, to filter it, and to open a page view.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from crawler.crawls import record_crawl  # noqa: E402
from crawler.extraction import extract  # noqa: E402
from crawler.storage import PAGES_COLUMNS, compress_html, open_database  # noqa: E402

TYPES = ("article", "documentation", "listing", "product", "forum", "service", "collection")


def sample_pages() -> list[tuple[str, bytes, dict]]:
    """(path, raw HTML, extracted row) of every HTML page of the test sites."""
    pages = []
    for path in sorted((REPO / "tests" / "sites").glob("*/public/**/*.html")):
        raw = path.read_bytes()
        url = "https://site.example/" + path.relative_to(REPO / "tests" / "sites").as_posix()
        pages.append((url, raw, extract(raw, url).as_dict()))
    return pages


def generate(db_path: Path, pages: int, samples: list[tuple[str, bytes, dict]]) -> None:
    """``pages`` rows over 5 domains, cycling through the samples."""
    for stale in (db_path, db_path.with_name(db_path.name + "-wal"),
                  db_path.with_name(db_path.name + "-shm")):
            stale.unlink(missing_ok=True)
    db = open_database(db_path)
    rng = random.Random(50_000)
    blobs = [compress_html(raw) for _, raw, _ in samples]
    columns = [c for c in PAGES_COLUMNS if c != "cleaned_content"]
    sql = (f"INSERT INTO pages ({', '.join(columns)}) "
           f"VALUES ({', '.join('?' for _ in columns)})")
    batch = []
    for index in range(pages):
        sample = index % len(samples)
        _, _, row = samples[sample]
        domain = f"site{index % 5}.example"
        score = round(min(1.0, max(0.0, rng.gauss(0.78, 0.15))), 3)
        values = {
            **{c: None for c in columns},
            "url": f"https://{domain}/section-{index // 500}/page-{index:06d}.html",
            "domain": domain, "status": 200,
            "fetched_at": f"2026-11-{1 + index * 20 // pages:02d}T{index % 24:02d}:00:00+00:00",
            "rendered": int(rng.random() < 0.05), "content_type": "text/html",
            "encoding": "utf-8", "depth": rng.randint(0, 6),
            "title": f"{row.get('title') or 'Untitled'} ({index})", "author": row.get("author"),
            "published": row.get("published"), "language": row.get("language"),
            "description": row.get("description"), "site_name": row.get("site_name"),
            "page_type": rng.choice(TYPES), "framework": row.get("framework"),
            "content_html": row["content_html"], "content_markdown": row["content_markdown"],
            "content_text": row["content_text"], "word_count": row["word_count"],
            "method": row["method"], "quality_score": score,
            "quality_reasons": json.dumps(row["quality_reasons"]),
            "quality_flagged": int(score < 0.5), "raw_html": blobs[sample],
        }
        batch.append(tuple(values[c] for c in columns))
        if len(batch) == 2000:
            with db.conn:
                db.conn.executemany(sql, batch)
            batch = []
    if batch:
        with db.conn:
            db.conn.executemany(sql, batch)
    record_crawl(db, spider="domain", start_urls=[f"https://site{n}.example/" for n in range(5)],
                 started_at="2026-11-01T00:00:00+00:00", finished_at="2026-11-21T00:00:00+00:00",
                 close_reason="finished",
                 stats={"summary/pages_found": pages + 900, "summary/pages_stored": pages,
                        "skipped/non_html_extension": 700, "errors/http_404": 200})
    db.conn.close()


def timed(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of a child process."""
    started = time.perf_counter()
    child = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    stderr = child.stderr.read().decode() if child.stderr else ""
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{command} failed: {stderr[-2000:]}")
    return seconds, usage.ru_maxrss / 1024


def trace_cost(samples: list[tuple[str, bytes, dict]]) -> tuple[float, float]:
    """Median ms per page of extraction with and without the trace (same pages, same run)."""
    from crawler.report.page_views import page_trace

    plain, traced = [], []
    for url, raw, _ in samples:
        started = time.perf_counter()
        extract(raw, url)
        plain.append(time.perf_counter() - started)
        blob = compress_html(raw)
        started = time.perf_counter()
        page_trace(blob, "utf-8", url)
        traced.append(time.perf_counter() - started)
    return 1000 * statistics.median(plain), 1000 * statistics.median(traced)


def browser_timings(report: Path, pages: int) -> dict[str, float]:
    """Seconds until the table is filled, to sort, to filter, to open a page view (waits by
    selector: the report's policy forbids the evaluated strings of ``wait_for_function``)."""
    from playwright.sync_api import sync_playwright

    from crawler.rendering import find_browser
    from crawler.settings import CHROMIUM_PATH

    timings = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_browser(CHROMIUM_PATH))
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        started = time.perf_counter()
        page.goto(report.as_uri())
        page.wait_for_selector("#pages-table tbody tr")
        timings["open"] = time.perf_counter() - started
        started = time.perf_counter()
        page.click('#pages-table th[data-key="word_count"]')
        page.wait_for_selector('#pages-table th.sorted[data-key="word_count"]')
        timings["sort"] = time.perf_counter() - started
        started = time.perf_counter()
        page.fill("#filter-text", f"page-{pages - 1:06d}")
        page.wait_for_selector('#pages-count[data-shown="1"]')
        timings["filter"] = time.perf_counter() - started
        started = time.perf_counter()
        page.click("#pages-table tbody tr")
        page.wait_for_selector("#page-content")
        timings["page view"] = time.perf_counter() - started
        browser.close()
    return timings


def main(argv: list[str] | None = None) -> int:
    """Generate, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=50_000)
    parser.add_argument("--work", type=Path, default=Path("output/bench-report"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    db = args.work / f"report-{args.pages}.db"
    started = time.perf_counter()
    samples = sample_pages()
    generate(db, args.pages, samples)
    print(f"generated {args.pages} pages from {len(samples)} real test pages in "
          f"{time.perf_counter() - started:.0f}s; database {db.stat().st_size / 1e6:.0f} MB")

    report = args.work / "report.html"
    export = args.work / "export.jsonl"
    reports, exports = [], []
    for _ in range(args.runs):  # alternated, so both see the same machine load
        reports.append(timed([sys.executable, "-m", "crawler", "report", str(db), "-o",
                              str(report), "--traces", "none"]))
        exports.append(timed([sys.executable, "-m", "crawler", "export", str(db), "-o",
                              str(export)]))
    files = report.with_name(report.stem + "_files")
    files_bytes = sum(p.stat().st_size for p in files.iterdir())
    report_s = statistics.median(s for s, _ in reports)
    export_s = statistics.median(s for s, _ in exports)
    print(f"report --traces none: median {report_s:.1f}s (runs "
          f"{', '.join(f'{s:.1f}' for s, _ in reports)}), peak RSS "
          f"{statistics.median(m for _, m in reports):.0f} MiB; report.html "
          f"{report.stat().st_size / 1e6:.1f} MB, page views {files_bytes / 1e6:.0f} MB in "
          f"{len(list(files.iterdir()))} files")
    print(f"reference, export to JSONL of the same database: median {export_s:.1f}s, peak RSS "
          f"{statistics.median(m for _, m in exports):.0f} MiB; report/export = "
          f"{report_s / export_s:.2f}")
    plain, traced = trace_cost(samples)
    cores = os.cpu_count() or 1
    print(f"trace of a page: median {traced:.1f} ms (extraction without trace {plain:.1f} ms, "
          f"ratio {traced / plain:.2f}); traces for all {args.pages} pages would add about "
          f"{args.pages * traced / 1000 / cores / 60:.0f} min on {cores} cores")
    if not args.no_browser:
        timings = browser_timings(report, args.pages)
        print("chromium: " + ", ".join(f"{k} {v:.2f}s" for k, v in timings.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
