"""Command line of the project: ``python -m crawler COMMAND ...`` (re-run steps without fetching)."""

from __future__ import annotations

import argparse
import importlib
import logging
import sqlite3
import sys

from crawler.commands import COMMAND_MODULES
from crawler.database_identity import DatabaseRefused


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered sub-command."""
    parser = argparse.ArgumentParser(prog="python -m crawler", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log at DEBUG level")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run the chosen sub-command; return its exit code.

    A database that cannot be used, a file that cannot be written or a database that fails
    mid-way ends the command with one sentence and a non-zero exit, never a traceback."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
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
