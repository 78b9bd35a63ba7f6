"""Domain dedup end to end: crawls of the test sites on 127.0.0.1, cleaned content vs truth."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.conftest import SITES_DIR, CrawlResult, run_crawl, static_servers

INJECTED_SITES = ["mkdocs-material-starlette-injected", "sphinx-alabaster-requests-injected"]
F1_TARGET = 0.97

_WORD = re.compile(r"\w+")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_NOISE = re.compile(r"\\(?=[^\w\s])|[*_`#>¶]+")


def plain(text: str | None) -> str:
    """Lowercased text without markdown decoration and with whitespace collapsed."""
    text = _MD_LINK.sub(r"\1", text or "")
    return " ".join(_MD_NOISE.sub(" ", text).split()).lower()


def word_f1(candidate: str | None, truth: str) -> float:
    """Word-token F1 of ``candidate`` against ``truth``."""
    cand, gold = Counter(_WORD.findall(plain(candidate))), Counter(_WORD.findall(plain(truth)))
    overlap = sum((cand & gold).values())
    if not overlap:
        return 0.0
    precision, recall = overlap / sum(cand.values()), overlap / sum(gold.values())
    return 2 * precision * recall / (precision + recall)


def truth_rows(site: str) -> dict[str, dict[str, Any]]:
    """Truth rows of a test site keyed by URL path."""
    lines = (SITES_DIR / site / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    return {row["path"]: row for row in map(json.loads, filter(str.strip, lines))}


def pages_by_path(result: CrawlResult) -> dict[str, dict[str, Any]]:
    """Stored rows keyed by URL path."""
    return {urlsplit(row["url"]).path: row
            for row in result.rows("url, content_markdown, cleaned_content")}


@pytest.fixture(scope="module")
def server_for() -> Iterator[Any]:
    """Module-wide factory: serve a folder on 127.0.0.1 for every test of this module."""
    with static_servers() as start:
        yield start


@pytest.fixture(scope="module")
def site_crawl(server_for, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``site_crawl(name)``: the crawl of a test site, run once per module."""
    done: dict[str, CrawlResult] = {}

    def crawl(site: str) -> CrawlResult:
        if site not in done:
            server = server_for(SITES_DIR / site / "public")
            done[site] = run_crawl(server.url("/"), tmp_path_factory.mktemp(site))
            assert done[site].returncode == 0, done[site].log[-3000:]
        return done[site]

    return crawl


@pytest.mark.parametrize("site", INJECTED_SITES)
def test_injected_blocks_are_gone_from_every_page(site_crawl, site: str) -> None:
    result = site_crawl(site)
    truth = truth_rows(site)
    pages = pages_by_path(result)
    snippets = {plain(s) for row in truth.values() for s in row["injected_snippets"]}
    assert len(pages) >= len(truth) and result.stats["dedup/pages_analyzed"] == len(pages)
    left = {path: [s for s in snippets if s in plain(row["cleaned_content"])]
            for path, row in pages.items()}
    assert {path: found for path, found in left.items() if found} == {}
    assert all(row["cleaned_content"] is not None for row in pages.values())


@pytest.mark.parametrize("site", INJECTED_SITES)
def test_dedup_removes_no_main_text(site_crawl, site: str) -> None:
    """Every extracted block that is part of the truth main text is still in the cleaned content."""
    pages = pages_by_path(site_crawl(site))
    checked = 0
    for path, row in truth_rows(site).items():
        main = plain(row["main_text"])
        cleaned = pages[path]["cleaned_content"]
        for block in re.split(r"\n\s*\n", pages[path]["content_markdown"] or ""):
            if len(plain(block)) >= 20 and plain(block) in main:
                checked += 1
                assert block in cleaned, (path, block)
    assert checked > 50


@pytest.mark.parametrize("site", INJECTED_SITES)
def test_cleaned_content_matches_truth_main_text(site_crawl, site: str) -> None:
    pages = pages_by_path(site_crawl(site))
    truth = truth_rows(site)
    scores = [word_f1(pages[path]["cleaned_content"], row["main_text"])
              for path, row in truth.items()]
    assert sum(scores) / len(scores) >= F1_TARGET


def test_hugo_docs_page_that_repeats_other_pages_keeps_its_content(site_crawl) -> None:
    result = site_crawl("hugo-book")
    docs = pages_by_path(result)["/docs/"]
    truth = truth_rows("hugo-book")["/docs/"]
    assert len(docs["content_markdown"]) > 1000
    assert docs["cleaned_content"] == docs["content_markdown"]
    assert word_f1(docs["cleaned_content"], truth["main_text"]) >= 0.9


# --- a generated site: a chain of pages crawled in two parts ----------------------------------

BANNER = ("We value your privacy. We and our partners use cookies to store and access information "
          "on your device, to measure how this site is used and to personalise content.")
PROMO = ("Try Acme Cloud free for thirty days: deploy in a minute, scale to millions of requests "
         "and cancel at any time.")
FEW_PAGES = "Install the optional extras with pip to get the fast JSON encoder and the YAML loader."
TOPICS = ["routing", "templates", "sessions", "cookies", "uploads", "streaming", "testing",
          "deployment", "logging", "caching"]


def write_chain_site(root: Path) -> None:
    """Ten pages p0..p9, each linking to the next; a consent banner on all, a promo with a per-page
    offer code inside every article (so the extractor keeps it), one paragraph on three pages."""
    for index, topic in enumerate(TOPICS):
        extra = f"<p>{FEW_PAGES}</p>" if index in (2, 5, 8) else ""
        link = f'<p><a href="/p{index + 1}.html">Next</a></p>' if index + 1 < len(TOPICS) else ""
        (root / f"p{index}.html").write_text(
            f"<!doctype html><html lang='en'><head><title>{topic.title()}</title></head><body>"
            f"<div class='consent'><p>{BANNER} Consent ID {index:03d}-{index * 7919:06x}.</p>"
            f"<div>Accept All</div></div>"
            f"<main><article><h1>{topic.title()}</h1>"
            f"<p>This page explains {topic} in detail: what it is for, how to configure it, which "
            f"defaults apply and what to check when {topic} does not behave as expected.</p>"
            f"<p>{PROMO} Offer code {index * 7919:06X}, valid until "
            f"2026-03-{index + 1:02d}.</p>"
            f"<p>Each section of the {topic} guide ends with a short example that you can run as "
            f"is, and a note on the versions where {topic} changed.</p>{extra}{link}"
            f"</article></main></body></html>", encoding="utf-8")


@pytest.fixture(scope="module")
def chain_crawls(server_for, tmp_path_factory: pytest.TempPathFactory,
                 ) -> tuple[CrawlResult, CrawlResult]:
    """First crawl p0..p3 (too few pages to judge), then p4..p9 into the same database."""
    root = tmp_path_factory.mktemp("chain-site")
    write_chain_site(root)
    server = server_for(root)
    work = tmp_path_factory.mktemp("chain-crawl")
    common = {"sitemaps": "false"}
    first = run_crawl(server.url("/p0.html"), work, feed_name="first.jsonl",
                      spider_args={**common, "max_pages": "4"})
    second = run_crawl(server.url("/p4.html"), work, feed_name="second.jsonl",
                       spider_args={**common, "max_pages": "6"})
    assert first.returncode == second.returncode == 0, second.log[-3000:]
    return first, second


def test_second_crawl_analyses_pages_stored_by_the_first(chain_crawls) -> None:
    first, second = chain_crawls
    assert first.stats["dedup/pages_analyzed"] == 4 and first.stats["dedup/blocks_boilerplate"] == 0
    assert second.stats["dedup/pages_analyzed"] == 10 and second.stats["dedup/domains"] == 1
    rows = second.rows("url, content_markdown, cleaned_content")
    assert len(rows) == 10
    assert [PROMO in row["content_markdown"] for row in rows] == [True] * 10
    assert [PROMO in row["cleaned_content"] or plain(BANNER) in plain(row["cleaned_content"])
            for row in rows] == [False] * 10
    assert second.stats["dedup/pages_changed"] == sum(
        row["cleaned_content"] != row["content_markdown"] for row in rows)


def test_paragraph_on_fewer_pages_than_the_threshold_survives(chain_crawls) -> None:
    _, second = chain_crawls
    pages = {urlsplit(row["url"]).path: row for row in second.rows("url, cleaned_content")}
    having = sorted(path for path, row in pages.items() if FEW_PAGES in row["cleaned_content"])
    assert having == ["/p2.html", "/p5.html", "/p8.html"]


def test_invalid_setting_stops_the_crawl_with_one_sentence(server_for, tmp_path: Path) -> None:
    root = tmp_path / "site"
    root.mkdir()
    write_chain_site(root)
    server = server_for(root)
    result = run_crawl(server.url("/p0.html"), tmp_path / "crawl",
                       settings={"DOMAIN_DEDUP_THRESHOLD_PCT": "70"})
    assert ("Cannot start the crawl: DOMAIN_DEDUP_THRESHOLD_PCT must be a number from 0.1 to 1.0, "
            "got '70'.") in result.log
    assert "Traceback" not in result.log
    assert result.stats["finish_reason"] == "startup_error"
    assert result.items == [] and server.request_counts()["/p0.html"] == 0


def test_disabled_dedup_leaves_cleaned_content_empty(server_for, tmp_path: Path) -> None:
    root = tmp_path / "site"
    root.mkdir()
    write_chain_site(root)
    server = server_for(root)
    result = run_crawl(server.url("/p0.html"), tmp_path / "crawl",
                       spider_args={"sitemaps": "false", "max_pages": "6"},
                       settings={"DOMAIN_DEDUP_ENABLED": "false"})
    assert result.returncode == 0 and len(result.items) == 6
    assert not [name for name in result.stats if name.startswith("dedup/")]
    assert [row["cleaned_content"] for row in result.rows("cleaned_content")] == [None] * 6
