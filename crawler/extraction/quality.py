"""Quality of one extraction: content metrics → a score in [0, 1] and the reasons behind it."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from lxml.html import HtmlElement

logger = logging.getLogger(__name__)

__all__ = ["QualityMetrics", "assess_quality", "measure"]

#: Trust in each tier's choice: on a mixed web corpus the fallback tiers (trafilatura when no
#: container validated, the whole body) gave most of the poor extractions.
TIER_TRUST = {
    "rules": 1.0, "structured": 1.0, "semantic": 0.9, "pattern": 0.9, "density": 0.7,
    "trafilatura": 0.4, "body": 0.3, "none": 0.0, "": 0.5,
}
_BLOCKS = ("p", "li", "pre", "blockquote", "tr", "h2", "h3", "h4", "dd", "figcaption")


@dataclass(frozen=True)
class QualityMetrics:
    """The measurable properties of extracted content that the score is built from."""

    words: int
    paragraphs: int
    text_html_ratio: float
    link_density: float
    metadata_completeness: float
    tier: str
    coverage: float | None = None


def measure(text: str, *, element: HtmlElement | None = None, page_html_length: int = 0,
            title: str | None = None, author: str | None = None, published: str | None = None,
            language: str | None = None, tier: str = "") -> QualityMetrics:
    """Compute the metrics from the extracted text, its element and the page's metadata."""
    words = len(text.split())
    if element is not None and isinstance(element.tag, str):
        paragraphs = sum(1 for el in element.iter(*_BLOCKS)
                         if len((el.text_content() or "").strip()) >= 20)
        link_chars = sum(len(a.text_content() or "") for a in element.iter("a"))
        all_chars = len(element.text_content() or "") or 1
        link_density = min(1.0, link_chars / all_chars)
    else:
        paragraphs = sum(1 for block in text.split("\n") if len(block.strip()) >= 20)
        link_density = 0.0
    ratio = min(1.0, len(text) / page_html_length) if page_html_length else 0.0
    coverage = _coverage(words, element)
    fields = [title, author, published, language]
    completeness = sum(1 for f in fields if f) / len(fields)
    return QualityMetrics(words, paragraphs, round(ratio, 4), round(link_density, 4),
                          completeness, tier or "", coverage)


def _coverage(words: int, element: HtmlElement | None) -> float | None:
    """Share of the page's words that the content holds (None without the page around the element)."""
    if element is None or not isinstance(element.tag, str):
        return None
    root = element.getroottree().getroot()
    if root.tag != "html" or root is element:
        return None  # a detached fragment (another extractor's output): the page is not at hand
    body = root.find("body")
    page_words = len((body if body is not None else root).text_content().split())
    if not page_words:
        return None
    return round(min(1.0, words / page_words), 4)


def _tier_trust(tier: str) -> float:
    """Trust in the tier that produced the content (prefix match for "tier:detail" names)."""
    tier = (tier or "").lower()
    if tier in TIER_TRUST:
        return TIER_TRUST[tier]
    for name, trust in TIER_TRUST.items():
        if name and tier.startswith(name):
            return trust
    return 0.6


def score_metrics(m: QualityMetrics) -> tuple[float, list[str]]:
    """Weighted score of the metrics and a reason for each weakness found."""
    reasons: list[str] = []
    if m.words == 0:
        return 0.0, ["empty content"]
    length = min(1.0, m.words / 300)
    if m.words < 50:
        reasons.append(f"very short content ({m.words} words)")
    elif m.words < 150:
        reasons.append(f"short content ({m.words} words)")
    structure = min(1.0, m.paragraphs / 3)
    if m.paragraphs < 2:
        reasons.append(f"few paragraphs ({m.paragraphs})")
    links = max(0.0, 1.0 - max(0.0, m.link_density - 0.2) / 0.4)
    if m.link_density >= 0.5:
        reasons.append(f"link-dense content (link density {m.link_density:.2f})")
    elif m.link_density >= 0.3:
        reasons.append(f"many links (link density {m.link_density:.2f})")
    ratio = min(1.0, m.text_html_ratio / 0.05) if m.text_html_ratio else 0.5
    if m.text_html_ratio and m.text_html_ratio < 0.01:
        reasons.append(f"little text for the page size (text/HTML {m.text_html_ratio:.3f})")
    if m.metadata_completeness < 0.5:
        reasons.append(f"incomplete metadata ({m.metadata_completeness:.0%})")
    trust = _tier_trust(m.tier)
    if trust < 0.6:
        reasons.append(f"content from a weak tier ({m.tier or 'unknown'})")
    if m.coverage is not None and m.coverage < 0.2:
        reasons.append(f"content is a small part of the page's text ({m.coverage:.0%})")
    cover = min(1.0, m.coverage / 0.4) if m.coverage is not None else 0.75
    # Weights fitted (coarse grid, Pearson with page F1) on a mixed web corpus of 857 pages:
    # text/HTML ratio, tier trust and coverage tell good extractions from poor ones best.
    score = (0.20 * length + 0.10 * structure + 0.10 * links + 0.40 * ratio
             + 0.10 * m.metadata_completeness + 0.40 * trust + 0.30 * cover) / 1.6
    return round(max(0.0, min(1.0, score)), 3), reasons


def assess_quality(text: str, *, element: HtmlElement | None = None, page_html_length: int = 0,
                   title: str | None = None, author: str | None = None, published: str | None = None,
                   language: str | None = None, tier: str = "") -> tuple[float, list[str]]:
    """Quality score in [0, 1] of an extraction and the reasons that lowered it."""
    metrics = measure(text, element=element, page_html_length=page_html_length, title=title,
                      author=author, published=published, language=language, tier=tier)
    return score_metrics(metrics)
