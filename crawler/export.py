"""Export of stored pages: which pages (filters) and in what form (markdown files, JSONL, CSV).

Markdown is one ``.md`` file per page under a folder per domain, mirroring the URL's path,
with YAML front matter (``url``, ``title``, ``author``, ``date``, ``quality``, ...) as static
site generators and LLM pipelines read it. JSONL and CSV are one record per page with the
feed's fields and ``cleaned_content``. With chunks, every form holds one record per chunk of
a page's markdown (see ``crawler.chunking``) with its heading path.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import Any, TextIO
from urllib.parse import urlsplit

import sqlite_utils
import yaml

from crawler.chunking import Chunk, chunk_markdown
from crawler.dedup.store import CLEANED_COLUMN
from crawler.items import FEED_FIELDS
from crawler.storage import PAGES_TABLE, domain_condition
from crawler.urls import hash_route

FORMATS = ("markdown", "jsonl", "csv")

#: Columns of a page record (JSONL/CSV): the feed's fields, then the cleaned content.
PAGE_FIELDS = [*FEED_FIELDS, CLEANED_COLUMN]
#: Columns of a chunk record: where it comes from, then the chunk itself.
CHUNK_FIELDS = ["url", "title", "domain", "author", "date", "quality", "chunk", "chunks",
                "heading_path", "words", "text"]
#: Front matter keys of a markdown file, in order (``date`` is the published date).
FRONT_MATTER = ["url", "title", "author", "date", "quality", "flagged", "page_type", "language",
                "description", "fetched_at"]

#: libyaml's safe dumper when PyYAML was built with it (about 20 times faster), else PyYAML's.
_YAML_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_UNSAFE_SEGMENT = re.compile(r"[^A-Za-z0-9._-]+")
_MAX_SEGMENT = 80


class ExportError(Exception):
    """The export cannot run as asked; the message is one sentence for the user."""


@dataclass(frozen=True)
class ExportFilter:
    """Which pages to export: every condition given must hold."""

    domains: tuple[str, ...] = ()
    min_quality: float | None = None
    flagged: bool | None = None
    since: str | None = None

    def where(self) -> tuple[str, list[Any]]:
        """The SQL WHERE clause (empty when nothing is filtered) and its parameters."""
        parts: list[str] = []
        params: list[Any] = []
        if self.domains:
            condition, domain_params = domain_condition(list(self.domains))
            parts.append(condition)
            params.extend(domain_params)
        if self.min_quality is not None:
            parts.append("quality_score >= ?")
            params.append(self.min_quality)
        if self.flagged is not None:
            parts.append("quality_flagged = ?" if self.flagged else
                         "(quality_flagged = ? OR quality_flagged IS NULL)")
            params.append(int(self.flagged))
        if self.since is not None:
            parts.append("fetched_at >= ?")
            params.append(self.since)
        return (" WHERE " + " AND ".join(parts)) if parts else "", params


def parse_since(value: str) -> str:
    """A ``--since`` value as stored times compare with it: an ISO date (``2026-05-01``) or
    date and time (``2026-05-01T12:00``, an offset allowed), as UTC ISO text."""
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        if moment.tzinfo is not None:  # stored times are UTC; a time without an offset is too
            moment = moment.astimezone(timezone.utc)  # OverflowError past year 1 or 9999
    except (ValueError, OverflowError):
        raise ExportError(f"--since takes an ISO date or date and time such as 2026-05-01 or "
                          f"2026-05-01T12:00:00+00:00, got {value!r}") from None
    return moment.strftime("%Y-%m-%dT%H:%M:%S")


@dataclass
class ExportCounts:
    """What an export wrote."""

    pages: int = 0
    records: int = 0
    files: int = 0
    without_cleaned: int = 0
    paths: list[Path] = field(default_factory=list)


def count_pages(db: sqlite_utils.Database, selection: ExportFilter) -> int:
    """How many stored pages the filter selects."""
    where, params = selection.where()
    return db.conn.execute(f"SELECT count(*) FROM [{PAGES_TABLE}]{where}", params).fetchone()[0]


def iter_selected(db: sqlite_utils.Database, selection: ExportFilter,
                  batch_size: int = 200) -> Iterator[dict[str, Any]]:
    """The selected pages' records (ordered by URL), streamed without holding the table."""
    where, params = selection.where()
    names = ", ".join(f"[{c}]" for c in PAGE_FIELDS)
    cursor = db.conn.execute(f"SELECT {names} FROM [{PAGES_TABLE}]{where} ORDER BY url", params)
    while rows := cursor.fetchmany(batch_size):
        for row in rows:
            yield _typed(dict(zip(PAGE_FIELDS, row)))


def _typed(record: dict[str, Any]) -> dict[str, Any]:
    """Stored values back to their types: flags as booleans, reasons as a list."""
    if isinstance(record.get("quality_reasons"), str):
        try:
            record["quality_reasons"] = json.loads(record["quality_reasons"])
        except ValueError:
            pass
    for flag in ("rendered", "quality_flagged"):
        if record.get(flag) is not None:
            record[flag] = bool(record[flag])
    return record


def page_markdown(record: dict[str, Any], cleaned: bool) -> str:
    """The markdown to export: the cleaned content when asked for and there is one (a page
    never analysed for boilerplate has none yet: its markdown is used as it is)."""
    if cleaned and record.get(CLEANED_COLUMN) is not None:
        return record[CLEANED_COLUMN]
    return record.get("content_markdown") or ""


def front_matter(record: dict[str, Any], extra: dict[str, Any] | None = None) -> str:
    """The YAML front matter block of a page (keys with no value are left out)."""
    values = {"url": record.get("url"), "title": record.get("title"),
              "author": record.get("author"), "date": record.get("published"),
              "quality": record.get("quality_score"), "flagged": record.get("quality_flagged"),
              "page_type": record.get("page_type"), "language": record.get("language"),
              "description": record.get("description"), "fetched_at": record.get("fetched_at")}
    values = {k: values[k] for k in FRONT_MATTER if values[k] not in (None, "")}
    values.update(extra or {})
    return "---\n" + yaml.dump(values, Dumper=_YAML_DUMPER, sort_keys=False, allow_unicode=True,
                               width=1_000_000) + "---\n"


def markdown_document(record: dict[str, Any], body: str,
                      extra: dict[str, Any] | None = None) -> str:
    """A page (or a chunk of it) as a markdown file: front matter, a blank line, the body."""
    return front_matter(record, extra) + "\n" + body.rstrip("\n") + "\n"


def relative_path(url: str) -> PurePosixPath:
    """Where a page's file goes below the export folder: ``<host>[_<port>]/<path>.md``; a path
    ending in ``/`` is its ``index.md``, a query adds a short hash. A page reached by a
    client-side route (``/docs/#/guide/install``, see :func:`crawler.urls.hash_route`) goes
    where the route's path would put it below the page's folder (``docs/guide/install.md``), so
    a site routed by its fragment exports as many files as it has pages, named after them.
    Every segment is reduced to letters, digits, ``.``, ``_`` and ``-``, so no URL writes
    outside the folder."""
    parts = urlsplit(url)
    host = _segment((parts.hostname or "unknown") + (f"_{parts.port}" if parts.port else ""))
    path = parts.path
    route = hash_route(url).lstrip("#!")
    if route:
        path = path.rpartition("/")[0] + route
    segments = [_segment(s) for s in path.split("/")]
    segments = [s for s in segments if s not in ("", ".", "..")]
    if not segments or path.endswith("/"):
        segments.append("index")
    stem = re.sub(r"\.(html?|php|aspx?|jsp|md)$", "", segments[-1], flags=re.IGNORECASE) or "index"
    if parts.query:
        stem += "-" + hashlib.sha1(parts.query.encode("utf-8")).hexdigest()[:8]
    return PurePosixPath(host, *segments[:-1], stem + ".md")


def _segment(text: str) -> str:
    """One path segment made safe for any file system."""
    safe = _UNSAFE_SEGMENT.sub("-", text).strip("-")[:_MAX_SEGMENT]
    return "" if safe in (".", "..") else safe


class MarkdownWriter:
    """Writes one ``.md`` per page (or per chunk: ``<page>-001.md``...) under ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._used: set[PurePosixPath] = set()

    def _target(self, url: str, suffix: str = "") -> Path:
        relative = relative_path(url)
        if suffix:
            relative = relative.with_name(relative.stem + suffix + ".md")
        if relative in self._used:  # two URLs that make the same name: the URL's hash decides
            digest = hashlib.sha1(url.encode("utf-8")).hexdigest()[:8]
            relative = relative.with_name(f"{relative.stem}-{digest}.md")
        self._used.add(relative)
        path = self.folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def page(self, record: dict[str, Any], body: str) -> Path:
        """Write one page's file; return its path."""
        path = self._target(record["url"])
        path.write_text(markdown_document(record, body), encoding="utf-8")
        return path

    def chunks(self, record: dict[str, Any], chunks: list[Chunk]) -> list[Path]:
        """Write one file per chunk of a page; return their paths."""
        paths = []
        for chunk in chunks:
            extra = {"chunk": chunk.index + 1, "chunks": len(chunks),
                     "heading_path": list(chunk.heading_path), "words": chunk.words}
            path = self._target(record["url"], f"-{chunk.index + 1:03d}")
            path.write_text(markdown_document(record, chunk.text, extra), encoding="utf-8")
            paths.append(path)
        return paths


def chunk_records(record: dict[str, Any], chunks: list[Chunk]) -> Iterator[dict[str, Any]]:
    """The records of a page's chunks (JSONL/CSV)."""
    for chunk in chunks:
        yield {"url": record.get("url"), "title": record.get("title"),
               "domain": record.get("domain"), "author": record.get("author"),
               "date": record.get("published"), "quality": record.get("quality_score"),
               "chunk": chunk.index + 1, "chunks": len(chunks),
               "heading_path": list(chunk.heading_path), "words": chunk.words,
               "text": chunk.text}


class RecordWriter:
    """Writes records as JSON lines or CSV rows to an open text stream."""

    def __init__(self, stream: TextIO, fmt: str, fields: list[str]) -> None:
        self.stream = stream
        self.fmt = fmt
        self._csv = csv.DictWriter(stream, fieldnames=fields, extrasaction="ignore") \
            if fmt == "csv" else None
        if self._csv is not None:
            self._csv.writeheader()

    def write(self, record: dict[str, Any]) -> None:
        """Write one record."""
        if self._csv is None:
            self.stream.write(json.dumps(record, ensure_ascii=False) + "\n")
            return
        self._csv.writerow({k: json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict))
                            else v for k, v in record.items()})


def export_pages(db: sqlite_utils.Database, selection: ExportFilter, fmt: str, output: Path | TextIO,
                 *, cleaned: bool = False, chunk_words: int | None = None,
                 advance: Any = None) -> ExportCounts:
    """Export the selected pages to ``output`` (a folder for markdown, a stream otherwise)."""
    counts = ExportCounts()
    markdown = MarkdownWriter(output) if fmt == "markdown" else None  # type: ignore[arg-type]
    records = None
    if markdown is None:
        records = RecordWriter(output, fmt, CHUNK_FIELDS if chunk_words else PAGE_FIELDS)  # type: ignore[arg-type]
    for record in iter_selected(db, selection):
        body = page_markdown(record, cleaned)
        if record.get(CLEANED_COLUMN) is None:  # asked for, or part of a page record
            counts.without_cleaned += cleaned or (markdown is None and not chunk_words)
            record[CLEANED_COLUMN] = record.get("content_markdown") or ""
        chunks = chunk_markdown(body, chunk_words) if chunk_words else None
        if markdown is not None:
            written = markdown.chunks(record, chunks) if chunks is not None \
                else [markdown.page(record, body)]
            counts.files += len(written)
            counts.records += len(written)
        elif chunks is not None:
            for item in chunk_records(record, chunks):
                records.write(item)  # type: ignore[union-attr]
                counts.records += 1
        else:
            records.write(record)  # type: ignore[union-attr]
            counts.records += 1
        counts.pages += 1
        if advance is not None:
            advance(1)
    return counts
