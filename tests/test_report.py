"""The crawl report as a user sees it: a real crawl of a local site, the report generated from
its database, opened in a real headless chromium, its figures checked against the database."""

from __future__ import annotations

import base64
import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from crawler.cli import main
from tests.conftest import REPO_ROOT, run_crawl, static_servers
from tests.linked_site import STATION_NOTE, build_linked_site

PAGES = 24
#: Hostile metadata and content on one page: the report must show it as text, never run it.
XSS_TITLE = "<script>window.__xss=1</script>Tricky & \"quoted\" <b>title</b>"
XSS_AUTHOR = "<img src=x onerror=\"window.__xss=true\">Mallory"
XSS_PAGE = f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>{XSS_TITLE.replace("&", "&amp;").replace("<", "&lt;")}</title>
<meta name="author" content="{XSS_AUTHOR.replace('"', '&quot;').replace("<", "&lt;")}">
</head><body><main><article><h1>{XSS_TITLE.replace("&", "&amp;").replace("<", "&lt;")}</h1>
<h2>Hostile page</h2>
<p>This page carries a title and an author that look like markup, a script and an image with an
event handler inside its article, and enough ordinary prose around them to be extracted as the
main content of the page by any extractor that reads the article element.</p>
<script>window.__xss=3</script><img src="x" onerror="window.__xss=4">
<p>A second paragraph of ordinary prose follows, so the article holds more than one block of
text and the extraction has a clear choice to make between this article and the rest.</p>
</article></main></body></html>"""


def report_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "crawler", "report", *args]


@dataclass
class Crawled:
    db: Path
    report: Path
    origin: str
    output: str


def build_site(root: Path) -> None:
    """The linked test site (a note repeated on every page: boilerplate), plus a hostile page,
    a missing page (failed: 404) and a PDF link (skipped) linked from the home page."""
    build_linked_site(root, PAGES)
    (root / "hostile.html").write_text(XSS_PAGE, encoding="utf-8")
    home = root / "index.html"
    extra = ('<ul><li><a href="/hostile.html">Hostile</a></li><li><a href="/missing.html">'
             'Missing</a></li><li><a href="/files/report.pdf">Report</a></li></ul>')
    home.write_text(home.read_text(encoding="utf-8").replace("</main>", extra + "</main>"),
                    encoding="utf-8")


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Crawled]:
    """One real crawl, and the report of its database (traces for every page)."""
    work = tmp_path_factory.mktemp("report")
    build_site(work / "site")
    with static_servers() as start:
        server = start(work / "site")
        result = run_crawl(server.url("/"), work, spider_args={"render": "never"})
        assert result.returncode == 0, result.log[-3000:]
    report = work / "out" / "crawl report.html"
    done = subprocess.run(report_command(str(result.db_path), "-o", str(report), "--jobs", "1"),
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    stored = query(result.db_path, "SELECT count(*) FROM pages")[0][0]
    # not a terminal: one plain progress line when the page views are written
    assert f"report page views: done {stored}/{stored} pages (100%)" in done.stderr
    yield Crawled(result.db_path, report, server.origin, done.stdout)


def query(db: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_the_crawl_is_recorded_with_its_final_stats(crawled: Crawled) -> None:
    rows = query(crawled.db, "SELECT start_urls, started_at, finished_at, close_reason, stats "
                             "FROM crawls")
    assert len(rows) == 1
    start_urls, started, finished, reason, stats_json = rows[0]
    stats = json.loads(stats_json)
    stored = query(crawled.db, "SELECT count(*) FROM pages")[0][0]
    assert json.loads(start_urls) == [crawled.origin + "/"]
    assert reason == "finished" and started <= finished
    assert stats["summary/pages_stored"] == stored == PAGES + 1
    assert stats["errors/http_404"] == 1
    assert stats["skipped/non_html_extension"] >= 1
    assert stats["dedup/domains"] == 1  # figures added at close by the dedup pipeline are there


def test_top_boilerplate_blocks_are_stored_with_their_pages(crawled: Crawled) -> None:
    blocks_json, boilerplate = query(crawled.db, "SELECT top_blocks, blocks_boilerplate "
                                                 "FROM domain_boilerplate")[0]
    blocks = json.loads(blocks_json)
    assert boilerplate >= 1 and len(blocks) >= 1
    note = next(b for b in blocks if STATION_NOTE in b["text"])
    assert note["pages"] == PAGES  # every generated page, not the hostile one
    assert note["bytes_removed"] >= PAGES * len(STATION_NOTE)
    # what must stay: no page's own text is listed as boilerplate
    assert not any("Hostile page" in b["text"] or "Survey 3:" in b["text"] for b in blocks)


def test_report_writes_one_html_file_and_page_views_beside_it(crawled: Crawled) -> None:
    html = crawled.report.read_text(encoding="utf-8")
    files = crawled.report.with_name("crawl report_files")
    assert sorted(p.name for p in files.iterdir()) == ["pages-00000.js"]
    assert f"{PAGES + 1} page views" in crawled.output
    # self-contained: no external script, style or image; hostile text only escaped
    assert "<script src" not in html and "<link" not in html and "http://cdn" not in html
    assert "<script>window.__xss" not in html and "onerror=" not in html
    assert "window.__xss=1" in html  # the title is there, as escaped JSON text
    title, author = query(crawled.db, "SELECT title, author FROM pages WHERE url LIKE "
                                      "'%hostile%'")[0]
    assert title == XSS_TITLE and "<img" in author  # the report gets markup-like metadata


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    from crawler.rendering import find_browser
    from crawler.settings import CHROMIUM_PATH

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=find_browser(CHROMIUM_PATH), headless=True)
        yield instance
        instance.close()


def test_report_in_a_real_browser(crawled: Crawled, browser: Any, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    problems: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("dialog", lambda d: (problems.append("dialog"), d.dismiss()))
    page.goto(crawled.report.as_uri())

    stats = json.loads(query(crawled.db, "SELECT stats FROM crawls")[0][0])
    stored, rendered, flagged = query(
        crawled.db, "SELECT count(*), sum(rendered), sum(quality_flagged) FROM pages")[0]
    skipped = sum(v for k, v in stats.items() if k.startswith("skipped/"))
    failed = sum(v for k, v in stats.items() if k.startswith("errors/"))
    shown = {key: page.inner_text(f'[data-stat="{key}"]') for key in
             ("pages-found", "pages-stored", "pages-rendered", "pages-flagged", "skipped",
              "failed", "domains", "crawls")}
    assert shown == {"pages-found": str(stats["summary/pages_found"]),
                     "pages-stored": str(stored), "pages-rendered": str(rendered),
                     "pages-flagged": str(flagged), "skipped": str(skipped),
                     "failed": str(failed), "domains": "1", "crawls": "1"}
    assert page.get_attribute('#chart-failed rect[data-label="http_404"]', "data-count") == "1"
    histogram = page.eval_on_selector_all("#chart-quality rect[data-count]",
                                          "bars => bars.map(b => Number(b.dataset.count))")
    assert sum(histogram) == stored and len(histogram) == 10
    domain = crawled.origin.removeprefix("http://")
    assert page.inner_text(f'#domains tr[data-domain="{domain}"] [data-field="stored"]') == \
        str(stored)
    block_pages = page.eval_on_selector_all(
        "#boilerplate tr.block", "rows => rows.map(r => [r.querySelector('pre').textContent, "
        "r.querySelector('[data-field=pages]').textContent])")
    assert [STATION_NOTE, str(PAGES)] in [[t.strip(), n] for t, n in block_pages]

    # the page table: every page, filter, sort
    assert page.inner_text("#pages-count") == f"{stored} of {stored} pages"
    page.fill("#filter-text", "hostile")
    assert page.inner_text("#pages-count") == f"1 of {stored} pages"
    title_cell = page.inner_text("#pages-table tbody tr td:nth-child(2)")
    assert title_cell == XSS_TITLE  # shown as text, exactly
    page.fill("#filter-text", "")
    page.click('#pages-table th[data-key="word_count"]')
    words = page.eval_on_selector_all("#pages-table tbody td:nth-child(4)",
                                      "cells => cells.map(c => Number(c.textContent))")
    assert words == sorted(words, reverse=True) and len(words) == stored

    # click through to the hostile page's view: escaped metadata, sanitised content, trace
    page.fill("#filter-text", "hostile")
    page.click("#pages-table tbody tr")
    page.wait_for_selector("#page-trace .trace-entry", state="attached")
    assert page.inner_text("#page-title") == XSS_TITLE
    author = query(crawled.db, "SELECT author FROM pages WHERE url LIKE '%hostile%'")[0][0]
    assert author in page.inner_text("#page-body")
    assert "Hostile page" in page.text_content("#page-markdown")
    frame = page.frame_locator("#page-content")
    assert "ordinary prose" in frame.locator("body").inner_text()
    assert frame.locator("script, [onerror]").count() == 0
    steps = page.eval_on_selector_all("#page-trace .trace-entry > summary",
                                      "s => s.map(x => x.textContent)")
    assert any(". choice" in s for s in steps) and any(". candidates" in s for s in steps)
    assert page.evaluate("window.__xss") is None and not problems

    # a screenshot that is not blank, checked in the browser itself
    page.goto(crawled.report.as_uri() + "#at-a-glance")
    shot = tmp_path / "report.png"
    page.screenshot(path=str(shot))
    colours = page.evaluate("""async (data) => {
        const img = new Image(); img.src = 'data:image/png;base64,' + data; await img.decode();
        const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
        const g = c.getContext('2d'); g.drawImage(img, 0, 0);
        const px = g.getImageData(0, 0, c.width, c.height).data; const seen = new Set();
        for (let i = 0; i < px.length; i += 4 * 97) seen.add(px[i] << 16 | px[i+1] << 8 | px[i+2]);
        return seen.size; }""", base64.b64encode(shot.read_bytes()).decode())
    assert colours > 20, "the screenshot is blank"
    assert all(url.startswith("file://") for url in requests), requests  # no network at all
    page.close()


@pytest.mark.parametrize(("args", "message"), [
    (["{missing}"], "no crawl database at"),
    (["{not_db}"], "is not a readable SQLite database"),
    (["{empty_db}"], "has no pages table"),
    (["{db}", "-o", "{out}.txt"], "must be an .html file"),
    (["{db}", "--jobs", "0"], "--jobs must be at least 1"),
    # a 20-digit number raised OverflowError; 100,000 started a process per page
    (["{db}", "--jobs", "99999999999999999999"], "--jobs must be at least 1 and at most 256"),
])
def test_bad_input_gives_one_sentence_and_a_non_zero_exit(
        args: list[str], message: str, crawled: Crawled, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "not.db").write_text("hello")
    sqlite3.connect(tmp_path / "empty.db").close()
    names = {"missing": tmp_path / "none.db", "not_db": tmp_path / "not.db",
             "empty_db": tmp_path / "empty.db", "db": crawled.db, "out": tmp_path / "r"}
    code = main(["report", *(a.format(**names) for a in args)])
    assert code != 0
    assert message in capsys.readouterr().err


def test_a_database_from_before_crawl_records_still_reports(crawled: Crawled,
                                                           tmp_path: Path) -> None:
    """An older database (no `crawls`, no `domain_boilerplate`) gives a report without them."""
    old = tmp_path / "old.db"
    conn = sqlite3.connect(old)
    conn.execute(f"ATTACH '{crawled.db}' AS src")
    conn.execute("CREATE TABLE pages AS SELECT * FROM src.pages")
    conn.commit()
    conn.close()
    out = tmp_path / "old.html"
    assert main(["report", str(old), "-o", str(out), "--traces", "none"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "holds no crawl records" in html and "No boilerplate analysis stored" in html
    assert f'data-stat="pages-stored">{PAGES + 1}<' in html
    assert '"trace"' not in (tmp_path / "old_files" / "pages-00000.js").read_text()


@pytest.mark.parametrize(("html", "stays", "goes"), [
    ('<p>Text <img src="http://127.0.0.1:1/x" alt="a chart"></p>', ["Text", 'alt="a chart"'],
     ["src=", "127.0.0.1"]),
    ('<p><a href="https://site.example/" rel="nofollow">a link</a></p>',
     ['href="https://site.example/"', "a link"], []),
])
def test_page_views_hold_no_image_source(html: str, stays: list[str], goes: list[str]) -> None:
    from crawler.report.page_views import without_image_sources

    shown = without_image_sources(html)
    assert all(part in shown for part in stays), shown
    assert not any(part in shown for part in goes), shown
