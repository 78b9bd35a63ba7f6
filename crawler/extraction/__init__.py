"""Main-content extraction: HTML and URL in, an :class:`Extraction` out (no Scrapy imports).

The page is decoded and parsed once; structured data and metadata are read from the tree into a
:class:`PageAnalysis`; tiers (site/framework rules, HTML5 semantics, class/id patterns, density
scoring) propose content containers, each validated into a verdict; the named stages of
:data:`STAGES` then choose one, each recording a decision; cleaning removes the boilerplate left
inside the choice, and trafilatura competes only when no cheap candidate was chosen.
"""

from __future__ import annotations

import logging
import time
from copy import deepcopy
from collections.abc import Callable
from typing import Any

import lxml.html
from lxml import etree
from lxml.html import HtmlElement

from crawler.extraction import candidates as tiers
from crawler.extraction.addresses import tree_base
from crawler.extraction import clean
from crawler.extraction.clean import clean_container, discount_named_blocks, strip_non_content
from crawler.extraction.declared_faq import (FAQ_RULE, add_declared_faq, find_declared_faq,
                                             keep_declared_questions)
from crawler.extraction.document import parse_html
from crawler.extraction.frameworks import (Detection, PageNames, RuleSet, detect_framework,
                                           load_rules)
from crawler.extraction.card_rails import RAIL_PAGE_TYPES, drop_card_rails
from crawler.extraction.link_buttons import drop_link_buttons
from crawler.extraction.media_captions import drop_media_captions
from crawler.extraction.price_lines import PRODUCT_PAGE_TYPE, drop_price_lines
from crawler.extraction.result import Extraction
from crawler.extraction.share_widgets import drop_share_widgets
from crawler.extraction.story_asides import drop_story_asides
from crawler.extraction.story_head import drop_story_head
from crawler.extraction.story_lead import add_declared_lead
from crawler.extraction.story_tail import (TextBlock, text_blocks, trim_story_tail,
                                           trim_tail_labels, trim_tail_notes)
from crawler.extraction.teaser_lists import drop_teaser_lists
from crawler.extraction.scoring import compute_stats, density_scores
from crawler.extraction.stages import (STAGE_NAMES, STAGES, STORY_PAGE_TYPE, Choice,
                                       PageAnalysis, run_stages, unknown_stages)
from crawler.extraction.thresholds import THRESHOLDS, Thresholds

logger = logging.getLogger(__name__)

__all__ = ["STAGES", "STAGE_NAMES", "THRESHOLDS", "Extraction", "PageAnalysis", "Thresholds",
           "analyse", "extract"]

def _structured_and_metadata(tree: HtmlElement, url: str, trace: list[dict[str, Any]] | None,
                             thresholds: Thresholds, rules: RuleSet,
                             names: PageNames | None = None):
    """Structured data and metadata of the untouched tree (either may be missing on error)."""
    from crawler.extraction.metadata import extract_metadata
    from crawler.extraction.structured import parse_structured

    structured = metadata = None
    try:
        structured = parse_structured(tree, url, thresholds)
    except Exception as exc:  # noqa: BLE001 - a metadata failure must not lose the content
        logger.warning("structured data failed on %s: %s", url, exc)
        _note(trace, step="structured", error=str(exc))
    try:
        metadata = extract_metadata(tree, url, structured, rules, names)
    except Exception as exc:  # noqa: BLE001
        logger.warning("metadata failed on %s: %s", url, exc)
        _note(trace, step="metadata", error=str(exc))
    return structured, metadata


def _note(trace: list[dict[str, Any]] | None, **entry: Any) -> None:
    """Append an entry to the trace when tracing."""
    if trace is not None:
        trace.append(entry)


def extract(html: str | bytes, url: str | None = None, *, trace: bool = False,
            disabled_stages: frozenset[str] | set[str] = frozenset(),
            thresholds: Thresholds = THRESHOLDS) -> Extraction:
    """Extract the main content and metadata of one page.

    ``url`` is the page's address, which resolves its relative links and helps the rules that
    compare addresses (a page's own share links, its site's name); a page without one (a file,
    a string) is extracted all the same, as trafilatura's ``extract(html)`` is.
    ``disabled_stages`` names stages of :data:`~crawler.extraction.stages.STAGES` to skip (to
    measure what each earns); ``thresholds`` replaces the engine's numbers (to sweep them).
    """
    unknown = unknown_stages(set(disabled_stages))
    if unknown:
        raise ValueError(f"no such extraction stage: {', '.join(unknown)} "
                         f"(stages: {', '.join(STAGE_NAMES)})")
    started = time.perf_counter()
    url = url or ""
    log: list[dict[str, Any]] | None = [] if trace else None
    result = Extraction(url=url, trace=log)
    doc = parse_html(html)
    _note(log, step="document", encoding=doc.encoding, html_length=doc.html_length,
          truncated=doc.truncated, error=doc.error)
    result.html_cut = doc.truncated
    if doc.tree is None:
        result.quality_score = 0.0
        result.quality_reasons = [f"no content: {doc.error}"]
        return result
    base = tree_base(doc.tree, url)  # read before the stages change the tree
    page = analyse(doc.tree, url, thresholds, log, untouched=doc.parse_again)
    chosen = run_stages(page, disabled=frozenset(disabled_stages))
    if log is not None:
        result.decisions = [d.as_dict(page.thresholds) for d in page.decisions]
        _trace_choice(log, page, chosen, result.decisions)

    element = None
    if chosen is not None:
        cand = chosen.candidate
        element = cand.element
        faq = _declared_faq(page)
        faq_block = find_declared_faq(page.body, element, faq, page.thresholds) if faq else None
        if cand.tier != tiers.TIER_TRAFILATURA:
            if cand.tier != tiers.TIER_RULES:
                drop_share_widgets(element, url, page.thresholds, log)
            story = cand.tier != tiers.TIER_RULES and page.metadata is not None \
                and page.metadata.page_type == STORY_PAGE_TYPE
            clean_container(element, page.detection.rules, page.rules.cleaning, log,
                            cand.stats(page.stats), prune_link_dense=cand.tier != tiers.TIER_RULES,
                            t=page.thresholds, exempt=page.discussion_posts, story=story,
                            description=_declared_description(page))
            if page.metadata is not None and page.metadata.page_type == PRODUCT_PAGE_TYPE:
                drop_price_lines(element, page.rules.cleaning.price_line_pattern,
                                 page.thresholds, log)
            if url and cand.tier != tiers.TIER_RULES and not story and page.metadata is not None \
                    and page.metadata.page_type in RAIL_PAGE_TYPES:
                drop_card_rails(element, url, page.thresholds, log)
            # The rules below read the same blocks: read once, and again only after a rule
            # removed something (every rule reads the blocks as the container stands).
            blocks: list[TextBlock] | None = None
            if story:
                blocks = text_blocks(element)
                if drop_teaser_lists(element, url, page.thresholds, log, blocks):
                    blocks = text_blocks(element)
                if trim_story_tail(element, page.thresholds, log, blocks):
                    blocks = text_blocks(element)
                if trim_tail_labels(element, page.thresholds, log, blocks):
                    blocks = text_blocks(element)
                if trim_tail_notes(element, page.thresholds, log, blocks):
                    blocks = text_blocks(element)
                if drop_story_asides(element, url, page.thresholds, log, blocks):
                    blocks = text_blocks(element)
                if drop_story_head(element, page.thresholds, log, blocks):
                    blocks = text_blocks(element)
                if drop_media_captions(element, page.thresholds, log, blocks):
                    blocks = text_blocks(element)
                if add_declared_lead(page.body, element, _declared_description(page),
                                     page.thresholds, log):
                    blocks = text_blocks(element)
            if cand.tier != tiers.TIER_RULES:
                drop_link_buttons(element, url, page.thresholds, log, blocks)
        add_declared_faq(element, faq_block, faq, page.thresholds, log)
        result.method = cand.tier
    _render(result, element, base)
    if not result.content_text and page.metadata is not None and page.metadata.description:
        element = _description_fallback(page.metadata.description)
        _render(result, element, base)
        result.method = METHOD_DESCRIPTION
        _note(log, step="choice", chosen=None, stage="meta-description", why="nothing yielded "
              "text; the page's declared description (meta, og, JSON-LD) stands in, flagged by "
              "the method")
    _render_comments(result, page.comments, base)
    _apply_metadata(result, page.metadata, page.detection)
    _bound_metadata(result, page.thresholds)
    _assess(result, element, doc.html_length, page.thresholds)
    _note(log, step="done", seconds=round(time.perf_counter() - started, 4))
    return result


def analyse(tree: HtmlElement, url: str, thresholds: Thresholds = THRESHOLDS,
            log: list[dict[str, Any]] | None = None, *,
            untouched: Callable[[], HtmlElement] | None = None) -> PageAnalysis:
    """The page record of a parsed page: structured data and metadata of the untouched tree, the
    detected rules, the figures of a cleaned working tree and every proposer's candidates,
    validated.

    The working tree is a copy of ``tree``, unless ``untouched`` can give the untouched tree
    again (:meth:`~crawler.extraction.document.Document.parse_again`): then ``tree`` itself is
    cleaned in place once its metadata is read (copying every page's tree and freeing the copy
    cost more than parsing again the few pages whose untouched tree is read later). A page
    that goes on after its ``</html>`` is still copied: the copy leaves out what the parser
    put beside the root (the second ``<html>``, emptied into the body, with its attributes),
    which the working tree's searches of the whole document must not find."""
    rules = load_rules()
    # The page's class values and ids, listed once: the logo search, the framework checks and
    # the comment-section search read them.
    names = PageNames(tree)
    structured, metadata = _structured_and_metadata(tree, url, log, thresholds, rules, names)
    detection = detect_framework(tree, url, rules, names)
    _note(log, step="framework", framework=detection.framework, theme=detection.theme,
          evidence=detection.evidence, rules=[r.source for r in detection.rules])

    if untouched is None or _beside_root(tree):
        work = deepcopy(tree)
        untouched = _given(tree)
    else:
        work = tree
    discussion = _is_discussion(detection, structured, rules.cleaning)
    if structured is not None and structured.faq and not discussion:
        questions = keep_declared_questions(work, structured.faq, thresholds)
        _note(log, step="prepare", rule=FAQ_RULE, questions_kept=questions)
    stripped = strip_non_content(work, rules.cleaning, thresholds)
    _note(log, step="prepare", removed_script_style_etc=stripped)
    body = work.find("body")
    if body is None:
        body = work
    comments = _set_comments_apart(body, discussion, rules.cleaning, thresholds, log, names)
    scored: list[HtmlElement] = []  # the blocks the density scores score, listed by the same walk
    stats = compute_stats(body, thresholds, scored)
    posts = clean.discussion_posts(discussion, rules.cleaning)
    discounted = discount_named_blocks(body, stats, rules.cleaning, thresholds, exempt=posts)
    _note(log, step="prepare", not_content_blocks=discounted)
    if posts is not None:
        _note(log, step="prepare", rule=clean.DISCUSSION_POSTS_RULE,
              why="a discussion page: blocks named as its replies keep their weight in the "
                  "choice")
    scores = density_scores(stats, scored, thresholds, rules.cleaning)
    page = PageAnalysis(url=url, untouched=untouched, body=body, stats=stats, scores=scores,
                        rules=rules, detection=detection, thresholds=thresholds,
                        structured=structured, metadata=metadata, trace=log,
                        comments=comments, discussion_posts=posts)
    page.candidates += tiers.rule_candidates(body, detection, stats, scores, thresholds)
    page.candidates += tiers.semantic_candidates(body, stats, scores, thresholds)
    page.candidates += tiers.pattern_candidates(body, stats, scores, rules.cleaning, thresholds)
    page.candidates += tiers.density_candidates(stats, scores, rules.cleaning.chrome, thresholds)
    for cand in page.candidates:
        tiers.validate(cand, thresholds)
    return page


def _given(tree: HtmlElement) -> Callable[[], HtmlElement]:
    """A function giving back a tree kept as it is."""
    return lambda: tree


def _beside_root(root: HtmlElement) -> bool:
    """Whether the document holds nodes beside its root element."""
    return next(root.itersiblings(), None) is not None \
        or next(root.itersiblings(preceding=True), None) is not None


def _trace_choice(log: list[dict[str, Any]], page: PageAnalysis, chosen: Choice | None,
                  decisions: list[dict[str, Any]]) -> None:
    """Trace entries of the choice: every stage's decision in order, the candidates with their
    verdicts (the chosen one marked chosen, whatever its verdict), the choice and the stage that
    made it, and where each metadata field came from."""
    log.append({"step": "stages", "decisions": decisions})
    listed = list(page.candidates)
    if chosen is not None and not any(c is chosen.candidate for c in listed):
        listed.append(chosen.candidate)
    log.append({"step": "candidates", "candidates": [
        {**c.describe(), "chosen": chosen is not None and c is chosen.candidate} for c in listed]})
    applied = [d.stage for d in page.decisions if d.applied]
    log.append({"step": "choice", "chosen": chosen.candidate.describe() if chosen else None,
                "why": chosen.why if chosen else "no candidate",
                "stage": applied[-1] if applied else None})
    if page.metadata is not None:
        log.append({"step": "metadata", "sources": dict(page.metadata.sources),
                    "page_type": page.metadata.page_type,
                    "declared_types": sorted(page.declared_types)})


METHOD_DESCRIPTION = "meta-description"
"""The method of a page whose content is only its declared description (nothing else yielded
text): users and the quality gate can tell it from extracted content."""


def _declared_description(page: PageAnalysis) -> str | None:
    """The description the page declares for itself, which cleaning keeps (None on discussion
    pages, whose description is the opening post's first lines: the posts are judged as
    posts)."""
    if page.structured is None or page.discussion_posts is not None:
        return None
    return page.structured.description


def _declared_faq(page: PageAnalysis) -> list[tuple[str, str]]:
    """The questions and answers the page declares as its FAQ (none on discussion pages, whose
    question is the opening post)."""
    if page.structured is None or page.discussion_posts is not None:
        return []
    return page.structured.faq


def _description_fallback(description: str) -> HtmlElement:
    """The declared description as a one-paragraph content element."""
    wrapper = lxml.html.Element("div")
    etree.SubElement(wrapper, "p").text = description
    return wrapper


def _is_discussion(detection: Detection, structured: Any, cleaning: Any) -> bool:
    """Whether the page is a discussion whose posts are its content (forum engine, declared
    forum posting or Q&A page)."""
    from crawler.extraction import comments

    declared = list(structured.types) if structured is not None else []
    return comments.is_discussion(detection.framework, declared, cleaning)


def _set_comments_apart(body: HtmlElement, discussion: bool, cleaning: Any,
                        thresholds: Thresholds, log: list[dict[str, Any]] | None,
                        names: PageNames | None = None) -> HtmlElement | None:
    """Take the page's reader-comment sections out of the working tree (not on discussion
    pages, where the posts are the content); they are returned under one element, or None
    (``names``: the class values and ids of the page the working tree was made from)."""
    from crawler.extraction import comments

    if discussion:
        _note(log, step="comments", set_apart=[], why="a discussion page: its posts are the "
              "content")
        return None
    sections = comments.find_comment_sections(body, cleaning, thresholds, names)
    _note(log, step="comments", set_apart=comments.describe(sections))
    return comments.set_apart(sections)


def _render_comments(result: Extraction, holder: HtmlElement | None, base: str) -> None:
    """Fill the three comment forms from the sections set apart, their links made absolute
    against ``base``. A section with no text (the empty box a script fills with a comment
    widget, or a thread with no comment yet) gives no comments: all three forms stay empty."""
    from crawler.extraction.output import render_content

    if holder is not None:
        rendered = render_content(holder, base)
        if rendered.text.strip():
            result.comments_html, result.comments_markdown, result.comments_text = (
                rendered.html, rendered.markdown, rendered.text)


def _render(result: Extraction, element: HtmlElement | None, base: str) -> None:
    """Fill the three content forms from the chosen element, its links made absolute against
    ``base`` (the page's valid ``<base href>``, else its URL)."""
    from crawler.extraction.output import render_content

    if element is None:
        return
    rendered = render_content(element, base)
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


#: Metadata fields of a result holding one text each, bounded by ``metadata_max_chars``.
BOUNDED_METADATA_FIELDS = ("title", "author", "site_name", "language", "page_type",
                           "published", "modified")


def cut_text(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in an ellipsis."""
    return text[:max(limit - 1, 0)].rstrip() + "\u2026"


def _bound_metadata(result: Extraction, thresholds: Thresholds) -> None:
    """Cut metadata fields longer than the engine keeps, and list them in ``metadata_cut``."""
    limit = thresholds.metadata_max_chars
    limits = {name: limit for name in BOUNDED_METADATA_FIELDS}
    limits["description"] = thresholds.description_max_chars
    for name, most in limits.items():
        value = getattr(result, name)
        if value and len(value) > most:
            setattr(result, name, cut_text(value, most))
            result.metadata_cut.append(name)
    names = result.authors
    if len(names) > thresholds.metadata_max_authors or any(len(n) > limit for n in names):
        result.authors = [cut_text(n, limit) if len(n) > limit else n
                          for n in names[:thresholds.metadata_max_authors]]
        result.metadata_cut.append("authors")


def _assess(result: Extraction, element: HtmlElement | None, html_length: int,
            thresholds: Thresholds) -> None:
    """Quality score and reasons of the result."""
    try:
        from crawler.extraction.quality import assess_quality

        result.quality_score, result.quality_reasons = assess_quality(
            result.content_text, element=element, page_html_length=html_length,
            title=result.title, author=result.author, published=result.published,
            language=result.language, tier=result.method, thresholds=thresholds)
    except Exception as exc:  # noqa: BLE001 - quality is advisory
        logger.warning("quality assessment failed on %s: %s", result.url, exc)
