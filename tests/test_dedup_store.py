"""The SQLite side of dedup and its commands: cleaned_content, domain_boilerplate, the CLI."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from crawler.cli import main
from crawler.dedup.config import DedupConfig
from crawler.dedup.store import BOILERPLATE_TABLE, dedup_domain
from crawler.storage import open_database, upsert_page

BANNER = ("We value your privacy. We and our partners use cookies to store and access information "
          "on your device. Consent ID {id}.")
NEWSLETTER = ("One email a month with release notes, deprecation warnings and invitations to "
              "office hours.")
TAGLINE = "Acme is an elegant and simple toolkit for building web services, made for humans."
TOPICS = ["routing", "templates", "sessions", "cookies", "uploads", "streaming", "testing",
          "deployment", "logging", "caching", "security", "websockets"]
ISSUE_COLUMNS = {"domain", "hashes", "pages_analyzed", "blocks_total", "blocks_boilerplate",
                 "bytes_removed_avg", "threshold_pct", "min_pages", "min_block_chars",
                 "created_at", "updated_at"}


def own_text(topic: str) -> str:
    """A paragraph only one page has."""
    return f"This page explains {topic} with examples, caveats and a worked session at the end."


def page_html(topic: str, *, newsletter: bool = True, tagline_in_main: bool = False) -> bytes:
    """A whole page: sidebar tagline and newsletter box around the main text."""
    main = f"<p>{own_text(topic)}</p>" + (f"<p>{TAGLINE}</p>" if tagline_in_main else "")
    box = (f'<div class="nl"><div>Get the Digest</div><div>{NEWSLETTER}</div></div>'
           if newsletter else "")
    return (f"<html><body><div class='side'><p>{TAGLINE}</p></div><main>{main}</main>{box}"
            f"</body></html>").encode()


def add_page(db, url: str, domain: str, markdown: str, html: bytes = b"") -> None:
    """Store one page row as the crawl would."""
    upsert_page(db, {"url": url, "domain": domain, "status": 200, "content_type": "text/html",
                     "content_markdown": markdown}, html)


@pytest.fixture
def crawl_db(tmp_path: Path) -> Path:
    """docs.example: 12 pages, a banner with a per-page ID; blog.example: 3 pages."""
    path = tmp_path / "crawl.db"
    db = open_database(path)
    for index, topic in enumerate(TOPICS):
        banner = BANNER.format(id=f"{index:02d}-{index * 7919:06x}")
        markdown = f"{banner}\n\n# {topic.title()}\n\n{own_text(topic)}"
        if index < 3:  # a paragraph repeated on fewer pages than the threshold
            markdown += "\n\nInstall the optional extras with pip to get the fast JSON encoder too."
        add_page(db, f"https://docs.example/{topic}/", "docs.example", markdown)
    for topic in TOPICS[:3]:
        add_page(db, f"https://blog.example/{topic}/", "blog.example",
                 f"{BANNER.format(id='x')}\n\n{own_text(topic)}")
    db.conn.close()
    return path


def rows(path: Path, sql: str, params: tuple = ()) -> list[tuple]:
    """Query the database file directly."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def test_dedup_writes_cleaned_content_and_keeps_the_original(crawl_db: Path) -> None:
    before = rows(crawl_db, "SELECT url, content_markdown FROM pages ORDER BY url")
    db = open_database(crawl_db)
    result = dedup_domain(db, "docs.example", DedupConfig())
    db.conn.close()
    assert result.fingerprint.blocks_boilerplate == 1 and result.pages_changed == 12
    assert rows(crawl_db, "SELECT url, content_markdown FROM pages ORDER BY url") == before
    for url, content, cleaned in rows(crawl_db, "SELECT url, content_markdown, cleaned_content "
                                                "FROM pages WHERE domain = 'docs.example'"):
        topic = url.rstrip("/").rsplit("/", 1)[1]
        assert "privacy" in content and "privacy" not in cleaned
        assert cleaned.startswith(f"# {topic.title()}\n\n{own_text(topic)}")
    extras = rows(crawl_db,
                  "SELECT count(*) FROM pages WHERE cleaned_content LIKE '%optional extras%'")
    assert extras == [(3,)]
    assert rows(crawl_db, "SELECT count(*) FROM pages WHERE domain = 'blog.example' "
                          "AND cleaned_content IS NOT NULL") == [(0,)]


def test_fingerprint_row_has_the_documented_columns(crawl_db: Path) -> None:
    db = open_database(crawl_db)
    config = DedupConfig(threshold_pct=0.5, min_pages=3, min_block_chars=40)
    dedup_domain(db, "docs.example", config)
    db.conn.close()
    conn = sqlite3.connect(crawl_db)
    conn.row_factory = sqlite3.Row
    row = dict(conn.execute(f"SELECT * FROM {BOILERPLATE_TABLE}").fetchone())
    conn.close()
    assert ISSUE_COLUMNS <= set(row)
    assert row["domain"] == "docs.example" and len(json.loads(row["hashes"])) == 1
    assert (row["pages_analyzed"], row["blocks_boilerplate"]) == (12, 1)
    assert (row["threshold_pct"], row["min_pages"], row["min_block_chars"]) == (0.5, 3, 40)
    assert row["bytes_removed_avg"] == pytest.approx(row["bytes_removed"] / 12, abs=0.1)


def test_running_twice_gives_the_same_result(crawl_db: Path) -> None:
    db = open_database(crawl_db)
    dedup_domain(db, "docs.example", DedupConfig())
    first = rows(crawl_db, "SELECT url, cleaned_content FROM pages ORDER BY url")
    query = f"SELECT hashes, bytes_removed, created_at FROM {BOILERPLATE_TABLE}"
    stored = rows(crawl_db, query)
    dedup_domain(db, "docs.example", DedupConfig())
    db.conn.close()
    assert rows(crawl_db, "SELECT url, cleaned_content FROM pages ORDER BY url") == first
    assert rows(crawl_db, query) == stored


def test_whole_page_pass_catches_a_box_the_extractor_kept_on_few_pages(tmp_path: Path) -> None:
    """The newsletter box is on every page but in the extracted content of two; a tagline quoted
    in one page's main text (and in every sidebar) stays on that page."""
    db = open_database(tmp_path / "crawl.db")
    for index, topic in enumerate(TOPICS):
        markdown = own_text(topic)
        if index < 2:
            markdown += f"\n\nGet the Digest\n\n{NEWSLETTER}"
        if index == 5:
            markdown += f"\n\n{TAGLINE}"
        add_page(db, f"https://docs.example/{topic}/", "docs.example", markdown,
                 page_html(topic, tagline_in_main=index == 5))
    exact = dedup_domain(db, "docs.example", DedupConfig(whole_page=False))
    assert exact.pages_changed == 0
    result = dedup_domain(db, "docs.example", DedupConfig())
    cleaned = dict(db.conn.execute("SELECT url, cleaned_content FROM pages"))
    db.conn.close()
    assert result.pages_changed == 2
    for index, topic in enumerate(TOPICS):
        expected = own_text(topic) + (f"\n\n{TAGLINE}" if index == 5 else "")
        assert cleaned[f"https://docs.example/{topic}/"] == expected


@pytest.mark.parametrize("encoding", ["cp1252", "utf-8"])
def test_whole_page_pass_reads_stored_html_in_the_charset_the_crawl_recorded(
        tmp_path: Path, encoding: str) -> None:
    """A box of accented text, kept by the extractor on two pages, is found on every whole page
    only when the stored bytes are read as the crawl read them (cp1252 read as UTF-8 gives
    ``Soci\ufffdt\ufffd``, which matches no extracted block); each page's own text stays."""
    box = "Société Générale des Écrivains: une lettre par mois, des nouvelles et des rendez-vous."
    db = open_database(tmp_path / "crawl.db")
    for index, topic in enumerate(TOPICS):
        markdown = own_text(topic) + (f"\n\n{box}" if index < 2 else "")
        html = (f"<html><body><main><p>{own_text(topic)}</p></main><div class='nl'><p>{box}</p>"
                f"</div></body></html>").encode(encoding)
        upsert_page(db, {"url": f"https://docs.example/{topic}/", "domain": "docs.example",
                         "status": 200, "content_type": "text/html", "encoding": encoding,
                         "content_markdown": markdown}, html)
    result = dedup_domain(db, "docs.example", DedupConfig())
    cleaned = dict(db.conn.execute("SELECT url, cleaned_content FROM pages"))
    db.conn.close()
    assert result.pages_changed == 2
    assert box.lower() in result.fingerprint.page_lines
    for topic in TOPICS:
        assert cleaned[f"https://docs.example/{topic}/"] == own_text(topic)


# --- command line ----------------------------------------------------------------------------

def test_dedup_command_prints_per_domain_figures(crawl_db: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dedup", str(crawl_db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["domain", "pages", "boilerplate", "removed"]
    figures = {line.split()[0]: line.split()[1:] for line in lines[1:]}
    assert figures["blog.example"] == ["3", "0", "0.0%"]
    pages, blocks, share = figures["docs.example"]
    assert (pages, blocks) == ("12", "1") and 30 < float(share.rstrip("%")) < 70


def test_dedup_command_limits_to_a_domain(crawl_db: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dedup", str(crawl_db), "--domain", "docs.example", "--min-pages", "2"]) == 0
    analysed = [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]]
    assert analysed == ["docs.example"]
    stored = rows(crawl_db, f"SELECT domain, min_pages FROM {BOILERPLATE_TABLE}")
    assert stored == [("docs.example", 2)]


@pytest.mark.parametrize(("args", "message"), [
    (["--threshold-pct", "1.5"],
     "error: --threshold-pct must be a number from 0.1 to 1.0, got '1.5'.\n"),
    (["--min-pages", "1"], "error: --min-pages must be an integer from 2 to 100, got '1'.\n"),
    (["--min-block-chars", "many"],
     "error: --min-block-chars must be an integer from 10 to 500, got 'many'.\n"),
    (["--domain", "nowhere.example"], "error: no pages of nowhere.example in {db}.\n"),
])
def test_dedup_command_rejects_bad_input_with_one_sentence(
        crawl_db: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(["dedup", str(crawl_db), *args]) in (1, 2)
    captured = capsys.readouterr()
    assert captured.err == message.format(db=crawl_db)
    assert rows(crawl_db, "SELECT count(*) FROM pages WHERE cleaned_content IS NOT NULL") == [(0,)]


def test_missing_database_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dedup-stats", str(tmp_path / "none.db")]) == 1
    assert capsys.readouterr().err == f"error: no crawl database at {tmp_path / 'none.db'}.\n"
    assert not (tmp_path / "none.db").exists()


def test_dedup_stats_prints_what_dedup_stored(crawl_db: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dedup-stats", str(crawl_db)]) == 0
    assert "no dedup statistics" in capsys.readouterr().out
    main(["dedup", str(crawl_db)])
    capsys.readouterr()
    assert main(["dedup-stats", str(crawl_db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:5] == ["domain", "pages", "blocks", "boilerplate", "removed"]
    docs = next(line.split() for line in lines if line.startswith("docs.example"))
    assert docs[1:4] == ["12", "27", "1"]


def test_export_writes_cleaned_content_as_jsonl(crawl_db: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    main(["dedup", str(crawl_db)])
    capsys.readouterr()
    out = tmp_path / "cleaned.jsonl"
    assert main(["export", str(crawl_db), "-o", str(out)]) == 0
    assert capsys.readouterr().err.endswith(f"exported 15 pages to {out}\n")
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(items) == 15
    assert {"url", "domain", "content_markdown", "cleaned_content"} <= set(items[0])
    docs = [item for item in items if item["domain"] == "docs.example"]
    assert all("privacy" in i["content_markdown"] for i in docs)
    assert not any("privacy" in i["cleaned_content"] for i in docs)


def test_export_before_dedup_says_so(crawl_db: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cleaned.jsonl"
    assert main(["export", str(crawl_db), "-o", str(out), "--domain", "blog.example"]) == 0
    assert "3 pages had no cleaned content yet" in capsys.readouterr().err
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [i["cleaned_content"] == i["content_markdown"] for i in items] == [True, True, True]


@pytest.mark.parametrize(("flags", "blocks"), [([], "1"), (["--exact"], "0")])
def test_exact_comparison_misses_a_banner_with_per_page_ids(
        crawl_db: Path, capsys: pytest.CaptureFixture[str], flags: list[str], blocks: str) -> None:
    assert main(["dedup", str(crawl_db), "--domain", "docs.example", *flags]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[:3] == ["docs.example", "12", blocks]
