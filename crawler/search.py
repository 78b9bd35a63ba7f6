"""Full-text search over a crawl database: ranked pages with a snippet of the matching text.

The index (SQLite FTS5 over each page's title and main text, see ``crawler.storage``) is kept
in sync by the database itself; this module turns a user's query into an FTS5 query, ranks
with BM25 (a match in the title weighs ``TITLE_WEIGHT`` times one in the text) and returns
plain records, for the ``search`` command and for any other caller (an agent's tool, a report).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from crawler.storage import PAGES_TABLE, SEARCH_TABLE, domain_condition, open_database

#: BM25 weight of a title match against a match in the text (a page named after the query
#: is what a user looks for first).
TITLE_WEIGHT = 5.0
#: Tokens of text around the matches in a snippet (FTS5 allows at most 64).
SNIPPET_TOKENS = 24

#: Words (and quoted phrases) a query may hold: FTS5's time grows with the square of a query's
#: prefix terms (``a* a* ...``: 400 took 21 s on a crawl of 20 pages, 800 took 80 s), and the
#: search is open to agents (the MCP server). 32 is what web search engines read of a query.
MAX_QUERY_TERMS = 32
#: Most results a search returns (SQLite reads a LIMIT as a 64-bit integer: a larger one raised).
MAX_LIMIT = 1_000_000

_TERM = re.compile(r'"([^"]*)"|(\S+)')


class SearchError(Exception):
    """The search cannot run (no database, an empty query); the message is one sentence."""


@dataclass(frozen=True)
class Hit:
    """One page matching a query; ``score`` is the negated BM25 rank (higher is better)."""

    url: str
    title: str | None
    domain: str | None
    snippet: str
    score: float
    quality_score: float | None
    page_type: str | None


def fts_query(text: str) -> str:
    """The FTS5 query for what a user typed: every word must appear (in any order), a
    ``"quoted phrase"`` must appear as written, and ``word*`` matches a prefix. Operators and
    punctuation are taken as text, so no input is a syntax error."""
    return " ".join(_fts_terms(text))


def _fts_terms(text: str) -> list[str]:
    """The FTS5 terms of :func:`fts_query`, one per word or phrase that holds a token."""
    terms: list[str] = []
    for phrase, word in _TERM.findall(text):
        raw = phrase if phrase else word
        prefix = not phrase and raw.endswith("*") and len(raw) > 1
        raw = raw.rstrip("*") if prefix else raw
        if not any(char.isalnum() for char in raw):
            continue  # punctuation alone holds no token to match
        terms.append('"' + raw.replace('"', '""') + '"' + ("*" if prefix else ""))
    return terms


def search(db_path: str | Path, query: str, domain: str | None = None, limit: int = 10, *,
           highlight: tuple[str, str] = ("[", "]")) -> list[Hit]:
    """The pages of ``db_path`` best matching ``query``, at most ``limit``. The database is
    opened read-only: a search never changes it (nor makes a file, a journal or a WAL).

    ``domain`` keeps one domain's pages (with or without its port). ``highlight`` is put
    around each matched word of the snippet.
    """
    path = Path(db_path)
    if not path.is_file():
        raise SearchError(f"no database at {path}")
    terms = _fts_terms(query)
    if not terms:
        raise SearchError("the query has no words to search for")
    if len(terms) > MAX_QUERY_TERMS:
        raise SearchError(f"the query has more than {MAX_QUERY_TERMS} words and phrases "
                          f"(MAX_QUERY_TERMS): search with fewer")
    if not 1 <= limit <= MAX_LIMIT:
        raise SearchError(f"the limit must be from 1 to {MAX_LIMIT:,}")
    sql = (f"SELECT p.url, p.title, p.domain, "
           f"snippet([{SEARCH_TABLE}], 1, ?, ?, '…', {SNIPPET_TOKENS}), "
           f"bm25([{SEARCH_TABLE}], {TITLE_WEIGHT}, 1.0) AS score, p.quality_score, p.page_type "
           f"FROM [{SEARCH_TABLE}] JOIN [{PAGES_TABLE}] p ON p.rowid = [{SEARCH_TABLE}].rowid "
           f"WHERE [{SEARCH_TABLE}] MATCH ?")
    params: list[object] = [highlight[0], highlight[1], " ".join(terms)]
    if domain:
        condition, domain_params = domain_condition([domain])
        sql += f" AND {condition}"
        params.extend(domain_params)
    sql += " ORDER BY score, p.url LIMIT ?"
    params.append(limit)
    db = open_database(path, create=False, readonly=True)  # a search never writes
    try:
        if not db[SEARCH_TABLE].exists():
            raise SearchError(f"{path} has no search index (it was written before the index "
                              f"existed); a crawl into it or `crawler reextract` adds it")
        rows = db.conn.execute(sql, params).fetchall()
    except sqlite3.DatabaseError as exc:
        raise SearchError(f"cannot search {path}: {exc}") from exc
    finally:
        db.conn.close()
    return [Hit(url=url, title=title, domain=dom, snippet=_one_line(snippet or ""), score=-score,
                quality_score=quality, page_type=page_type)
            for url, title, dom, snippet, score, quality, page_type in rows]


def _one_line(text: str) -> str:
    """A snippet with its line breaks and runs of spaces collapsed."""
    return " ".join(text.split())
