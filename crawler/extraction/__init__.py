"""Main-content extraction: HTML and URL in, an :class:`Extraction` out (no Scrapy imports).

This first version delegates to trafilatura; the tiered engine replaces it behind the same
``extract()`` signature.
"""

from __future__ import annotations

import logging

import trafilatura

from crawler.extraction.result import Extraction

logger = logging.getLogger(__name__)

__all__ = ["Extraction", "extract"]


def extract(html: str | bytes, url: str, *, trace: bool = False) -> Extraction:
    """Extract the main content and metadata of one page."""
    result = Extraction(url=url)
    if isinstance(html, bytes):
        html = html.decode("utf-8", errors="replace")
    if not html.strip():
        return result
    doc = trafilatura.bare_extraction(html, url=url, with_metadata=True, include_links=True,
                                      output_format="python")
    if doc is None:
        return result
    data = doc.as_dict() if hasattr(doc, "as_dict") else dict(doc)
    result.title = data.get("title")
    result.author = data.get("author")
    result.published = data.get("date")
    result.language = data.get("language")
    result.description = data.get("description")
    result.site_name = data.get("sitename")
    result.content_text = data.get("text") or ""
    result.content_markdown = trafilatura.extract(html, url=url, output_format="markdown",
                                                  include_links=True) or ""
    result.content_html = trafilatura.extract(html, url=url, output_format="html",
                                              include_links=True) or ""
    result.word_count = len(result.content_text.split())
    result.method = "trafilatura"
    return result
