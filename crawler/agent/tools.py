"""The agent tools as plain functions: validated inputs in, JSON-ready dicts out.

Each raises :class:`ToolInputError` with one sentence for anything the caller got wrong or the
server refuses (the MCP server turns it into a tool error, never a traceback). They block; the
server runs them in worker threads.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from crawler.agent.config import AgentConfig
from crawler.agent.fetch import FetchError, fetch_page
from crawler.agent.guard import GuardError, check_url
from crawler.exit_codes import exit_code_for
from crawler.storage import PAGES_TABLE
from crawler.urls import canonicalize_url

logger = logging.getLogger(__name__)

#: Output forms of ``extract`` and ``get_page`` (``cleaned``: the markdown without the domain's
#: boilerplate, stored pages only).
EXTRACT_FORMATS = ("markdown", "html", "text", "json")
PAGE_FORMATS = (*EXTRACT_FORMATS, "cleaned")
RENDER_MODES = ("never", "auto", "always")
#: Longest HTML document ``extract`` takes inline (a URL is bounded by the fetch limit).
MAX_INLINE_HTML = 10 * 1024 * 1024
#: Most hits ``search`` returns.
MAX_SEARCH_LIMIT = 100
#: Seconds a crawl gets past its own time limit to close (dedup, stats) before it is killed.
CRAWL_CLOSE_GRACE = 60.0
_HTML_START = re.compile(rb"^\s*(?:<!--.*?-->\s*)*<", re.DOTALL)


class ToolInputError(ValueError):
    """A refused or failed tool call; the message is one sentence for the caller."""


def _choice(value: object, choices: tuple[str, ...], name: str) -> str:
    if value not in choices:
        raise ToolInputError(f"{name} must be one of {', '.join(choices)}; got {value!r}.")
    return str(value)


def _int_in(value: object, low: int, high: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ToolInputError(f"{name} must be a whole number from {low} to {high}; "
                             f"got {value!r}.")
    return value


def _guarded(url: object, config: AgentConfig, name: str) -> str:
    try:
        return check_url(url, allowed_hosts=config.allowed_hosts, name=name)
    except GuardError as exc:
        raise ToolInputError(str(exc)) from exc


def _extraction_output(result: Any, fmt: str) -> dict[str, Any]:
    """The JSON answer of an extraction in the requested form."""
    answer: dict[str, Any] = {"url": result.url, "title": result.title,
                              "quality_score": result.quality_score, "format": fmt}
    if fmt == "json":
        answer["page"] = result.as_dict()
    else:
        answer["content"] = {"markdown": result.content_markdown, "html": result.content_html,
                             "text": result.content_text}[fmt]
    return answer


# --------------------------------------------------------------------------- extract

def extract(config: AgentConfig, url_or_html: object, fmt: object = "markdown") -> dict[str, Any]:
    """Main content of a page given as an http(s) URL (fetched, guarded) or as HTML text."""
    from crawler.extraction import extract as extract_page

    fmt = _choice(fmt, EXTRACT_FORMATS, "format")
    if not isinstance(url_or_html, str) or not url_or_html.strip():
        raise ToolInputError("url_or_html must be an http(s) URL or an HTML document.")
    text = url_or_html.strip()
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", text) or (
            "<" not in text and " " not in text and "." in text):
        url = _guarded(text, config, "url_or_html")
        try:
            page = fetch_page(url, allowed_hosts=config.allowed_hosts,
                              timeout=config.fetch_timeout, max_bytes=config.fetch_max_bytes)
        except FetchError as exc:
            raise ToolInputError(str(exc)) from exc
        return _extraction_output(extract_page(page.body, page.url), fmt)
    data = text.encode("utf-8", errors="replace")
    if len(data) > MAX_INLINE_HTML:
        raise ToolInputError(f"the HTML is larger than {MAX_INLINE_HTML} bytes.")
    if not _HTML_START.match(data):
        raise ToolInputError("url_or_html is neither an http(s) URL nor an HTML document "
                             "(HTML starts with a tag).")
    return _extraction_output(extract_page(data, ""), fmt)


# --------------------------------------------------------------------------- databases

def resolve_db(config: AgentConfig, db: object) -> Path:
    """The crawl database ``db`` names (relative to the root, or absolute inside it)."""
    if not isinstance(db, str) or not db.strip():
        raise ToolInputError("db must name a crawl database (a path under the server's root).")
    root = config.root.resolve()
    try:
        path = Path(db.strip())
        path = (path if path.is_absolute() else root / path).resolve()
        if not path.is_relative_to(root):
            raise ToolInputError(f"db must be inside the server's root folder ({root}).")
        if not path.is_file():
            raise ToolInputError(f"no crawl database at {path.relative_to(root)} (under {root}).")
    except (ValueError, OSError) as exc:  # a NUL byte, a name longer than the system allows
        raise ToolInputError(f"db is no path a crawl database can have ({exc}).") from exc
    try:
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        try:
            found = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                 [PAGES_TABLE]).fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise ToolInputError(f"{path.name} is not a readable SQLite database ({exc}).") from exc
    if not found:
        raise ToolInputError(f"{path.name} has no pages table; is it a crawl database?")
    return path


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    return conn


def get_page(config: AgentConfig, db: object, url: object,
             fmt: object = "markdown") -> dict[str, Any]:
    """One stored page by URL (exact, or canonical as the crawl stores it)."""
    path = resolve_db(config, db)
    fmt = _choice(fmt, PAGE_FORMATS, "format")
    if not isinstance(url, str) or not url.strip():
        raise ToolInputError("url must be the URL of a stored page.")
    wanted = [url.strip()]
    try:
        wanted.append(canonicalize_url(url.strip()))
    except ValueError:
        pass
    conn = _connect(path)
    try:
        row = None
        for candidate in wanted:
            row = conn.execute(f"SELECT * FROM [{PAGES_TABLE}] WHERE url = ?",
                               [candidate]).fetchone()
            if row is not None:
                break
        count = conn.execute(f"SELECT count(*) FROM [{PAGES_TABLE}]").fetchone()[0]
    finally:
        conn.close()
    if row is None:
        raise ToolInputError(f"no page {url.strip()} in {path.name} ({count} pages stored); "
                             f"the search tool finds pages by their text.")
    page = {k: row[k] for k in row.keys() if k != "raw_html"}
    answer: dict[str, Any] = {"url": page["url"], "title": page.get("title"),
                              "quality_score": page.get("quality_score"), "format": fmt}
    if fmt == "json":
        if isinstance(page.get("quality_reasons"), str):
            try:
                page["quality_reasons"] = json.loads(page["quality_reasons"])
            except ValueError:
                pass
        answer["page"] = page
    elif fmt == "cleaned":
        answer["content"] = page.get("cleaned_content") or page.get("content_markdown") or ""
    else:
        answer["content"] = page.get(f"content_{fmt}") or ""
    return answer


def search(config: AgentConfig, db: object, query: object, domain: object = None,
           limit: object = 10) -> dict[str, Any]:
    """Pages of the database ranked by how well their title and text match ``query``."""
    from crawler.search import SearchError
    from crawler.search import search as search_pages

    path = resolve_db(config, db)
    if not isinstance(query, str) or not query.strip():
        raise ToolInputError("query must be some words to search for.")
    if domain is not None and not isinstance(domain, str):
        raise ToolInputError("domain must be a host name (with or without its port).")
    limit = _int_in(limit, 1, MAX_SEARCH_LIMIT, "limit")
    try:
        hits = search_pages(path, query, domain=domain or None, limit=limit)
    except SearchError as exc:
        raise ToolInputError(str(exc)) from exc
    return {"query": query, "hits": [
        {"url": h.url, "title": h.title, "domain": h.domain, "snippet": h.snippet,
         "score": h.score, "quality_score": h.quality_score, "page_type": h.page_type}
        for h in hits]}


def analyze_boilerplate(config: AgentConfig, db: object, domain: object,
                        threshold_pct: object = None, min_pages: object = None) -> dict[str, Any]:
    """Run the domain boilerplate analysis on one domain of a database and say what it found
    (writes ``cleaned_content`` and the fingerprint, as the ``dedup`` command does)."""
    from crawler.dedup.config import DedupConfig, DedupConfigError
    from crawler.database_identity import DatabaseRefused
    from crawler.dedup.store import dedup_domain
    from crawler.storage import domains, open_database

    path = resolve_db(config, db)
    defaults = DedupConfig()
    try:
        dedup_config = DedupConfig.from_values(
            threshold_pct=defaults.threshold_pct if threshold_pct is None else threshold_pct,
            min_pages=defaults.min_pages if min_pages is None else min_pages,
            min_block_chars=defaults.min_block_chars)
    except DedupConfigError as exc:
        raise ToolInputError(str(exc)) from exc
    try:
        database = open_database(path, create=False)
    except DatabaseRefused as exc:
        raise ToolInputError(str(exc)) from exc
    try:
        known = domains(database)
        if domain not in known:
            raise ToolInputError(f"no pages of {domain!r} in {path.name}; its domains are "
                                 f"{', '.join(known[:20]) or 'none'}.")
        result = dedup_domain(database, str(domain), dedup_config)
    finally:
        database.conn.close()
    fp = result.fingerprint
    return {
        "domain": result.domain, "pages_analyzed": fp.pages_analyzed,
        "blocks_total": fp.blocks_total, "blocks_boilerplate": fp.blocks_boilerplate,
        "min_pages_for_boilerplate": fp.min_occurrences,
        "bytes_total": result.bytes_total, "bytes_removed": result.bytes_removed,
        "removed_share": round(result.removed_share, 4), "pages_changed": result.pages_changed,
        "threshold_pct": dedup_config.threshold_pct, "min_pages": dedup_config.min_pages,
        "top_blocks": [b.as_dict() for b in result.top_blocks],
    }


# --------------------------------------------------------------------------- crawl

def crawl_command(config: AgentConfig, start: str, max_pages: int, render: str,
                  db_path: Path, stats_path: Path) -> list[str]:
    """The ``scrapy crawl domain`` command line of a bounded crawl."""
    command = [sys.executable, "-m", "scrapy", "crawl", "domain", "-a", f"start={start}",
               "-a", f"max_pages={max_pages}", "-a", f"render={render}"]
    settings = {"SQLITE_PATH": str(db_path), "CRAWL_STATS_PATH": str(stats_path),
                "CLOSESPIDER_TIMEOUT": str(int(config.crawl_timeout)),
                "DEFAULT_FEED_URI": "", "LOG_LEVEL": "INFO"}
    for name, value in settings.items():
        command += ["-s", f"{name}={value}"]
    return command


def crawl(config: AgentConfig, start: object, max_pages: object = 20,
          render: object = "never") -> dict[str, Any]:
    """A crawl of ``start``'s site bounded by ``max_pages`` and the server's time limit, into a
    new database under the root; returns the crawl summary and the database to query."""
    max_pages = _int_in(max_pages, 1, config.crawl_max_pages, "max_pages")
    render = _choice(render, RENDER_MODES, "render")
    start = _guarded(start, config, "start")  # last: it may resolve the host
    host = urlsplit(start).netloc.lower()
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    crawls_dir = config.crawls_dir.resolve()
    crawls_dir.mkdir(parents=True, exist_ok=True)
    db_path = crawls_dir / f"{re.sub(r'[^a-z0-9.-]+', '_', host)}-{stamp}.db"
    # The crawl runs in the root folder: the project is found by its settings module, and by
    # the package's own location when it is not installed.
    package_parent = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, SCRAPY_SETTINGS_MODULE="crawler.settings",
               PYTHONPATH=os.pathsep.join(filter(None, [package_parent,
                                                        os.environ.get("PYTHONPATH")])))
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="crawl-") as work:
        stats_path = Path(work) / "stats.json"
        log_path = Path(work) / "crawl.log"
        command = crawl_command(config, start, max_pages, render, db_path, stats_path)
        with log_path.open("wb") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, env=env, cwd=config.root,
                                       start_new_session=True)
            try:
                returncode = process.wait(timeout=config.crawl_timeout + CRAWL_CLOSE_GRACE)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                raise ToolInputError(f"the crawl of {start} did not stop within "
                                     f"{config.crawl_timeout + CRAWL_CLOSE_GRACE:.0f}s and "
                                     f"was killed.") from None
        stats = json.loads(stats_path.read_text()) if stats_path.is_file() else {}
        log_tail = log_path.read_text(errors="replace").splitlines()[-5:]
    reason = stats.get("finish_reason")
    summary = {
        "start": start, "db": str(db_path.relative_to(config.root.resolve())),
        "close_reason": reason, "exit_code": returncode,
        "seconds": round(time.monotonic() - started, 1),
        "pages_found": stats.get("summary/pages_found", 0),
        "pages_stored": stats.get("summary/pages_stored", 0),
        "pages_rendered": stats.get("summary/pages_rendered", 0),
        "skipped": {k.split("/", 1)[1]: v for k, v in stats.items()
                    if k.startswith("skipped/") and v},
        "errors": {k.split("/", 1)[1]: v for k, v in stats.items()
                   if k.startswith("errors/") and v},
        "summary": {k.split("/", 1)[1]: v for k, v in stats.items()
                    if k.startswith("summary/")},
    }
    if returncode != 0 or exit_code_for(reason, stats) != 0 or not stats:
        raise ToolInputError(f"the crawl of {start} failed (close reason {reason or 'unknown'}, "
                             f"exit code {returncode}): {' | '.join(log_tail)}")
    return summary
