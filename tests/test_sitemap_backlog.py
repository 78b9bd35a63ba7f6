"""The backlog of sitemap URLs: first in, first out, on disk; kept in JOBDIR for the next run
while URLs remain, removed otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from crawler.sitemap_backlog import JOBDIR_FOLDER, SitemapBacklog

SITEMAP = "https://example.com/sitemap.xml"
ENTRIES = [("https://example.com/a", "2026-01-02", SITEMAP),
           ("https://example.com/é?q=1", "", SITEMAP),
           ("https://example.com/c", "2026-03-04T05:06:07+00:00", "")]


def test_urls_come_back_in_order_with_their_lastmod() -> None:
    backlog = SitemapBacklog()
    assert len(backlog) == 0 and backlog.pop() is None  # nothing created until used
    for entry in ENTRIES:
        backlog.push(*entry)
    assert len(backlog) == 3
    assert [backlog.pop() for _ in range(4)] == [*ENTRIES, None]
    backlog.close()


@pytest.mark.parametrize(("taken", "kept"), [(1, True), (3, False)])
def test_jobdir_keeps_what_was_not_requested(tmp_path: Path, taken: int, kept: bool) -> None:
    first = SitemapBacklog(str(tmp_path))
    for entry in ENTRIES:
        first.push(*entry)
    for _ in range(taken):
        first.pop()
    first.close()
    assert (tmp_path / JOBDIR_FOLDER).exists() is kept
    resumed = SitemapBacklog(str(tmp_path))
    assert len(resumed) == 3 - taken
    assert [resumed.pop() for _ in range(3 - taken)] == ENTRIES[taken:]
    resumed.close()


def test_a_record_of_an_older_version_reads_without_its_sitemap(tmp_path: Path) -> None:
    from queuelib import FifoDiskQueue

    old = FifoDiskQueue(str(tmp_path / JOBDIR_FOLDER))
    old.push("https://example.com/a\x002026-01-02".encode())
    old.close()
    resumed = SitemapBacklog(str(tmp_path))
    assert resumed.pop() == ("https://example.com/a", "2026-01-02", "")
    resumed.close()


def test_a_temporary_backlog_is_removed_at_close() -> None:
    backlog = SitemapBacklog()
    backlog.push(*ENTRIES[0])
    folder = backlog._temporary
    assert folder is not None and folder.exists()
    backlog.close()
    assert not folder.exists()  # even with a URL left: without JOBDIR there is no next run
