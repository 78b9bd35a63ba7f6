"""The MCP server of ``crawler mcp`` (official ``mcp`` SDK): five tools over the crawler.

Tools: ``extract``, ``crawl``, ``analyze_boilerplate``, ``search``, ``get_page`` (see
:mod:`crawler.agent.tools`). A refused or failed call is a tool error carrying one sentence;
an unexpected exception is logged with its traceback on the server's stderr and reaches the
client only as "Error executing tool". Blocking work runs in a worker thread, so one long
crawl does not stall the other calls.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from crawler import __version__
from crawler.agent import tools
from crawler.agent.config import AgentConfig

logger = logging.getLogger(__name__)

INSTRUCTIONS = (
    "Tools of a web crawler that extracts each page's main content (without navigation, "
    "banners, footers). extract: one page (URL or HTML) as markdown, html, text or json. "
    "crawl: crawl a site into a new database (bounded in pages and time) and get its summary; "
    "the returned db names the database for search, get_page and analyze_boilerplate.")


async def _call(function: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """Run a blocking tool in a worker thread; a refused input becomes a tool error."""
    try:
        return await anyio.to_thread.run_sync(functools.partial(function, *args))
    except tools.ToolInputError as exc:
        raise ToolError(str(exc)) from exc


def build_server(config: AgentConfig) -> MCPServer:
    """The server with its tools bound to ``config``."""
    server = MCPServer("crawler", version=__version__, instructions=INSTRUCTIONS)

    @server.tool()
    async def extract(url_or_html: str, format: str = "markdown") -> dict[str, Any]:  # noqa: A002
        """Extract the main content of one page: an http(s) URL (fetched) or an HTML document.
        format: markdown (default), html, text or json (every field: title, author, dates,
        content forms, quality score and reasons)."""
        return await _call(tools.extract, config, url_or_html, format)

    @server.tool()
    async def crawl(start: str, max_pages: int = 20, render: str = "never") -> dict[str, Any]:
        """Crawl the site of the start URL (same host; robots.txt obeyed) into a new database,
        at most max_pages pages and the server's time limit. render: never (default), auto
        (JavaScript pages through a browser) or always. Returns the crawl summary (pages found,
        stored, skipped and failed by reason) and db, the database for the other tools."""
        return await _call(tools.crawl, config, start, max_pages, render)

    @server.tool()
    async def analyze_boilerplate(db: str, domain: str, threshold_pct: float = 0.7,
                                  min_pages: int = 5) -> dict[str, Any]:
        """Find the blocks repeated across a domain's stored pages (banners, footers, notes):
        a block on at least max(min_pages, threshold_pct x pages) pages is boilerplate.
        Returns the figures and the text of the blocks that removed the most bytes, and
        stores each page's content without them (get_page format=cleaned)."""
        return await _call(tools.analyze_boilerplate, config, db, domain, threshold_pct,
                           min_pages)

    @server.tool()
    async def search(db: str, query: str, domain: str | None = None,
                     limit: int = 10) -> dict[str, Any]:
        """Full-text search of a crawl database: pages ranked by how well their title and text
        match the words of query ("quoted phrase", prefix*), each with a snippet."""
        return await _call(tools.search, config, db, query, domain, limit)

    @server.tool()
    async def get_page(db: str, url: str, format: str = "markdown") -> dict[str, Any]:  # noqa: A002
        """One stored page of a crawl database by URL. format: markdown (default), html, text,
        json (every stored field) or cleaned (markdown without the domain's boilerplate)."""
        return await _call(tools.get_page, config, db, url, format)

    return server


def run_server(config: AgentConfig, http_port: int | None = None) -> None:
    """Serve over stdio, or over streamable HTTP on 127.0.0.1:``http_port`` (path ``/mcp``)."""
    server = build_server(config)
    if http_port is None:
        server.run("stdio")
    else:
        logger.info("MCP server on http://127.0.0.1:%d/mcp", http_port)
        server.run("streamable-http", host="127.0.0.1", port=http_port)
