"""End-to-end crawls of local sites: what ``scrapy crawl domain`` finds, skips and stores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from crawler.exit_codes import STARTUP_ERROR, exit_code_for
from crawler.spiders.domain import DomainCrawlConfig
from tests.conftest import (SITES_DIR, CrawlResult, StaticSiteServer, run_crawl,
                            static_servers)
from tests.ports import closed_port

#: Generator-built sites: every HTML page reachable from the root, as URL paths.
#: Not pages: Sphinx's unlinked py-modindex.html, MkDocs's 404.html and a theme partial.
FULL_SITES = {
    "sphinx-alabaster-requests-injected": {"not_pages": {"/py-modindex.html"}},
    "mkdocs-material-starlette-injected": {"not_pages": {"/404.html",
                                                         "/overrides/partials/toc-item.html"}},
}


def html_paths(site: str) -> set[str]:
    """URL paths of a fixture site's HTML files (``x/index.html`` served as ``x/``)."""
    root = SITES_DIR / site / "public"
    paths = set()
    for file in root.rglob("*.html"):
        path = "/" + file.relative_to(root).as_posix()
        paths.add(path[: -len("index.html")] if path.endswith("/index.html") else path)
    return paths


def stored_paths(result: CrawlResult, origin: str) -> list[str]:
    """URL paths of the pages in the feed."""
    return [url.removeprefix(origin) for url in result.urls()]


@pytest.mark.parametrize("site", sorted(FULL_SITES))
def test_full_site_crawl_stores_every_page_once(site: str, serve_site, tmp_path: Path) -> None:
    server = serve_site(site)
    result = run_crawl(server.url("/"), tmp_path, spider_args={"render": "never"})
    assert result.returncode == 0, result.log[-3000:]

    paths = stored_paths(result, server.origin)
    expected = html_paths(site) - FULL_SITES[site]["not_pages"]
    assert len(paths) == len(set(paths)), "a page was stored twice in the feed"
    assert set(paths) == expected

    truth_paths = {json.loads(line)["path"]
                   for line in (SITES_DIR / site / "truth.jsonl").read_text().splitlines()}
    assert truth_paths <= set(paths)

    rows = result.rows("url, title, content_text, raw_html, domain, status")
    assert sorted(r["url"] for r in rows) == sorted(result.urls()), "SQLite and JSONL disagree"
    assert all(r["raw_html"] and r["status"] == 200 for r in rows)
    assert all(r["domain"] == server.origin.removeprefix("http://") for r in rows)
    assert sum(bool(r["content_text"]) for r in rows) >= len(truth_paths)
    assert result.stats["summary/pages_stored"] == len(expected)
    assert "Crawl summary (finished, exit code 0)" in result.log


def test_recrawl_updates_rows_instead_of_duplicating(serve_site, tmp_path: Path) -> None:
    server = serve_site("behaviours")
    first = run_crawl(server.url("/"), tmp_path, spider_args={"render": "never"},
                      feed_name="first.jsonl")
    second = run_crawl(server.url("/"), tmp_path, spider_args={"render": "never"},
                       feed_name="second.jsonl")
    assert first.returncode == second.returncode == 0
    # The static server answers If-Modified-Since: nothing changed, nothing is stored again.
    assert second.urls() == []
    assert second.stats["summary/unchanged"] == len(first.urls())
    assert sorted(r["url"] for r in second.rows("url")) == sorted(first.urls())
    third = run_crawl(server.url("/"), tmp_path, spider_args={"render": "never", "refresh": "all"},
                      feed_name="third.jsonl")
    assert third.returncode == 0
    assert sorted(first.urls()) == sorted(third.urls())
    assert len(third.rows("url")) == len(third.urls())


@pytest.fixture(scope="module")
def behaviours_crawl(tmp_path_factory) -> tuple[CrawlResult, StaticSiteServer]:
    """One plain crawl of the behaviours site, shared by the checks below."""
    with static_servers() as start:
        server = start("behaviours")
        result = run_crawl(server.url("/"), tmp_path_factory.mktemp("behaviours"),
                           spider_args={"render": "never"})
    assert result.returncode == 0, result.log[-3000:]
    return result, server


def test_robots_txt_disallow_is_respected(behaviours_crawl) -> None:
    result, server = behaviours_crawl
    assert "/private/secret.html" not in server.request_counts()
    assert not any("/private/" in url for url in result.urls())
    assert result.stats.get("robotstxt/forbidden", 0) >= 1


def test_pages_reachable_only_through_sitemaps_are_found(behaviours_crawl) -> None:
    result, server = behaviours_crawl
    paths = stored_paths(result, server.origin)
    assert "/only-in-sitemap.html" in paths  # /sitemap.xml
    assert "/only-in-sitemap-index.html" in paths  # robots.txt -> index -> gzipped sitemap


def test_tracking_parameter_duplicates_are_fetched_and_stored_once(behaviours_crawl) -> None:
    result, server = behaviours_crawl
    paths = stored_paths(result, server.origin)
    assert paths.count("/article.html") == 1
    assert paths.count("/about.html") == 1
    fetched = server.request_counts()
    assert sum(n for p, n in fetched.items() if p.startswith("/article.html")) == 1
    assert not any("utm_" in url or "fbclid" in url for url in result.urls())


def test_non_html_is_skipped_and_counted(behaviours_crawl) -> None:
    result, server = behaviours_crawl
    paths = stored_paths(result, server.origin)
    assert "/report.pdf" not in paths and "/download" not in paths
    assert "/report.pdf" not in server.request_counts(), "skipped by extension, never requested"
    assert result.stats["skipped/non_html_extension"] >= 1
    assert result.stats["skipped/non_html_content_type"] == 1  # /download, octet-stream
    assert result.stats["links/filtered/offsite"] >= 1


def test_javascript_shell_is_stored_unrendered_with_render_never(behaviours_crawl) -> None:
    result, server = behaviours_crawl
    app = next(i for i in result.items if i["url"].endswith("/app.html"))
    assert app["rendered"] is False
    assert "tangerine lighthouse" not in app["content_text"]


@pytest.mark.parametrize(("render", "settings", "pages_opened", "contexts"), [
    ("auto", {}, 1, 1),
    ("always", {}, 1, 1),  # the start page's browser page renders the app page too
    ("always", {"RENDER_PAGE_REUSE": 1}, 2, 1),  # a new browser page for every request
    # a new browser context (and page) after every request: each renders in a fresh renderer
    ("always", {"RENDER_CONTEXT_REUSE": 1}, 2, 2),
])
def test_javascript_shell_gets_its_text_when_rendered(render: str, settings: dict[str, Any],
                                                      pages_opened: int, contexts: int,
                                                      serve_site, tmp_path: Path,
                                                      chromium_path: str) -> None:
    server = serve_site("behaviours")
    # the browser the crawl chooses by itself (the headless shell when installed)
    result = run_crawl(server.url("/"), tmp_path,
                       spider_args={"render": render, "allow": r"/(app\.html)?$"},
                       settings=settings)
    assert result.returncode == 0, result.log[-3000:]
    assert f"starting the browser {chromium_path}" in result.log
    by_path = {url.removeprefix(server.origin): item
               for url, item in zip(result.urls(), result.items)}
    assert "tangerine lighthouse" in by_path["/app.html"]["content_text"]
    assert by_path["/app.html"]["rendered"] is True
    assert by_path["/"]["rendered"] is (render == "always")
    assert result.stats["pages/rendered"] == (2 if render == "always" else 1)
    # pages reused (waiting ones close with the browser or their context) or closed after each
    # request; the app page's image never fetched
    assert result.stats["playwright/page_count"] == pages_opened
    assert result.stats.get("playwright/page_count/closed", 0) == (
        pages_opened if settings.get("RENDER_PAGE_REUSE") == 1 else 0)
    assert result.stats["playwright/context_count"] == contexts
    assert result.stats.get("render/context_renewed", 0) == (
        2 if settings.get("RENDER_CONTEXT_REUSE") == 1 else 0)
    assert result.stats["playwright/request_count/aborted"] >= 1
    assert "/logo.png" not in server.request_counts()


@pytest.mark.parametrize("render", ["never", "auto"])
def test_crawl_that_renders_nothing_starts_no_browser(render: str, serve_site, tmp_path: Path,
                                                       chromium_path: str) -> None:
    server = serve_site("behaviours")
    result = run_crawl(server.url("/"), tmp_path,
                       spider_args={"render": render, "deny": "app\\.html"},
                       settings={"CHROMIUM_PATH": chromium_path})
    assert result.returncode == 0, result.log[-3000:]
    assert len(result.items) >= 5
    assert "playwright/browser_count" not in result.stats
    assert "starting the browser" not in result.log
    assert "Starting download handler" not in result.log


def test_missing_browser_with_render_always_stops_with_a_clear_message(serve_site,
                                                                        tmp_path: Path) -> None:
    server = serve_site("behaviours")
    result = run_crawl(server.url("/"), tmp_path, spider_args={"render": "always"},
                       settings={"CHROMIUM_PATH": str(tmp_path / "no-such-browser")})
    assert "needs a browser, but none was found" in result.log
    assert "Traceback" not in result.log
    assert result.items == []
    assert result.stats["finish_reason"] == "startup_error"


def test_broken_site_rules_stop_the_crawl_at_start_with_one_sentence(serve_site,
                                                                     tmp_path: Path) -> None:
    """A rules folder that fails its schema stops the crawl before the first request (exit code
    of startup_error), with one sentence, not a warning per page or per worker."""
    rules = tmp_path / "rules"
    (rules / "frameworks").mkdir(parents=True)
    (rules / "domains").mkdir()
    (rules / "cleaning.yaml").write_text("remove: ['nav']\nboilerplate_pattern: '(?:share|'\n")
    server = serve_site("behaviours")
    result = run_crawl(server.url("/"), tmp_path / "out", env={"SITE_RULES_DIR": str(rules)},
                       spider_args={"sitemaps": "false"})
    assert result.stats["finish_reason"] == STARTUP_ERROR and exit_code_for(STARTUP_ERROR) == 2
    problem = result.stats["crawl/startup_error"]
    assert problem.startswith(f"the site rules in {rules} are invalid: cleaning.yaml: "
                              "boilerplate_pattern is not a valid regular expression")
    assert result.log.count("Cannot start the crawl") == 1 and "Traceback" not in result.log
    assert result.items == []


@pytest.mark.parametrize(("spider_args", "expected_paths"), [
    ({"max_depth": "0", "sitemaps": "false"}, {"/"}),
    ({"max_depth": "1", "sitemaps": "false"},
     {"/", "/about.html", "/article.html", "/chain/1.html", "/blog/post.html", "/app.html"}),
    ({"allow": "/chain/|/$", "sitemaps": "false"},
     {"/", "/chain/1.html", "/chain/2.html", "/chain/3.html"}),
    ({"deny": "/chain/|/blog/|only-in", "sitemaps": "false"},
     {"/", "/about.html", "/article.html", "/app.html"}),
])
def test_scope_arguments(spider_args: dict[str, str], expected_paths: set[str], serve_site,
                         tmp_path: Path) -> None:
    server = serve_site("behaviours")
    result = run_crawl(server.url("/"), tmp_path, spider_args={"render": "never", **spider_args})
    assert result.returncode == 0, result.log[-3000:]
    assert set(stored_paths(result, server.origin)) == expected_paths


def test_max_pages_caps_the_number_of_stored_pages(serve_site, tmp_path: Path) -> None:
    server = serve_site("mkdocs-material-starlette-injected")
    result = run_crawl(server.url("/"), tmp_path, spider_args={"render": "never",
                                                                "max_pages": "5"})
    assert result.returncode == 0
    assert len(result.items) == 5
    assert len(result.rows("url")) == 5
    assert result.stats["finish_reason"] == "max_pages"


def test_unreachable_start_url_gives_a_clear_message_and_no_crawl(tmp_path: Path) -> None:
    with closed_port() as port:  # a port nobody listens on
        result = run_crawl(f"http://127.0.0.1:{port}/", tmp_path)
    assert f"Start URL http://127.0.0.1:{port}/ is unreachable" in result.log
    assert "Traceback" not in result.log
    assert result.items == []
    assert result.stats["finish_reason"] == "start_unreachable"
    assert result.stats.get("downloader/request_count", 0) == 0


@pytest.mark.parametrize("argument", ["max_pages=-1", "render=sometimes", "allow=[",
                                      "subdomains=perhaps"])
def test_invalid_argument_stops_with_a_sentence(argument: str, serve_site,
                                                tmp_path: Path) -> None:
    server = serve_site("behaviours")
    name, value = argument.split("=", 1)
    result = run_crawl(server.url("/"), tmp_path, spider_args={name: value})
    assert "Cannot start the crawl: -a " + name in result.log
    assert "Traceback" not in result.log
    assert result.items == []


def test_jobdir_pause_and_resume_store_every_page_exactly_once(serve_site,
                                                               tmp_path: Path) -> None:
    server = serve_site("mkdocs-material-starlette-injected")
    jobdir = tmp_path / "job"
    common = {"spider_args": {"render": "never"},
              "settings": {"JOBDIR": str(jobdir), "CONCURRENT_REQUESTS": "2"}}
    # One download at a time, stopped after 10 responses (robots.txt and the sitemap count):
    # the stop lands part-way through the site however fast or slow extraction is.
    first = run_crawl(server.url("/"), tmp_path, feed_name="part1.jsonl",
                      **{**common, "settings": {**common["settings"], "CONCURRENT_REQUESTS": "1",
                                                "DOWNLOAD_DELAY": "0.25",
                                                "CLOSESPIDER_PAGECOUNT": "10"}})
    assert first.stats["finish_reason"] == "closespider_pagecount"
    assert 6 <= len(first.items) < 25
    second = run_crawl(server.url("/"), tmp_path, feed_name="part2.jsonl", **common)
    assert second.returncode == 0, second.log[-3000:]

    urls = first.urls() + second.urls()
    assert len(urls) == len(set(urls)), "a page was stored in both runs"
    expected = html_paths("mkdocs-material-starlette-injected") - \
        FULL_SITES["mkdocs-material-starlette-injected"]["not_pages"]
    assert {u.removeprefix(server.origin) for u in urls} == expected
    assert len(second.rows("url")) == len(expected)
    fetched = server.request_counts()
    assert all(fetched[p] == 1 for p in expected), "a page was fetched twice"


@pytest.mark.parametrize("overwrite_feed", [True, False])
def test_default_feed_is_written_unless_a_feed_is_named(overwrite_feed: bool, serve_site,
                                                         tmp_path: Path) -> None:
    server = serve_site("behaviours")
    default_dir = tmp_path / "default-feeds"
    result = run_crawl(server.url("/"), tmp_path, overwrite_feed=overwrite_feed,
                       spider_args={"render": "never", "max_depth": "0", "sitemaps": "false"},
                       settings={"DEFAULT_FEED_URI": f"{default_dir}/%(name)s-%(time)s.jsonl"})
    assert result.returncode == 0, result.log[-3000:]
    default_feeds = list(default_dir.glob("domain-*.jsonl"))
    if overwrite_feed:
        assert default_feeds == [] and len(result.items) == 1
    else:
        assert len(default_feeds) == 1
        assert [json.loads(line)["url"] for line in default_feeds[0].read_text().splitlines()] \
            == [server.url("/")]


@pytest.mark.parametrize("executor", ["thread", "process"])
def test_extraction_runs_in_thread_or_process_workers(executor: str, serve_site,
                                                      tmp_path: Path) -> None:
    server = serve_site("behaviours")
    result = run_crawl(server.url("/"), tmp_path,
                       spider_args={"render": "never", "max_depth": "1", "sitemaps": "false"},
                       settings={"EXTRACTION_EXECUTOR": executor, "EXTRACTION_WORKERS": "2"})
    assert result.returncode == 0, result.log[-3000:]
    about = next(i for i in result.items if i["url"].endswith("/about.html"))
    assert "gardens, trains and the weather" in about["content_text"]
    assert about["title"] == "About us"


@pytest.mark.parametrize("setting", ["EXTRACTION_EXECUTOR=fork", "EXTRACTION_WORKERS=0",
                                     "EXTRACTION_TIMEOUT=-2"])
def test_invalid_extraction_setting_stops_with_a_sentence(setting: str, serve_site,
                                                          tmp_path: Path) -> None:
    server = serve_site("behaviours")
    name, value = setting.split("=", 1)
    result = run_crawl(server.url("/"), tmp_path, settings={name: value})
    assert f"Cannot start the crawl: {name} must be" in result.log
    assert "Traceback" not in result.log
    assert result.items == []


def test_crawl_is_breadth_first_so_max_pages_keeps_the_shallow_pages(serve_site,
                                                                     tmp_path: Path) -> None:
    server = serve_site("behaviours")
    result = run_crawl(server.url("/"), tmp_path, spider_args={
        "render": "never", "max_pages": "4", "sitemaps": "false"},
        settings={"CONCURRENT_REQUESTS": "1"})
    assert result.returncode == 0, result.log[-3000:]
    assert len(result.items) == 4
    assert sorted(item["depth"] for item in result.items) == [0, 1, 1, 1]


@pytest.mark.parametrize(("threshold", "expected"), [(None, 700), ("5000", 5000), ("0", None)])
def test_crawl_process_relaxes_garbage_collection_after_start_up(
        threshold: str | None, expected: int | None, serve_site, tmp_path: Path) -> None:
    server = serve_site("behaviours")
    settings = {"GC_YOUNG_THRESHOLD": threshold} if threshold is not None else {}
    result = run_crawl(server.url("/"), tmp_path,
                       spider_args={"render": "never", "max_depth": "0", "sitemaps": "false"},
                       settings=settings)
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats.get("gc/young_threshold") == expected
    assert (result.stats.get("gc/frozen_objects", 0) > 10_000) == (expected is not None)
    assert result.urls() == [server.url("/")]


def test_robots_txt_is_fetched_once_for_its_rules_and_its_sitemaps(behaviours_crawl) -> None:
    """The robots.txt middleware fetches a host's robots.txt for its rules; the spider reads
    the same answer for its ``Sitemap:`` lines instead of fetching it again."""
    result, server = behaviours_crawl
    assert server.request_counts()["/robots.txt"] == 1, server.request_counts()
    assert result.stats["robotstxt/request_count"] == 1
    assert result.stats["sitemaps/from_robots"] == 1  # its Sitemap: line still followed
    assert "/only-in-sitemap-index.html" in stored_paths(result, server.origin)
    assert "/private/secret.html" not in server.request_counts()  # and its rules obeyed


#: The hash-router site's pages: the route each is stored under, a phrase of its own text.
ROUTE_PAGES = {
    "/": "rocky coast",
    "/#/guide/tides": "rule of twelfths",
    "/#/guide/knots": "two half hitches",
    "/#!/guide/lanterns": "ninth one marks the steps",
}


@pytest.mark.parametrize(("render", "settings"), [
    ("auto", {}),
    ("always", {}),
    # one browser page renders every route in turn: from one route to the next is a
    # navigation inside the same document
    ("auto", {"PLAYWRIGHT_MAX_PAGES_PER_CONTEXT": 1, "CONCURRENT_REQUESTS": 1}),
])
def test_hash_routes_of_a_rendered_page_are_pages_of_their_own(render: str,
                                                               settings: dict[str, Any],
                                                               serve_site, tmp_path: Path,
                                                               chromium_path: str) -> None:
    """A page the browser builds from its URL's fragment (``#/guide``, ``#!/guide``): each route
    is rendered and stored under its URL with the route, with its own text; a route's section
    (``#/guide?id=x``) and a plain fragment (``#part1``) are no pages."""
    server = serve_site("hash-router")
    result = run_crawl(server.url("/"), tmp_path, spider_args={"render": render},
                       settings={"QUALITY_GATE_MIN_SCORE": 0, **settings})
    assert result.returncode == 0, result.log[-3000:]
    by_path = {url.removeprefix(server.origin): item
               for url, item in zip(result.urls(), result.items)}
    assert sorted(by_path) == sorted(ROUTE_PAGES)  # no anchor stored as a page
    for path, phrase in ROUTE_PAGES.items():
        assert by_path[path]["rendered"] is True
        assert phrase in by_path[path]["content_text"], path
        others = set(ROUTE_PAGES.values()) - {phrase}
        assert not any(other in by_path[path]["content_text"] for other in others), path
    assert sorted(r["url"] for r in result.rows("url")) == sorted(result.urls())
    routed = [item for path, item in by_path.items() if path != "/"]
    assert {item["render_reason"] for item in routed} == {
        "hash_route" if render == "auto" else "render_always"}


@pytest.mark.parametrize(("start", "render", "kept"), [
    # the route names the page asked for, as a link's does on a rendered page
    ("http://site.example/#/guide", "auto", "http://site.example/#/guide"),
    ("http://site.example/#!/guide?id=x", "always", "http://site.example/#!/guide"),
    # no route: the root route, a place in a page; render=never shows no route's page
    ("http://site.example/#/", "auto", "http://site.example/"),
    ("http://site.example/docs#install", "auto", "http://site.example/docs"),
    ("http://site.example/#/guide", "never", "http://site.example/"),
])
def test_a_start_url_keeps_its_hash_route(start: str, render: str, kept: str) -> None:
    config = DomainCrawlConfig.from_arguments(start, render=render)
    assert config.start_urls == (kept,)
    assert config.scope.hosts == frozenset({"site.example"})


def test_a_start_url_with_a_hash_route_starts_at_the_route(serve_site, tmp_path: Path,
                                                          chromium_path: str) -> None:
    """``-a start=http://host/#/guide/tides``: the route's page is rendered and stored under its
    URL with the route, the start counted as the page it is; the shell's home page is no part
    of a one-page crawl (before, the route was dropped and the crawl began at the shell)."""
    server = serve_site("hash-router")
    result = run_crawl(server.url("/#/guide/tides"), tmp_path,
                       spider_args={"render": "auto", "max_pages": 1, "sitemaps": "false"},
                       settings={"QUALITY_GATE_MIN_SCORE": 0})
    assert result.returncode == 0, result.log[-3000:]
    assert [url.removeprefix(server.origin) for url in result.urls()] == ["/#/guide/tides"]
    item = result.items[0]
    assert item["rendered"] is True and item["render_reason"] == "hash_route"
    assert ROUTE_PAGES["/#/guide/tides"] in item["content_text"]
    assert ROUTE_PAGES["/"] not in item["content_text"]
    assert "crawl/start_redirected_offsite" not in result.stats
    assert "gave no page" not in result.log and "could not be fetched" not in result.log


def test_route_fragments_of_a_page_served_whole_are_not_followed(serve_site,
                                                                 tmp_path: Path) -> None:
    """A page served whole (no browser needed) that links ``#/x`` keeps its links'
    fragments dropped: one page, as before."""
    site = tmp_path / "site"
    site.mkdir()
    words = " ".join(["A page served whole, with its text in the markup."] * 20)
    (site / "index.html").write_text(
        "<!DOCTYPE html><html><head><title>Whole</title></head><body><main><h1>Whole</h1>"
        f'<p>{words}</p><a href="#/guide">Guide</a> <a href="#!/more">More</a> '
        '<a href="other.html#/guide">Other</a></main></body></html>')
    (site / "other.html").write_text(
        "<!DOCTYPE html><html><head><title>Other</title></head><body><main><h1>Other</h1>"
        f"<p>{words}</p></main></body></html>")
    server = serve_site(site)
    result = run_crawl(server.url("/"), tmp_path / "crawl", spider_args={"render": "auto"})
    assert result.returncode == 0, result.log[-3000:]
    assert sorted(stored_paths(result, server.origin)) == ["/", "/other.html"]
    assert "pages/rendered" not in result.stats


#: Middlewares that drop a start request before its download without a response or an errback.
DROPPING = {
    "spider_middleware": ("SPIDER_MIDDLEWARES", "tests.dropping_components.DropStartRequests"),
    "refused_at_scheduling": ("DOWNLOADER_MIDDLEWARES",
                              "tests.dropping_components.RefuseStartsAtScheduling"),
}


@pytest.mark.parametrize("dropper", [*DROPPING, None])
def test_a_start_url_dropped_before_its_download_is_a_failed_start(dropper: str | None,
                                                                   serve_site,
                                                                   tmp_path: Path) -> None:
    """A start request filtered out without a response or an error (a middleware, the offsite
    filter) vanished: nothing stored, exit 0, "errors: none". It is a failed start now, said in
    one line; a crawl with no such middleware is unchanged."""
    from crawler import settings as project

    server = serve_site("behaviours")
    settings: dict[str, Any] = {}
    if dropper is not None:
        name, component = DROPPING[dropper]
        settings[name] = json.dumps({**getattr(project, name), component: 10})
    result = run_crawl(server.url("/"), tmp_path, settings=settings,
                       spider_args={"render": "never", "sitemaps": "false", "max_depth": "0"})
    assert "Traceback" not in result.log
    if dropper is None:  # what must stay
        assert result.returncode == 0, result.log[-3000:]
        assert stored_paths(result, server.origin) == ["/"]
        assert "errors/start_dropped" not in result.stats
        assert "dropped before its download" not in result.log
        return
    assert result.returncode == 6, result.log[-3000:]
    assert result.stats["finish_reason"] == "start_failed"
    assert result.stats["errors/start_dropped"] == 1
    assert result.log.count(f"Start URL {server.url('/')} was dropped before its download") == 1
    assert result.items == []
