"""Sub-commands of ``python -m crawler``: one module each, exposing ``register(subparsers)``.

``register`` adds an argparse sub-parser and sets ``func`` (taking the parsed arguments and
returning an exit code) as its default.
"""

from __future__ import annotations

import argparse
from pathlib import Path

#: Modules whose ``register`` is called, in the order they appear in ``--help``.
COMMAND_MODULES: list[str] = [
    "crawler.commands.demo",
    "crawler.commands.extract",
    "crawler.commands.dedup",
    "crawler.commands.reextract",
    "crawler.commands.merge",
    "crawler.commands.redis_clear",
]


def add_database_arguments(parser: argparse.ArgumentParser, *, verb: str) -> None:
    """The crawl database and the repeatable ``--domain`` filter that database commands share."""
    parser.add_argument("db", type=Path, metavar="DB", help="crawl database")
    parser.add_argument("--domain", action="append", metavar="D",
                        help=f"{verb} only this domain (repeatable; default: every domain)")
