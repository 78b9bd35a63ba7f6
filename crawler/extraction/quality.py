"""Quality of one extraction: content metrics → a score in [0, 1] and the reasons behind it."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from lxml.html import HtmlElement

from crawler.extraction.thresholds import THRESHOLDS, Thresholds
from crawler.extraction.tree_text import text_content

logger = logging.getLogger(__name__)

__all__ = ["QualityMetrics", "assess_quality", "measure"]

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
            language: str | None = None, tier: str = "",
            thresholds: Thresholds = THRESHOLDS) -> QualityMetrics:
    """Compute the metrics from the extracted text, its element and the page's metadata."""
    words = len(text.split())
    min_chars = thresholds.quality_paragraph_min_chars
    if element is not None and isinstance(element.tag, str):
        paragraphs = _paragraphs(element, min_chars)
        link_chars = sum(len(text_content(a)) for a in element.iter("a"))
        all_chars = len(text_content(element)) or 1
        link_density = min(1.0, link_chars / all_chars)
    else:
        paragraphs = sum(1 for block in text.split("\n") if len(block.strip()) >= min_chars)
        link_density = 0.0
    ratio = min(1.0, len(text) / page_html_length) if page_html_length else 0.0
    coverage = _coverage(words, element)
    fields = [title, author, published, language]
    completeness = sum(1 for f in fields if f) / len(fields)
    return QualityMetrics(words, paragraphs, round(ratio, 4), round(link_density, 4),
                          completeness, tier or "", coverage)


def _paragraphs(element: HtmlElement, min_chars: int) -> int:
    """The element's blocks (``_BLOCKS``, itself included) holding ``min_chars`` of text or more.
    Read from the last block back, so that each block comes after the blocks inside it: a
    block holding a counted one counts without its text being read (its text holds the
    other's, so it is at least as long)."""
    count = 0
    holds_counted: set[HtmlElement] = set()
    for el in reversed(list(element.iter(*_BLOCKS))):
        if el in holds_counted or len(text_content(el).strip()) >= min_chars:
            count += 1
            for anc in el.iterancestors():
                if anc in holds_counted:
                    break
                holds_counted.add(anc)
    return count


def _coverage(words: int, element: HtmlElement | None) -> float | None:
    """Share of the page's words that the content holds (None without the page around the element)."""
    if element is None or not isinstance(element.tag, str):
        return None
    root = element.getroottree().getroot()
    if root.tag != "html" or root is element:
        return None  # a detached fragment (another extractor's output): the page is not at hand
    body = root.find("body")
    page_words = len(text_content(body if body is not None else root).split())
    if not page_words:
        return None
    return round(min(1.0, words / page_words), 4)


def tier_trust(t: Thresholds) -> dict[str, float]:
    """Trust in each tier's choice, by tier name: on a mixed web corpus the fallback tiers
    (trafilatura when no container validated, the whole body) gave most of the poor
    extractions."""
    return {"rules": t.quality_trust_named, "structured": t.quality_trust_named,
            "semantic": t.quality_trust_landmark, "pattern": t.quality_trust_landmark,
            "density": t.quality_trust_density, "trafilatura": t.quality_trust_fallback,
            "body": t.quality_trust_body, "none": 0.0, "": t.quality_trust_unnamed}


def _tier_trust(tier: str, t: Thresholds) -> float:
    """Trust in the tier that produced the content (prefix match for "tier:detail" names)."""
    tier = (tier or "").lower()
    trusts = tier_trust(t)
    if tier in trusts:
        return trusts[tier]
    for name, trust in trusts.items():
        if name and tier.startswith(name):
            return trust
    return t.quality_trust_other


def score_metrics(m: QualityMetrics, t: Thresholds = THRESHOLDS) -> tuple[float, list[str]]:
    """Weighted score of the metrics and a reason for each weakness found (every number a
    ``quality_*`` field of the thresholds)."""
    reasons: list[str] = []
    if m.words == 0:
        return 0.0, ["empty content"]
    length = min(1.0, m.words / t.quality_full_words)
    if m.words < t.quality_very_short_words:
        reasons.append(f"very short content ({m.words} words)")
    elif m.words < t.quality_short_words:
        reasons.append(f"short content ({m.words} words)")
    structure = min(1.0, m.paragraphs / t.quality_full_paragraphs)
    if m.paragraphs < t.quality_few_paragraphs:
        reasons.append(f"few paragraphs ({m.paragraphs})")
    links = max(0.0, 1.0 - max(0.0, m.link_density - t.quality_free_link_density)
                / t.quality_link_density_span)
    if m.link_density >= t.quality_link_dense:
        reasons.append(f"link-dense content (link density {m.link_density:.2f})")
    elif m.link_density >= t.quality_many_links:
        reasons.append(f"many links (link density {m.link_density:.2f})")
    ratio = min(1.0, m.text_html_ratio / t.quality_full_text_ratio) if m.text_html_ratio \
        else t.quality_unknown_text_ratio
    if m.text_html_ratio and m.text_html_ratio < t.quality_low_text_ratio:
        reasons.append(f"little text for the page size (text/HTML {m.text_html_ratio:.3f})")
    if m.metadata_completeness < t.quality_min_metadata:
        reasons.append(f"incomplete metadata ({m.metadata_completeness:.0%})")
    trust = _tier_trust(m.tier, t)
    if trust < t.quality_weak_trust:
        reasons.append(f"content from a weak tier ({m.tier or 'unknown'})")
    if m.coverage is not None and m.coverage < t.quality_small_coverage:
        reasons.append(f"content is a small part of the page's text ({m.coverage:.0%})")
    cover = min(1.0, m.coverage / t.quality_full_coverage) if m.coverage is not None \
        else t.quality_unknown_coverage
    weights = (t.quality_weight_length, t.quality_weight_structure, t.quality_weight_links,
               t.quality_weight_text_ratio, t.quality_weight_metadata, t.quality_weight_trust,
               t.quality_weight_coverage)
    score = (t.quality_weight_length * length + t.quality_weight_structure * structure
             + t.quality_weight_links * links + t.quality_weight_text_ratio * ratio
             + t.quality_weight_metadata * m.metadata_completeness
             + t.quality_weight_trust * trust + t.quality_weight_coverage * cover) / sum(weights)
    return round(max(0.0, min(1.0, score)), 3), reasons


def assess_quality(text: str, *, element: HtmlElement | None = None, page_html_length: int = 0,
                   title: str | None = None, author: str | None = None, published: str | None = None,
                   language: str | None = None, tier: str = "",
                   thresholds: Thresholds = THRESHOLDS) -> tuple[float, list[str]]:
    """Quality score in [0, 1] of an extraction and the reasons that lowered it."""
    metrics = measure(text, element=element, page_html_length=page_html_length, title=title,
                      author=author, published=published, language=language, tier=tier,
                      thresholds=thresholds)
    return score_metrics(metrics, thresholds)
