"""``mcp``: a Model Context Protocol server for agents (stdio, or streamable HTTP on 127.0.0.1)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from crawler import settings as defaults


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``mcp`` sub-command."""
    parser = subparsers.add_parser(
        "mcp", help="serve the crawler's tools to agents (Model Context Protocol)",
        description="Serve extract, crawl, analyze_boilerplate, search and get_page over MCP: "
                    "on standard input/output (default), or over streamable HTTP on "
                    "127.0.0.1 with --http PORT (endpoint /mcp).")
    parser.add_argument("--http", type=int, metavar="PORT",
                        help="serve streamable HTTP on 127.0.0.1:PORT instead of stdio")
    parser.add_argument("--root", type=Path, default=Path(defaults.MCP_ROOT), metavar="DIR",
                        help="folder of the databases the tools may read; crawls are written to "
                             "DIR/crawls/ (default: %(default)s)")
    parser.add_argument("--allow-host", action="append", default=list(defaults.MCP_ALLOWED_HOSTS),
                        metavar="HOST", help="let URLs of this host reach an internal address "
                                             "(a local site: 127.0.0.1); repeatable; internal "
                                             "addresses are refused by default")
    parser.add_argument("--max-pages", type=int, default=defaults.MCP_CRAWL_MAX_PAGES,
                        metavar="N", help="most pages a crawl may ask for (default: %(default)s)")
    parser.add_argument("--crawl-timeout", type=float, default=defaults.MCP_CRAWL_TIMEOUT,
                        metavar="S", help="seconds a crawl may run (default: %(default)s)")
    parser.add_argument("--fetch-timeout", type=float, default=defaults.MCP_FETCH_TIMEOUT,
                        metavar="S", help="seconds to fetch a page for extract "
                                          "(default: %(default)s)")
    parser.add_argument("--fetch-max-bytes", type=int, default=defaults.MCP_FETCH_MAX_BYTES,
                        metavar="N", help="largest page extract fetches (default: %(default)s)")
    parser.set_defaults(func=run_mcp)


def run_mcp(args: argparse.Namespace) -> int:
    """Check the options, then serve until the client disconnects (stdio) or Ctrl-C (HTTP)."""
    from crawler.agent.config import AgentConfig, AgentConfigError

    if args.http is not None and not 1 <= args.http <= 65535:
        print(f"error: --http must be a port from 1 to 65535, got {args.http}.", file=sys.stderr)
        return 2
    try:
        config = AgentConfig(root=args.root.resolve(),
                             allowed_hosts=frozenset(h.lower() for h in args.allow_host),
                             crawl_max_pages=args.max_pages, crawl_timeout=args.crawl_timeout,
                             fetch_timeout=args.fetch_timeout,
                             fetch_max_bytes=args.fetch_max_bytes)
    except AgentConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    config.root.mkdir(parents=True, exist_ok=True)
    from crawler.agent.server import run_server

    try:
        run_server(config, args.http)
    except KeyboardInterrupt:
        return 0
    return 0
