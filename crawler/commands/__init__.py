"""Sub-commands of ``python -m crawler``: one module each, exposing ``register(subparsers)``.

``register`` adds an argparse sub-parser and sets ``func`` (taking the parsed arguments and
returning an exit code) as its default.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import sqlite_utils

#: Modules whose ``register`` is called, in the order they appear in ``--help``.
COMMAND_MODULES: list[str] = [
    "crawler.commands.demo",
    "crawler.commands.extract",
    "crawler.commands.dedup",
    "crawler.commands.reextract",
    "crawler.commands.merge",
    "crawler.commands.changes",
    "crawler.commands.redis_clear",
    "crawler.commands.export",
    "crawler.commands.search",
    "crawler.commands.report",
    "crawler.commands.mcp",
]


#: Most worker processes a command starts (``--jobs``): ``reextract`` started all it was asked
#: for at once (a pool of 100,000), the others one per page as work arrived, and a 20-digit
#: number raised OverflowError (a traceback).
MAX_JOBS = 256


def jobs_problem(jobs: int) -> str | None:
    """What is wrong with a ``--jobs`` value, in one sentence; None when it is usable."""
    if 1 <= jobs <= MAX_JOBS:
        return None
    return f"--jobs must be at least 1 and at most {MAX_JOBS} (MAX_JOBS), got {jobs}."


def add_database_arguments(parser: argparse.ArgumentParser, *, verb: str) -> None:
    """The crawl database and the repeatable ``--domain`` filter that database commands share."""
    parser.add_argument("db", type=Path, metavar="DB", help="crawl database")
    parser.add_argument("--domain", action="append", metavar="D",
                        help=f"{verb} only this domain (repeatable; default: every domain)")


def missing_domains(db: sqlite_utils.Database, requested: list[str]) -> str | None:
    """A sentence naming the requested domains that match no stored page, with the domains the
    database holds; None when every requested domain matches (with or without its port)."""
    from crawler.storage import domain_condition, domains

    missing = []
    for name in requested:
        condition, params = domain_condition([name])
        if db.conn.execute(f"SELECT 1 FROM pages WHERE {condition} LIMIT 1", params).fetchone() is None:
            missing.append(name)
    if not missing:
        return None
    known = domains(db)
    shown = ", ".join(known[:10]) + (f" and {len(known) - 10} more" if len(known) > 10 else "")
    return (f"no pages of {', '.join(missing)} in this database; "
            f"it holds {shown or 'no pages'}")
