"""``crawler search DB "query"``: the stored pages best matching a query, with a snippet each."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from crawler.commands import missing_domains
from crawler.search import SearchError, search
from crawler.storage import open_database


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``search`` sub-command."""
    parser = subparsers.add_parser(
        "search", help="full-text search of the stored pages (title and main text)",
        description="Rank the stored pages by how well their title and main text match the "
                    "query (every word must appear; \"a phrase\" as written; word* as a prefix).")
    parser.add_argument("db", type=Path, metavar="DB", help="crawl database")
    parser.add_argument("query", help="words to search for")
    parser.add_argument("--domain", metavar="D", help="only this domain (port optional)")
    parser.add_argument("--limit", type=int, default=10, metavar="N",
                        help="at most N hits (default: 10)")
    parser.add_argument("--json", action="store_true", help="one JSON object per hit")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the hits, best first; 1 when nothing matches (with a hint for an unknown domain)."""
    try:
        hits = search(args.db, args.query, domain=args.domain, limit=args.limit)
    except SearchError as exc:
        print(f"error: {exc}.", file=sys.stderr)
        return 2
    if not hits:
        hint = None
        if args.domain:
            db = open_database(args.db, create=False, readonly=True)
            try:
                hint = missing_domains(db, [args.domain])
            finally:
                db.conn.close()
        print(f"No page matches {args.query!r}" + (f": {hint}." if hint else "."), file=sys.stderr)
        return 1
    for number, hit in enumerate(hits, 1):
        if args.json:
            print(json.dumps(asdict(hit), ensure_ascii=False))
            continue
        quality = "-" if hit.quality_score is None else f"{hit.quality_score:.2f}"
        print(f"{number}. {hit.title or '(no title)'}")
        print(f"   {hit.url}")
        print(f"   {hit.page_type or 'page'} · quality {quality} · score {hit.score:.2f}")
        print(f"   {hit.snippet}")
    return 0
