"""When a plain download needs the browser, and how the browser is configured."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from scrapy.settings import Settings

from crawler.rendering import (BLOCKED_RESOURCE_TYPES, RenderConfig, find_browser,
                               javascript_signals, launch_options, looks_like_js_shell,
                               should_abort_request)
from crawler.startup import SettingError
from tests.conftest import (REPO_ROOT, SITES_DIR, crawl_command, project_settings, read_crawl,
                            run_crawl)
from tests.hostile.server import HostileServer

PROSE = "<p>" + "Plain server-rendered prose that a reader sees without JavaScript. " * 8 + "</p>"


@pytest.mark.parametrize(("html", "is_shell", "reason"), [
    ('<html><body><div id="root"></div><script src="/app.js"></script></body></html>',
     True, "empty_app_root"),
    ('<body><div id="__next"></div><script>1</script></body>', True, "empty_app_root"),
    ("<body><noscript>Please enable JavaScript to view this site.</noscript>"
     "<div class=app></div><script>x()</script></body>", True, "noscript_asks_javascript"),
    ("<body><h1>Hi</h1><script>render()</script></body>", True, "little_visible_text"),
    (f"<body><article>{PROSE}</article><script>track()</script></body>", False, ""),
    (f'<body><div id="root">{PROSE}</div><script>hydrate()</script></body>', False, ""),
    (f"<body>{PROSE}<noscript><img src=pixel.gif></noscript></body>", False, ""),
    ("<body><p>Short page, no scripts at all.</p></body>", False, ""),
])
def test_js_shell_detection(html: str, is_shell: bool, reason: str) -> None:
    verdict = looks_like_js_shell(html)
    assert (verdict.is_shell, verdict.reason) == (is_shell, reason)


@pytest.mark.parametrize("page", sorted(
    (SITES_DIR / "sphinx-alabaster-requests-injected" / "public").glob("*.html")))
def test_generator_built_pages_need_no_browser(page: Path) -> None:
    assert not looks_like_js_shell(page.read_text(encoding="utf-8")).is_shell


STATE = "{" + ", ".join(f'"field{n}": "a value the app shows"' for n in range(60)) + "}"
CHROME = "<header><nav><a href=/>Home</a></nav></header>" + PROSE + "<footer>(c)</footer>"


@pytest.mark.parametrize(("html", "signals"), [
    (f'<body>{CHROME}<div id="root"></div><script>window.__INITIAL_STATE__ = {STATE};</script>'
     "</body>", ["empty_app_root", "inline_state_blob", "script_heavy_body"]),
    (f'<body>{CHROME}<div id="__next"><p>x</p></div><script id="__NEXT_DATA__" '
     f'type="application/json">{STATE}</script></body>',
     ["inline_state_blob", "script_heavy_body"]),
    (f"<body>{CHROME}<noscript>You need to enable JavaScript to run this app.</noscript>"
     "<div class=app></div></body>", ["noscript_asks_javascript"]),
    ("<body><p>Short text.</p><script>" + "render();" * 400 + "</script></body>",
     ["script_heavy_body"]),
    # must stay unflagged: structured data, external scripts, small configuration globals
    (f'<body><article>{PROSE}</article><script type="application/ld+json">{STATE}</script>'
     "</body>", []),
    (f'<body><article>{PROSE}</article><script src="/app.js"></script>'
     '<script>window.dataLayer = [{"event": "view"}];</script></body>', []),
    (f'<body><div id="root">{PROSE}</div><script>hydrate()</script></body>', []),
])
def test_javascript_signals_after_extraction(html: str, signals: list[str]) -> None:
    assert javascript_signals(html) == signals


def test_spa_shop_pages_show_javascript_signals_but_not_a_shell() -> None:
    """The shape render=auto missed before extraction: long server-rendered chrome."""
    public = SITES_DIR / "spa-shop" / "public"
    for page in [public / "index.html", *sorted((public / "products").glob("*.html"))]:
        html = page.read_text(encoding="utf-8")
        assert not looks_like_js_shell(html).is_shell
        assert javascript_signals(html)[:2] == ["empty_app_root", "inline_state_blob"]
    assert javascript_signals((public / "about.html").read_text(encoding="utf-8")) == []


def test_behaviours_app_page_needs_the_browser() -> None:
    html = (SITES_DIR / "behaviours" / "public" / "app.html").read_text()
    assert looks_like_js_shell(html).is_shell


class _Frame:
    def __init__(self, parent: _Frame | None = None) -> None:
        self.parent_frame = parent


class _FakeRequest:
    """What the abort hook reads of a Playwright request: its type and its frame."""

    def __init__(self, resource_type: str, frame: _Frame) -> None:
        self.resource_type = resource_type
        self.frame = frame


TOP = _Frame()


@pytest.mark.parametrize(("resource_type", "frame", "blocked"), [
    ("image", TOP, True), ("font", TOP, True), ("media", TOP, True),
    ("document", _Frame(TOP), True),  # an <iframe>'s document: not part of the stored DOM
    ("image", _Frame(TOP), True),
    # must stay: the page itself and what builds its DOM or styles it
    ("document", TOP, False), ("script", TOP, False), ("xhr", TOP, False),
    ("fetch", TOP, False), ("stylesheet", TOP, False), ("script", _Frame(TOP), False),
])
def test_blocked_resources(resource_type: str, frame: _Frame, blocked: bool) -> None:
    assert should_abort_request(_FakeRequest(resource_type, frame)) is blocked
    assert (resource_type in BLOCKED_RESOURCE_TYPES) <= blocked


@pytest.mark.parametrize(("configured", "found"), [
    (["shell", "chromium"], "shell"),  # the headless shell first when it is installed
    (["missing", "chromium"], "chromium"),  # else the next one
    (["not-executable", "chromium"], "chromium"),
    ("chromium", "chromium"),  # one path, as CRAWLER_CHROMIUM_PATH gives it
    (["missing", "not-executable"], None),
    ([" ", ""], None),
    ("", None),
    (None, None),
])
def test_browser_lookup_takes_the_first_executable(configured: str | list[str] | None,
                                                    found: str | None, tmp_path: Path) -> None:
    for name in ("shell", "chromium", "not-executable"):
        (tmp_path / name).write_text("#!/bin/sh\n")
        (tmp_path / name).chmod(0o644 if name == "not-executable" else 0o755)

    def path(name: str) -> str:
        return str(tmp_path / name) if name.strip() else name

    paths = configured if configured is None else (
        path(configured) if isinstance(configured, str) else [path(n) for n in configured])
    assert find_browser(paths) == (found and str(tmp_path / found))


def test_browser_lookup_and_launch_options(tmp_path: Path) -> None:
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    assert find_browser(str(fake)) == str(fake)
    options = launch_options(str(fake), {"args": ["--lang=en"]})
    assert options["executable_path"] == str(fake) and options["headless"] is True
    assert options["args"][0] == "--lang=en" and "--no-sandbox" in options["args"]



def playwright_disabled_features() -> list[str]:
    """The features the installed Playwright driver disables in chromium (its own list)."""
    import playwright

    bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
    listing = re.search(r"disabledFeatures = \[(.*?)\]", bundle.read_text(), re.S)
    assert listing, "Playwright's list of disabled features was not found in its driver"
    return re.findall(r'^\s*"(\w+)"', listing.group(1), re.M)


@pytest.mark.parametrize(("user_args", "also_disabled"), [
    ([], []),
    (["--disable-features=Translate,BackForwardCache", "--lang=en"],
     ["Translate", "BackForwardCache"]),
])
def test_one_disable_features_switch_keeps_playwrights_list(user_args: list[str],
                                                             also_disabled: list[str]) -> None:
    """Chromium reads only the last --disable-features: ours must carry Playwright's list (or
    it would turn HTTPS upgrades and more back on), ours and the user's."""
    args = launch_options("/usr/bin/chromium", {"args": user_args})["args"]
    switches = [a for a in args if a.startswith("--disable-features=")]
    assert len(switches) == 1
    features = switches[0].split("=", 1)[1].split(",")
    expected = playwright_disabled_features()
    assert len(expected) >= 5 and "HttpsUpgrades" in expected
    assert set(expected) <= set(features)
    assert {"RenderDocument", "ProactivelySwapBrowsingInstance", *also_disabled} <= set(features)
    assert [a for a in user_args if not a.startswith("--disable-features")] == [
        a for a in args if a in user_args]  # the user's other flags stay


@pytest.mark.parametrize(("overrides", "page_reuse", "context_reuse", "refused"), [
    ({}, 50, 100, None),  # the defaults
    ({"RENDER_CONTEXT_REUSE": "0"}, 50, 0, None),  # never renewed
    ({"RENDER_CONTEXT_REUSE": "1000", "RENDER_PAGE_REUSE": "1"}, 1, 1000, None),
    ({"RENDER_CONTEXT_REUSE": "-1"}, None, None, "RENDER_CONTEXT_REUSE must be a whole number"),
    ({"RENDER_CONTEXT_REUSE": "often"}, None, None, "RENDER_CONTEXT_REUSE must be a whole"),
    ({"RENDER_STALL_MS": "-5"}, None, None, "RENDER_STALL_MS must be a whole number"),
    ({"RENDER_STALL_MS": "soon"}, None, None, "RENDER_STALL_MS must be a whole"),
])
def test_render_config_reads_page_and_context_reuse(overrides: dict[str, str],
                                                    page_reuse: int | None,
                                                    context_reuse: int | None,
                                                    refused: str | None) -> None:
    settings = Settings(project_settings(**overrides))
    if refused:
        with pytest.raises(SettingError, match=refused):
            RenderConfig.from_settings(settings)
        return
    config = RenderConfig.from_settings(settings)
    assert (config.page_reuse, config.context_reuse) == (page_reuse, context_reuse)
    assert config.wait_until == "load"  # the other settings keep their defaults


APP_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>
<body><div id="root"></div>
<script>
  const article = document.createElement("article");
  for (const n of [1, 2, 3]) {{
    const p = document.createElement("p");
    p.textContent = "Paragraph " + n + " of {title}, written by a script after the page loads, "
      + "so only a browser sees it: the marker {marker}.";
    article.appendChild(p);
  }}
  document.getElementById("root").appendChild(article);
</script></body></html>"""
BUSY_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Busy</title></head>
<body><div id="root"></div><p>Text before a script that never yields.</p>
<script>{script}</script></body></html>"""
MARKERS = {"one": "amber kestrel", "two": "cobalt heron", "three": "saffron otter"}


@pytest.mark.parametrize(("busy_script", "browser", "limits"), [
    # found at the render's time limit (RENDER_STALL_MS is longer)
    ("while (true) {}", None, {}),  # the browser the crawl chooses (the headless shell)
    # busy again every time it is stopped; Debian's chromium
    ("setInterval(() => { while (true) {} }, 10);", "chromium", {}),
    # found stalled after a second: the pages beside it are rendered again alone long before
    # the time limit; only the busy page, alone, waits for it
    ("while (true) {}", None, {"RENDER_TIMEOUT_MS": 8000, "RENDER_STALL_MS": 1000}),
])
def test_busy_script_does_not_cost_the_pages_rendered_beside_it(
        busy_script: str, browser: str | None, limits: dict[str, int], serve_site,
        tmp_path: Path, chromium_path: str) -> None:
    """A page whose script never yields stalls the renderer its pages share: the pages beside
    it are rendered again alone and stored; the busy one has its script stopped and fails."""
    site = tmp_path / "site"
    site.mkdir()
    links = "".join(f'<li><a href="/{name}.html">{name}</a></li>'
                    for name in ["busy", *MARKERS])
    (site / "index.html").write_text(
        f"<!DOCTYPE html><html><head><title>Home</title></head><body><ul>{links}</ul></body>"
        "</html>")
    (site / "busy.html").write_text(BUSY_PAGE.format(script=busy_script))
    for name, marker in MARKERS.items():
        (site / f"{name}.html").write_text(APP_PAGE.format(title=f"Page {name}", marker=marker))
    server = serve_site(site)
    result = run_crawl(server.url("/"), tmp_path / "crawl",
                       spider_args={"render": "always", "sitemaps": "false"},
                       settings={"RENDER_TIMEOUT_MS": 2000, "RENDER_SETTLE_MAX_MS": 500,
                                 "QUALITY_GATE_MIN_SCORE": 0,
                                 **({"CHROMIUM_PATH": browser} if browser else {}), **limits})
    assert result.returncode == 0, result.log[-3000:]
    by_path = {url.removeprefix(server.origin): item
               for url, item in zip(result.urls(), result.items)}
    for name, marker in MARKERS.items():  # what must stay: the pages beside the busy one
        assert marker in by_path[f"/{name}.html"]["content_text"], result.log[-3000:]
        assert by_path[f"/{name}.html"]["rendered"] is True
    assert "/" in by_path
    assert f"starting the browser {shutil.which(browser) if browser else chromium_path}" in (
        result.log)
    assert "/busy.html" not in by_path  # what must go: the busy page, stopped and counted
    assert result.stats["render/script_terminated"] == 1
    assert result.stats["errors/RenderTimeout"] == 1
    assert result.log.count("Stopped the scripts of") == 1
    if "RENDER_STALL_MS" in limits:  # nothing in the pool waited for the time limit
        assert result.stats["render/stalled"] >= 1
        assert result.stats["render/stall_rendered_alone"] >= 1
        assert "render/timeout_rendered_alone" not in result.stats
        assert "answered nothing for 1.0 s (RENDER_STALL_MS" in result.log
    else:
        assert "render/stalled" not in result.stats


def test_busy_script_in_a_named_context_does_not_cost_the_pages_beside_it(
        serve_site, tmp_path: Path, chromium_path: str) -> None:
    """Requests naming a browser context of their own are rendered outside the page pool, but
    their context's pages share a renderer too: past the time limit they are rendered again
    alone like pooled ones, and only the busy page fails."""
    site = tmp_path / "site"
    site.mkdir()
    links = "".join(f'<li><a href="/{name}.html">{name}</a></li>' for name in ["busy", "one"])
    (site / "index.html").write_text(
        f"<!DOCTYPE html><html><head><title>Home</title></head><body><ul>{links}</ul></body>"
        "</html>")
    (site / "busy.html").write_text(BUSY_PAGE.format(script="while (true) {}"))
    (site / "one.html").write_text(APP_PAGE.format(title="Page one", marker=MARKERS["one"]))
    server = serve_site(site)
    workdir = tmp_path / "crawl"
    workdir.mkdir()
    command = crawl_command(server.url("/"), workdir,
                            spider_args={"render": "always", "sitemaps": "false"},
                            settings={"RENDER_TIMEOUT_MS": 2000, "RENDER_SETTLE_MAX_MS": 500,
                                      "QUALITY_GATE_MIN_SCORE": 0})
    spider_file = Path(__file__).with_name("own_context_spider.py")
    command[command.index("crawl"):command.index("domain") + 1] = ["runspider", str(spider_file)]
    completed = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True,
                               timeout=180)
    result = read_crawl(completed.returncode, completed.stdout + completed.stderr, workdir)
    assert result.returncode == 0, result.log[-3000:]
    by_path = {url.removeprefix(server.origin): item
               for url, item in zip(result.urls(), result.items)}
    assert MARKERS["one"] in by_path["/one.html"]["content_text"]  # what must stay
    assert "/busy.html" not in by_path  # what must go
    assert result.stats["render/timeout_unpooled"] >= 1
    assert "in browser context 'own' timed out" in result.log
    assert result.stats["render/script_terminated"] == 1
    assert result.stats["errors/RenderTimeout"] == 1


@pytest.mark.parametrize("spider", ["domain", "own_context"])
def test_a_render_that_fails_or_never_loads_is_one_line_and_a_stat(
        spider: str, tmp_path: Path, chromium_path: str) -> None:
    """Rendered pages of the hostile server that the browser cannot load: an answer that is no
    HTTP (``net::ERR_INVALID_HTTP_RESPONSE``), a server that never answers, a body shorter
    than its Content-Length. In a page scrapy-playwright opens (a request naming a browser
    context), a failed navigation printed a traceback; everywhere its message spanned lines,
    was counted as ``errors/Error``, and a page that never arrived was said to have "kept the
    browser busy" with its scripts. Now each is one line and a stat, the failure retried like
    a plain download's network error, and the pages beside them are stored."""
    server = HostileServer().start()
    try:
        paths = ["/bad-answer/garbage", "/hang", "/drop", "/ok/1"]
        workdir = tmp_path / "crawl"
        workdir.mkdir()
        command = crawl_command(",".join(server.base + p for p in paths), workdir,
                                spider_args={"render": "always", "sitemaps": "false",
                                             "follow_links": "false"},
                                settings={"RENDER_TIMEOUT_MS": 2000, "RENDER_SETTLE_MAX_MS": 500,
                                          "RETRY_TIMES": 2, "RETRY_BACKOFF_BASE": 0.2,
                                          "QUALITY_GATE_MIN_SCORE": 0})
        if spider != "domain":
            spider_file = Path(__file__).with_name("own_context_spider.py")
            command[command.index("crawl"):command.index("domain") + 1] = [
                "runspider", str(spider_file)]
        completed = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True,
                                   timeout=240)
        garbage_attempts = len(server.hits("/bad-answer/garbage"))
    finally:
        server.stop()
    result = read_crawl(completed.returncode, completed.stdout + completed.stderr, workdir)
    assert result.returncode == 0, result.log[-3000:]
    stored = {url.removeprefix(server.base): item for url, item in zip(result.urls(),
                                                                       result.items)}
    assert set(stored) == {"/ok/1"}, result.log[-3000:]  # what must stay, and only that
    assert stored["/ok/1"]["rendered"] is True
    assert "Traceback" not in result.log
    assert "Call log:" not in result.log  # Playwright's multi-line message
    # the answer that is no HTTP: retried, then counted and said in one line
    assert garbage_attempts == 3
    assert result.stats["render/failed/ERR_INVALID_HTTP_RESPONSE"] == 3
    assert (f"Start URL {server.base}/bad-answer/garbage could not be fetched: the browser "
            "could not load the page (net::ERR_INVALID_HTTP_RESPONSE)") in result.log
    assert "errors/Error" not in result.stats
    # the server that never answers: the page never loaded, no script was to blame
    assert (f"Rendering {server.base}/hang: the page did not finish loading within the "
            "render's time limit") in result.log
    assert f"Stopped the scripts of {server.base}/hang" not in result.log
    assert result.stats["render/load_timeout"] >= 1
    # every page lost is counted: the three that could not be rendered
    errors = sum(v for k, v in result.stats.items() if k.startswith("errors/"))
    assert errors == 3, {k: v for k, v in result.stats.items() if k.startswith("errors/")}
    if spider != "domain":  # its traceback was dropped and counted
        assert result.stats["log/quiet/scrapy_playwright_failed_request"] >= 1


#: Answers a plain download refuses whatever renders them: (start paths, exit code, stored paths).
RENDERED_NO_PAGE_CRAWLS = [
    # beside a real page: each counted and said, none stored, the page rendered and stored
    (["/empty", "/binary/pdf", "/binary/png", "/binary/zip", "/bad-answer/long-header",
      "/ok/1"], 0, {"/ok/1"}),
    # the only start URL: the crawl cannot do its job, as a plain download of it
    (["/empty"], 6, set()),
]


@pytest.mark.parametrize(("starts", "code", "kept"), RENDERED_NO_PAGE_CRAWLS,
                         ids=["beside-a-page", "only-start"])
def test_rendering_judges_the_servers_answer_not_the_dom(starts: list[str], code: int,
                                                         kept: set[str], tmp_path: Path,
                                                         chromium_path: str) -> None:
    """With every page rendered, the body checks saw chromium's DOM (an empty ``<html>``
    document for an empty body, a PDF's bytes as text) and the browser read a 200 kB header
    line a plain download hangs up on: all three were stored as pages. The server's own answer
    is judged now: not stored, with the stats and lines of a plain download."""
    server = HostileServer().start()
    try:
        result = run_crawl(",".join(server.base + p for p in starts), tmp_path,
                           spider_args={"render": "always", "sitemaps": "false",
                                        "follow_links": "false"},
                           settings={"RETRY_TIMES": 1, "RETRY_BACKOFF_BASE": 0.1,
                                     "QUALITY_GATE_MIN_SCORE": 0})
        long_header_attempts = len(server.hits("/bad-answer/long-header"))
    finally:
        server.stop()
    assert result.returncode == code, result.log[-3000:]
    stored = {url.removeprefix(server.base): item
              for url, item in zip(result.urls(), result.items)}
    assert set(stored) == kept, result.log[-3000:]  # what must stay, and only that
    assert all(item["rendered"] is True for item in stored.values())
    assert result.stats["response/empty"] == 1
    assert f"Empty body: {server.base}/empty (HTTP 200, 0 bytes)" in result.log
    assert f"Start URL {server.base}/empty gave no page: empty body" in result.log
    assert result.rows("url") == [{"url": server.base + p} for p in sorted(kept)]
    assert "Traceback" not in result.log
    if code:
        assert result.stats["finish_reason"] == "start_failed"
        return
    assert result.stats["response/binary_as_html"] == 3
    for kind in ("pdf", "png", "zip"):
        assert result.stats[f"response/binary_as_html/{kind}"] == 1
        assert (f"Binary body ({kind}) served as 'text/html': {server.base}/binary/{kind}"
                in result.log)
    # the header line: retried as a network error, given up, as a plain download
    assert long_header_attempts == 2
    assert result.stats["render/failed/header_line_too_long"] == 2
    assert (f"Start URL {server.base}/bad-answer/long-header could not be fetched: the answer "
            "could not be read (a header line of 200008 bytes, longer than the 16384 a plain "
            "download reads)") in result.log


def test_a_rendered_answer_over_download_maxsize_is_dropped_as_a_plain_download(
        tmp_path: Path, chromium_path: str) -> None:
    """With every page rendered, an answer over DOWNLOAD_MAXSIZE was read by chromium whole:
    one just over the limit was stored as its DOM without a word, and 50 MB took the render's
    time limit twice. Now the render stops as the answer announces or passes the limit, and the
    page fails as a plain download over the limit does; a page under the limit is stored."""
    limit = 1 << 20
    over = {"/huge/length": f"the answer announces {50 << 20} bytes, more than "
                            f"DOWNLOAD_MAXSIZE ({limit} bytes): not rendered",
            "/huge/chunked?bytes=1500000": f"the answer passed DOWNLOAD_MAXSIZE ({limit} bytes): "
                                           "rendering stopped after "}
    kept = {"/huge/chunked?bytes=600000", "/ok/1"}
    server = HostileServer().start()
    try:
        result = run_crawl(",".join(server.base + p for p in [*over, *sorted(kept)]), tmp_path,
                           spider_args={"render": "always", "sitemaps": "false",
                                        "follow_links": "false"},
                           settings={"DOWNLOAD_MAXSIZE": limit, "QUALITY_GATE_MIN_SCORE": 0})
        attempts = {path: len(server.hits(path)) for path in over}
    finally:
        server.stop()
    assert result.returncode == 0, result.log[-3000:]
    assert {url.removeprefix(server.base) for url in result.urls()} == kept, result.log[-3000:]
    assert all(item["rendered"] is True for item in result.items)
    assert result.stats["errors/DownloadCancelledError"] == 2  # as a plain download's
    assert result.stats["render/too_large"] == 2
    assert "errors/RenderTimeout" not in result.stats, result.log[-3000:]
    for path, reason in over.items():
        lines = [line for line in result.log.splitlines() if server.base + path in line
                 and (" WARNING: " in line or " ERROR: " in line)]
        assert len(lines) == 1 and reason in lines[0], lines  # one line, the reason in it
    assert attempts == {path: 1 for path in over}  # not retried
    assert "Traceback" not in result.log


#: Pages whose scripts navigate after they load: (file, script, marker of the text stored).
NAVIGATING_PAGES = [
    ("reload-forever", "setTimeout(() => location.reload(), 10);", "sable marten"),
    ("reload-once", 'if (!document.cookie.includes("seen=1")) { document.cookie = "seen=1"; '
                    "setTimeout(() => location.reload(), 10); }", "umber finch"),
    ("moves-on", 'setTimeout(() => { location.href = "/moved.html"; }, 10);', "ochre wren"),
]


def test_a_page_whose_scripts_navigate_forever_is_stored_as_it_stands(
        serve_site, tmp_path: Path, chromium_path: str) -> None:
    """A page reloading itself every 10 ms failed the settle wait on its destroyed document
    (Playwright's 'Execution context was destroyed'), was retried and lost with an ERROR line.
    Its next navigations are cancelled past a bound and it is stored as it stands; a page that
    reloads once, or moves on to another page once, is stored as the document it ends in."""
    site = tmp_path / "site"
    site.mkdir()
    links = "".join(f'<li><a href="/{name}.html">{name}</a></li>'
                    for name, _, _ in NAVIGATING_PAGES)
    (site / "index.html").write_text(
        f"<!DOCTYPE html><html><head><title>Home</title></head><body><ul>{links}</ul></body>"
        "</html>")
    for name, script, marker in NAVIGATING_PAGES:
        (site / f"{name}.html").write_text(
            f"<!DOCTYPE html><html><head><title>{name}</title></head><body><article>"
            f"<h1>{name}</h1><p>{PROSE} The marker {marker}.</p></article>"
            f"<script>{script}</script></body></html>")
    (site / "moved.html").write_text(APP_PAGE.format(title="Moved", marker="ochre wren"))
    server = serve_site(site)
    result = run_crawl(server.url("/"), tmp_path / "crawl",
                       spider_args={"render": "always", "sitemaps": "false"},
                       settings={"RENDER_TIMEOUT_MS": 8000, "RETRY_TIMES": 1,
                                 "QUALITY_GATE_MIN_SCORE": 0})
    assert result.returncode == 0, result.log[-3000:]
    by_path = {url.removeprefix(server.origin): item
               for url, item in zip(result.urls(), result.items)}
    assert "ochre wren" in by_path["/moved.html"]["content_text"]  # the page it moved to
    for name, _, marker in NAVIGATING_PAGES[:2]:
        assert marker in by_path[f"/{name}.html"]["content_text"], result.log[-3000:]
    assert result.stats["render/navigations_cancelled"] == 1
    assert (f"{server.origin}/reload-forever.html navigated more than 3 times by its scripts"
            in result.log)
    assert not any(k.startswith("errors/") for k in result.stats), result.log[-3000:]
    assert "Traceback" not in result.log


@pytest.mark.parametrize(("browser", "most_requests"), [
    (None, 1),  # the headless shell the crawl chooses opens no window at all
    # Debian's chromium opens them: each is closed as Playwright tells of it (once loaded);
    # the windows they opened first may escape until the context closes, as many as the
    # machine's speed lets them open (22 to 52 requests seen), so no bound on the count
    ("chromium", None),
])
def test_windows_a_rendered_page_opens_are_not_opened_or_closed_at_once(
        browser: str | None, most_requests: int | None, tmp_path: Path,
        chromium_path: str) -> None:
    """A page opening three windows of pages like itself: each window loaded its page and ran
    its scripts outside the crawl's scope and accounting until the context closed (52 requests
    of the page in 8 s). The page itself is stored."""
    server = HostileServer().start()
    try:
        result = run_crawl(f"{server.base}/script/popups,{server.base}/ok/1", tmp_path,
                           spider_args={"render": "always", "sitemaps": "false",
                                        "follow_links": "false"},
                           settings={"QUALITY_GATE_MIN_SCORE": 0,
                                     **({"CHROMIUM_PATH": browser} if browser else {})})
        requests = len(server.hits("/script/popups"))
    finally:
        server.stop()
    assert result.returncode == 0, result.log[-3000:]
    stored = {url.removeprefix(server.base) for url in result.urls()}
    assert stored == {"/script/popups", "/ok/1"}  # what must stay
    assert requests >= 1
    if most_requests is not None:  # what must go: the windows' own requests
        assert requests <= most_requests
    if browser:  # what must go: every window, closed as it opens
        assert result.stats["render/popups_closed"] >= 3
        assert "A rendered page opened a window (window.open" in result.log
    assert "Traceback" not in result.log


def test_a_download_a_rendered_page_starts_is_cancelled(tmp_path: Path, chromium_path: str) -> None:
    """A page whose script starts the download of an endless file: chromium wrote it to disk
    for as long as the browser context lived (486 MB in the 5 s before a two-page crawl
    ended), outside DOWNLOAD_MAXSIZE. It is cancelled, counted; the page is stored, and so is a
    page the render asked for that answers as an attachment."""
    server = HostileServer().start()
    try:
        result = run_crawl(",".join(f"{server.base}{path}" for path in (
            "/script/download", "/script/attachment", "/ok/1")), tmp_path,
            spider_args={"render": "always", "sitemaps": "false", "follow_links": "false"},
            settings={"QUALITY_GATE_MIN_SCORE": 0})
    finally:
        server.stop()
    assert result.returncode == 0, result.log[-3000:]
    stored = {url.removeprefix(server.base) for url in result.urls()}
    assert stored == {"/script/download", "/script/attachment", "/ok/1"}  # what must stay
    assert result.stats["render/downloads_cancelled"] == 1  # what must go: the endless file
    assert (f"A rendered page's script started a download ({server.base}/script/endless): "
            "cancelled") in result.log
    assert "Traceback" not in result.log


def test_a_rendered_page_sent_to_a_download_before_it_loads_is_named(
        tmp_path: Path, chromium_path: str) -> None:
    """A page whose script sends the browser to a download as it is read, before the page has
    loaded: the page never fires its load event and fails at the render's time limit. Before,
    it was rendered again alone, where its endless download ran uncancelled until the context
    closed, and failed with a line blaming its server (``its server never completed the
    answer``); now it fails at the first limit with a line naming the download, counted, and
    the page beside it is stored."""
    server = HostileServer().start()
    try:
        result = run_crawl(",".join(f"{server.base}{path}" for path in (
            "/script/download-early", "/ok/1")), tmp_path,
            spider_args={"render": "always", "sitemaps": "false", "follow_links": "false"},
            settings={"QUALITY_GATE_MIN_SCORE": 0, "RENDER_TIMEOUT_MS": 4000})
    finally:
        server.stop()
    assert result.returncode == 0, result.log[-3000:]
    stored = {url.removeprefix(server.base) for url in result.urls()}
    assert stored == {"/ok/1"}  # what must stay
    assert result.stats["render/download_before_load"] == 1
    assert (f"Rendering {server.base}/script/download-early: its script sent the browser to a "
            f"download ({server.base}/script/endless, cancelled) before the page had loaded"
            ) in result.log
    assert "its server never completed the answer" not in result.log  # what must go
    assert "render/timeout_rendered_alone" not in result.stats
    assert result.stats["render/downloads_cancelled"] == 1
    assert "Traceback" not in result.log
