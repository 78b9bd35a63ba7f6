"""Sitemap URLs read but not yet requested, waiting on disk.

A sitemap lists up to 50,000 URLs and an index up to 50,000 sitemaps; turned into requests at
once, one sitemap put 50,000 request objects in the scheduler's memory. The spider keeps what
sitemaps list here instead, one short record per URL in a FIFO file (Scrapy's own disk queue),
and hands them to the scheduler a batch at a time as it drains (``SITEMAP_QUEUE_MAX``). Under
``JOBDIR`` the file lives in the job directory, so a paused crawl resumes with the URLs it had
not requested yet; otherwise in a temporary directory removed when the crawl closes.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from queuelib import FifoDiskQueue

#: Folder of the backlog inside JOBDIR.
JOBDIR_FOLDER = "sitemap-urls"
_SEPARATOR = "\x00"  # no XML text holds a NUL character


class SitemapBacklog:
    """A FIFO of (URL, lastmod, sitemap URL) records on disk, opened on first use (a JOBDIR's is read only
    then, once the resume guard has judged the job directory)."""

    def __init__(self, jobdir: str | None = None) -> None:
        self.jobdir = Path(jobdir) if jobdir else None
        self._queue: FifoDiskQueue | None = None
        self._temporary: Path | None = None

    def _open(self, create: bool) -> FifoDiskQueue | None:
        """The queue; None when it does not exist and ``create`` is false."""
        if self._queue is None:
            if self.jobdir is not None:
                path = self.jobdir / JOBDIR_FOLDER
                if not create and not path.exists():
                    return None
            elif not create:
                return None
            else:
                self._temporary = Path(tempfile.mkdtemp(prefix="crawler-sitemap-urls-"))
                path = self._temporary / "queue"
            self._queue = FifoDiskQueue(path)
        return self._queue

    def __len__(self) -> int:
        queue = self._open(create=False)
        return len(queue) if queue is not None else 0

    def push(self, url: str, lastmod: str = "", sitemap: str = "") -> None:
        """Add one URL (with its sitemap lastmod and the sitemap listing it, either possibly
        empty) at the end."""
        queue = self._open(create=True)
        assert queue is not None
        record = _SEPARATOR.join((url, lastmod, sitemap))
        queue.push(record.encode("utf-8", "surrogatepass"))

    def pop(self) -> tuple[str, str, str] | None:
        """The oldest (URL, lastmod, sitemap URL), or None when empty (the sitemap URL is empty
        in a record a version before it wrote into a JOBDIR)."""
        queue = self._open(create=False)
        record = queue.pop() if queue is not None else None
        if record is None:
            return None
        url, _, rest = record.decode("utf-8", "surrogatepass").partition(_SEPARATOR)
        lastmod, _, sitemap = rest.partition(_SEPARATOR)
        return url, lastmod, sitemap

    def close(self) -> None:
        """Close the file: kept in JOBDIR when URLs remain, removed otherwise."""
        if self._queue is not None:
            self._queue.close()  # removes its files when empty
            self._queue = None
        if self._temporary is not None:
            shutil.rmtree(self._temporary, ignore_errors=True)
            self._temporary = None
