"""Text statistics per element and Readability-style density scoring propagated to ancestors."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from lxml import etree

from crawler.extraction.thresholds import Thresholds
from crawler.extraction.vocabulary import NOT_TEXT_TAGS

logger = logging.getLogger(__name__)

GOOD_BLOCK_TAGS = frozenset({"p", "pre", "blockquote", "td", "th", "li", "dd", "dt", "h1", "h2",
                             "h3", "h4", "h5", "h6", "figcaption", "summary", "address"})
PARAGRAPH_MIN_CHARS = 40
"""A paragraph tag holding at least this many characters counts as a paragraph (one line of
prose; a label or a button is shorter)."""
PARAGRAPH_TAGS = frozenset({"p", "pre", "blockquote", "td", "li", "dd", "h2", "h3", "h4", "h5", "h6"})

POSITIVE = re.compile(
    r"article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|prose|markdown"
    r"|documentation|docs?-|product|description|thread|message", re.I)
NEGATIVE = re.compile(
    r"-ad-|^ad-|hidden|^hid$|banner|combx|comment-form|contact|foot|footnote|gdpr|masthead|"
    r"outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|"
    r"tool|widget|nav|menu|breadcrumb|cookie|consent|newsletter|subscribe|social|popup|modal",
    re.I)


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


def _text_chars(text: str | None) -> tuple[int, int]:
    """Non-space characters and commas of a text node."""
    if not text or not text.strip(_BLANKS):  # most text nodes are the blanks between tags
        return 0, 0
    blanks = text.count(" ") + text.count("\n") + text.count("\t") + text.count("\r") \
        + text.count("\xa0")
    return len(text) - blanks, text.count(",")


def _visit(el: etree._Element, in_link: bool, stats: dict[etree._Element, Stats]) -> Stats:
    """Stats of el (its descendants included), recorded for every element under it (a
    module-level function: a closure that calls itself is a reference cycle, which would keep
    the whole tree alive until the next garbage collection)."""
    tag = el.tag
    if not isinstance(tag, str):
        tag = ""
    is_link = tag == "a"
    linked = in_link or is_link
    chars, commas = _text_chars(el.text)
    direct = total = chars
    link_chars = chars if linked else 0
    paragraphs = links = good = 0
    for child in el:
        child_tag = child.tag
        if isinstance(child_tag, str) and child_tag and child_tag not in NOT_TEXT_TAGS:
            cst = _visit(child, linked, stats)
            total += cst.chars
            link_chars += cst.link_chars
            commas += cst.commas
            paragraphs += cst.paragraphs
            links += cst.links
            good += cst.good
        tail = child.tail
        if tail:
            chars, tail_commas = _text_chars(tail)
            direct += chars
            total += chars
            commas += tail_commas
            if linked:
                link_chars += chars
    if is_link:
        links += 1
    if tag in PARAGRAPH_TAGS and total >= PARAGRAPH_MIN_CHARS:
        paragraphs += 1
    if linked:
        good = 0
    elif tag in GOOD_BLOCK_TAGS:
        if total >= 15 and link_chars < 0.5 * total:
            good = max(good, total - link_chars)
    elif direct >= 30:
        good += direct
    st = stats[el] = Stats(chars=total, link_chars=link_chars, commas=commas,
                           paragraphs=paragraphs, links=links, good=good)
    return st


def compute_stats(root: etree._Element) -> dict[etree._Element, Stats]:
    """Stats of every element under root, in one post-order pass."""
    stats: dict[etree._Element, Stats] = {}
    total = _visit(root, False, stats).chars
    _discount_forms(root, stats, total)
    return stats


def _discount_forms(root: etree._Element, stats: dict[etree._Element, Stats], total: int) -> None:
    """Text inside a form that is not the whole page (sign-up, search, order forms: labels,
    hidden help blocks) is not content: zero its content-like count and mark it for scoring."""
    for form in root.iter("form"):
        st = stats.get(form)
        if st is None or st.chars >= 0.5 * total or st.good == 0:
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


def class_weight(el: etree._Element) -> int:
    """Readability's class/id weight: +25 for content-like names, -25 for boilerplate-like ones."""
    weight = 0
    for value in (el.get("class"), el.get("id")):
        if not value:
            continue
        if NEGATIVE.search(value):
            weight -= 25
        if POSITIVE.search(value):
            weight += 25
    return weight


_TAG_BASE = {"div": 5, "article": 8, "main": 5, "section": 3, "pre": 3, "td": 3, "blockquote": 3,
             "form": -3, "ol": -3, "ul": -3, "dl": -3, "dd": -3, "dt": -3, "li": -3,
             "address": -3, "h1": -5, "h2": -5, "h3": -5, "h4": -5, "h5": -5, "h6": -5, "th": -5}


def density_scores(root: etree._Element, stats: dict[etree._Element, Stats]) -> dict[etree._Element, float]:
    """Readability-style content scores: paragraph scores added to ancestors, scaled by link density."""
    raw: dict[etree._Element, float] = {}
    weights: dict[tuple[str | None, str | None], int] = {}  # by (class, id): names repeat
    for el, st in stats.items():
        tag = el.tag
        if tag not in ("p", "pre", "td", "blockquote", "li", "dd"):
            if tag not in ("div", "section") or not el.text or len(el.text.strip()) < 25:
                continue
        if st.chars < 25 or st.in_form:
            continue
        score = 1.0 + st.commas + min(st.chars / 100.0, 3.0)
        if tag == "li":
            score *= 0.5
        parent = el.getparent()
        level = 0
        while parent is not None and level < 5:
            if parent not in raw:
                names = (parent.get("class"), parent.get("id"))
                weight = weights.get(names)
                if weight is None:
                    weight = weights[names] = class_weight(parent)
                raw[parent] = _TAG_BASE.get(parent.tag, 0) + weight
            divider = 1 if level == 0 else (2 if level == 1 else level * 3)
            raw[parent] += score / divider
            parent = parent.getparent()
            level += 1
    scores: dict[etree._Element, float] = {}
    for el, value in raw.items():
        st = stats.get(el)
        if st is None or el.tag in ("html", "body"):
            continue
        scores[el] = value * (1.0 - st.link_density)
    return scores
