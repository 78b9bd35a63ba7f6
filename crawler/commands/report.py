"""``report``: write the crawl report of a crawl database, an HTML file to open in a browser."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from crawler.commands import jobs_problem
from crawler.report import ReportInputError, build_report
from crawler.report.page_views import TRACE_CHOICES, PageViewOptions, default_jobs


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``report`` sub-command."""
    parser = subparsers.add_parser(
        "report", help="write an HTML report of a crawl database",
        description="Write one HTML file (no network needed) with the crawl at a glance, each "
                    "domain's boilerplate and every page in a sortable, filterable table; the "
                    "page views (content, markdown, metadata, quality reasons, extraction "
                    "trace) go into the folder REPORT_files/ beside it.")
    parser.add_argument("db", type=Path, metavar="DB", help="crawl database")
    parser.add_argument("-o", "--output", type=Path, default=Path("report.html"),
                        metavar="REPORT.html", help="report to write (default: %(default)s)")
    parser.add_argument("--traces", choices=TRACE_CHOICES, default="all",
                        help="pages whose extraction trace is produced by extracting the stored "
                             "HTML again: all (default), flagged, none")
    parser.add_argument("--jobs", type=int, default=default_jobs(), metavar="N",
                        help="worker processes that sanitise and trace the pages (default: every core)")
    parser.set_defaults(func=run_report)


def run_report(args: argparse.Namespace) -> int:
    """Build the report and print where it is."""
    problem = jobs_problem(args.jobs)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    if args.output.suffix.lower() not in (".html", ".htm"):
        print(f"error: the report must be an .html file, got {args.output}.", file=sys.stderr)
        return 2
    try:
        result = build_report(args.db, args.output,
                              PageViewOptions(traces=args.traces, jobs=args.jobs))
    except ReportInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {result.report} ({result.report_bytes / 1e6:.1f} MB) and {result.pages} page "
          f"views in {result.files}/ ({result.files_bytes / 1e6:.1f} MB; {result.traces} with "
          f"an extraction trace) in {result.seconds:.1f}s")
    return 0
