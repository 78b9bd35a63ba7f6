"""Text statistics per element and Readability-style density scoring propagated to ancestors."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from lxml import etree

from crawler.extraction.frameworks import CleaningRules
from crawler.extraction.thresholds import Thresholds
from crawler.extraction.vocabulary import NOT_TEXT_TAGS

logger = logging.getLogger(__name__)

GOOD_BLOCK_TAGS = frozenset({"p", "pre", "blockquote", "td", "th", "li", "dd", "dt", "h1", "h2",
                             "h3", "h4", "h5", "h6", "figcaption", "summary", "address"})
"""Text blocks whose text, long enough and not mostly links, is content-like."""
PARAGRAPH_TAGS = frozenset({"p", "pre", "blockquote", "td", "li", "dd", "h2", "h3", "h4", "h5", "h6"})
"""Tags that count as a paragraph when they hold ``paragraph_min_chars`` characters."""
SCORED_TAGS = frozenset({"p", "pre", "td", "blockquote", "li", "dd"})
"""Blocks whose text is scored and added to their ancestors (Readability's paragraphs)."""
SCORED_WRAPPER_TAGS = frozenset({"div", "section"})
"""Wrappers scored like a paragraph when they hold text of their own (prose written straight
into a ``div``)."""
LIST_ITEM_TAGS = frozenset({"li"})
"""Scored blocks that weigh ``score_list_item_factor`` of a paragraph (list entries)."""
UNSCORED_TAGS = frozenset({"html", "body"})
"""Ancestors that gather scores but are never candidates (the whole page)."""

# Readability's tag weights, by group (each weight a field of ``Thresholds``).
ARTICLE_WEIGHT_TAGS = frozenset({"article"})
FRAME_WEIGHT_TAGS = frozenset({"div", "main"})
BLOCK_WEIGHT_TAGS = frozenset({"section", "pre", "td", "blockquote"})
LIST_WEIGHT_TAGS = frozenset({"form", "ol", "ul", "dl", "dd", "dt", "li", "address"})
HEADING_WEIGHT_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "th"})

@dataclass(slots=True)
class Stats:
    """Text figures of one element, its descendants included (scripts, forms controls excluded)."""

    chars: int = 0
    link_chars: int = 0
    commas: int = 0
    paragraphs: int = 0
    links: int = 0
    good: int = 0
    """Characters in text blocks that read like content (long enough, few links)."""
    in_form: bool = False

    @property
    def link_density(self) -> float:
        """Share of the text that sits inside links."""
        return self.link_chars / self.chars if self.chars else 0.0

    def nav_like(self, t: Thresholds) -> bool:
        """A block made of short links: a menu, tag cloud, share bar or pager rather than content."""
        if self.links < t.nav_min_links or self.chars == 0:
            return False
        return self.link_density > t.nav_link_density \
            and self.link_chars / self.links < t.nav_max_link_chars


_BLANKS = " \n\t\r\xa0"


def _visit(el: etree._Element, in_link: bool, stats: dict[etree._Element, Stats],
           t: Thresholds, scored: list[etree._Element] | None, _str: type = str,
           _skipped: frozenset[str] = NOT_TEXT_TAGS, _blanks: str = _BLANKS,
           _scored_tags: frozenset[str] = SCORED_TAGS,
           _wrapper_tags: frozenset[str] = SCORED_WRAPPER_TAGS) -> Stats:
    """Stats of el (its descendants included), recorded for every element under it (a
    module-level function: a closure that calls itself is a reference cycle, which would keep
    the whole tree alive until the next garbage collection). It runs for every element of
    every page, so counting a text's non-space characters and commas is written out inline
    (blank text, most text between tags, is skipped first) and the names it needs are bound as
    defaults. ``scored``: when given, the elements :func:`density_scores` scores (a scored block
    or a wrapper with text of its own, holding at least ``score_min_chars``) are appended to it,
    in the order of ``stats``: the walk has their tag, text and figures at hand, which spares
    the scores a second pass reading every element's tag."""
    tag = el.tag
    if tag.__class__ is not _str:
        tag = ""
    is_link = tag == "a"
    linked = in_link or is_link
    text = el.text
    if text and text.strip(_blanks):
        direct = total = len(text) - text.count(" ") - text.count("\n") - text.count("\t") \
            - text.count("\r") - text.count("\xa0")
        commas = text.count(",")
    else:
        direct = total = commas = 0
    link_chars = total if linked else 0
    paragraphs = links = good = 0
    for child in el:
        child_tag = child.tag
        if child_tag.__class__ is _str and child_tag and child_tag not in _skipped:
            cst = _visit(child, linked, stats, t, scored)
            total += cst.chars
            link_chars += cst.link_chars
            commas += cst.commas
            paragraphs += cst.paragraphs
            links += cst.links
            good += cst.good
        tail = child.tail
        if tail and tail.strip(_blanks):
            chars = len(tail) - tail.count(" ") - tail.count("\n") - tail.count("\t") \
                - tail.count("\r") - tail.count("\xa0")
            direct += chars
            total += chars
            commas += tail.count(",")
            if linked:
                link_chars += chars
    if is_link:
        links += 1
    if tag in PARAGRAPH_TAGS and total >= t.paragraph_min_chars:
        paragraphs += 1
    if linked:
        good = 0
    elif tag in GOOD_BLOCK_TAGS:
        if total >= t.content_block_min_chars \
                and link_chars < t.content_block_max_link_share * total:
            good = max(good, total - link_chars)
    elif direct >= t.loose_text_min_chars:
        good += direct
    st = stats[el] = Stats(total, link_chars, commas, paragraphs, links, good)
    if scored is not None and total >= t.score_min_chars and (
            tag in _scored_tags or tag in _wrapper_tags and text
            and len(text.strip()) >= t.score_min_chars):
        scored.append(el)
    return st


def compute_stats(root: etree._Element, t: Thresholds,
                  scored: list[etree._Element] | None = None) -> dict[etree._Element, Stats]:
    """Stats of every element under root, in one post-order pass (``scored``: a list to which
    the same pass appends the elements :func:`density_scores` scores)."""
    stats: dict[etree._Element, Stats] = {}
    total = _visit(root, False, stats, t, scored).chars
    _discount_forms(root, stats, total, t)
    return stats


def _discount_forms(root: etree._Element, stats: dict[etree._Element, Stats], total: int,
                    t: Thresholds) -> None:
    """Text inside a form that is not the whole page (sign-up, search, order forms: labels,
    hidden help blocks) is not content: zero its content-like count and mark it for scoring."""
    for form in root.iter("form"):
        st = stats.get(form)
        if st is None or st.chars >= t.form_page_share * total or st.good == 0:
            continue
        good = st.good
        for el in form.iter():
            sub = stats.get(el)
            if sub is not None:
                sub.good = 0
                sub.in_form = True
        for anc in form.iterancestors():
            sub = stats.get(anc)
            if sub is not None:
                sub.good = max(0, sub.good - good)


def class_weight(el: etree._Element, t: Thresholds, cleaning: CleaningRules) -> int:
    """Readability's class/id weight: ``class_name_weight`` up for content-like names, down for
    boilerplate-like ones (``readability_positive_pattern`` and ``readability_negative_pattern``
    of the cleaning rules)."""
    positive = cleaning.readability_positive_pattern
    negative = cleaning.readability_negative_pattern
    weight = 0
    for value in (el.get("class"), el.get("id")):
        if not value:
            continue
        if negative is not None and negative.found(value):
            weight -= t.class_name_weight
        if positive is not None and positive.found(value):
            weight += t.class_name_weight
    return weight


def tag_weights(t: Thresholds) -> dict[str, int]:
    """Readability's starting score of an ancestor by its tag (0 for tags not named)."""
    weights: dict[str, int] = {}
    for tags, weight in ((ARTICLE_WEIGHT_TAGS, t.tag_weight_article),
                         (FRAME_WEIGHT_TAGS, t.tag_weight_frame),
                         (BLOCK_WEIGHT_TAGS, t.tag_weight_block),
                         (LIST_WEIGHT_TAGS, t.tag_weight_list),
                         (HEADING_WEIGHT_TAGS, t.tag_weight_heading)):
        weights.update(dict.fromkeys(tags, weight))
    return weights


def _divider(level: int, t: Thresholds) -> float:
    """How much less a block's score counts at an ancestor ``level`` steps above its parent:
    all of it at the parent, half at the grandparent, then a third of it per level."""
    if level == 0:
        return 1
    if level == 1:
        return t.score_grandparent_divider
    return level * t.score_ancestor_divider


def density_scores(stats: dict[etree._Element, Stats], scored: list[etree._Element],
                   t: Thresholds, cleaning: CleaningRules) -> dict[etree._Element, float]:
    """Readability-style content scores: paragraph scores added to ancestors, scaled by link
    density (``scored``: the blocks to score, as :func:`compute_stats` lists them with ``stats``;
    those inside a form are passed over)."""
    raw: dict[etree._Element, float] = {}
    weights: dict[tuple[str | None, str | None], int] = {}  # by (class, id): names repeat
    tag_base = tag_weights(t)
    dividers = [_divider(level, t) for level in range(t.score_levels)]
    for el in scored:
        st = stats[el]
        if st.in_form:
            continue
        tag = el.tag
        score = 1.0 + st.commas + min(st.chars / t.score_chars_per_point, t.score_length_cap)
        if tag in LIST_ITEM_TAGS:
            score *= t.score_list_item_factor
        parent = el.getparent()
        for divider in dividers:
            if parent is None:
                break
            if parent not in raw:
                names = (parent.get("class"), parent.get("id"))
                weight = weights.get(names)
                if weight is None:
                    weight = weights[names] = class_weight(parent, t, cleaning)
                raw[parent] = tag_base.get(parent.tag, 0) + weight
            raw[parent] += score / divider
            parent = parent.getparent()
    scores: dict[etree._Element, float] = {}
    for el, value in raw.items():
        st = stats.get(el)
        if st is None or el.tag in UNSCORED_TAGS:
            continue
        scores[el] = value * (1.0 - st.link_density)
    return scores
