"""Which files the crawler may open as its database, and how their schema is versioned.

A crawl database says it is one in its header: ``PRAGMA application_id`` holds
:data:`APPLICATION_ID` and ``PRAGMA user_version`` the schema version it was last brought up to.
Both are checked when a database is opened, before anything is written, so that a path that is
unusable (a directory, a path under a regular file, an empty or garbage file, a read-only
place) or another application's SQLite file is refused with one sentence and left untouched.

Versioning: adding a column to ``PAGES_COLUMNS`` or a table created with ``IF NOT EXISTS`` is
additive and needs no new version; the schema is completed on every open. A change that
rewrites or renames existing data raises :data:`SCHEMA_VERSION` and adds its step to
:data:`MIGRATIONS`; steps run in order on open, in one transaction with the new version number.
A database written by a newer version (a higher ``user_version``) is refused rather than
written by code that does not know its schema. Databases made before the header existed (no
application id, but a ``pages`` table with our columns) are recognised and upgraded.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Callable
from enum import Enum
from pathlib import Path

#: ``PRAGMA application_id`` of a crawl database: the ASCII bytes "CRWL".
APPLICATION_ID = 0x4352574C
#: Current schema version (``PRAGMA user_version``); see :data:`MIGRATIONS`.
SCHEMA_VERSION = 1
#: Step that brings a database from version ``n - 1`` to ``n``, keyed by ``n``. Version 1 is the
#: first stamped schema: earlier databases only need the header, so its step does nothing.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: lambda conn: None,
}

#: Columns that tell a crawl database made before the header existed: its ``pages`` table is
#: keyed by ``url`` and holds these (all present since the first release).
LEGACY_PAGES_COLUMNS = frozenset({"url", "domain", "fetched_at", "content_html",
                                  "content_markdown", "content_text", "raw_html"})
PAGES_TABLE = "pages"
SQLITE_HEADER = b"SQLite format 3\x00"
IN_MEMORY = ":memory:"


class DatabaseRefused(Exception):
    """The path cannot be used as a crawl database; the message is one sentence for the user."""


class DatabaseState(Enum):
    """What an opened file turned out to be."""

    NEW = "new"            # no tables yet: the schema is created and stamped
    OURS = "ours"          # stamped with our application id, at this or an older version
    LEGACY = "legacy"      # ours from before the header existed: upgraded and stamped


def check_path(path: Path, *, create: bool, writable: bool) -> None:
    """Refuse a path that cannot hold a crawl database, before SQLite touches it.

    ``create``: a missing file may be created (its directories too); ``writable``: the file
    and its directory must accept writes (WAL mode writes beside the file).
    """
    if str(path) == IN_MEMORY:
        return
    if path.is_dir():
        raise DatabaseRefused(f"{path} is a directory, not a database file")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise DatabaseRefused(f"{path} cannot be a database: {parent} is a file, "
                                      "not a directory")
            break
    if path.exists():
        _check_header(path)
        if writable and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
            raise DatabaseRefused(f"{path} cannot be written ({_why_not_writable(path.parent)})")
        return
    if not create:
        raise DatabaseRefused(f"no crawl database at {path}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError as exc:
        raise DatabaseRefused(f"{path} cannot be created: {exc.strerror or exc}") from None


def _check_header(path: Path) -> None:
    """Refuse a file that is empty or is not a SQLite database.

    The file is read through SQLite, never with ``open()``: closing any descriptor of a file
    drops every POSIX lock this process holds on it, the locks of its other SQLite connections
    included, and a connection that then believes it is alone deletes the write-ahead log
    under the others (pages written after that are invisible to other processes). SQLite
    shares one lock state among its connections to a file, so its own read is safe.
    """
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise DatabaseRefused(f"{path} cannot be read: {exc.strerror or exc}") from None
    if not size:
        raise DatabaseRefused(f"{path} is an empty file, not a crawl database; remove it or "
                              "choose another path")
    uri = f"{path.absolute().as_uri()}?mode=ro"
    if not os.access(path.parent, os.W_OK):
        uri += "&immutable=1"  # no shared-memory file can be made beside it (see connect)
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=30)
    except sqlite3.Error as exc:
        raise DatabaseRefused(f"{path} cannot be read: {exc}") from None
    try:
        conn.execute("PRAGMA schema_version").fetchone()
    except sqlite3.DatabaseError as exc:
        if not _starts_with_sqlite_header(path):
            raise DatabaseRefused(f"{path} is not a SQLite database (it does not start with "
                                  "SQLite's header); choose another path") from None
        raise DatabaseRefused(f"{path} is not a readable SQLite database ({exc})") from None
    finally:
        conn.close()


def _starts_with_sqlite_header(path: Path) -> bool:
    """Whether the file starts with SQLite's header. Read with ``open()`` only for a file SQLite
    could not read: no connection of this process can hold locks on it."""
    try:
        with path.open("rb") as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def _why_not_writable(directory: Path) -> str:
    """The operating system's reason a file cannot be created in ``directory``."""
    try:
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    return "permission denied"


def connect(path: Path, *, create: bool, readonly: bool) -> sqlite3.Connection:
    """A connection that never creates a file unless ``create`` (SQLite's URI modes)."""
    if str(path) == IN_MEMORY:
        return sqlite3.connect(IN_MEMORY, isolation_level=None, check_same_thread=False)
    mode = "ro" if readonly else ("rwc" if create else "rw")
    uri = f"{path.absolute().as_uri()}?mode={mode}"
    if readonly and not os.access(path.parent, os.W_OK):
        # A WAL database on read-only media cannot create its shared-memory file; nothing can
        # change it there, so it is read as immutable.
        uri += "&immutable=1"
    try:
        return sqlite3.connect(uri, uri=True, timeout=30, isolation_level=None,
                               check_same_thread=False)
    except sqlite3.Error as exc:
        raise DatabaseRefused(f"{path} cannot be opened: {exc}") from None


def identify(conn: sqlite3.Connection, path: Path | str) -> DatabaseState:
    """Whether the open database is new, ours or ours from before the header; refuse others."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
        columns = {row[1]: row[5] for row in conn.execute(f"PRAGMA table_info([{PAGES_TABLE}])")}
    except sqlite3.DatabaseError as exc:
        raise DatabaseRefused(f"{path} is not a readable SQLite database ({exc})") from None
    if app_id == APPLICATION_ID:
        if version > SCHEMA_VERSION:
            raise DatabaseRefused(
                f"{path} was written by a newer version of the crawler (schema {version}; this "
                f"version knows up to {SCHEMA_VERSION}); upgrade the crawler")
        return DatabaseState.OURS
    if app_id != 0:
        raise DatabaseRefused(f"{path} belongs to another application (SQLite application id "
                              f"{app_id:#x}); choose another path")
    if not tables:
        return DatabaseState.NEW
    if LEGACY_PAGES_COLUMNS <= columns.keys() and columns.get("url") == 1:
        return DatabaseState.LEGACY
    listed = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
    raise DatabaseRefused(f"{path} is another application's SQLite database (tables: {listed}), "
                          "not a crawl database; choose another path")


def needs_upgrade(conn: sqlite3.Connection, state: DatabaseState) -> bool:
    """Whether :func:`stamp` has migrations to run or a header to write."""
    if state is not DatabaseState.OURS:
        return True
    return conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION


def stamp(conn: sqlite3.Connection) -> None:
    """Run the pending migration steps and write our application id and schema version,
    in one transaction."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    conn.execute("BEGIN IMMEDIATE")
    try:
        for step in range(version + 1, SCHEMA_VERSION + 1):
            MIGRATIONS[step](conn)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
