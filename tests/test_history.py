"""Page history without a crawl: new/changed/unchanged, bounded versions, gone pages, the
``changes`` command, the incremental boilerplate refresh and merging shards with history."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from crawler.commands.changes import since_value
from crawler.commands.merge import merge_shards
from crawler.content_hash import content_hash
from crawler.dedup.config import DedupConfig
from crawler.dedup.store import (REFRESH_FULL, REFRESH_INCREMENTAL, REFRESH_NOTHING,
                                 refresh_domain)
from crawler.history import (CHANGED, GONE, KEPT, NEW, UNCHANGED, changes_since, mark_gone,
                             parse_time, record_page, sweep_gone, versions_of)
from crawler.storage import open_database

REPO_ROOT = Path(__file__).resolve().parent.parent
DOMAIN = "docs.example"
BANNER = ("We use cookies to improve this site. Read the cookie policy to learn which ones and "
          "why, then choose what to accept.")


def row(path: str, text: str, *, fetched_at: str = "2026-11-20T10:00:00+00:00",
        domain: str = DOMAIN) -> dict[str, object]:
    """A page row as the storage pipeline hands it over (markdown ends with the banner)."""
    return {"url": f"https://{domain}{path}", "domain": domain, "status": 200,
            "fetched_at": fetched_at, "title": text.split(".")[0], "content_text": text,
            "content_markdown": f"{text}\n\n{BANNER}", "content_hash": content_hash(text)}


def day(n: int, hour: int = 3) -> str:
    return f"2026-11-{n:02d}T{hour:02d}:00:00+00:00"


def page_row(db, url: str) -> dict[str, object]:
    cursor = db.conn.execute("SELECT * FROM pages WHERE url = ?", [url])
    names = [d[0] for d in cursor.description]
    return dict(zip(names, cursor.fetchone()))


# -- record_page -------------------------------------------------------------------------------

#: (text stored on day n, expected outcome); whitespace and case do not change the hash.
SEQUENCE = [
    ("First text of the page.", NEW),
    ("first   TEXT of the page.", UNCHANGED),
    ("Second text of the page.", CHANGED),
    ("Third text of the page.", CHANGED),
    ("Fourth text of the page.", CHANGED),
    ("Fifth text of the page.", CHANGED),
    ("Fifth text of the page.", UNCHANGED),
]


def test_history_columns_and_versions_follow_the_content_hash(tmp_path: Path) -> None:
    db = open_database(tmp_path / "crawl.db")
    url = f"https://{DOMAIN}/p"
    for n, (text, expected) in enumerate(SEQUENCE, start=1):
        outcome = record_page(db, row("/p", text, fetched_at=day(n)), b"<p>x</p>",
                              keep_versions=3, now=day(n))
        assert outcome == expected, (n, text)
    stored = page_row(db, url)
    assert stored["first_seen"] == day(1)
    assert stored["last_seen"] == day(7)
    assert stored["last_changed"] == day(6)  # day 7 had the same text
    assert stored["content_hash"] == content_hash("Fifth text of the page.")
    assert stored["content_text"] == "Fifth text of the page."
    versions = versions_of(db, url)
    # Bounded to 3, newest first: the texts replaced on days 6, 5 and 4 (the first two dropped).
    assert [v["content_text"] for v in versions] == [
        "Fourth text of the page.", "Third text of the page.", "Second text of the page."]
    assert [v["replaced_at"] for v in versions] == [day(6), day(5), day(4)]
    assert versions[0]["fetched_at"] == day(5)


@pytest.mark.parametrize("error", ["timeout", "failed"])
def test_a_failed_extraction_keeps_the_stored_content_and_history(tmp_path: Path,
                                                                   error: str) -> None:
    db = open_database(tmp_path / "crawl.db")
    url = f"https://{DOMAIN}/p"
    assert record_page(db, row("/p", "Stored text of the page."), b"<p>old</p>",
                       keep_versions=3, now=day(1)) == NEW
    failed = {**row("/p", "", fetched_at=day(2)), "title": None, "content_hash": None,
              "extraction_error": error}
    assert record_page(db, failed, b"<p>new</p>", keep_versions=3, now=day(2)) == KEPT
    stored = page_row(db, url)
    # what must stay: the content, its hash and its history
    assert stored["content_text"] == "Stored text of the page."
    assert stored["title"] == "Stored text of the page"
    assert stored["content_hash"] == content_hash("Stored text of the page.")
    assert stored["last_changed"] == day(1) and versions_of(db, url) == []
    # what moves: the fetch itself, and the failure is recorded
    assert (stored["last_seen"], stored["fetched_at"], stored["extraction_error"]) == (
        day(2), day(2), error)
    # a later good extraction is compared with the kept content, not with the failure
    assert record_page(db, {**row("/p", "Stored text of the page.", fetched_at=day(3)),
                            "extraction_error": None},
                       b"<p>old</p>", keep_versions=3, now=day(3)) == UNCHANGED
    assert page_row(db, url)["extraction_error"] is None


def test_a_failed_extraction_of_a_new_page_stores_it_without_content(tmp_path: Path) -> None:
    db = open_database(tmp_path / "crawl.db")
    failed = {**row("/q", ""), "title": None, "content_hash": None,
              "extraction_error": "timeout"}
    assert record_page(db, failed, b"<p>raw</p>", keep_versions=3, now=day(1)) == NEW
    stored = page_row(db, f"https://{DOMAIN}/q")
    assert stored["content_text"] == "" and stored["extraction_error"] == "timeout"


def test_no_versions_are_kept_with_keep_zero(tmp_path: Path) -> None:
    db = open_database(tmp_path / "crawl.db")
    record_page(db, row("/p", "One."), b"", keep_versions=0, now=day(1))
    assert record_page(db, row("/p", "Two."), b"", keep_versions=0, now=day(2)) == CHANGED
    assert versions_of(db, f"https://{DOMAIN}/p") == []
    assert page_row(db, f"https://{DOMAIN}/p")["last_changed"] == day(2)


def test_a_gone_page_that_comes_back_is_changed_and_live_again(tmp_path: Path) -> None:
    db = open_database(tmp_path / "crawl.db")
    url = f"https://{DOMAIN}/p"
    record_page(db, row("/p", "Same text."), b"", keep_versions=3, now=day(1))
    assert mark_gone(db, url, day(2)) is True
    assert mark_gone(db, url, day(3)) is False  # already gone: the first date stays
    assert page_row(db, url)["gone_at"] == day(2)
    assert record_page(db, row("/p", "Same text."), b"", keep_versions=3, now=day(4)) == CHANGED
    stored = page_row(db, url)
    assert stored["gone_at"] is None and stored["last_changed"] == day(4)
    assert stored["first_seen"] == day(1)
    assert versions_of(db, url) == []  # same text: nothing to keep


def test_a_row_from_before_the_history_columns_gets_plausible_history(tmp_path: Path) -> None:
    db = open_database(tmp_path / "crawl.db")
    old = row("/p", "Old text.", fetched_at=day(1))
    del old["content_hash"]
    db["pages"].insert(old)  # as an older version stored it: no hash, no history columns
    assert record_page(db, row("/p", "Old text."), b"", keep_versions=3, now=day(5)) == UNCHANGED
    stored = page_row(db, f"https://{DOMAIN}/p")
    assert stored["first_seen"] == day(1) and stored["last_changed"] == day(1)


# -- gone pages ----------------------------------------------------------------------------------

def test_sweep_marks_only_stale_pages_in_scope(tmp_path: Path) -> None:
    db = open_database(tmp_path / "crawl.db")
    for path in ("/kept", "/stale", "/private/stale"):
        record_page(db, row(path, f"Text of {path}."), b"", keep_versions=3, now=day(1))
    record_page(db, row("/x", "Other site."), b"", keep_versions=3, now=day(1))
    record_page(db, row("/kept", "Text of /kept."), b"", keep_versions=3, now=day(2))

    def in_scope(url: str) -> bool:
        return url.startswith(f"https://{DOMAIN}/") and "/private/" not in url

    gone = sweep_gone(db, started=day(2, 0), in_scope=in_scope, now=day(2, 5))
    assert gone == [f"https://{DOMAIN}/stale", f"https://{DOMAIN}/x"]
    assert page_row(db, f"https://{DOMAIN}/stale")["gone_at"] == day(2, 5)
    for kept in ("/kept", "/private/stale"):
        assert page_row(db, f"https://{DOMAIN}{kept}")["gone_at"] is None
    assert db["pages"].count == 4  # never deleted


def test_sweep_marks_nothing_when_the_crawl_saw_no_page(tmp_path: Path) -> None:
    db = open_database(tmp_path / "crawl.db")
    record_page(db, row("/a", "A."), b"", keep_versions=3, now=day(1))
    assert sweep_gone(db, started=day(5), in_scope=lambda url: True) == []
    assert page_row(db, f"https://{DOMAIN}/a")["gone_at"] is None


# -- changes -------------------------------------------------------------------------------------

@pytest.fixture
def history_db(tmp_path: Path) -> Path:
    """new /a (day 1), /b (day 1, changed day 3), /c (day 1, gone day 4), /d (day 3)."""
    path = tmp_path / "crawl.db"
    db = open_database(path)
    for p in ("/a", "/b", "/c"):
        record_page(db, row(p, f"Page {p}."), b"", keep_versions=3, now=day(1))
    record_page(db, row("/b", "Page /b, edited."), b"", keep_versions=3, now=day(3))
    record_page(db, row("/d", "Page /d."), b"", keep_versions=3, now=day(3))
    record_page(db, row("/a", "Page /a."), b"", keep_versions=3, now=day(3))
    mark_gone(db, f"https://{DOMAIN}/c", day(4))
    db.conn.close()
    return path


CHANGES_CASES = [
    # since, kinds, expected (kind, path) in order
    ("2026-11-01", (NEW, CHANGED, GONE),
     [(NEW, "/a"), (NEW, "/b"), (NEW, "/c"), (NEW, "/d"), (CHANGED, "/b"), (GONE, "/c")]),
    ("2026-11-02", (NEW, CHANGED, GONE), [(NEW, "/d"), (CHANGED, "/b"), (GONE, "/c")]),
    ("2026-11-04", (NEW, CHANGED, GONE), [(GONE, "/c")]),
    ("2026-11-05", (NEW, CHANGED, GONE), []),
    ("2026-11-02", (UNCHANGED,), [(UNCHANGED, "/a")]),
]


@pytest.mark.parametrize(("since", "kinds", "expected"), CHANGES_CASES)
def test_changes_since(history_db: Path, since: str, kinds, expected) -> None:
    db = open_database(history_db)
    found = changes_since(db, since_value(since), kinds=kinds)
    assert [(c.kind, c.url.removeprefix(f"https://{DOMAIN}")) for c in found] == expected


def run_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crawler", *map(str, args)], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=120)


def test_changes_command_lists_lines_and_json(history_db: Path) -> None:
    text = run_cli("changes", history_db, "--since", "2026-11-02")
    assert text.returncode == 0, text.stderr
    lines = [line.split("\t") for line in text.stdout.splitlines()]
    assert lines == [[day(3), NEW, f"https://{DOMAIN}/d"], [day(3), CHANGED, f"https://{DOMAIN}/b"],
                     [day(4), GONE, f"https://{DOMAIN}/c"]]
    assert "1 new, 1 changed, 1 gone" in text.stderr
    as_json = run_cli("changes", history_db, "--since", "2026-11-03T12:00Z", "--json")
    assert [json.loads(line) for line in as_json.stdout.splitlines()] == [
        {"url": f"https://{DOMAIN}/c", "change": GONE, "at": day(4), "domain": DOMAIN}]
    bad = run_cli("changes", history_db, "--since", "yesterday")
    assert bad.returncode == 2 and "not an ISO date" in bad.stderr and not bad.stdout


def test_time_parsing() -> None:
    assert parse_time("2026-11-20") == parse_time("2026-11-21T00:00:00Z")  # the day's end
    assert parse_time("2026-11-20T10:00:00+02:00") == parse_time("2026-11-20T08:00:00Z")
    assert parse_time("2026-11-20T10:00:00") == parse_time("2026-11-20T10:00:00+00:00")
    assert parse_time("not a date") is None and parse_time(None) is None
    assert since_value("2026-11-20") == "2026-11-20T00:00:00+00:00"


@pytest.mark.parametrize("text", ["9999-12-31", "0001-01-01T00:00:00+14:00",
                                  "9999-12-31T23:59:59-14:00"])
def test_a_time_past_what_python_holds_is_unreadable(text: str) -> None:
    """A sitemap's ``<lastmod>`` of 9999-12-31 (read as the day's end) or with an offset past
    year 1 or 9999 raised OverflowError in the re-crawl middleware: the page's request failed
    (``could not be fetched: date value out of range``); it is unreadable now, counted there
    (``recrawl/sitemap_lastmod_unreadable``) and the page fetched."""
    assert parse_time(text) is None


# -- incremental boilerplate refresh ------------------------------------------------------------

def unique(n: int, version: str = "first") -> str:
    return (f"Page {n} ({version} version) explains topic number {n} in its own words, with an "
            f"example that no other page of this documentation repeats.")


def test_refresh_domain_analyses_again_only_when_enough_pages_moved(tmp_path: Path) -> None:
    db = open_database(tmp_path / "crawl.db")
    for n in range(40):
        record_page(db, row(f"/p{n}", unique(n)), b"", keep_versions=3, now=day(1))
    config = DedupConfig(whole_page=False, reanalyse_pct=0.05)
    first = refresh_domain(db, DOMAIN, config)
    assert first.action == REFRESH_FULL and first.pages_cleaned == 40
    assert refresh_domain(db, DOMAIN, config).action == REFRESH_NOTHING

    # One page of 40 (2.5%) changed: cleaned with the stored fingerprint, no new analysis.
    record_page(db, row("/p1", unique(1, "second")), b"", keep_versions=3, now=day(30))
    db.conn.execute("UPDATE pages SET cleaned_content = 'stale' WHERE url LIKE '%/p2'")
    small = refresh_domain(db, DOMAIN, config)
    assert (small.action, small.pages_moved, small.pages_cleaned) == (REFRESH_INCREMENTAL, 1, 1)
    cleaned = page_row(db, f"https://{DOMAIN}/p1")["cleaned_content"]
    assert "second version" in cleaned and BANNER not in cleaned
    assert page_row(db, f"https://{DOMAIN}/p2")["cleaned_content"] == "stale"  # not touched

    # Three pages gone as well: 4 of 40 moved (10%) -> analysed again, without the gone pages.
    for n in (5, 6, 7):
        mark_gone(db, f"https://{DOMAIN}/p{n}", day(30))
    full = refresh_domain(db, DOMAIN, config)
    assert full.action == REFRESH_FULL and full.result is not None
    assert full.result.fingerprint.pages_analyzed == 37
    assert full.result.fingerprint.blocks_boilerplate >= 1
    assert page_row(db, f"https://{DOMAIN}/p2")["cleaned_content"] != "stale"


# -- merge with history --------------------------------------------------------------------------

def write_db(path: Path, steps: list[tuple[str, str, str]]) -> Path:
    """A crawl database built by recording (path, text, day) steps in order."""
    db = open_database(path)
    for page_path, text, when in steps:
        record_page(db, row(page_path, text, fetched_at=when), b"<p></p>", keep_versions=3,
                    now=when)
    db.conn.close()
    return path


def test_merge_keeps_the_newest_row_and_the_history(tmp_path: Path) -> None:
    # Last night's merged database, copied to both shards before tonight's crawl.
    base_steps = [("/same", "Same text.", day(1)), ("/edited", "Old text.", day(1)),
                  ("/edited", "Older edit.", day(2))]
    base = write_db(tmp_path / "crawl.db", base_steps)
    one = write_db(tmp_path / "shard-1.db", [*base_steps, ("/edited", "New text.", day(10))])
    two = write_db(tmp_path / "shard-2.db", [*base_steps, ("/same", "Same text.", day(10)),
                                              ("/new", "New page.", day(10))])
    merge_shards([one, two], base, dedup=None, keep_versions=3)
    db = open_database(base)
    edited = page_row(db, f"https://{DOMAIN}/edited")
    assert edited["content_text"] == "New text." and edited["last_changed"] == day(10)
    assert edited["first_seen"] == day(1)
    assert [v["content_text"] for v in versions_of(db, f"https://{DOMAIN}/edited")] == [
        "Older edit.", "Old text."]  # each version once, though three databases held them
    same = page_row(db, f"https://{DOMAIN}/same")
    assert (same["last_seen"], same["last_changed"], same["first_seen"]) == (day(10), day(1),
                                                                            day(1))
    assert page_row(db, f"https://{DOMAIN}/new")["first_seen"] == day(10)


def test_merge_of_fresh_shards_keeps_first_seen_and_unchanged_dates(tmp_path: Path) -> None:
    base = write_db(tmp_path / "crawl.db", [("/p", "Text.", day(1)), ("/q", "Q one.", day(1))])
    shard = write_db(tmp_path / "shard.db", [("/p", "Text.", day(10)), ("/q", "Q two.", day(10))])
    merge_shards([shard], base, dedup=None, keep_versions=3)
    db = open_database(base)
    p = page_row(db, f"https://{DOMAIN}/p")
    assert (p["first_seen"], p["last_changed"], p["last_seen"]) == (day(1), day(1), day(10))
    q = page_row(db, f"https://{DOMAIN}/q")
    assert (q["first_seen"], q["last_changed"], q["content_text"]) == (day(1), day(10), "Q two.")
    assert [v["content_text"] for v in versions_of(db, f"https://{DOMAIN}/q")] == ["Q one."]
