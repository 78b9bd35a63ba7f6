"""Progress of long commands: a bar on a terminal, plain periodic lines in a pipe or a log."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import select
import shutil
import sqlite3
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from crawler.progress import Progress, track
from tests.conftest import REPO_ROOT, CrawlResult


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(("total", "steps", "expected"), [
    # (seconds elapsed before each update) -> the lines written, the last one at close
    (4, [1, 1, 1, 1], ["work: done 4/4 pages (100%), 1.0 pages/s, 4.0 s"]),
    (4, [6, 6, 1, 1], ["work: progress 2/4 pages (50%), 0.2 pages/s, 12.0 s",
                       "work: done 4/4 pages (100%), 0.3 pages/s, 14.0 s"]),
    (None, [11, 1], ["work: progress 1 pages, 0.1 pages/s, 11.0 s",
                     "work: done 2 pages, 0.2 pages/s, 12.0 s"]),
    (0, [], ["work: done 0/0 pages, 0.0 pages/s, 0.0 s"]),
])
def test_plain_lines_come_every_interval_and_at_the_end(total, steps, expected) -> None:
    clock, stream = FakeClock(), io.StringIO()
    with Progress(total, "work", stream=stream, interval=10.0, clock=clock) as progress:
        for seconds in steps:
            clock.now += seconds
            progress.update()
    assert stream.getvalue().splitlines() == expected
    assert "\r" not in stream.getvalue()


def test_track_yields_every_item_and_counts_them() -> None:
    stream = io.StringIO()
    assert list(track(["a", "b", "c"], "letters", unit="letters", stream=stream)) == ["a", "b", "c"]
    assert stream.getvalue().startswith("letters: done 3/3 letters (100%)")


def run_in_terminal(command: list[str], size: tuple[int, int],
                    timeout: float = 120) -> tuple[int, str]:
    """Run a command with a pseudo-terminal of ``size`` (rows, columns) as its stdout and
    stderr; return (exit code, everything written)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the terminal is its stdin, stdout and stderr
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", size[0], size[1], 0, 0))
        os.chdir(REPO_ROOT)
        os.execv(command[0], command)
    output = b""
    while True:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            os.kill(pid, 9)
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), output.decode("utf-8", "replace")


@pytest.fixture
def docs_db(crawled_docs_site: CrawlResult, tmp_path: Path) -> Path:
    """A copy of a real crawl's database, free to change."""
    return Path(shutil.copy(crawled_docs_site.db_path, tmp_path / "crawl.db"))


@pytest.mark.parametrize("size", [(30, 100), (0, 0)])  # a terminal that does not say its size
def test_dedup_draws_a_bar_on_a_terminal_and_lines_in_a_pipe(size: tuple[int, int],
                                                             docs_db: Path) -> None:
    pages = sqlite3.connect(docs_db).execute("SELECT count(*) FROM pages").fetchone()[0]
    code, screen = run_in_terminal([sys.executable, "-m", "crawler", "dedup", str(docs_db)], size)
    assert code == 0, screen
    assert f"{2 * pages}/{2 * pages}" in screen and "100%|" in screen and "\r" in screen
    assert "127.0.0.1:" in screen  # the results are still printed

    piped = subprocess.run([sys.executable, "-m", "crawler", "dedup", str(docs_db)],
                           cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0
    assert f"dedup (each page read twice): done {2 * pages}/{2 * pages} pages (100%)" in piped.stderr
    assert "\r" not in piped.stderr and "|" not in piped.stderr
    assert "127.0.0.1:" in piped.stdout


def test_reextract_says_how_many_pages_changed(docs_db: Path) -> None:
    with sqlite3.connect(docs_db) as conn:
        pages = conn.execute("SELECT count(*) FROM pages").fetchone()[0]
        conn.execute("UPDATE pages SET content_text = 'outdated' WHERE url IN "
                     "(SELECT url FROM pages ORDER BY url LIMIT 2)")
        conn.execute("UPDATE pages SET content_text = upper(content_text) WHERE url IN "
                     "(SELECT url FROM pages ORDER BY url DESC LIMIT 1)")  # case only: the same
    piped = subprocess.run([sys.executable, "-m", "crawler", "reextract", str(docs_db),
                            "--jobs", "1", "--no-dedup"],
                           cwd=REPO_ROOT, capture_output=True, text=True, timeout=180)
    assert piped.returncode == 0, piped.stderr
    assert f"{pages} pages re-extracted, 0 failed" in piped.stdout
    assert f"main text changed on 2 pages, the same on {pages - 2}" in piped.stdout
    assert f"reextract: done {pages}/{pages} pages (100%)" in piped.stderr
