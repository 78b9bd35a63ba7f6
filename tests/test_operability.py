"""A crawl as operators run it: exit codes, refused arguments and settings, the closing summary,
no empty default feed, a crawl that outlives its launcher and leaves no process when killed.

Every crawl here is ``scrapy crawl domain`` in a subprocess against a site on 127.0.0.1; the
crawls of one table run a few at a time, since each spends most of its time starting Python.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import (REPO_ROOT, CrawlResult, crawl_command, read_crawl, run_crawl,
                            static_servers)
from tests.linked_site import build_linked_site
from tests.ports import closed_port
from tests.processes import alive


def run_concurrently(jobs: dict[str, Callable[[], CrawlResult]]) -> dict[str, CrawlResult]:
    """Run crawls (each a function) three at a time; results by name."""
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = {name: pool.submit(job) for name, job in jobs.items()}
        return {name: future.result() for name, future in futures.items()}


# -- exit codes ----------------------------------------------------------------------------

#: Where a case's start URL points: the live site, a server with no page at all, or a port
#: nothing listens on.
SITE, EMPTY_SERVER, CLOSED = "site", "empty server", "closed port"

#: name -> (where the start URL points, spider args, settings, exit code, close reason,
#:          a line the log must hold)
EXIT_CASES: dict[str, tuple[str, dict[str, str], dict[str, str], int, str, str]] = {
    "finished": (SITE, {}, {}, 0, "finished", "Crawl summary (finished, exit code 0)"),
    "max_pages": (SITE, {"max_pages": "2"}, {}, 0, "max_pages", "exit code 0"),
    "start_unreachable": (CLOSED, {}, {}, 3, "start_unreachable",
                          "Start URL http://127.0.0.1:{closed_port}/ is unreachable"),
    "start_failed": (EMPTY_SERVER, {}, {}, 6, "start_failed",
                     "No start page could be fetched and no other page was found"),
    "bad_argument": (SITE, {"max_pages": "many"}, {}, 2, "startup_error",
                     "Cannot start the crawl: -a max_pages='many'"),
    "unknown_argument": (SITE, {"max_page": "5"}, {}, 2, "startup_error",
                         "Cannot start the crawl: unknown spider argument -a max_page; valid "
                         "arguments: start, subdomains, max_pages, max_depth,"),
    "bad_setting": (SITE, {}, {"TRAP_MAX_PATTERN_DEPTH": "-1"}, 2, "startup_error",
                    "Cannot start the crawl: TRAP_MAX_PATTERN_DEPTH must be a whole number of "
                    "at least 0, got '-1'"),
    "redis_unavailable": (SITE, {}, {"REDIS_URL": "redis://127.0.0.1:{closed_port}/0"}, 5,
                          "redis_unavailable", "cannot reach Redis at"),
}


@pytest.fixture(scope="module")
def refusing_port() -> Iterator[int]:
    """A port nothing listens on (held so for the module's tests), for the start URL and the
    Redis that are not there."""
    with closed_port() as port:
        yield port


@pytest.fixture(scope="module")
def exit_crawls(tmp_path_factory: pytest.TempPathFactory,
                refusing_port: int) -> dict[str, CrawlResult]:
    """One crawl per case of EXIT_CASES, of a small generated site."""
    root = tmp_path_factory.mktemp("site")
    build_linked_site(root, 12)
    with static_servers() as start:
        starts = {SITE: start(root).url("/"),
                  EMPTY_SERVER: start(tmp_path_factory.mktemp("empty")).url("/missing.html"),
                  CLOSED: f"http://127.0.0.1:{refusing_port}/"}
        jobs = {}
        for name, (target, spider_args, settings, _, _, _) in EXIT_CASES.items():
            url = starts[target]
            workdir = tmp_path_factory.mktemp(name)
            settings = {k: v.format(closed_port=refusing_port) for k, v in settings.items()}
            jobs[name] = (lambda url=url, workdir=workdir, spider_args=spider_args,
                          settings=settings: run_crawl(
                              url, workdir, spider_args={"render": "never", **spider_args},
                              settings=settings))
        return run_concurrently(jobs)


@pytest.mark.parametrize("case", sorted(EXIT_CASES))
def test_exit_code_tells_how_the_crawl_ended(case: str, exit_crawls, refusing_port: int) -> None:
    _, _, _, code, reason, line = EXIT_CASES[case]
    line = line.format(closed_port=refusing_port)
    result = exit_crawls[case]
    assert result.returncode == code, result.log[-3000:]
    assert result.stats["finish_reason"] == reason
    assert result.stats["summary/exit_code"] == code
    assert line in result.log, result.log[-3000:]
    assert "Traceback" not in result.log
    if code:
        assert result.items == [] and not result.feed_path.exists()  # no empty feed file
        errors = re.search(r"Crawl summary .*; errors: (.*)", result.log).group(1)
        assert f"{reason}=1" in errors.split(", ")  # never "errors: none" for a failed crawl
    else:
        assert result.items and "errors: none" in result.log


# -- settings refused with a sentence ----------------------------------------------------

#: Project settings with a value their component cannot use, and the sentence's key words.
#: Settings of one group belong to different components, which refuse them independently, so
#: one crawl per group checks that each setting gets its own sentence.
BAD_SETTING_GROUPS: dict[str, dict[str, tuple[str, str]]] = {
    "middlewares-and-extensions": {
        "RETRY_BACKOFF_BASE": ("-1", "must be a number of at least 0"),
        "TRAP_MAX_PATTERN_DEPTH": ("-1", "must be a whole number of at least 0"),
        "ALLOW_INTERNAL_ADDRESSES": ("sometimes", "must be true or false"),
        "BODY_CHECK_BINARY": ("2", "must be true or false"),
        "CHARSET_DETECTION": ("auto", "must be true or false"),
        "CONTENT_CODING_CHECK": ("maybe", "must be true or false"),
        "CONTENT_TYPE_FILTER_ENABLED": ("on-ish", "must be true or false"),
    },
    "more-middlewares": {
        "RETRY_AFTER_MAX": ("soon", "must be a number of at least 0"),
        "TRAP_MAX_SEGMENT_REPEATS": ("2.5", "must be a whole number of at least 0"),
        "GC_YOUNG_THRESHOLD": ("-5", "must be a whole number of at least 0"),
        "ROBOTSTXT_MAX_SIZE": ("-1", "must be a whole number of at least 0"),
    },
    "extraction": {"EXTRACTION_WORKERS": ("two", "must be a whole number")},
    "quality": {"QUALITY_GATE_MIN_SCORE": ("2", "must be a number from 0 to 1")},
    "dedup": {"DOMAIN_DEDUP_NORMALISE": ("x", "must be true or false")},
    "spider": {"RENDER_WAIT_UNTIL": ("forever", "must be one of")},
    "rendering": {"RENDER_PAGE_REUSE": ("0", "must be a whole number from 1 to 100000")},
}


@pytest.fixture(scope="module")
def refused_crawls(tmp_path_factory: pytest.TempPathFactory) -> dict[str, CrawlResult]:
    """One crawl per group of bad settings, of a one-page site; the default feed goes to a
    folder of its own."""
    root = tmp_path_factory.mktemp("one-page")
    build_linked_site(root, 1)
    with static_servers() as start:
        server = start(root)
        jobs = {}
        for group, settings in BAD_SETTING_GROUPS.items():
            workdir = tmp_path_factory.mktemp(group)
            values = {name: value for name, (value, _) in settings.items()}
            jobs[group] = (lambda workdir=workdir, values=values: run_crawl(
                server.url("/"), workdir, overwrite_feed=False,
                spider_args={"render": "auto", "max_depth": "0"},
                settings={**values,
                          "DEFAULT_FEED_URI": f"{workdir}/output/%(name)s-%(time)s.jsonl"}))
        return run_concurrently(jobs)


@pytest.mark.parametrize("group", sorted(BAD_SETTING_GROUPS))
def test_every_bad_setting_stops_the_crawl_with_one_sentence(group: str,
                                                             refused_crawls) -> None:
    result = refused_crawls[group]
    assert result.returncode == 2, result.log[-3000:]
    lines = [line for line in result.log.splitlines() if "Cannot start the crawl:" in line]
    for setting, (value, sentence) in BAD_SETTING_GROUPS[group].items():
        named = [line for line in lines if f": {setting} " in line]
        assert len(named) == 1 and sentence in named[0] and value in named[0], lines
    assert "Traceback" not in result.log
    assert result.stats["finish_reason"] == "startup_error"
    assert result.stats.get("downloader/request_count", 0) == 0
    # no empty default feed left behind by a crawl that never started
    assert not list((result.db_path.parent / "output").glob("*.jsonl"))


def test_a_good_crawl_still_writes_its_default_feed(tmp_path: Path) -> None:
    root = tmp_path / "site"
    build_linked_site(root, 3)
    with static_servers() as start:
        server = start(root)
        result = run_crawl(server.url("/"), tmp_path, overwrite_feed=False,
                           spider_args={"render": "never"},
                           settings={"DEFAULT_FEED_URI": f"{tmp_path}/output/%(name)s.jsonl"})
    assert result.returncode == 0, result.log[-3000:]
    feed = (tmp_path / "output" / "domain.jsonl").read_text().splitlines()
    assert len(feed) == 3


# -- the closing summary -----------------------------------------------------------------

def test_summary_counts_quality_drops_and_robots_blocks(serve_site, tmp_path: Path) -> None:
    server = serve_site("behaviours")
    result = run_crawl(server.url("/"), tmp_path, spider_args={"render": "never"},
                       settings={"QUALITY_GATE_POLICY": "drop",
                                 "QUALITY_GATE_MIN_SCORE": "0.7"})
    assert result.returncode == 0, result.log[-3000:]
    dropped = result.stats["quality/dropped"]
    blocked = result.stats["robotstxt/forbidden"]
    assert dropped >= 1 and blocked >= 1
    assert result.stats["summary/pages_dropped_quality"] == dropped
    assert result.stats["summary/pages_blocked_robots"] == blocked
    assert result.stats["summary/pages_stored"] == len(result.items) >= 5
    assert not any(item["url"].endswith("/app.html") for item in result.items)  # the shell
    assert (f"{dropped} dropped by the quality gate, {blocked} blocked by robots.txt"
            in result.log)


def test_summary_after_a_jobdir_resume_counts_both_runs(serve_site, tmp_path: Path) -> None:
    server = serve_site("mkdocs-material-starlette-injected")
    settings = {"JOBDIR": str(tmp_path / "job"), "CONCURRENT_REQUESTS": "1"}
    # The first run stops after 8 responses (robots.txt and the sitemap count): however fast
    # extraction is, the pages not yet downloaded are left in the JOBDIR for the second run.
    first = run_crawl(server.url("/"), tmp_path, feed_name="part1.jsonl",
                      spider_args={"render": "never"},
                      settings={**settings, "DOWNLOAD_DELAY": "0.25",
                                "CLOSESPIDER_PAGECOUNT": "8"})
    assert first.returncode == 0, first.log[-3000:]
    second = run_crawl(server.url("/"), tmp_path, feed_name="part2.jsonl",
                       spider_args={"render": "never"}, settings=settings)
    assert second.returncode == 0, second.log[-3000:]
    total = len(first.items) + len(second.items)
    assert first.stats["summary/pages_stored"] == len(first.items) >= 4
    assert second.stats["pages/stored"] == len(second.items) >= 1
    assert second.stats["summary/pages_stored"] == total == len(second.rows("url"))
    assert second.stats["summary/runs"] == 2
    assert "over 2 runs of the job: " in second.log
    assert f"{total} stored" in second.log


# -- render=auto without a browser ---------------------------------------------------------

def test_render_auto_without_a_browser_warns_and_stores_pages_unrendered(
        serve_site, tmp_path: Path) -> None:
    server = serve_site("behaviours")
    result = run_crawl(server.url("/"), tmp_path, spider_args={"render": "auto"},
                       settings={"CHROMIUM_PATH": str(tmp_path / "no-such-browser")})
    assert result.returncode == 0, result.log[-3000:]
    assert "Traceback" not in result.log
    assert "JavaScript pages will be stored unrendered" in result.log
    assert result.stats["render/browser_missing"] == 1
    app = next(item for item in result.items if item["url"].endswith("/app.html"))
    assert app["rendered"] is False  # stored, not lost
    assert len(result.items) >= 5 and not any(item["rendered"] for item in result.items)


# -- the crawl process and its launcher ----------------------------------------------------

def _children(pid: int) -> set[int]:
    """Every descendant of a process, read from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _stored_pages(db_path: Path) -> int:
    """Rows in a crawl database that may still be being written (0 while it does not exist)."""
    if not db_path.exists():
        return 0
    conn = sqlite3.connect(db_path, timeout=5)
    try:
        return conn.execute("SELECT count(*) FROM pages").fetchone()[0]
    except sqlite3.Error:
        return 0
    finally:
        conn.close()


def _wait_until(condition: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


@pytest.fixture
def paced_site(tmp_path: Path) -> Any:
    """A 40-page site; crawls of it are paced (DOWNLOAD_DELAY) to last several seconds."""
    root = tmp_path / "site"
    build_linked_site(root, 40)
    with static_servers() as start:
        yield start(root)


PACED = {"CONCURRENT_REQUESTS": "1", "DOWNLOAD_DELAY": "0.1"}


def test_crawl_outlives_the_shell_that_launched_it(paced_site, tmp_path: Path) -> None:
    workdir = tmp_path / "crawl"
    workdir.mkdir()
    command = crawl_command(paced_site.url("/"), workdir, spider_args={"render": "never"},
                            settings=PACED)
    quoted = " ".join("'" + part.replace("'", "'\\''") + "'" for part in command)
    pid_file = workdir / "pid"
    # The launcher backgrounds the crawl and exits at once, as `nohup ... &` in a script does.
    subprocess.run(["sh", "-c", f"nohup {quoted} > {workdir / 'log'} 2>&1 & echo $! > {pid_file}"],
                   cwd=REPO_ROOT, check=True, timeout=30)
    pid = int(pid_file.read_text())
    assert _wait_until(lambda: not alive(pid), 180), "the crawl did not finish"
    result = read_crawl(0, (workdir / "log").read_text(), workdir)
    assert "Crawl summary (finished, exit code 0)" in result.log, result.log[-3000:]
    assert len(result.items) == len(result.rows("url")) == 40


def test_killed_crawl_leaves_no_process_behind(paced_site, tmp_path: Path,
                                               chromium_path: str) -> None:
    render = "always"  # extraction workers, their forkserver, Playwright's driver and chromium
    workdir = tmp_path / "crawl"
    workdir.mkdir()
    command = crawl_command(paced_site.url("/"), workdir, spider_args={"render": render},
                            settings={**PACED, "DOWNLOAD_DELAY": "0.5",
                                      "CHROMIUM_PATH": chromium_path,
                                      "EXTRACTION_EXECUTOR": "process"})
    log = (workdir / "log").open("w")
    descendants: set[int] = set()
    crawl = subprocess.Popen(command, cwd=REPO_ROOT, stdout=log, stderr=subprocess.STDOUT,
                             start_new_session=True)
    try:
        # Wait until pages are stored (extraction workers up) and the browser runs.
        assert _wait_until(lambda: _stored_pages(workdir / "crawl.db") >= 2
                           and len(_children(crawl.pid)) >= 4, 120), (
            (workdir / "log").read_text()[-3000:])
        assert crawl.poll() is None, "the crawl ended before it could be killed"
        descendants = _children(crawl.pid)
        crawl.send_signal(signal.SIGKILL)
        crawl.wait(timeout=30)
        survivors = lambda: {pid for pid in descendants if alive(pid)}  # noqa: E731
        assert _wait_until(lambda: not survivors(), 30), [
            Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:200]
            for pid in survivors()]
    finally:
        if crawl.poll() is None:
            crawl.kill()
        for pid in descendants | _children(crawl.pid):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        log.close()


def test_importing_the_package_has_no_side_effects() -> None:
    """Importing every module of the crawler leaves the process's death signal unset."""
    code = ("import ctypes, importlib, pkgutil, crawler\n"
            "for m in pkgutil.walk_packages(crawler.__path__, 'crawler.'):\n"
            "    if not m.name.endswith('__main__'):\n"
            "        importlib.import_module(m.name)\n"
            "libc = ctypes.CDLL(None)\n"
            "sig = ctypes.c_int(0)\n"
            "libc.prctl(2, ctypes.byref(sig), 0, 0, 0)\n"  # PR_GET_PDEATHSIG
            "print(sig.value)\n")
    completed = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True,
                               text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "0"


# -- rendering decided after extraction -----------------------------------------------------

SPA_PRODUCTS = [f"/products/{n}.html" for n in range(1, 7)]


@pytest.fixture(scope="module")
def spa_crawls(tmp_path_factory: pytest.TempPathFactory,
               chromium_path: str) -> dict[str, tuple[CrawlResult, Any]]:
    """The single-page shop crawled with render=auto (real chromium) and render=never."""
    results = {}
    with static_servers() as start:
        for render in ("auto", "never"):
            server = start("spa-shop")
            results[render] = (run_crawl(server.url("/"), tmp_path_factory.mktemp(render),
                                         spider_args={"render": render},
                                         settings={"CHROMIUM_PATH": chromium_path}), server)
    return results


def _by_path(result: CrawlResult, origin: str) -> dict[str, dict[str, Any]]:
    return {item["url"].removeprefix(origin): item for item in result.items}


def test_app_pages_with_server_rendered_chrome_are_rendered_after_extraction(spa_crawls) -> None:
    result, server = spa_crawls["auto"]
    assert result.returncode == 0, result.log[-3000:]
    pages = _by_path(result, server.origin)
    assert sorted(pages) == sorted(["/", "/about.html", *SPA_PRODUCTS])  # each page stored once
    for path in SPA_PRODUCTS:
        page = pages[path]
        number = path.rsplit("/", 1)[1].split(".")[0]
        assert page["rendered"] is True
        assert page["render_reason"].startswith("thin_content+empty_app_root")
        assert "inline_state_blob" in page["render_reason"]
        assert f"product-{number}-description" in page["content_text"]
        assert "Customers also viewed" not in page["content_text"]
        assert "We use cookies" not in page["content_text"]
    assert "home-intro" in pages["/"]["content_text"] and pages["/"]["rendered"] is True
    # a server-rendered page of the same site needs no browser
    assert pages["/about.html"]["rendered"] is False
    assert pages["/about.html"]["render_reason"] is None
    assert "about-page" in pages["/about.html"]["content_text"]
    assert result.stats["render/requested/after_extraction"] == 7
    assert result.stats["pages/rendered"] == 7
    assert result.stats["summary/pages_stored"] == 8
    # browser pages reused: at most PLAYWRIGHT_MAX_PAGES_PER_CONTEXT of them opened
    assert result.stats["playwright/page_count"] <= 4 < result.stats["pages/rendered"]
    rows = {row["url"].removeprefix(server.origin): row
            for row in result.rows("url, rendered, render_reason")}
    assert rows["/products/1.html"]["render_reason"] == pages["/products/1.html"]["render_reason"]


def test_app_pages_unrendered_hold_only_their_chrome(spa_crawls) -> None:
    """What render=auto fixes: without the browser the content is not on the page."""
    result, server = spa_crawls["never"]
    assert result.returncode == 0, result.log[-3000:]
    pages = _by_path(result, server.origin)
    assert sorted(pages) == sorted(["/", "/about.html", *SPA_PRODUCTS])
    assert not any("description" in pages[p]["content_text"] for p in SPA_PRODUCTS)
    assert "about-page" in pages["/about.html"]["content_text"]
    assert "render/requested/after_extraction" not in result.stats
