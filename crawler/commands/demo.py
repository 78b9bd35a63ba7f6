"""``python -m crawler demo``: serve a bundled site on 127.0.0.1, crawl it, show what came out."""

from __future__ import annotations

import argparse
import json
import logging
import subprocess
import sys
from pathlib import Path

from crawler.static_server import serve_folder
from crawler.storage import open_database
from crawler.terminal import terminal_text

logger = logging.getLogger(__name__)

REPO_ROOT = Path(__file__).resolve().parents[2]
DEMO_SITE = REPO_ROOT / "tests" / "sites" / "mkdocs-material-starlette-injected" / "public"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``demo`` sub-command."""
    parser = subparsers.add_parser("demo", help="crawl a bundled site served on 127.0.0.1")
    parser.add_argument("--site", type=Path, default=DEMO_SITE, help="folder to serve")
    parser.add_argument("--output", type=Path, default=REPO_ROOT / "output",
                        help="where the database and feed go (default: output/)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve the site, run ``scrapy crawl domain`` on it and print a short report (page fields
    shown with their control characters made visible)."""
    if not args.site.is_dir():
        logger.error("No demo site at %s", args.site)
        return 1
    server = serve_folder(args.site)
    start = f"http://127.0.0.1:{server.server_address[1]}/"
    db_path = args.output / "demo.db"
    feed_path = args.output / "demo.jsonl"
    command = [sys.executable, "-m", "scrapy", "crawl", "domain", "-a", f"start={start}",
               "-a", "render=never", "-O", str(feed_path), "-s", f"SQLITE_PATH={db_path}",
               "-s", "AUTOTHROTTLE_ENABLED=false", "-s", "LOG_LEVEL=WARNING"]
    print(f"Serving {args.site} at {start} and crawling it ...", flush=True)
    try:
        completed = subprocess.run(command, cwd=REPO_ROOT)
    finally:
        server.shutdown()
        server.server_close()
    if completed.returncode != 0:
        return completed.returncode
    db = open_database(db_path)
    rows = list(db.query("SELECT url, title, word_count, method FROM pages ORDER BY url"))
    for row in rows:
        print(f"  {row['word_count'] or 0:6d} words  {row['method'] or '-':24s} "
              f"{terminal_text(row['title'])}")
    first = json.loads(feed_path.read_text().splitlines()[0]) if rows else {}
    print(f"\n{len(rows)} pages stored in {db_path} and {feed_path}.")
    if first:
        print(f"First page as markdown ({terminal_text(first['url'])}):\n")
        print(terminal_text(first["content_markdown"][:800], multiline=True))
    return 0
