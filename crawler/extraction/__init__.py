"""Main-content extraction: HTML and URL in, an :class:`Extraction` out (no Scrapy imports).

The page is decoded and parsed once; structured data and metadata are read from the tree; then
tiers (site/framework rules, structured data, HTML5 semantics, class/id patterns, density
scoring) propose content containers, validation and agreement pick one, cleaning removes the
boilerplate left inside it, and trafilatura competes only when no cheap candidate validates.
"""

from __future__ import annotations

import logging
import re
import time
from copy import deepcopy
from typing import Any

import lxml.html
from lxml import etree
from lxml.html import HtmlElement

from crawler.extraction import candidates as tiers
from crawler.extraction.clean import clean_container, discount_named_blocks, strip_non_content
from crawler.extraction.document import parse_html
from crawler.extraction.frameworks import Detection, load_rules, detect_framework
from crawler.extraction.result import Extraction
from crawler.extraction.scoring import compute_stats, density_scores

logger = logging.getLogger(__name__)

__all__ = ["Extraction", "extract"]

_WORD = re.compile(r"\w+")
GRID_OVER_FALLBACK = 2.0
"""A grid of linked cards replaces the trafilatura fallback when it holds this many times its text
(the fallback kept the intro paragraph of a category page and none of its cards)."""


GRID_OVER_CHOICE = 2.5
"""A grid of linked items replaces a chosen block outside it when it holds this many times its
text (a category page whose short intro or policy note won the density score)."""


def _larger_item_grid(cands: list[tiers.Candidate], chosen: tiers.Candidate, body: HtmlElement,
                      stats: dict, scores: dict) -> tiers.Candidate | None:
    """The page's grid of linked cards when it lies outside the chosen block and holds far more
    text than it."""
    grid = tiers.item_grid(body, stats, scores)
    if grid is None or grid.chars <= GRID_OVER_CHOICE * chosen.chars \
            or tiers.contains(grid.element, chosen.element) \
            or tiers.contains(chosen.element, grid.element):
        return None
    cands.append(tiers.validate(grid))
    return grid


def _structured_and_metadata(tree: HtmlElement, url: str, trace: list[dict[str, Any]] | None):
    """Structured data and metadata of the untouched tree (either may be missing on error)."""
    from crawler.extraction.metadata import extract_metadata
    from crawler.extraction.structured import parse_structured

    structured = metadata = None
    try:
        structured = parse_structured(tree, url)
    except Exception as exc:  # noqa: BLE001 - a metadata failure must not lose the content
        logger.warning("structured data failed on %s: %s", url, exc)
        _note(trace, step="structured", error=str(exc))
    try:
        metadata = extract_metadata(tree, url, structured)
    except Exception as exc:  # noqa: BLE001
        logger.warning("metadata failed on %s: %s", url, exc)
        _note(trace, step="metadata", error=str(exc))
    return structured, metadata


def _note(trace: list[dict[str, Any]] | None, **entry: Any) -> None:
    """Append an entry to the trace when tracing."""
    if trace is not None:
        trace.append(entry)


def _structured_candidate(article_body: str | None, page_words: set[str],
                          stats: dict, scores: dict) -> tiers.Candidate | None:
    """A candidate built from JSON-LD/microdata articleBody when most of its words are on the page."""
    if not article_body or len(article_body) < 200:
        return None
    words = _WORD.findall(article_body.lower())
    if not words:
        return None
    agreement = sum(1 for w in words if w in page_words) / len(words)
    wrapper = lxml.html.Element("div")
    for line in article_body.splitlines():
        if line.strip():
            etree.SubElement(wrapper, "p").text = line.strip()
    cand = tiers.make_candidate(wrapper, tiers.TIER_STRUCTURED, f"articleBody ({agreement:.0%} of words on "
                       "the page)", {**stats, wrapper: _text_stats(article_body)}, scores, 0)
    if cand is not None and agreement < 0.8:
        cand.reasons.append("articleBody does not agree with the page text")
    return cand


def _text_stats(text: str):
    """Stats of a plain text (no links)."""
    from crawler.extraction.scoring import Stats

    return Stats(chars=len("".join(text.split())), commas=text.count(","),
                 paragraphs=sum(1 for line in text.splitlines() if len(line.strip()) >= 40))


def _trafilatura_element(tree: HtmlElement, url: str, fast: bool = True) -> HtmlElement | None:
    """trafilatura's main content of the original tree, as an element (None when it finds none)."""
    import lxml.html
    import trafilatura

    try:
        html = trafilatura.extract(tree, url=url, output_format="html", include_links=True,
                                   include_tables=True, include_images=False,
                                   with_metadata=False, fast=fast)
    except Exception as exc:  # noqa: BLE001 - the fallback must never raise
        logger.debug("trafilatura failed on %s: %s", url, exc)
        return None
    if not html:
        return None
    try:
        fragment = lxml.html.fragment_fromstring(html, create_parent="div")
    except (etree.ParserError, ValueError):
        return None
    body = fragment.find(".//body")
    return body if body is not None else fragment


def _trafilatura_candidate(tree: HtmlElement, url: str) -> tiers.Candidate | None:
    """trafilatura as a competing candidate: its fast mode first, the full mode when the fast
    result does not validate."""
    cand = None
    for fast in (True, False):
        element = _trafilatura_element(tree, url, fast=fast)
        if element is None:
            continue
        fstats = compute_stats(element)
        cand = tiers.make_candidate(element, tiers.TIER_TRAFILATURA,
                           "trafilatura.extract" + (" (fast)" if fast else ""), fstats, {}, 0)
        if cand is not None:
            tiers.validate(cand)
            if cand.valid:
                return cand
    return cand


def extract(html: str | bytes, url: str, *, trace: bool = False) -> Extraction:
    """Extract the main content and metadata of one page."""
    started = time.perf_counter()
    log: list[dict[str, Any]] | None = [] if trace else None
    result = Extraction(url=url, trace=log)
    doc = parse_html(html)
    _note(log, step="document", encoding=doc.encoding, html_length=doc.html_length,
          truncated=doc.truncated, error=doc.error)
    if doc.tree is None:
        result.quality_score = 0.0
        result.quality_reasons = [f"no content: {doc.error}"]
        return result
    tree = doc.tree
    structured, metadata = _structured_and_metadata(tree, url, log)
    rules = load_rules()
    detection = detect_framework(tree, url, rules)
    _note(log, step="framework", framework=detection.framework, theme=detection.theme,
          evidence=detection.evidence, rules=[r.source for r in detection.rules])

    work = deepcopy(tree)
    stripped = strip_non_content(work)
    _note(log, step="prepare", removed_script_style_etc=stripped)
    body = work.find("body")
    if body is None:
        body = work
    stats = compute_stats(body)
    discounted = discount_named_blocks(body, stats, rules.cleaning)
    _note(log, step="prepare", not_content_blocks=discounted)
    scores = density_scores(body, stats)

    cands: list[tiers.Candidate] = []
    cands += tiers.rule_candidates(body, detection, stats, scores)
    cands += tiers.semantic_candidates(body, stats, scores)
    cands += tiers.pattern_candidates(body, stats, scores)
    cands += tiers.density_candidates(stats, scores)
    for cand in cands:
        tiers.validate(cand)
    chosen, why = tiers.choose(cands, stats, log)
    if chosen is not None and chosen.tier in tiers.COVERAGE_TIERS:
        chosen = tiers.widen_to_coverage(chosen, body, stats, log)
    if chosen is None:
        chosen, why = tiers.widen_small_blocks(cands, body, stats, log)
    elif chosen.tier in tiers.COVERAGE_TIERS and not chosen.repeated:
        listing = _larger_item_grid(cands, chosen, body, stats, scores)
        if listing is not None:
            chosen, why = listing, (f"a grid of linked items outside the choice holds over "
                                    f"{GRID_OVER_CHOICE:g}x its text (a listing page)")

    if chosen is not None and chosen.tier in tiers.COVERAGE_TIERS and metadata is not None \
            and metadata.page_type == "product":
        description = tiers.product_description(chosen, stats, scores,
                                                 rules.cleaning.product_description_pattern)
        if description is not None:
            cands.append(description)
            chosen, why = description, "a product page: its description block inside the choice"
    if chosen is None and structured is not None and structured.article_body:
        page_words = set(_WORD.findall(" ".join(body.itertext()).lower()))
        cand = _structured_candidate(structured.article_body, page_words, stats, scores)
        if cand is not None:
            tiers.validate(cand)
            if "articleBody does not agree with the page text" in cand.reasons:
                cand.valid = False
            cands.append(cand)
            if cand.valid:
                chosen, why = cand, "no container validated; structured articleBody agrees"
    grid = None
    if chosen is None:
        hub = tiers.linked_item_list(cands)
        if hub is None:
            grid = tiers.item_grid(body, stats, scores)
            if grid is not None:
                tiers.validate(grid)
                cands.append(grid)
                grid = tiers.expand(grid, stats, log)
        if hub is not None:
            chosen, why = hub, "no container validated; the page's own list container fails " \
                "only on link density (a listing page of linked items)"
    if chosen is None:
        cand = _trafilatura_candidate(tree, url)
        if cand is not None:
            cands.append(cand)
            if cand.chars > 0:
                chosen, why = cand, "no cheap candidate validated; trafilatura found text"
        if grid is not None and (chosen is None or grid.chars > GRID_OVER_FALLBACK * chosen.chars):
            chosen, why = grid, (f"no container validated; a grid of linked items holds over "
                                 f"{GRID_OVER_FALLBACK:g}x the fallback's text (a listing page)")
        if chosen is None or not chosen.valid:
            near = tiers.nearly_valid(cands)
            if near is not None and (chosen is None or len(near.reasons) <= len(chosen.reasons)):
                chosen, why = near, "nothing validated; the page's own best container fails " \
                    "only on link density (a hub page)"
    if chosen is None:
        whole = tiers.make_candidate(body, tiers.TIER_BODY, "body", stats, scores, 0)
        if whole is not None and whole.chars > 0:
            tiers.validate(whole)
            cands.append(whole)
            chosen, why = whole, "nothing validated; whole body as last resort"
    _note(log, step="candidates", candidates=[c.describe() for c in cands])
    _note(log, step="choice", chosen=chosen.describe() if chosen else None, why=why)

    element = None
    if chosen is not None:
        element = chosen.element
        if chosen.tier != tiers.TIER_TRAFILATURA:
            clean_container(element, detection.rules, rules.cleaning, log, stats,
                            prune_link_dense=chosen.tier != tiers.TIER_RULES)
        result.method = chosen.tier
    _render(result, element, url)
    _apply_metadata(result, metadata, detection)
    _assess(result, element, doc.html_length)
    _note(log, step="done", seconds=round(time.perf_counter() - started, 4))
    return result


def _render(result: Extraction, element: HtmlElement | None, url: str) -> None:
    """Fill the three content forms from the chosen element."""
    from crawler.extraction.output import render_content

    if element is None:
        return
    rendered = render_content(element, url)
    result.content_html = rendered.html
    result.content_markdown = rendered.markdown
    result.content_text = rendered.text
    result.word_count = len(rendered.text.split())


def _apply_metadata(result: Extraction, metadata: Any, detection: Detection) -> None:
    """Copy metadata fields onto the result."""
    result.framework = detection.framework
    if metadata is None:
        return
    result.title = metadata.title
    result.authors = list(metadata.authors or [])
    result.author = metadata.author
    result.published = metadata.published
    result.modified = metadata.modified
    result.language = metadata.language
    result.canonical_url = metadata.canonical_url
    result.description = metadata.description
    result.site_name = metadata.site_name
    result.page_type = metadata.page_type


def _assess(result: Extraction, element: HtmlElement | None, html_length: int) -> None:
    """Quality score and reasons of the result."""
    try:
        from crawler.extraction.quality import assess_quality

        result.quality_score, result.quality_reasons = assess_quality(
            result.content_text, element=element, page_html_length=html_length,
            title=result.title, author=result.author, published=result.published,
            language=result.language, tier=result.method)
    except Exception as exc:  # noqa: BLE001 - quality is advisory
        logger.warning("quality assessment failed on %s: %s", result.url, exc)
