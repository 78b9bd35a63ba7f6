"""``crawler mcp`` end to end through the official MCP SDK's own client: the server runs as a
subprocess over stdio (and once over streamable HTTP), the site is served on 127.0.0.1."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import REPO_ROOT, static_servers
from tests.linked_site import FOOTER, STATION_NOTE, build_linked_site
from tests.ports import PortTaken, start_on_free_port

PAGES = 12
TOOLS = {"extract", "crawl", "analyze_boilerplate", "search", "get_page"}
ARTICLE = """<!DOCTYPE html><html><head><title>Inline page</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<main><article><h1>Tides of the northern harbour</h1>
<p>The harbour fills and empties twice a day, and the volunteers who measure it write down the
height of the water at every turn of the tide, with the time and the direction of the wind.</p>
<p>Their notebooks, kept since the first survey, show the tides rising slowly over the years,
and the storms of each winter pushing the water further up the old stone steps.</p>
</article></main><footer><p>Copyright Example Corp. All rights reserved.</p></footer></body></html>"""

Session = Callable[[ClientSession], Awaitable[None]]


def server_args(root: Path, *extra: str) -> list[str]:
    return ["-m", "crawler", "mcp", "--root", str(root), "--crawl-timeout", "120", *extra]


def over_stdio(root: Path, body: Session, *extra: str) -> None:
    """Start the server over stdio with the SDK's client and run ``body`` in a session."""
    params = StdioServerParameters(command=sys.executable, args=server_args(root, *extra),
                                   cwd=str(REPO_ROOT))

    async def main() -> None:
        with anyio.fail_after(300):
            async with stdio_client(params) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                await body(session)

    anyio.run(main)


async def call(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """A tool call that must succeed; its structured result."""
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content
    return result.structured_content


async def refused(session: ClientSession, tool: str, **arguments: Any) -> str:
    """A tool call that must fail with a tool error; its message."""
    result = await session.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    text = " ".join(getattr(block, "text", "") for block in result.content)
    assert "Traceback" not in text
    return text


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The linked test site (a note repeated on every page) on 127.0.0.1; yields its origin."""
    root = tmp_path_factory.mktemp("mcp-site")
    build_linked_site(root, PAGES)
    with static_servers() as start:
        yield start(root).origin


def test_tools_over_stdio_on_a_local_site(site: str, tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    async def body(session: ClientSession) -> None:
        assert {tool.name for tool in (await session.list_tools()).tools} == TOOLS

        page = await call(session, "extract", url_or_html=f"{site}/notes/0/page-3.html")
        assert page["title"].startswith("Survey 3:") and STATION_NOTE in page["content"]
        assert FOOTER not in page["content"] and "First survey" not in page["content"]
        inline = await call(session, "extract", url_or_html=ARTICLE, format="text")
        assert "twice a day" in inline["content"] and "All rights reserved" not in inline["content"]
        as_json = await call(session, "extract", url_or_html=ARTICLE, format="json")
        assert as_json["page"]["title"] == "Tides of the northern harbour"

        # only the named host is exempt: other internal addresses stay refused
        assert "internal address" in await refused(session, "extract",
                                                   url_or_html="http://169.254.169.254/")
        summary = await call(session, "crawl", start=site + "/", max_pages=PAGES)
        seen["summary"] = summary
        db = summary["db"]
        assert summary["close_reason"] in ("finished", "max_pages") and summary["exit_code"] == 0

        stored = await call(session, "get_page", db=db, url=f"{site}/notes/0/page-3.html")
        assert stored["content"] == page["content"]
        full = await call(session, "get_page", db=db, url=f"{site}/notes/0/page-3.html?utm_source=x",
                          format="json")
        assert full["page"]["url"] == f"{site}/notes/0/page-3.html"  # found by canonical URL
        assert isinstance(full["page"]["quality_reasons"], list) and "raw_html" not in full["page"]

        found = await call(session, "search", db=db, query="Survey 3", limit=3)
        assert found["hits"][0]["url"] == f"{site}/notes/0/page-3.html"
        assert "[Survey]" in found["hits"][0]["snippet"] and len(found["hits"]) <= 3
        nothing = await call(session, "search", db=db, query="zzzqqqxx")
        assert nothing["hits"] == []
        assert "limit must be" in await refused(session, "search", db=db, query="x", limit=0)
        assert "no words" in await refused(session, "search", db=db, query="!!")

        domain = site.removeprefix("http://")
        boilerplate = await call(session, "analyze_boilerplate", db=db, domain=domain,
                                 threshold_pct=0.5, min_pages=3)
        note = next(b for b in boilerplate["top_blocks"] if STATION_NOTE in b["text"])
        assert note["pages"] == boilerplate["pages_analyzed"] == PAGES  # on every page
        assert not any("Survey 3:" in b["text"] for b in boilerplate["top_blocks"])
        cleaned = await call(session, "get_page", db=db, url=f"{site}/notes/0/page-3.html",
                             format="cleaned")
        assert STATION_NOTE not in cleaned["content"]
        assert cleaned["content"].startswith("# Survey 3:")

    over_stdio(tmp_path / "root", body, "--allow-host", "127.0.0.1")
    summary = seen["summary"]
    db_path = tmp_path / "root" / summary["db"]
    import sqlite3

    conn = sqlite3.connect(db_path)
    try:
        pages = conn.execute("SELECT count(*) FROM pages").fetchone()[0]
        reason = conn.execute("SELECT close_reason FROM crawls").fetchone()[0]
    finally:
        conn.close()
    assert summary["pages_stored"] == pages == PAGES and reason == summary["close_reason"]
    assert summary["pages_found"] >= PAGES


BAD_CALLS = [
    ("extract", {"url_or_html": "file:///etc/passwd"}, "must use http or https"),
    ("extract", {"url_or_html": "javascript:alert(1)"}, "neither an http(s) URL nor an HTML"),
    ("extract", {"url_or_html": "ftp://example.org/x.html"}, "must use http or https"),
    ("extract", {"url_or_html": "just some words"}, "neither an http(s) URL nor an HTML"),
    ("extract", {"url_or_html": ARTICLE, "format": "pdf"}, "format must be one of"),
    ("extract", {"url_or_html": "http://169.254.169.254/latest/meta-data/"}, "internal address"),
    ("extract", {"url_or_html": "http://10.1.2.3/"}, "internal address"),
    ("extract", {"url_or_html": "http://localhost:9/"}, "internal address"),
    ("extract", {"url_or_html": "http://[::1]:9/"}, "internal address"),
    ("crawl", {"start": "http://127.0.0.1:9/"}, "internal address"),
    ("crawl", {"start": "https://example.org/", "max_pages": 0}, "max_pages must be"),
    ("crawl", {"start": "https://example.org/", "max_pages": 10**6}, "max_pages must be"),
    ("crawl", {"start": "https://example.org/", "render": "sometimes"}, "render must be one of"),
    ("crawl", {"start": "https://example.org/", "max_pages": "lots"}, "max_pages"),
    ("get_page", {"db": "../../etc/passwd", "url": "https://example.org/"}, "inside the server's root"),
    ("get_page", {"db": "none.db", "url": "https://example.org/"}, "no crawl database at"),
    ("get_page", {"db": "not-sqlite.db", "url": "https://example.org/"}, "not a readable SQLite"),
    ("get_page", {"db": "empty.db", "url": "https://example.org/"}, "no pages table"),
    ("analyze_boilerplate", {"db": "none.db", "domain": "x"}, "no crawl database at"),
    ("search", {"db": "none.db", "query": "tide"}, "no crawl database at"),
    ("search", {"db": "empty.db", "query": "tide"}, "no pages table"),
    # a NUL byte, a name longer than the system allows: ValueError and OSError before
    ("search", {"db": "c\x00.db", "query": "tide"}, "db is no path a crawl database can have"),
    ("get_page", {"db": "a" * 5000, "url": "https://example.org/"},
     "db is no path a crawl database can have"),
]


def test_bad_input_is_a_tool_error_with_a_sentence(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "not-sqlite.db").write_text("hello")
    import sqlite3

    sqlite3.connect(root / "empty.db").close()
    messages: list[tuple[str, str]] = []

    async def body(session: ClientSession) -> None:
        for tool, arguments, _ in BAD_CALLS:
            messages.append((tool, await refused(session, tool, **arguments)))
        # what must stay: the server still answers a good call after all the refusals
        good = await call(session, "extract", url_or_html=ARTICLE, format="markdown")
        assert good["content"].startswith("# Tides of the northern harbour")

    over_stdio(root, body)  # internal addresses refused: the default
    for (tool, text), (_, _, expected) in zip(messages, BAD_CALLS, strict=True):
        assert expected in text, (tool, text)


#: Seconds the MCP server may take to say it listens (as long as the test waited before).
START_TIMEOUT_S = 60.0


def start_http_server(root: Path, port: int) -> tuple[subprocess.Popen[bytes], int]:
    """The MCP server over streamable HTTP on ``port``, once it says it listens; PortTaken
    when another process holds the port (its server says so and exits)."""
    process = subprocess.Popen([sys.executable, *server_args(root, "--allow-host", "127.0.0.1",
                                                             "--http", str(port))],
                               cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert process.stderr is not None
    # a server that neither listens nor exits would block the reading below for good
    watchdog = threading.Timer(START_TIMEOUT_S, process.kill)
    watchdog.start()
    said = []
    try:
        for line in iter(process.stderr.readline, b""):
            said.append(line.decode(errors="replace"))
            if "address already in use" in said[-1]:
                process.wait(timeout=30)
                raise PortTaken(port)
            if f"running on http://127.0.0.1:{port}" in said[-1]:
                # keep reading what it says, or its log would fill the pipe and stop it
                threading.Thread(target=process.stderr.read, daemon=True).start()
                return process, port
    finally:
        watchdog.cancel()
    process.wait(timeout=30)
    pytest.fail("the MCP server did not start:\n" + "".join(said))


def test_streamable_http_transport(site: str, tmp_path: Path) -> None:
    process, port = start_on_free_port(lambda port: start_http_server(tmp_path, port))
    try:
        results: dict[str, Any] = {}

        async def main() -> None:
            with anyio.fail_after(120):
                async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as streams, \
                        ClientSession(streams[0], streams[1]) as session:
                    await session.initialize()
                    results["tools"] = {t.name for t in (await session.list_tools()).tools}
                    results["page"] = await call(session, "extract",
                                                 url_or_html=f"{site}/notes/0/page-5.html")
                    results["refused"] = await refused(session, "extract",
                                                       url_or_html="gopher://example.org/")

        anyio.run(main)
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert results["tools"] == TOOLS
    assert results["page"]["title"].startswith("Survey 5:")
    assert "must use http or https" in results["refused"]
    assert json.dumps(results["page"])  # structured content is plain JSON


@pytest.mark.parametrize(("url", "allowed", "problem"), [
    ("http://127.0.0.1:8000/a", {"127.0.0.1"}, None),
    ("https://[::1]/", {"::1"}, None),
    ("http://127.0.0.1:8000/a", set(), "internal address"),
    ("http://10.0.0.8/", {"127.0.0.1"}, "internal address"),
    ("http://169.254.169.254/latest/", {"127.0.0.1"}, "internal address"),
    ("http://[::ffff:127.0.0.1]/", set(), "internal address"),
    ("http://100.64.0.1/", set(), "internal address"),
    ("http://8.8.8.8/", set(), None),  # a public literal: no lookup, no connection
    ("HTTP://8.8.8.8/", set(), None),
    ("file:///etc/passwd", {"127.0.0.1"}, "must use http or https"),
    ("data:text/html,<p>x</p>", set(), "must use http or https"),
    ("http:///nohost", set(), "has no host"),
    ("http://8.8.8.8:99999/", set(), "not a valid URL"),
    ("http://8.8.8.8/" + "a" * 2100, set(), "longer than"),
    ("", set(), "must be an http"),
])
def test_url_guard(url: str, allowed: set[str], problem: str | None) -> None:
    from crawler.agent.guard import GuardError, check_url

    if problem is None:
        assert check_url(url, allowed_hosts=frozenset(allowed)) == url
    else:
        with pytest.raises(GuardError, match=problem):
            check_url(url, allowed_hosts=frozenset(allowed))
