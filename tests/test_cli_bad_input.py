"""The command line on bad input: one sentence and a non-zero exit, never a traceback, and never a
change to a file that is not ours (another application's SQLite file, a garbage, text or empty
file, a directory, an output on a read-only filesystem). ``extract`` of a URL or file obeys the
crawl's DOWNLOAD_MAXSIZE and DOWNLOAD_TIMEOUT and its internal-address guard; ``reextract``
skips and counts a page whose stored HTML is corrupt."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import queue
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from crawler.cli import main
from crawler.storage import open_database, upsert_page
from tests.conftest import REPO_ROOT
from tests.filesystems import make_read_only, small_filesystem
from tests.hostile import pages

GIB = 1 << 30
MEMBER = gzip.compress(bytes(1 << 20), compresslevel=9)  # 1 MiB of zeros in about 1 KiB


def gzip_bomb() -> bytes:
    """1 GiB of zeros as a gzip stream of about 1 MiB (1024 members of 1 MiB each)."""
    return MEMBER * (GIB // (1 << 20))


def article(title: str) -> str:
    return pages.article(title, [f"{title} begins. {pages.FILLER}", f"{title} ends. {pages.FILLER}"])


class CaseServer(ThreadingHTTPServer):
    """The cases' server; it records the paths whose client hung up before the answer ended."""

    hung_up: queue.SimpleQueue[str]


class Handler(BaseHTTPRequestHandler):
    """The cases a command-line fetch meets: bombs, endless and trickling bodies, redirects."""

    server: CaseServer

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        """Quiet."""

    def _head(self, status: int = 200, length: int | None = None, **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", headers.pop("content_type", "text/html; charset=utf-8"))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        if length is not None:
            self.send_header("Content-Length", str(length))
        self.end_headers()

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        port = self.server.server_address[1]
        try:
            if self.path == "/page":
                body = article("Plain page").encode()
                self._head(length=len(body))
                self.wfile.write(body)
            elif self.path in ("/bomb", "/bomb-no-length"):
                body = gzip_bomb()
                self._head(length=len(body) if self.path == "/bomb" else None,
                           Content_Encoding="gzip")
                self.wfile.write(body)
            elif self.path == "/bomb-file":
                body = gzip_bomb()
                self._head(length=len(body), content_type="application/octet-stream")
                self.wfile.write(body)
            elif self.path == "/endless":
                self._head()
                chunk = b"<p>" + b"endless " * 8000 + b"</p>\n"
                while True:
                    self.wfile.write(chunk)
            elif self.path == "/trickle":
                self._head()
                self.wfile.write(b"<html><body><p>")
                while True:
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.05)
            elif self.path == "/redirect/same-host":
                self._head(302, length=0, Location="/page")
            elif self.path == "/redirect/localhost":
                self._head(302, length=0, Location=f"http://localhost:{port}/page")
            elif self.path == "/redirect/metadata":
                self._head(302, length=0, Location="http://169.254.169.254/latest/meta-data/")
            elif self.path == "/redirect/integer":
                self._head(302, length=0, Location=f"http://2130706433:{port}/page")
            else:
                self._head(404, length=0)
        except (BrokenPipeError, ConnectionResetError):
            self.server.hung_up.put(self.path)  # the client gave up, as it should


@pytest.fixture(scope="module")
def case_server() -> Iterator[CaseServer]:
    httpd = CaseServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpd.hung_up = queue.SimpleQueue()
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def server(case_server: CaseServer) -> str:
    return f"http://127.0.0.1:{case_server.server_address[1]}"


def run_cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """``python -m crawler ARGS`` in this process: exit code, stdout, stderr."""
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_sentence(code: int, err: str, phrase: str) -> None:
    assert code != 0
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and phrase in errors[0], err


# -- files that are not ours ---------------------------------------------------------------------

def crawl_db(path: Path, *, corrupt: tuple[str, ...] = ()) -> Path:
    """A crawl database of three pages; the raw HTML of the URLs in ``corrupt`` is not zlib."""
    db = open_database(path)
    for name in ("a", "b", "c"):
        url = f"https://site.example/{name}"
        upsert_page(db, {"url": url, "domain": "site.example", "title": "stale",
                         "fetched_at": "2026-01-01T00:00:00"}, article(f"Page {name}").encode())
        if url in corrupt:
            db.conn.execute("UPDATE pages SET raw_html = ? WHERE url = ?",
                            [b"\x78\x9c not zlib at all", url])
    db.conn.close()
    return path


def foreign_sqlite(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT UNIQUE, body TEXT)")
    conn.execute("INSERT INTO pages (url, body) VALUES ('https://a.example/', 'theirs')")
    conn.commit()
    conn.close()
    return path


def garbage(path: Path) -> Path:
    path.write_bytes(os.urandom(1) + bytes(range(256)) * 40)
    return path


def text(path: Path) -> Path:
    path.write_text("this is a text file, not a database\n")
    return path


def empty(path: Path) -> Path:
    path.touch()
    return path


def directory(path: Path) -> Path:
    path.mkdir()
    return path


NOT_OURS: list[tuple[str, Callable[[Path], Path], str]] = [
    ("foreign sqlite", foreign_sqlite, "another application's SQLite database"),
    ("garbage", garbage, "is not a SQLite database"),
    ("text", text, "is not a SQLite database"),
    ("empty", empty, "is an empty file"),
    ("directory", directory, ""),
]

#: Commands reading or writing a crawl database: (name, arguments around the database).
DATABASE_COMMANDS: list[tuple[str, Callable[[Path, Path], list[str | Path]]]] = [
    ("dedup", lambda db, tmp: ["dedup", db]),
    ("dedup-stats", lambda db, tmp: ["dedup-stats", db]),
    ("export", lambda db, tmp: ["export", db, "-o", tmp / "out.jsonl"]),
    ("reextract", lambda db, tmp: ["reextract", db, "--jobs", "1"]),
    ("merge shard", lambda db, tmp: ["merge", db, "-o", tmp / "merged.db"]),
    ("merge output", lambda db, tmp: ["merge", crawl_db(tmp / "shard.db"), "-o", db]),
]


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            if p.is_file() else "dir" for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize(("kind", "make", "phrase"), NOT_OURS, ids=[k for k, _, _ in NOT_OURS])
@pytest.mark.parametrize(("command", "arguments"), DATABASE_COMMANDS,
                         ids=[c for c, _ in DATABASE_COMMANDS])
def test_database_commands_never_touch_a_file_that_is_not_ours(
        command: str, arguments: Callable[[Path, Path], list[str | Path]], kind: str,
        make: Callable[[Path], Path], phrase: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    path = make(theirs / "data.db")
    argv = arguments(path, tmp_path)
    before = snapshot(theirs)
    code, _, err = run_cli(capsys, *argv)
    assert_one_sentence(code, err, phrase)
    assert snapshot(theirs) == before  # not a byte changed, no -wal, -shm or -journal beside it
    assert not (tmp_path / "out.jsonl").exists()
    if command == "merge shard":
        assert not (tmp_path / "merged.db").exists()


@pytest.fixture
def read_only_dir(tmp_path: Path) -> Iterator[Path]:
    """A read-only filesystem holding one crawl database (``crawl.db``)."""
    with small_filesystem(tmp_path / "ro", 1024) as mount:
        db = open_database(crawl_db(mount / "crawl.db"))
        db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.conn.execute("PRAGMA journal_mode=DELETE")
        db.conn.close()
        make_read_only(mount)
        yield mount


@pytest.mark.parametrize(("case", "argv", "phrase"), [
    ("export under a regular file", ["export", "{db}", "-o", "{db}/out.jsonl"], "cannot write"),
    ("export onto a read-only filesystem", ["export", "{db}", "-o", "{ro}/out.jsonl"],
     "Read-only file system"),
    ("merge into a directory", ["merge", "{db}", "-o", "{tmp}"], "is a directory"),
    ("merge onto a read-only filesystem", ["merge", "{db}", "-o", "{ro}/merged.db"],
     "Read-only file system"),
    ("dedup of a database on a read-only filesystem", ["dedup", "{ro}/crawl.db"],
     "Read-only file system"),
    ("reextract of a database on a read-only filesystem", ["reextract", "{ro}/crawl.db"],
     "Read-only file system"),
    ("extract-corpus to a directory", ["extract-corpus", "{corpus}", "-o", "{tmp}"],
     "Is a directory"),
])
def test_outputs_that_cannot_be_written_are_one_sentence(
        case: str, argv: list[str], phrase: str, tmp_path: Path, read_only_dir: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    db = crawl_db(tmp_path / "crawl.db")
    corpus = tmp_path / "corpus"
    (corpus / "html").mkdir(parents=True)
    (corpus / "ground-truth.jsonl").write_text('{"id": "1", "url": "https://a.example/"}\n')
    (corpus / "html" / "1.html.gz").write_bytes(gzip.compress(article("Corpus").encode()))
    before = snapshot(read_only_dir)
    values = {"db": db, "tmp": tmp_path, "ro": read_only_dir, "corpus": corpus}
    code, _, err = run_cli(capsys, *(a.format(**values) for a in argv))
    assert_one_sentence(code, err, phrase)
    assert snapshot(read_only_dir) == before


def test_read_only_commands_read_a_database_on_a_read_only_filesystem(
        read_only_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "export", read_only_dir / "crawl.db", "-o", tmp_path / "o.jsonl")
    assert code == 0, err
    assert len((tmp_path / "o.jsonl").read_text().splitlines()) == 3
    code, out, err = run_cli(capsys, "dedup-stats", read_only_dir / "crawl.db")
    assert code == 0 and "no dedup statistics" in out, err


# -- reextract with a corrupt stored page ---------------------------------------------------------

def test_reextract_skips_and_counts_a_corrupt_raw_html(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    db = crawl_db(tmp_path / "crawl.db", corrupt=("https://site.example/b",))
    code, out, err = run_cli(capsys, "reextract", db, "--jobs", "1", "--no-dedup")
    assert code == 0, err
    assert "2 pages re-extracted, 1 failed" in out
    assert "Traceback" not in err
    conn = sqlite3.connect(db)
    titles = dict(conn.execute("SELECT url, title FROM pages"))
    conn.close()
    assert titles == {"https://site.example/a": "Page a", "https://site.example/b": "stale",
                      "https://site.example/c": "Page c"}


# -- extract under the crawl's limits -------------------------------------------------------------

def run_extract_process(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """``python -m crawler extract ARGS`` in a child process, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "crawler", "extract", *map(str, args)],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)


def test_extract_of_a_gzip_bomb_file_stops_at_the_size_limit(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.html.gz"
    bomb.write_bytes(gzip_bomb())
    completed = run_extract_process(bomb)
    assert_one_sentence(completed.returncode, completed.stderr,
                        "(decompressed) is larger than DOWNLOAD_MAXSIZE (10485760 bytes)")
    assert completed.stdout == ""


@pytest.mark.parametrize(("path", "phrase"), [
    ("/bomb", "(decompressed) is larger than DOWNLOAD_MAXSIZE"),
    ("/bomb-no-length", "(decompressed) is larger than DOWNLOAD_MAXSIZE"),
    ("/bomb-file", "(decompressed) is larger than DOWNLOAD_MAXSIZE"),
    ("/endless", "is larger than DOWNLOAD_MAXSIZE"),
])
def test_extract_of_a_huge_url_stops_at_the_size_limit(
        server: str, path: str, phrase: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "extract", server + path)
    assert_one_sentence(code, err, phrase)
    assert out == ""


def test_extract_of_a_trickling_url_stops_at_the_time_limit(
        case_server: CaseServer, server: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The trickle never ends: the command returns only because its limit hung up on the
    server, which was still sending (it sees the connection closed under its next byte)."""
    code, out, err = run_cli(capsys, "extract", server + "/trickle", "--timeout", "1.5")
    assert_one_sentence(code, err, "did not finish within DOWNLOAD_TIMEOUT (1.5 s)")
    assert out == ""
    hung_up = [case_server.hung_up.get(timeout=30)]  # earlier cases' hang-ups come first
    while hung_up[-1] != "/trickle":
        hung_up.append(case_server.hung_up.get(timeout=30))


@pytest.mark.parametrize(("path", "phrase"), [
    ("/redirect/localhost", "localhost is an internal address (127.0.0.1)"),
    ("/redirect/metadata", "169.254.169.254 is an internal address"),
    ("/redirect/integer", "is an internal address (127.0.0.1)"),
])
def test_extract_refuses_a_redirect_to_an_internal_address(
        server: str, path: str, phrase: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "extract", server + path, "--format", "text")
    assert_one_sentence(code, err, phrase)
    assert "Plain page" not in out


def test_extract_follows_a_redirect_on_the_same_host(
        server: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "extract", server + "/redirect/same-host", "--format", "text")
    assert code == 0, err
    assert "Plain page begins." in out and "Plain page ends." in out


def test_extract_corpus_records_a_gzip_bomb_page_as_an_error_and_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "corpus"
    (corpus / "html").mkdir(parents=True)
    (corpus / "ground-truth.jsonl").write_text(
        '{"id": "bomb", "url": "https://a.example/bomb"}\n'
        '{"id": "good", "url": "https://a.example/good"}\n')
    (corpus / "html" / "bomb.html.gz").write_bytes(gzip_bomb())
    (corpus / "html" / "good.html.gz").write_bytes(gzip.compress(article("Good page").encode()))
    code, _, err = run_cli(capsys, "extract-corpus", corpus, "-o", tmp_path / "preds.jsonl",
                           "--jobs", "1")
    assert code == 0, err
    records = [json.loads(line) for line in (tmp_path / "preds.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == ["bomb", "good"]
    assert "is larger than DOWNLOAD_MAXSIZE" in records[0]["error"] and records[0]["text"] == ""
    assert "Good page begins." in records[1]["text"] and "error" not in records[1]


@pytest.mark.parametrize(("url", "phrase"), [
    ("http://[::1", "http://[::1 is not a URL (Invalid IPv6 URL)"),
    ("http://127.0.0.1:99999/", "is not a URL (Port out of range 0-65535)"),
    ("http://a b/", "cannot fetch http://a b/: URL can't contain control characters"),
    (f"https://{'a' * 300}.example/", "label empty or too long"),
], ids=["unclosed bracket", "port out of range", "space in the host", "300-character label"])
def test_extract_of_a_url_no_client_reads_is_one_sentence(
        url: str, phrase: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A URL argument that no URL parser or HTTP client reads: a traceback before (ValueError
    naming the output file, http.client's InvalidURL, the IDNA codec's UnicodeError); one
    sentence and exit 1 now, nothing printed."""
    code, out, err = run_cli(capsys, "extract", url, "--format", "text")
    assert_one_sentence(code, err, phrase)
    assert out == ""


@pytest.mark.parametrize("jobs", ["0", "257", "99999999999999999999"])
def test_extract_with_more_jobs_than_max_jobs_is_one_sentence(
        jobs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--jobs`` starts one process each as work arrives: 100,000 started one per input, and
    a 20-digit number raised OverflowError; at most MAX_JOBS (256) now, nothing written."""
    pages_in = [tmp_path / f"{n}.html" for n in ("a", "b")]
    for page in pages_in:
        page.write_text(article("Jobs"))
    code, out, err = run_cli(capsys, "extract", *pages_in, "-o", tmp_path / "out",
                             "--jobs", jobs)
    assert_one_sentence(code, err, "--jobs must be at least 1 and at most 256 (MAX_JOBS)")
    assert not (tmp_path / "out").exists()
