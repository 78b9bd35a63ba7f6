"""Inputs of ``crawler extract``: files, URLs, globs, ``-`` (standard input) and ``--input-dir``,
checked to be HTML, and the batch run writing one output per input into ``-o DIR``.

Every input is read and checked before it reaches the engine: an empty file, a binary format
(PDF, image, archive, a zlib stream, ...) or a broken gzip file is reported with one sentence and
counted, never turned into "markdown" of garbage. The batch goes on with the other inputs and
exits non-zero when any input failed, as ``trafilatura --input-dir`` users expect from a batch.
"""

from __future__ import annotations

import glob
import os
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from crawler.export import relative_path
from crawler.middlewares.body_checks import binary_kind
from crawler.progress import Progress

#: File name extension of each output format.
SUFFIXES = {"json": ".json", "markdown": ".md", "html": ".html", "text": ".txt"}
#: Page extensions dropped from an input's name to name its output (``.gz`` first).
PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml", ".php", ".asp", ".aspx", ".jsp")
STDIN = "-"


class InputError(Exception):
    """An input cannot be extracted; the message is one sentence naming it."""


@dataclass(frozen=True)
class PageInput:
    """One input: what the user named (``source``) and the name its output takes."""

    source: str
    name: PurePosixPath


def is_url(source: str) -> bool:
    """True for an http(s) URL."""
    return source.startswith(("http://", "https://"))


def collect_inputs(sources: list[str], input_dir: Path | None) -> list[PageInput]:
    """The inputs named: files, URLs, glob patterns, ``-``, and every file below ``input_dir``
    (hidden files and folders left out), each once, in the order given."""
    found: list[tuple[str, PurePosixPath]] = []
    for source in sources:
        if source == STDIN:
            found.append((STDIN, PurePosixPath("stdin")))
        elif is_url(source):
            try:
                found.append((source, relative_path(source).with_suffix("")))
            except ValueError as exc:  # http://[::1, a port out of range: a traceback before
                raise InputError(f"{source} is not a URL ({exc})") from exc
        elif Path(source).exists() or not glob.has_magic(source):
            found.append((source, _stem(PurePosixPath(Path(source).name))))
        else:
            matches = sorted(m for m in glob.glob(source, recursive=True) if Path(m).is_file())
            if not matches:
                raise InputError(f"no file matches {source}")
            found.extend((m, _stem(PurePosixPath(Path(m).name))) for m in matches)
    if input_dir is not None:
        if not input_dir.is_dir():
            raise InputError(f"{input_dir} is not a folder")
        for root, folders, files in os.walk(input_dir):
            folders[:] = sorted(f for f in folders if not f.startswith("."))
            for file_name in sorted(f for f in files if not f.startswith(".")):
                path = Path(root, file_name)
                found.append((str(path), _stem(PurePosixPath(path.relative_to(input_dir).as_posix()))))
    if sum(source == STDIN for source, _ in found) > 1:
        raise InputError("standard input (-) can be read only once")
    return _unique(found)


def _stem(name: PurePosixPath) -> PurePosixPath:
    """An input's relative name without ``.gz`` and its page extension."""
    if name.suffix.lower() == ".gz":
        name = name.with_suffix("")
    if name.suffix.lower() in PAGE_SUFFIXES:
        name = name.with_suffix("")
    return name


def _unique(found: list[tuple[str, PurePosixPath]]) -> list[PageInput]:
    """Inputs without repeats; two inputs of one name get ``-2``, ``-3``... on the later ones."""
    inputs: list[PageInput] = []
    seen_sources: set[str] = set()
    used: set[PurePosixPath] = set()
    for source, name in found:
        if source in seen_sources:
            continue
        seen_sources.add(source)
        candidate, number = name, 1
        while candidate in used:
            number += 1
            candidate = name.with_name(f"{name.name}-{number}")
        used.add(candidate)
        inputs.append(PageInput(source, candidate))
    return inputs


def check_html(data: bytes, source: str) -> bytes:
    """The bytes when they can be a page; otherwise an InputError saying what they are."""
    if not data.strip():
        raise InputError(f"{source} is empty: no page to extract")
    kind = binary_kind(data)
    if kind is not None:
        article = "an" if kind[0] in "aeiou" else "a"
        what = "binary data" if kind == "binary" else f"{article} {kind.upper()} file" \
            if kind != "zlib" else "a zlib stream"
        raise InputError(f"{source} is {what}, not HTML: nothing extracted")
    return data


def output_path(folder: Path, page: PageInput, fmt: str) -> Path:
    """Where the output of one input goes below ``folder``."""
    return folder / (str(page.name) + SUFFIXES[fmt])


@dataclass(frozen=True)
class BatchJob:
    """The work of one input for a worker process: its bytes and URL, the form wanted."""

    index: int
    data: bytes
    url: str
    fmt: str


def extract_job(job: BatchJob) -> tuple[int, str | None, str | None]:
    """(index, rendered output, error) of one input (runs in a worker process)."""
    from crawler.commands.extract import render_output
    from crawler.extraction import extract

    try:
        result = extract(job.data, job.url)
    except Exception as exc:  # noqa: BLE001 - one bad page must not stop the batch
        return job.index, None, f"extraction failed: {type(exc).__name__}: {exc}"
    return job.index, render_output(result, job.fmt, with_trace=False), None


def run_batch(inputs: list[PageInput], output: Path, fmt: str, jobs: int,
              read: Callable[[str], tuple[bytes, str]], base_url: str | None) -> int:
    """Extract every input into ``output`` (one file each); print one line per failed input
    and a summary; 0 when every input was extracted, 1 otherwise."""
    output.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    failed = written = 0
    with Progress(len(inputs), "extract") as progress:
        pending: list[BatchJob] = []
        for index, page in enumerate(inputs):
            try:
                data, fetched_url = read(page.source)
                pending.append(BatchJob(index, check_html(data, page.source),
                                        base_url or fetched_url or "", fmt))
            except (InputError, OSError) as exc:
                failed += 1
                progress.update()
                print(f"error: {exc}", file=sys.stderr)
        for index, text, error in _extracted(pending, jobs):
            progress.update()
            page = inputs[index]
            if error is not None:
                failed += 1
                print(f"error: {page.source}: {error}", file=sys.stderr)
                continue
            target = output_path(output, page, fmt)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
            written += 1
    elapsed = time.perf_counter() - started
    print(f"extracted {written} of {len(inputs)} inputs into {output} in {elapsed:.1f} s"
          + (f"; {failed} failed" if failed else ""), file=sys.stderr)
    return 1 if failed else 0


def _extracted(pending: list[BatchJob], jobs: int) -> Iterator[tuple[int, str | None, str | None]]:
    """The results of the pending jobs, in ``jobs`` processes (in this one for 1)."""
    if jobs <= 1 or len(pending) <= 1:
        yield from map(extract_job, pending)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(extract_job, pending, chunksize=2)
