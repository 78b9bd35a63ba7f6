"""Whether a page holds anything htmldate's fast path could read as a date, checked cheaply.

htmldate (``extensive_search=False``) deep-copies, cleans and serialises the whole tree, then
walks it and regex-scans it: several milliseconds a page, spent in vain on the many pages that
show no date at all. Every date it can return is written in one of a few shapes: a four-digit
year next to a month or day (``2020-01-05``, ``1/2020``, ``March 5, 2020``, ``20200105``), a
day-month-year with a two-digit year (``5.1.20``), a timestamp attribute (``data-utime``). It
finds them in the URL, the text, comments and attributes. When no such shape is anywhere in the
page, its answer is known to be None and the call can be skipped.

The shapes here are deliberately looser than htmldate's own patterns (no word boundaries, no
calendar check, the whole page rather than the elements htmldate picks): a wrong "may hold a
date" costs one htmldate call, a wrong "no date" would lose a date. ``shows_date`` asks the
opposite of a single visible line (is it a date line a rule may remove?) and reads it by
stricter shapes of its own: a day, a month and a year in a date's numbers.
"""

from __future__ import annotations

import logging
import re

from lxml import etree
from lxml.html import HtmlElement

logger = logging.getLogger(__name__)

__all__ = ["may_hold_date", "shows_date"]

_YEAR = r"(?:199\d|20[0-3]\d)"
_YEAR_TOKEN = re.compile(_YEAR)
#: Month and weekday names a date parser reads after a leading year ("2020 Mar 5", "2020, Mon").
_NAMES = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)"
_YEAR_SHAPES = re.compile("|".join([
    _YEAR + r"[-/._]\d",  # 2020-01-05, 2020/1, 2020_01_05 (URLs), ISO timestamps
    _YEAR + r"-?W\d",  # ISO week dates
    r"\d[-/.]" + _YEAR,  # 1/2020, 5.1.2020
    _YEAR + r"[01]\d[0-3]\d",  # 20200105
    _YEAR + r"\W*(?:\d|" + _NAMES + r"|at\b|on\b|of\b|and\b)",  # text led by a year: "2020 5 3"
    r"[^\W\d_]{3}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+" + _YEAR,  # March 5, 2020
    r"\d(?:st|nd|rd|th|\.)?\s+(?:of\s+)?[^\W\d_]{3,}[,.]?\s+" + _YEAR,  # 5 March 2020, 5. März 2020
]), re.IGNORECASE)
#: How far around a year token its shape may reach, in text whose whitespace runs are collapsed
#: (htmldate reads at most 52 characters of an element's whitespace-collapsed text).
_BEFORE_YEAR, _AFTER_YEAR = 40, 60

_DAY_OR_MONTH = r"(?:0?[1-9]|[12]\d|3[01])"
#: Found first (fast: it starts at a separator), then confirmed by the full two-digit-year shape.
_SHORT_YEAR_TAIL = re.compile(r"[-/.]\d{1,2}[-/.]\d\d")
# No digit boundary before it: concatenated texts may put another element's digits there.
_SHORT_YEAR_DATE = re.compile(_DAY_OR_MONTH + r"[-/.]" + _DAY_OR_MONTH + r"[-/.]\d\d")

#: Year-month-day in any attribute (htmldate scans the serialised page for timestamps).
_MARKUP_DATE = re.compile(_YEAR + r"-[01]?\d-[0-3]?\d")
#: A numeric date after a cue word ("Updated: 5.1.2020", "Datum: 05.01.20"), tail first.
_NUMERIC_TAIL = re.compile(r"[./]\d{1,2}[./]\d\d")
_CUE_BEFORE = re.compile(r"(?:date[^0-9\"]{0,20}|updated|last-modified|published|posted|on|datum|"
                         r"stand|veröffentlicht am)[ :]{0,9}\d{1,4}$", re.IGNORECASE)
#: Turkish cues, before or after the date ("05.01.2020 tarihinde güncellendi").
_CUE_AROUND = re.compile(r"güncel|yayı", re.IGNORECASE)
_CUE_REACH = 64

#: A date on a visible line (``shows_date``), in a date's own numbers: a day up to 31, a month
#: up to 12, and no digit on either side, nor a separator led by one (``1.2.3.45`` holds none).
_NUM_START, _NUM_END = r"(?<![\d.,/-])", r"(?![.,/-]?\d)"
_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_MONTH = r"(?:0?[1-9]|1[0-2])"
_LINE_DATE_SHAPES = (
    _YEAR + r"[-/.]\s?" + _MONTH + r"(?:[-/.]\s?" + _DAY + r")?",  # 2020-01-05, 2020/03, 2020. 5. 3
    _YEAR + r"-?W[0-5]\d",  # ISO week dates
    _YEAR + r"(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])",  # 20200105
    r"(?:" + _DAY + r"[-/.]" + _MONTH + r"|" + _MONTH + r"[-/.]" + _DAY + r")[-/.](?:"
    + _YEAR + r"|\d\d)",  # 5.1.2020, 12/31/2020, 5.1.20
    _MONTH + r"[-/.]" + _YEAR,  # 1/2020
    _YEAR + r"\W*" + _NAMES,  # a year led by a month or weekday name: 2020 Mar 5
    _DAY + r"(?:st|nd|rd|th|\.)?\s+(?:of\s+)?[^\W\d_]{3,}[,.]?\s+" + _YEAR,  # 5 March 2020
    r"(?<=[^\W\d_]{3}\s)" + _DAY + r"(?:st|nd|rd|th)?,?\s+" + _YEAR,  # March 5, 2020
    r"(?<=[^\W\d_]{3}\.\s)" + _DAY + r"(?:st|nd|rd|th)?,?\s+" + _YEAR,  # Feb. 5, 2020
)
_LINE_DATE = re.compile(_NUM_START + "(?:" + "|".join(_LINE_DATE_SHAPES) + ")" + _NUM_END,
                        re.IGNORECASE)

_ATTRIBUTE_VALUES = etree.XPath("//@*", smart_strings=False)
#: Attributes htmldate reads as dates: meta content, title tooltips, <time datetime>.
_READ_ATTRIBUTES = etree.XPath("//@content | //@title | //@datetime", smart_strings=False)
_CANONICAL_HREF = etree.XPath("//link[@rel='canonical']/@href", smart_strings=False)


def _collapse(text: str) -> str:
    """``text`` with each whitespace run made one space, as htmldate reads element texts."""
    return " ".join(text.split())


def _has_year_shape(text: str, value_led: bool = False) -> bool:
    """Whether a four-digit year in ``text`` sits in a date shape (``value_led``: or starts one of
    the newline-separated values, as a bare copyright year in ``<meta content>`` does)."""
    for match in _YEAR_TOKEN.finditer(text):
        start = match.start()
        if _YEAR_SHAPES.search(text, max(0, start - _BEFORE_YEAR), match.end() + _AFTER_YEAR):
            return True
        if value_led and not text[text.rfind("\n", 0, start) + 1:start].strip():
            return True
    return False


def _has_short_year_date(text: str) -> bool:
    """Whether ``text`` holds a day-month-year date with a two-digit year (``5.1.20``)."""
    match = _SHORT_YEAR_TAIL.search(text)
    while match:
        start = match.start()
        if _SHORT_YEAR_DATE.search(text, max(0, start - 2), match.end()):
            return True
        match = _SHORT_YEAR_TAIL.search(text, start + 1)
    return False


def _has_cued_date(values: str) -> bool:
    """Whether a numeric date follows (or, in Turkish, precedes) a cue word such as "updated" or
    "Datum" in ``values`` (attribute values: a cue may reach across a newline in one of them)."""
    match = _NUMERIC_TAIL.search(values)
    while match:
        start, end = match.start(), match.end()
        if _CUE_BEFORE.search(values, max(0, start - _CUE_REACH), start) \
                or _CUE_AROUND.search(values, max(0, start - _CUE_REACH), end + _CUE_REACH):
            return True
        match = _NUMERIC_TAIL.search(values, start + 1)
    return False


def shows_date(text: str) -> bool:
    """Whether a line of text shows a date (``7 kwietnia 2021``, ``04.05.2021``, ``Feb 14,
    2020``, ``5.1.20``, ``2020-01-05``), for a line already known short.

    Stricter than the page pre-check's shapes, which stand for htmldate's loose reading: a
    line's numbers must be a date's (a day up to 31, a month up to 12, nothing digit-like on
    either side), so a year beside another number (``1990–2020``, ``2019 and 2020``,
    ``Population 2020: 5 million``), a count before a word and a year (``50 Filme 2021``) or a
    run of numbers (``Tel. 030 12-12-12``'s neighbours, ``1.2.3.45``) is not a date line.
    """
    return _LINE_DATE.search(_collapse(text)) is not None


def may_hold_date(tree: HtmlElement, url: str | None) -> bool:
    """Whether htmldate's fast path could find a date in this page (False: it would find none).

    Text (scripts included) is checked for every shape; attribute values for timestamps and cued
    dates (htmldate scans the serialised page), and those it reads as dates (meta content, title,
    datetime) for every shape. The checks are read cheapest first: the values htmldate reads as
    dates are few and show a date on most pages that hold one, so the page's whole text, and
    then every attribute value, are read only on the pages they do not settle (the answer is
    the same in any order).
    """
    page_url = url or next(iter(_CANONICAL_HREF(tree)), "")
    if page_url and _has_year_shape(page_url):
        return True
    read = "\n".join(map(_collapse, _READ_ATTRIBUTES(tree)))
    if _has_year_shape(read, value_led=True) or _has_short_year_date(read):
        return True
    text = _collapse(etree.tostring(tree, encoding="unicode", method="text"))
    if _has_year_shape(text) or _has_short_year_date(text):
        return True
    values = "\n".join(_ATTRIBUTE_VALUES(tree))
    if _MARKUP_DATE.search(values) or _has_cued_date(values):
        return True
    return tree.find(".//abbr[@data-utime]") is not None
