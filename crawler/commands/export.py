"""``crawler export DB -o OUT``: stored pages as markdown files, JSONL or CSV, filtered.

``--format markdown`` writes one ``.md`` file per page (``OUT/<host>_<port>/<path>.md``) with
YAML front matter; ``jsonl`` and ``csv`` write one record per page (the feed's fields and
``cleaned_content``) to the file OUT (``OUT/pages.jsonl`` when OUT is a folder, ``-`` for
standard output). ``--chunks N`` splits each page's markdown at its headings into chunks of at
most N words, one file or record each, with the chunk's heading path.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import TextIO

from crawler.commands import missing_domains
from crawler.export import (FORMATS, ExportError, ExportFilter, count_pages, export_pages,
                            parse_since)
from crawler.progress import Progress
from crawler.storage import PAGES_TABLE, open_database


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``export`` sub-command."""
    parser = subparsers.add_parser(
        "export", help="write stored pages as markdown files, JSONL or CSV",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("db", type=Path, metavar="DB", help="crawl database")
    parser.add_argument("-o", "--output", required=True, metavar="OUT",
                        help="folder (markdown), or file or folder (jsonl, csv; '-' for "
                             "standard output)")
    parser.add_argument("--format", choices=FORMATS, default="jsonl",
                        help="markdown files with front matter, JSON lines or CSV "
                             "(default: jsonl)")
    parser.add_argument("--domain", action="append", metavar="D",
                        help="only this domain, with or without its port (repeatable)")
    parser.add_argument("--min-quality", type=float, metavar="Q",
                        help="only pages whose quality score is at least Q (0 to 1)")
    flagged = parser.add_mutually_exclusive_group()
    flagged.add_argument("--flagged", dest="flagged", action="store_true", default=None,
                         help="only pages the quality gate flagged")
    flagged.add_argument("--not-flagged", dest="flagged", action="store_false",
                         help="only pages the quality gate did not flag")
    parser.add_argument("--since", metavar="WHEN",
                        help="only pages fetched at or after WHEN (ISO date or date and time, "
                             "UTC unless an offset is given)")
    parser.add_argument("--cleaned", action="store_true",
                        help="the markdown is cleaned_content (domain boilerplate removed)")
    parser.add_argument("--chunks", type=int, metavar="N",
                        help="split each page's markdown at headings into chunks of at most N "
                             "words, one file or record each")
    parser.set_defaults(func=run)


def _selection(args: argparse.Namespace) -> ExportFilter:
    """The filter the arguments ask for (a bad value raises ExportError)."""
    if args.min_quality is not None and not 0 <= args.min_quality <= 1:
        raise ExportError(f"--min-quality must be from 0 to 1, got {args.min_quality}")
    if args.chunks is not None and args.chunks < 1:
        raise ExportError(f"--chunks must be 1 or more words, got {args.chunks}")
    return ExportFilter(domains=tuple(args.domain or ()), min_quality=args.min_quality,
                        flagged=args.flagged,
                        since=parse_since(args.since) if args.since is not None else None)


def _destination(output: str, fmt: str, chunks: bool) -> Path | None:
    """The folder (markdown) or file to write; None for standard output."""
    if output == "-":
        if fmt == "markdown":
            raise ExportError("markdown export writes files: give a folder with -o")
        return None
    path = Path(output)
    if fmt == "markdown":
        if path.exists() and not path.is_dir():
            raise ExportError(f"{path} is a file; markdown export writes into a folder")
        return path
    if path.is_dir() or output.endswith(("/", "\\")):
        return path / f"{'chunks' if chunks else 'pages'}.{fmt}"
    return path


def run(args: argparse.Namespace) -> int:
    """Export the selected pages; 1 when none is selected (saying why), 2 for bad arguments."""
    if not args.db.is_file():
        print(f"error: no crawl database at {args.db}.", file=sys.stderr)
        return 1
    try:
        selection = _selection(args)
        target = _destination(args.output, args.format, bool(args.chunks))
    except ExportError as exc:
        print(f"error: {exc}.", file=sys.stderr)
        return 2
    db = open_database(args.db, readonly=True)
    try:
        total = count_pages(db, selection)
        if total == 0:
            hint = missing_domains(db, list(selection.domains)) if selection.domains else None
            stored = db[PAGES_TABLE].count
            print(f"error: {hint or f'no page of the {stored} stored matches these filters'}.",
                  file=sys.stderr)
            return 1
        with contextlib.ExitStack() as stack:
            output: Path | TextIO
            if target is None:
                output = sys.stdout
            elif args.format == "markdown":
                target.mkdir(parents=True, exist_ok=True)
                output = target
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                output = stack.enter_context(
                    target.open("w", encoding="utf-8", newline="" if args.format == "csv" else None))
            progress = stack.enter_context(Progress(total, "export"))
            counts = export_pages(db, selection, args.format, output, cleaned=args.cleaned,
                                  chunk_words=args.chunks, advance=progress.update)
    except BrokenPipeError:  # the reader of standard output stopped early (| head)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        print(f"error: cannot write {target}: {exc.strerror or exc}.", file=sys.stderr)
        return 1
    finally:
        db.conn.close()
    where = "standard output" if target is None else str(target)
    chunks = f" as {counts.records} chunks of at most {args.chunks} words" if args.chunks else ""
    print(f"exported {counts.pages} pages{chunks} to {where}", file=sys.stderr)
    if counts.without_cleaned:
        print(f"{counts.without_cleaned} pages had no cleaned content yet (their markdown is "
              f"exported as is); run: crawler dedup {args.db}", file=sys.stderr)
    return 0
