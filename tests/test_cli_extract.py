"""``python -m crawler extract`` and ``extract-corpus`` as a user runs them."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from crawler.cli import main

PAGE = """<!doctype html><html lang="en"><head><title>Brewing Tea — Leaf Notes</title>
<meta name="author" content="Mina Leaf"><meta property="article:published_time" content="2024-05-06T08:00:00Z">
</head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Brewing Tea</h1>
<p>Good tea starts with fresh water heated to the right temperature for the leaf you use.</p>
<p>Green tea wants water well below boiling, while black tea takes it at a rolling boil.</p>
<p>Steep for two to five minutes, then taste and adjust next time; see <a href="/guide">the guide</a>.</p>
<pre><code class="language-python">print("steep")</code></pre>
</article><footer>Copyright Leaf Notes</footer></body></html>"""


@pytest.fixture()
def page_file(tmp_path: Path) -> Path:
    path = tmp_path / "page.html"
    path.write_text(PAGE, encoding="utf-8")
    return path


def _run(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_extract_json_has_content_and_metadata(page_file: Path, capsys) -> None:
    code, out, _ = _run(["extract", str(page_file), "--url", "https://leaf.example/tea"], capsys)
    data = json.loads(out)
    assert code == 0
    assert data["title"] == "Brewing Tea"
    assert data["author"] == "Mina Leaf"
    assert data["published"] == "2024-05-06"
    assert "rolling boil" in data["content_text"]
    assert "Copyright" not in data["content_text"]
    assert "trace" not in data


@pytest.mark.parametrize("fmt, expected, absent", [
    ("markdown", ["# Brewing Tea", "[the guide](https://leaf.example/guide)", "```python"], ["<p>"]),
    ("html", ['<a href="https://leaf.example/guide" rel="nofollow">the guide</a>'], ["<nav", "<script"]),
    ("text", ["Brewing Tea\n\nGood tea starts"], ["](", "<"]),
])
def test_extract_formats(page_file: Path, capsys, fmt: str, expected: list[str], absent: list[str]) -> None:
    code, out, _ = _run(["extract", str(page_file), "--url", "https://leaf.example/tea", "--format", fmt], capsys)
    assert code == 0
    for snippet in expected:
        assert snippet in out
    for snippet in absent:
        assert snippet not in out


def test_extract_trace_explains_the_choice(page_file: Path, capsys) -> None:
    code, out, err = _run(["extract", str(page_file), "--format", "text", "--trace"], capsys)
    assert code == 0
    assert "candidates (" in err and "chosen by stage agree: [" in err and "why:" in err
    assert "stages:\n  applied  agree: " in err and "  -        whole-body: " in err
    assert "Good tea starts" in out and "candidates (" not in out


def test_extract_trace_in_json(page_file: Path, capsys) -> None:
    _, out, _ = _run(["extract", str(page_file), "--trace"], capsys)
    data = json.loads(out)
    steps = [entry["step"] for entry in data["trace"]]
    assert "candidates" in steps and "choice" in steps and "stages" in steps
    decisions = data["decisions"]
    assert decisions[0]["stage"] == "agree" and decisions[0]["applied"] is True
    assert all({"stage", "applied", "why"} <= set(d) for d in decisions)
    assert [d["stage"] for d in decisions if d["applied"]] == ["agree"]


CP1252_PAGE = PAGE.replace("Brewing Tea</h1>", "Brewing Tea at the Société Générale</h1>")


@pytest.fixture()
def crawl_db(tmp_path: Path) -> Path:
    """A crawl database holding the page as cp1252 bytes, as a crawl stores them."""
    from crawler.storage import open_database, upsert_page

    path = tmp_path / "crawl.db"
    db = open_database(path)
    upsert_page(db, {"url": "https://leaf.example/tea", "domain": "leaf.example", "status": 200,
                     "content_type": "text/html; charset=windows-1252", "encoding": "cp1252"},
                CP1252_PAGE.encode("cp1252"))
    db.conn.close()
    return path


def test_extract_traces_a_stored_page(crawl_db: Path, capsys) -> None:
    """A stored page is read from its raw HTML, decoded in the charset the crawl recorded."""
    code, out, _ = _run(["extract", "--db", str(crawl_db), "--url", "https://leaf.example/tea",
                         "--trace"], capsys)
    assert code == 0
    data = json.loads(out)
    assert "Société Générale" in data["content_text"] and "rolling boil" in data["content_text"]
    assert "Copyright Leaf Notes" not in data["content_text"]
    assert [d["stage"] for d in data["decisions"] if d["applied"]] == ["agree"]


@pytest.mark.parametrize("args, message", [
    (["--url", "https://leaf.example/other"], "holds no page https://leaf.example/other"),
    ([], "--db needs --url"),
])
def test_extract_stored_page_errors_are_one_sentence(crawl_db: Path, capsys, args: list[str],
                                                     message: str) -> None:
    code, out, err = _run(["extract", "--db", str(crawl_db), *args], capsys)
    assert code == 1 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_extract_stored_page_from_a_missing_database(tmp_path: Path, capsys) -> None:
    code, _, err = _run(["extract", "--db", str(tmp_path / "none.db"), "--url", "https://x/"],
                        capsys)
    assert code == 1 and "no database at" in err


def test_extract_reads_gzip_files(tmp_path: Path, capsys) -> None:
    path = tmp_path / "page.html.gz"
    path.write_bytes(gzip.compress(PAGE.encode("utf-8")))
    code, out, _ = _run(["extract", str(path), "--format", "text"], capsys)
    assert code == 0 and "rolling boil" in out


def test_extract_fetches_a_url(capsys) -> None:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server API
            body = PAGE.encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/tea"
        code, out, _ = _run(["extract", url, "--format", "markdown"], capsys)
    finally:
        server.shutdown()
    assert code == 0
    assert f"[the guide](http://127.0.0.1:{server.server_address[1]}/guide)" in out


@pytest.mark.parametrize("source", ["/nonexistent/page.html", "http://127.0.0.1:9/unreachable"])
def test_extract_unreadable_source_is_one_line_error(source: str, capsys) -> None:
    code, out, err = _run(["extract", source], capsys)
    assert code == 1 and out == ""
    assert err.startswith("error: cannot ") and err.count("\n") == 1


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    (root / "html").mkdir(parents=True)
    rows = [{"id": "a1", "url": "https://leaf.example/tea"}, {"id": "b2", "url": "https://leaf.example/empty"}]
    (root / "html" / "a1.html.gz").write_bytes(gzip.compress(PAGE.encode("utf-8")))
    (root / "html" / "b2.html.gz").write_bytes(gzip.compress(b""))
    (root / "ground-truth.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return root


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_extract_corpus_writes_one_line_per_page(corpus: Path, tmp_path: Path, jobs: str, capsys) -> None:
    out_path = tmp_path / "preds.jsonl"
    code, _, err = _run(["extract-corpus", str(corpus), "-o", str(out_path), "--jobs", jobs], capsys)
    records = [json.loads(line) for line in out_path.read_text(encoding="utf-8").splitlines()]
    assert code == 0
    assert [r["id"] for r in records] == ["a1", "b2"]
    assert set(records[0]) >= {"id", "text", "html", "markdown", "title", "author", "date", "tier"}
    assert records[0]["title"] == "Brewing Tea" and records[0]["date"] == "2024-05-06"
    assert "rolling boil" in records[0]["text"] and records[0]["tier"]
    assert records[1]["text"] == "" and records[1]["title"] is None
    assert "\r[" not in err  # no progress bar when stderr is not a terminal


def test_extract_corpus_joins_authors_as_a_byline(tmp_path: Path, capsys) -> None:
    root = tmp_path / "c"
    (root / "html").mkdir(parents=True)
    page = PAGE.replace('<meta name="author" content="Mina Leaf">',
                        '<script type="application/ld+json">{"@type": "Article", "headline": "Brewing Tea", '
                        '"author": [{"@type": "Person", "name": "Ann Lee"}, {"@type": "Person", "name": "Bo Chan"}, '
                        '{"@type": "Person", "name": "Cy Dee"}]}</script>')
    (root / "html" / "p.html.gz").write_bytes(gzip.compress(page.encode("utf-8")))
    (root / "ground-truth.jsonl").write_text(json.dumps({"id": "p", "url": "https://leaf.example/t"}) + "\n")
    out_path = tmp_path / "preds.jsonl"
    assert main(["extract-corpus", str(root), "-o", str(out_path), "--jobs", "1"]) == 0
    assert json.loads(out_path.read_text())["author"] == "Ann Lee, Bo Chan, and Cy Dee"


def test_extract_corpus_without_ground_truth_is_an_error(tmp_path: Path, capsys) -> None:
    code, _, err = _run(["extract-corpus", str(tmp_path), "-o", str(tmp_path / "p.jsonl")], capsys)
    assert code == 1 and "has no ground-truth.jsonl" in err


def test_commands_are_listed_in_help() -> None:
    result = subprocess.run([sys.executable, "-m", "crawler", "--help"], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parents[1], timeout=120)
    assert "extract-corpus" in result.stdout and "extract " in result.stdout
