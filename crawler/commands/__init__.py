"""Sub-commands of ``python -m crawler``: one module each, exposing ``register(subparsers)``.

``register`` adds an argparse sub-parser and sets ``func`` (taking the parsed arguments and
returning an exit code) as its default.
"""

from __future__ import annotations

#: Modules whose ``register`` is called, in the order they appear in ``--help``.
COMMAND_MODULES: list[str] = [
    "crawler.commands.demo",
    "crawler.commands.extract",
    "crawler.commands.dedup",
    "crawler.commands.reextract",
    "crawler.commands.merge",
    "crawler.commands.redis_clear",
]
