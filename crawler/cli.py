"""Command line of the project: ``crawler COMMAND ...`` (the same as ``python -m crawler``):
search, export and re-run steps on stored pages without fetching, and extract pages outside a
crawl. The crawl itself is ``scrapy crawl domain -a start=URL``."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sqlite3
import sys
from importlib.metadata import PackageNotFoundError, version

from crawler import __version__
from crawler.commands import COMMAND_MODULES
from crawler.database_identity import DatabaseRefused
from crawler.quiet_logs import quiet_third_party_warnings


def _version(distribution: str) -> str:
    """The installed version of a distribution, or ``?``."""
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "?"


def program_name(argv0: str) -> str:
    """How the user called us: ``crawler`` (the console script) or ``python -m crawler``."""
    return "python -m crawler" if os.path.basename(argv0) == "__main__.py" else "crawler"


def build_parser(prog: str = "crawler") -> argparse.ArgumentParser:
    """The argument parser with every registered sub-command."""
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log at DEBUG level")
    parser.add_argument("--version", action="version",
                        version=f"crawler-extract {__version__} (Scrapy {_version('Scrapy')}, "
                                f"trafilatura {_version('trafilatura')}, Python "
                                f"{sys.version.split()[0]})")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run the chosen sub-command; return its exit code.

    A database that cannot be used, a file that cannot be written or a database that fails
    mid-way ends the command with one sentence and a non-zero exit, never a traceback."""
    parser = build_parser(program_name(sys.argv[0]))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    quiet_third_party_warnings()
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except DatabaseRefused as exc:
        print(f"error: {exc}.", file=sys.stderr)
        return 2
    except OSError as exc:
        # An output path that is a directory, on a read-only filesystem, or on a full disk.
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {where}{exc.strerror or exc}.", file=sys.stderr)
        return 1
    except sqlite3.Error as exc:
        print(f"error: the crawl database failed: {exc}.", file=sys.stderr)
        return 1
