"""``crawler export``: a real crawl's pages as markdown files with front matter, JSONL or CSV,
filtered and chunked, as a user runs it."""

from __future__ import annotations

import csv
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest
import yaml

from crawler.cli import main
from crawler.export import relative_path
from tests.conftest import REPO_ROOT, CrawlResult


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m crawler ...`` as a user would."""
    return subprocess.run([sys.executable, "-m", "crawler", *args], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=120)


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The same command in this process (for the long tables): (exit code, stdout, stderr)."""
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse refusing an argument
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def rows(db: Path, where: str = "1") -> dict[str, dict]:
    """url -> stored row of the pages matching ``where``."""
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        return {r["url"]: dict(r) for r in conn.execute(f"SELECT * FROM pages WHERE {where}")}
    finally:
        conn.close()


def read_markdown(path: Path) -> tuple[dict, str]:
    """(front matter, body) of an exported file."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n")
    head, body = text[4:].split("\n---\n", 1)
    return yaml.safe_load(head), body.removeprefix("\n")


@pytest.fixture
def docs_db(crawled_docs_site: CrawlResult, tmp_path: Path) -> Path:
    """A copy of a real crawl's database, free to change."""
    return Path(shutil.copy(crawled_docs_site.db_path, tmp_path / "crawl.db"))


def test_markdown_export_writes_one_file_per_page_with_front_matter(docs_db: Path,
                                                                    tmp_path: Path) -> None:
    stored = rows(docs_db)
    out = tmp_path / "md"
    completed = cli("export", str(docs_db), "-o", str(out), "--format", "markdown")
    assert completed.returncode == 0, completed.stderr
    assert f"exported {len(stored)} pages to {out}" in completed.stderr
    files = sorted(out.rglob("*.md"))
    assert len(files) == len(stored)
    seen = set()
    for path in files:
        meta, body = read_markdown(path)
        row = stored[meta["url"]]
        seen.add(meta["url"])
        assert path.relative_to(out).as_posix() == str(relative_path(meta["url"]))
        assert meta["title"] == row["title"]
        assert meta.get("author") == row["author"] and meta.get("date") == row["published"]
        assert meta["quality"] == row["quality_score"]
        assert meta["flagged"] is bool(row["quality_flagged"])
        assert body == row["content_markdown"].rstrip("\n") + "\n"
    assert seen == set(stored)
    mermaid = next(p for p in files if p.parent.name == "mermaid")
    assert mermaid.name == "index.md" and "Render diagrams" in mermaid.read_text()


@pytest.mark.parametrize(("flags", "where"), [
    (["--min-quality", "0.9"], "quality_score >= 0.9"),
    (["--flagged"], "quality_flagged = 1"),
    (["--not-flagged"], "quality_flagged = 0"),
    (["--not-flagged", "--min-quality", "0.95"], "quality_flagged = 0 AND quality_score >= 0.95"),
    (["--since", "2000-01-01"], "1"),
    (["--since", "2000-01-01T00:00:00+02:00"], "1"),
    (["--domain", "127.0.0.1"], "1"),
    (["--domain", "{netloc}"], "1"),
    (["--domain", "elsewhere.example", "--domain", "127.0.0.1"], "1"),
])
def test_filters_select_the_pages_they_name(flags: list[str], where: str, docs_db: Path,
                                            crawled_docs_site: CrawlResult, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    netloc = crawled_docs_site.items[0]["domain"]
    expected = set(rows(docs_db, where))
    assert 0 < len(expected)
    out = tmp_path / "pages.jsonl"
    code, _, err = run_main(capsys, "export", str(docs_db), "-o", str(out),
                            *[f.format(netloc=netloc) for f in flags])
    assert code == 0, err
    exported = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {item["url"] for item in exported} == expected
    assert len(exported) == len(expected)
    assert "raw_html" not in exported[0] and "cleaned_content" in exported[0]
    assert isinstance(exported[0]["quality_reasons"], list)


@pytest.mark.parametrize(("flags", "code", "message"), [
    (["--domain", "127.0.0.1:1"], 1, "no pages of 127.0.0.1:1 in this database; it holds 127.0.0.1:"),
    (["--domain", "localhost"], 1, "no pages of localhost in this database"),
    (["--since", "2999-01-01"], 1, "no page of the 37 stored matches these filters."),
    (["--since", "last week"], 2, "--since takes an ISO date"),
    (["--since", "0001-01-01T00:00:00+14:00"], 2, "--since takes an ISO date"),  # OverflowError
    (["--min-quality", "7"], 2, "--min-quality must be from 0 to 1, got 7.0."),
    (["--chunks", "0"], 2, "--chunks must be 1 or more words, got 0."),
    (["--format", "markdown", "-o", "-"], 2, "markdown export writes files"),
    (["--flagged", "--not-flagged"], 2, "not allowed with argument"),
])
def test_bad_or_empty_selections_say_why(flags: list[str], code: int, message: str,
                                         docs_db: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    args = ["export", str(docs_db), *flags]
    if "-o" not in flags:
        args += ["-o", str(tmp_path / "out.jsonl")]
    returned, _, err = run_main(capsys, *args)
    assert returned == code
    assert message in err
    assert not (tmp_path / "out.jsonl").exists()


def test_cleaned_export_uses_the_cleaned_content(docs_db: Path, tmp_path: Path) -> None:
    with sqlite3.connect(docs_db) as conn:
        conn.execute("UPDATE pages SET cleaned_content = NULL")  # as before any dedup run
        conn.execute("UPDATE pages SET cleaned_content = '# Cleaned\n\nwithout boilerplate' "
                     "WHERE url LIKE '%/mermaid/'")
    out = tmp_path / "md"
    completed = cli("export", str(docs_db), "-o", str(out), "--format", "markdown", "--cleaned")
    assert completed.returncode == 0
    assert "36 pages had no cleaned content yet" in completed.stderr
    meta, body = read_markdown(next(out.rglob("mermaid/index.md")))
    assert body == "# Cleaned\n\nwithout boilerplate\n" and meta["title"] == "Mermaid"
    _, other = read_markdown(next(out.rglob("katex/index.md")))
    assert "KaTeX" in other  # a page without cleaned content keeps its markdown

    completed = cli("export", str(docs_db), "-o", str(out / "x.md"), "--format", "markdown")
    out.joinpath("file").write_text("x")
    refused = cli("export", str(docs_db), "-o", str(out / "file"), "--format", "markdown")
    assert refused.returncode == 2 and "is a file" in refused.stderr


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "markdown"])
def test_chunks_keep_every_word_under_the_limit_with_their_heading_path(
        fmt: str, docs_db: Path, tmp_path: Path) -> None:
    stored = rows(docs_db)
    out = tmp_path / "out"
    out.mkdir()
    completed = cli("export", str(docs_db), "-o", str(out), "--format", fmt, "--chunks", "40")
    assert completed.returncode == 0, completed.stderr
    if fmt == "jsonl":
        chunks = [json.loads(line) for line in (out / "chunks.jsonl").read_text().splitlines()]
    elif fmt == "csv":
        with (out / "chunks.csv").open(newline="", encoding="utf-8") as handle:
            chunks = list(csv.DictReader(handle))
        for chunk in chunks:
            chunk.update(heading_path=json.loads(chunk["heading_path"]), words=int(chunk["words"]),
                         chunk=int(chunk["chunk"]))
    else:
        chunks = []
        for path in sorted(out.rglob("*.md")):
            meta, body = read_markdown(path)
            chunks.append({**meta, "text": body.rstrip("\n")})
    assert f"as {len(chunks)} chunks of at most 40 words" in completed.stderr
    by_url: dict[str, list[dict]] = {}
    for chunk in chunks:
        assert 0 < chunk["words"] <= 40 and chunk["words"] == len(chunk["text"].split())
        by_url.setdefault(chunk["url"], []).append(chunk)
    for url, row in stored.items():
        if not row["content_markdown"].split():
            continue
        parts = sorted(by_url[url], key=lambda c: c["chunk"])
        assert [c["chunk"] for c in parts] == list(range(1, len(parts) + 1))
        assert " ".join(c["text"] for c in parts).split() == row["content_markdown"].split()
    syntax = [c for c in by_url[next(u for u in stored if u.endswith("/mermaid/"))]
              if c["text"].startswith("## Syntax")]
    assert syntax and syntax[0]["heading_path"] == ["Mermaid", "Syntax"]


@pytest.mark.parametrize(("url", "path"), [
    ("http://127.0.0.1:8000/", "127.0.0.1_8000/index.md"),
    ("https://docs.example/guide/install.html", "docs.example/guide/install.md"),
    ("https://docs.example/guide/", "docs.example/guide/index.md"),
    ("https://docs.example/a/../../etc/passwd", "docs.example/a/etc/passwd.md"),
    ("https://docs.example/%2e%2e/%2F/x y", "docs.example/2e-2e/2F/x-y.md"),
    ("https://docs.example/list?page=2", "docs.example/list-b941a131.md"),
    ("https://docs.example/#/", "docs.example/index.md"),
    ("https://docs.example/#install", "docs.example/index.md"),
    ("https://docs.example/docs/#/guide/install", "docs.example/docs/guide/install.md"),
    ("https://docs.example/docs/index.html#!/guide/", "docs.example/docs/guide/index.md"),
    ("https://docs.example/docs/#/guide.md?id=usage", "docs.example/docs/guide.md"),
    ("https://docs.example/#/../../etc/passwd", "docs.example/etc/passwd.md"),
])
def test_file_names_mirror_the_url_and_stay_inside_the_folder(url: str, path: str) -> None:
    relative = relative_path(url)
    assert str(relative) == path
    assert ".." not in relative.parts and not PurePosixPath(relative).is_absolute()


def test_csv_export_is_one_row_per_page(docs_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "pages.csv"
    completed = cli("export", str(docs_db), "-o", str(out), "--format", "csv", "--flagged")
    assert completed.returncode == 0
    with out.open(newline="", encoding="utf-8") as handle:
        exported = list(csv.DictReader(handle))
    assert {r["url"] for r in exported} == set(rows(docs_db, "quality_flagged = 1"))
    assert all(r["quality_flagged"] == "True" for r in exported)
    assert "content_markdown" in exported[0] and "raw_html" not in exported[0]
