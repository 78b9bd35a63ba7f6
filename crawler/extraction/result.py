"""The result of extracting one page: the shape every tier and every output shares."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Extraction:
    """Main content and metadata of one page, as the extraction engine returns them."""

    url: str
    title: str | None = None
    author: str | None = None
    authors: list[str] = field(default_factory=list)
    published: str | None = None
    modified: str | None = None
    language: str | None = None
    canonical_url: str | None = None
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
    """Reader comments set apart from the main content (empty when the page has none, and on
    discussion pages, where the posts are the content)."""
    word_count: int = 0
    method: str = ""
    quality_score: float | None = None
    quality_reasons: list[str] = field(default_factory=list)
    metadata_cut: list[str] = field(default_factory=list)
    """Metadata fields that were longer than the engine keeps and were cut (``title``,
    ``authors``...; see ``Thresholds.metadata_max_chars``)."""
    html_cut: bool = False
    """Whether the page was larger than the engine parses (``MAX_HTML_BYTES`` characters, once
    the text it never shows is dropped): only its start was extracted."""
    trace: list[dict[str, Any]] | None = None
    decisions: list[dict[str, Any]] | None = None
    """One entry per stage of the choice (``stage``, ``applied``, ``why``...), when tracing."""

    def as_dict(self, *, with_trace: bool = False) -> dict[str, Any]:
        """Plain dict of the result (the trace and the decisions only when asked for)."""
        data = asdict(self)
        if not with_trace:
            data.pop("trace", None)
            data.pop("decisions", None)
        return data
