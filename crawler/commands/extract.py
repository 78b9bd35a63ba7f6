"""``crawler extract`` and ``extract-corpus``: run the extraction engine outside a crawl.

``extract FILE_OR_URL`` extracts one page (a local file, gzip allowed, a URL fetched with a
plain HTTP GET, or ``-`` for standard input) and prints it as JSON, Markdown, HTML or text.
Several inputs (files, URLs, glob patterns such as ``'pages/**/*.html'``, and every file below
``--input-dir DIR``) are extracted into ``-o DIR``, one output file per input named after it.
Input that is not HTML (empty, binary, a zlib stream) is refused with one sentence and a
non-zero exit. ``extract --db DB --url URL``
extracts a page stored by a crawl, from its raw HTML decoded as the crawl decoded it. ``--trace``
explains the result: every stage of the choice and what it decided, the candidates with their
verdicts, what the cleaning removed and where each metadata field came from (in ``--format
json`` as ``trace`` and a ``decisions`` list with ``stage``, ``applied`` and ``why``).

``extract-corpus CORPUS_DIR -o preds.jsonl`` extracts every page of a corpus laid out as
``html/<id>.html.gz`` plus ``ground-truth.jsonl`` (``id`` and ``url`` per line) and writes one
JSON line per page: ``{"id", "text", "html", "markdown", "title", "author", "date", "tier",
"quality_score"}``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sqlite3
import sys
import time
import zlib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Iterator

from crawler import __version__
from crawler.commands import jobs_problem
from crawler.commands.extract_batch import (STDIN, InputError, check_html, collect_inputs,
                                            run_batch)
from crawler.progress import track

logger = logging.getLogger(__name__)

FORMATS = ("json", "markdown", "html", "text")
USER_AGENT = f"crawler-extract/{__version__} (+Scrapy content-extraction crawler)"


class ExtractCommandError(InputError):
    """The input cannot be read; the message is one sentence for the user."""


@dataclass(frozen=True)
class CorpusPage:
    """One page of a corpus: its id, its URL and where its HTML is."""

    id: str
    url: str
    path: Path


# --------------------------------------------------------------------------- registration

def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``extract`` and ``extract-corpus`` sub-commands."""
    one = subparsers.add_parser(
        "extract", help="extract the main content of one page (file or URL)",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    one.add_argument("sources", metavar="FILE_OR_URL", nargs="*",
                     help="HTML files (.gz allowed), http(s) URLs, glob patterns, or - for "
                          "standard input")
    one.add_argument("--input-dir", type=Path, metavar="DIR",
                     help="also extract every file below this folder")
    one.add_argument("-o", "--output", type=Path, metavar="DIR",
                     help="write one output file per input into this folder (needed for "
                          "several inputs)")
    one.add_argument("--jobs", type=int, default=1, metavar="N",
                     help="pages extracted at once with -o, in processes (default: 1)")
    one.add_argument("--db", type=Path, metavar="DB",
                     help="read the page --url from this crawl database (its stored raw HTML, "
                          "decoded as the crawl decoded it) instead of FILE_OR_URL")
    one.add_argument("--format", choices=FORMATS, default="json", help="output form (default: json)")
    one.add_argument("--trace", action="store_true",
                     help="explain the extraction: candidates, scores, choice, cleaning")
    one.add_argument("--url", help="the page's URL when reading a file (links are made absolute against it)")
    one.add_argument("--max-size", type=int, metavar="BYTES",
                     help="largest page read, compressed or not (default: the crawl's DOWNLOAD_MAXSIZE)")
    one.add_argument("--timeout", type=float, metavar="SECONDS",
                     help="time allowed for the whole download (default: the crawl's DOWNLOAD_TIMEOUT)")
    one.set_defaults(func=run_extract)

    corpus = subparsers.add_parser(
        "extract-corpus", help="extract every page of a corpus into a predictions JSONL file",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    corpus.add_argument("corpus", type=Path, metavar="CORPUS_DIR",
                        help="directory with html/<id>.html.gz and ground-truth.jsonl")
    corpus.add_argument("-o", "--output", required=True, type=Path, metavar="PREDS.jsonl",
                        help="where to write one JSON line per page")
    corpus.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: all cores)")
    corpus.add_argument("--limit", type=int, default=0, help="only the first N pages (0 = all)")
    corpus.set_defaults(func=run_extract_corpus)


# --------------------------------------------------------------------------- extract

def read_source(source: str, max_size: int | None = None,
                timeout: float | None = None) -> tuple[bytes, str]:
    """The page bytes and its URL: fetched with a plain GET for a URL, read from disk otherwise,
    within the crawl's DOWNLOAD_MAXSIZE and DOWNLOAD_TIMEOUT unless given (see
    ``crawler.commands.fetch``)."""
    from crawler.commands.fetch import FetchError, FetchLimits, fetch_url, read_file

    limits = FetchLimits.from_project_settings(USER_AGENT, max_bytes=max_size, timeout=timeout)
    try:
        if source.startswith(("http://", "https://")):
            return fetch_url(source, limits)
        return read_file(Path(source), limits.max_bytes), ""
    except FetchError as exc:
        raise ExtractCommandError(str(exc)) from None


def read_stored_page(db_path: Path, url: str | None) -> tuple[str, str]:
    """A stored page's HTML, decoded with the charset the crawl recorded, and its URL."""
    from crawler.decoding import decode_page
    from crawler.storage import PAGES_TABLE, decompress_html, open_database

    if not url:
        raise ExtractCommandError("--db needs --url: the URL of the stored page")
    if not db_path.is_file():
        raise ExtractCommandError(f"no database at {db_path}")
    try:
        db = open_database(db_path, readonly=True)
    except sqlite3.Error as exc:
        raise ExtractCommandError(f"cannot read {db_path}: {exc}") from exc
    try:
        row = db.conn.execute(f"SELECT raw_html, encoding FROM [{PAGES_TABLE}] WHERE url = ?",
                              [url]).fetchone()
    except sqlite3.Error as exc:
        raise ExtractCommandError(f"cannot read {db_path}: {exc}") from exc
    finally:
        db.conn.close()
    if row is None or not row[0]:
        raise ExtractCommandError(f"{db_path} holds no page {url}")
    try:
        raw = decompress_html(row[0])
    except zlib.error:
        raise ExtractCommandError(f"the stored HTML of {url} in {db_path} is corrupt") from None
    return decode_page(raw, row[1])[0], url


def render_output(result: Any, fmt: str, with_trace: bool) -> str:
    """The extraction in the requested form."""
    if fmt == "markdown":
        return result.content_markdown
    if fmt == "html":
        return result.content_html
    if fmt == "text":
        return result.content_text
    return json.dumps(result.as_dict(with_trace=with_trace), ensure_ascii=False, indent=2, default=str)


def _describe(cand: dict[str, Any] | None) -> str:
    """One line about a candidate container."""
    if not cand:
        return "none"
    name = cand.get("tag", "?")
    if cand.get("id"):
        name += f"#{cand['id']}"
    if cand.get("class"):
        name += "." + ".".join(str(cand["class"]).split()[:3])
    return (f"[{cand.get('tier', '?')}] {cand.get('source', '')} <{name}> chars={cand.get('chars', '?')} "
            f"links={cand.get('link_density', '?')} paragraphs={cand.get('paragraphs', '?')} "
            f"score={cand.get('score', '?')}")


def format_trace(trace: list[dict[str, Any]]) -> str:
    """The trace as readable lines: steps, candidates with verdicts, choice and cleaning."""
    lines: list[str] = []
    removed = 0
    for entry in trace:
        step = entry.get("step", "?")
        if step == "candidates":
            lines.append(f"candidates ({len(entry.get('candidates') or [])}):")
            for cand in entry.get("candidates") or []:
                verdict = "chosen" if cand.get("chosen") else "valid" if cand.get("valid") \
                    else "rejected"
                reasons = "; ".join(cand.get("reasons") or []) or "-"
                lines.append(f"  {verdict:8} {_describe(cand)}")
                lines.append(f"           why: {reasons}")
        elif step == "stages":
            lines.append("stages:")
            for decision in entry.get("decisions") or []:
                mark = "applied" if decision.get("applied") else "-"
                lines.append(f"  {mark:8} {decision.get('stage')}: {decision.get('why')}")
        elif step == "choice":
            lines.append(f"chosen by stage {entry.get('stage') or '-'}: "
                         f"{_describe(entry.get('chosen'))}")
            lines.append(f"  why: {entry.get('why', '-')}")
        elif step == "clean":
            removed += 1
            what = entry.get("text") or ""
            detail = f" \"{what[:70]}\"" if what else ""
            count = f" x{entry['count']}" if "count" in entry else ""
            lines.append(f"clean: {entry.get('action', 'removed')} <{entry.get('tag', '')}>{count} "
                         f"({entry.get('why', '')}){detail}")
        elif step == "expand":
            lines.append(f"expand: {_describe(entry.get('from'))}")
            lines.append(f"     -> {_describe(entry.get('to'))}")
            lines.append(f"  why: {entry.get('why', '-')}")
        else:
            rest = {k: v for k, v in entry.items() if k != "step"}
            lines.append(f"{step}: {json.dumps(rest, ensure_ascii=False, default=str)}")
    if removed:
        lines.append(f"cleaning removed {removed} element group(s)")
    return "\n".join(lines)


def read_input(source: str, max_size: int | None = None,
               timeout: float | None = None) -> tuple[bytes, str]:
    """The bytes of one input and the URL they came from ("" for a file or standard input),
    within the same size (and, for a URL, time) limits as a crawl."""
    if source != STDIN:
        return read_source(source, max_size, timeout)
    from crawler.commands.fetch import FetchLimits

    limit = FetchLimits.from_project_settings(USER_AGENT, max_bytes=max_size).max_bytes
    data = sys.stdin.buffer.read(limit + 1 if limit else -1)
    if limit and len(data) > limit:
        raise ExtractCommandError(f"standard input holds more than {limit} bytes (--max-size)")
    return data, ""


def run_extract(args: argparse.Namespace) -> int:
    """Extract one page and print it (the trace goes to stderr unless the output is JSON), or
    several into ``-o DIR``."""
    from crawler.extraction import extract

    try:
        if args.db is not None:
            data, fetched_url = read_stored_page(args.db, args.url)
        else:
            inputs = collect_inputs(args.sources, args.input_dir)
            if not inputs:
                raise ExtractCommandError("give a FILE_OR_URL, --input-dir DIR, or --db DB --url URL")
            if args.output is not None or len(inputs) > 1:
                return _run_batch(args, inputs)
            data, fetched_url = read_input(inputs[0].source, args.max_size, args.timeout)
            check_html(data, inputs[0].source)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    url = args.url or fetched_url or ""
    result = extract(data, url, trace=args.trace)
    if args.trace and args.format != "json":
        print(format_trace(result.trace or []), file=sys.stderr)
        print("-" * 60, file=sys.stderr)
    output = render_output(result, args.format, with_trace=args.trace)
    sys.stdout.write(output if output.endswith("\n") else output + "\n")
    return 0


def _run_batch(args: argparse.Namespace, inputs: list) -> int:
    """Several inputs (or ``-o``): one output file each, after checking the arguments fit."""
    refusal = ("several inputs are written into a folder: add -o DIR" if args.output is None
               else "--trace explains one page: give one input without -o" if args.trace
               else "--url names one page: give one input with it" if args.url and len(inputs) > 1
               else jobs_problem(args.jobs)
               or (f"{args.output} is a file; -o takes a folder." if args.output.is_file()
                   else None))
    if refusal:
        print(f"error: {refusal.rstrip('.')}.", file=sys.stderr)
        return 2
    return run_batch(inputs, args.output, args.format, args.jobs,
                     partial(read_input, max_size=args.max_size, timeout=args.timeout), args.url)


# --------------------------------------------------------------------------- extract-corpus

def corpus_pages(corpus: Path) -> list[CorpusPage]:
    """The pages of a corpus directory, in ground-truth order."""
    truth = corpus / "ground-truth.jsonl"
    if not truth.is_file():
        raise ExtractCommandError(f"{corpus} has no ground-truth.jsonl")
    pages = []
    with truth.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                page_id = str(row["id"])
            except (ValueError, KeyError, TypeError) as exc:
                raise ExtractCommandError(f"{truth} line {number} is not a page record: {exc}") from exc
            pages.append(CorpusPage(page_id, row.get("url") or "", corpus / "html" / f"{page_id}.html.gz"))
    return pages


def extract_page(page: CorpusPage, max_bytes: int = 0) -> dict[str, Any]:
    """The prediction record of one corpus page (an unreadable page, or one over ``max_bytes``
    once decompressed, gives empty fields and an ``error``)."""
    from crawler.commands.fetch import FetchError, read_file
    from crawler.extraction import extract
    from crawler.extraction.metadata import join_names

    record: dict[str, Any] = {"id": page.id, "text": "", "html": "", "markdown": "", "title": None,
                              "author": None, "date": None, "tier": None, "quality_score": None}
    try:
        data = read_file(page.path, max_bytes)
    except FetchError as exc:
        record["error"] = str(exc)
        return record
    try:
        result = extract(data, page.url)
    except Exception as exc:  # noqa: BLE001 - one bad page must not stop a corpus run
        logger.warning("extraction failed on %s: %s", page.id, exc)
        record["error"] = str(exc)
        return record
    record.update(text=result.content_text, html=result.content_html, markdown=result.content_markdown,
                  title=result.title, author=join_names(result.authors) or result.author, date=result.published,
                  tier=result.method or None, quality_score=result.quality_score)
    return record


def _results(pages: list[CorpusPage], jobs: int) -> Iterator[dict[str, Any]]:
    """Prediction records in corpus order, computed in ``jobs`` processes (in-process for 1);
    each page read within the crawl's DOWNLOAD_MAXSIZE."""
    from crawler.commands.fetch import FetchLimits

    read = partial(extract_page, max_bytes=FetchLimits.from_project_settings(USER_AGENT).max_bytes)
    if jobs <= 1:
        for page in pages:
            yield read(page)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(read, pages, chunksize=4)


def run_extract_corpus(args: argparse.Namespace) -> int:
    """Extract a whole corpus into a predictions file."""
    try:
        pages = corpus_pages(args.corpus)
    except ExtractCommandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.limit:
        pages = pages[: args.limit]
    problem = jobs_problem(args.jobs)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    errors = 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with args.output.open("w", encoding="utf-8") as out:
        for record in track(_results(pages, args.jobs), "extract-corpus", total=len(pages)):
            errors += "error" in record
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    elapsed = time.perf_counter() - started
    logger.info("Extracted %d pages in %.1f s (%.1f pages/s, %d jobs, %d errors) into %s",
                len(pages), elapsed, len(pages) / max(elapsed, 1e-9), args.jobs, errors, args.output)
    return 0
