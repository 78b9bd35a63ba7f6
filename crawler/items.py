"""PageItem: the one shape a crawled page travels in, from the spider to storage and feeds."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from crawler.extraction.result import Extraction


@dataclass
class PageItem:
    """One fetched HTML page and, once the pipelines ran, its extracted content."""

    url: str
    domain: str
    status: int
    fetched_at: str
    rendered: bool
    content_type: str
    encoding: str
    canonical_url: str | None = None
    depth: int = 0
    render_reason: str | None = None
    #: Why the content fields are empty although the page was fetched: ``timeout`` (longer than
    #: EXTRACTION_TIMEOUT) or ``failed`` (the extraction raised). A stored page keeps its
    #: previous content then (see :func:`crawler.history.record_page`).
    extraction_error: str | None = None
    title: str | None = None
    author: str | None = None
    published: str | None = None
    modified: str | None = None
    language: str | None = None
    description: str | None = None
    site_name: str | None = None
    page_type: str | None = None
    framework: str | None = None
    content_html: str = ""
    content_markdown: str = ""
    content_text: str = ""
    comments_html: str = ""
    comments_markdown: str = ""
    comments_text: str = ""
    word_count: int = 0
    method: str = ""
    quality_score: float | None = None
    quality_reasons: list[str] = field(default_factory=list)
    quality_flagged: bool = False
    #: The response's validators (``ETag``, ``Last-Modified``), sent back on a re-crawl.
    etag: str | None = None
    last_modified: str | None = None
    #: :func:`crawler.content_hash.content_hash` of ``content_text``, set after extraction.
    content_hash: str | None = None
    raw_html: bytes = field(default=b"", repr=False)


#: Fields kept out of feeds: the raw page is stored (compressed) in SQLite only.
PRIVATE_FIELDS = frozenset({"raw_html"})

#: Field order of JSONL/CSV feeds.
FEED_FIELDS = [f.name for f in fields(PageItem) if f.name not in PRIVATE_FIELDS]


def page_row(item: PageItem) -> dict[str, Any]:
    """Column values of one page for the `pages` table (raw HTML left to the caller)."""
    return {f.name: getattr(item, f.name) for f in fields(PageItem) if f.name not in PRIVATE_FIELDS}


#: Extraction fields a page carries under the same name (the page's own URL and canonical link
#: come from the crawl, not from the extraction).
EXTRACTED_FIELDS = tuple(f.name for f in fields(Extraction)
                         if f.name in {g.name for g in fields(PageItem)}
                         and f.name not in ("url", "canonical_url"))

#: Columns derived from a page's main content: left as stored when a fetch brings no new content
#: (``extraction_error``).
CONTENT_FIELDS = (*EXTRACTED_FIELDS, "content_hash", "quality_reasons", "quality_flagged")
