"""``changes DB --since DATE``: the pages new, changed or gone since a date, for people and scripts.

Read from the pages' history columns (``first_seen``, ``last_changed``, ``gone_at``), so it works
on any database a crawl or a ``merge`` wrote. One line per change, oldest first: the time, what
happened and the URL, tab-separated; ``--json`` writes JSON lines instead. ``--what unchanged``
adds the pages seen again without a change.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from crawler.history import CHANGE_KINDS, CHANGED, GONE, NEW, changes_since, parse_time, stored_time
from crawler.storage import open_database


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``changes`` sub-command."""
    parser = subparsers.add_parser(
        "changes", help="list the pages new, changed or gone since a date",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("db", type=Path, metavar="DB", help="crawl database")
    parser.add_argument("--since", required=True, metavar="DATE",
                        help="ISO date or date-time (UTC unless it names a zone), "
                             "e.g. 2026-11-23 or 2026-11-23T02:30")
    parser.add_argument("--what", action="append", choices=CHANGE_KINDS, metavar="KIND",
                        help=f"list only this kind ({', '.join(CHANGE_KINDS)}; repeatable; "
                             "default: new, changed and gone)")
    parser.add_argument("--domain", metavar="D", help="only pages of this domain")
    parser.add_argument("--json", action="store_true", help="write JSON lines")
    parser.set_defaults(func=run)


def since_value(text: str) -> str | None:
    """The stored-time form of a ``--since`` value (a date means its first second), or None."""
    text = text.strip()
    moment = parse_time(text + "T00:00:00") if len(text) == 10 else parse_time(text)
    return stored_time(moment) if moment is not None else None


def run(args: argparse.Namespace) -> int:
    """Print the changes; exit 2 on a bad date, 1 on a missing database."""
    since = since_value(args.since)
    if since is None:
        print(f"error: --since {args.since!r} is not an ISO date or date-time "
              "(e.g. 2026-11-23 or 2026-11-23T02:30:00Z).", file=sys.stderr)
        return 2
    if not args.db.is_file():
        print(f"error: no database at {args.db}.", file=sys.stderr)
        return 1
    db = open_database(args.db)
    try:
        changes = changes_since(db, since, kinds=tuple(args.what or (NEW, CHANGED, GONE)),
                                domain=args.domain)
    finally:
        db.conn.close()
    out = sys.stdout
    for change in changes:
        if args.json:
            out.write(json.dumps(change.as_dict(), ensure_ascii=False) + "\n")
        else:
            out.write(f"{change.at}\t{change.kind}\t{change.url}\n")
    if not args.json:
        counts = {kind: sum(c.kind == kind for c in changes) for kind in CHANGE_KINDS}
        summary = ", ".join(f"{n} {kind}" for kind, n in counts.items() if n) or "no changes"
        print(f"since {since}: {summary}", file=sys.stderr)
    return 0
