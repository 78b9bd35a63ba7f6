"""Reader comments, found by structure and set apart from the main content.

A comment section is taken out of the page before the main content is chosen, so neither the
choice nor its widening can take it in, and is rendered on its own (``comments_html``,
``comments_markdown``, ``comments_text``: what trafilatura users know as ``comments``). Three
signals find it, none naming a site or a phrase of one language:

- declared types: elements declared as schema.org ``Comment`` (microdata ``itemtype``) or as a
  page's ``comment`` property;
- comment-section landmarks: blocks whose class or id names them a comment section (the
  ``comment_section_pattern`` of ``site_rules/cleaning.yaml``);
- repeated items after the story: two or more sibling items of one shape, each with a date
  (``<time>`` or a ``datetime``) and an author mark (``itemprop=author``, a ``vcard``, a
  ``<cite>``, a class naming the author), with prose and no headline of their own.

A section is set apart only when the story stays: it does not hold the page's ``h1``, its
``main`` or its ``articleBody``, and the page keeps enough text outside it (the numbers are the
``comment_*`` fields of the thresholds). On discussion pages (forum engines,
``DiscussionForumPosting``, Q&A pages) the posts are the content and nothing is set apart.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from lxml import etree

from crawler.extraction.frameworks import CleaningRules, PageNames
from crawler.extraction.name_patterns import NamePattern
from crawler.extraction.thresholds import THRESHOLDS, Thresholds
from crawler.extraction.tree_text import text_content

_PARAGRAPH_TAGS = ("p", "blockquote", "pre", "li")
"""The blocks whose prose is the story's (read in one walk, in document order)."""
DISCUSSION_TYPES = frozenset({"discussionforumposting", "qapage", "question"})
"""Declared page types whose posts are the content."""

FAQ_PAGE_TYPE = "faqpage"
"""The declared type of a page of frequently asked questions (its questions are no posts)."""

_DECLARED = etree.XPath(
    "(/descendant-or-self::*/@itemtype[contains(., 'schema.org/Comment')"
    " or contains(., 'schema.org/UserComments')]"
    " | /descendant-or-self::*/@itemprop[.='comment' or .='comments'])/..")
_DATED = etree.XPath("boolean(descendant-or-self::time | descendant-or-self::*/@datetime)")
_AUTHORED = etree.XPath(
    "boolean(descendant::*[@itemprop='author' or @rel='author' or contains(@class, 'vcard')"
    " or contains(@class, 'author') or contains(@class, 'Author')] | descendant::cite)")
_HEADLINE_LINK = etree.XPath("boolean(descendant::*[self::h1 or self::h2 or self::h3 or self::h4]"
                             "[descendant::a[@href]])")
_NAMES = etree.XPath("descendant::*/@class | descendant::*/@id")
"""The class and id values under an element, each tied to its element."""
_CLASS_VALUES = etree.XPath("descendant::*/@class", smart_strings=False)
_ID_VALUES = etree.XPath("descendant::*/@id", smart_strings=False)
"""The same values as plain strings, classes and ids apart (a union sorts the two lists into
document order, which judging each distinct value needs not): several times cheaper to list
than values tied to their elements, which lxml makes an element object for, and most pages
name no comment section."""
_DATETIMES = etree.XPath("descendant::*/@datetime/..")
"""The elements under an element carrying a ``datetime`` (with its ``<time>`` elements, listed
apart: a union would sort the two lists into one)."""
_STORY_MARKS = etree.XPath(
    "boolean(descendant-or-self::h1 | descendant-or-self::main | "
    "descendant-or-self::*[@itemprop='articleBody'])")


def is_discussion(framework: str | None, declared_types: list[str],
                  cleaning: CleaningRules) -> bool:
    """Whether the page is a discussion whose posts are its content: a forum engine's page, or
    a page declaring itself a forum posting or a Q&A page. The questions of a declared FAQ
    (``FAQPage``) are ``Question`` nodes too: they make no discussion."""
    if framework and framework in cleaning.discussion_frameworks:
        return True
    types = {t.lower() for t in declared_types}
    if FAQ_PAGE_TYPE in types:
        types.discard("question")
    return bool(types & DISCUSSION_TYPES)


def find_comment_sections(body: etree._Element, cleaning: CleaningRules,
                          t: Thresholds = THRESHOLDS,
                          names: PageNames | None = None) -> list[etree._Element]:
    """The page's comment sections, outermost first, in document order (none when setting them
    apart would leave too little story). ``names``: the class values and ids of a tree holding
    the body whose elements had them as they stand (the page's framework checks listed them
    before the never-content elements were stripped, which changes no class or id): every
    value the body holds is among them, so judging theirs finds the same sections."""
    found: list[etree._Element] = []
    for el in _DECLARED(body):
        found.append(_declared_section(el, t))
    pattern, state = cleaning.comment_section_pattern, cleaning.state_name_pattern
    if pattern is not None:
        # Each distinct class or id value is judged once, from plain strings; the elements
        # are looked up only on the pages where some value names a section.
        values = _CLASS_VALUES(body) + _ID_VALUES(body) if names is None \
            else names.class_values() + names.ids()
        sections = {value for value in dict.fromkeys(values)
                    if _names_section(value, pattern, state)}
        if sections:
            found += [value.getparent() for value in _NAMES(body) if value in sections]
    found += _repeated_comment_lists(body, t)
    sections = _outermost([el for el in found if el is not body and not _STORY_MARKS(el)])
    sections = [el for el in sections
                if _text_before(body, el, t.comment_min_story_chars) >= t.comment_min_story_chars]
    if not sections:
        return []
    inside = sum(_chars(el) for el in sections)
    story = _prose_outside(body, sections, t)
    if story < t.comment_min_story_chars or inside > t.discussion_over_story * story:
        return []  # the posts are what the page is: a thread, a guestbook, a discussion
    return sections


def _names_section(value: str, pattern: NamePattern, state: NamePattern | None) -> bool:
    """Whether a class or id value names a comment section once its state names are left out
    (``has-comments`` is a state of the page, not a section)."""
    if not pattern.found(value):
        return False
    names = " ".join(t for t in value.lower().split() if state is None or not state.found(t))
    return bool(names) and pattern.found(names)


def _prose_outside(body: etree._Element, sections: list[etree._Element], t: Thresholds) -> int:
    """Characters of prose (paragraphs of at least ``comment_min_prose_chars``, mostly not links) of
    the page outside the sections: the story the comments are about."""
    inside = {el for section in sections for el in section.iterdescendants()}
    total = 0
    for para in body.iterdescendants(*_PARAGRAPH_TAGS):
        if para in inside:
            continue
        chars = _chars(para)
        if chars < t.comment_min_prose_chars:
            continue  # too short to be prose: its links need not be read
        linked = sum(_chars(a) for a in para.iter("a"))
        if linked < t.comment_prose_max_link_share * chars:
            total += chars
    return total


def _text_before(body: etree._Element, target: etree._Element, limit: int) -> int:
    """Non-space characters of the page's text ahead of an element (comments follow a story),
    counted up to ``limit``."""
    chars = 0
    for el in body.iter():
        if el is target or chars >= limit:
            break
        if isinstance(el.tag, str) and el.text:
            chars += _nonspace(el.text)
        if el is not body and el.tail:
            chars += _nonspace(el.tail)
    return chars


def _declared_section(el: etree._Element, t: Thresholds) -> etree._Element:
    """The list holding a declared comment: the parent when its siblings are comments too."""
    parent = el.getparent()
    if parent is not None and sum(1 for sib in parent if sib.get("itemtype") == el.get("itemtype")
                                  and sib.get("itemprop") == el.get("itemprop")) \
            >= t.min_comment_items:
        return parent
    return el


def _repeated_comment_lists(body: etree._Element, t: Thresholds) -> list[etree._Element]:
    """Containers of repeated items that each carry a date, an author and prose, and no
    headline link (a list of linked stories with dates and authors is a teaser list)."""
    lists = []
    seen: set[etree._Element] = set()
    parents = []
    # A comment is dated: only a date's ancestors can be its list (an element that is both a
    # <time> and carries a datetime is listed twice; its ancestors are taken once).
    for date in (*body.iterdescendants("time"), *_DATETIMES(body)):
        for anc in list(date.iterancestors())[:t.comment_item_depth]:
            if anc is body:
                break
            if anc not in seen:
                seen.add(anc)
                parents.append(anc)
    for parent in parents:
        if not isinstance(parent.tag, str) or len(parent) < t.min_comment_items:
            continue
        shapes = Counter((child.tag, child.get("class") or "") for child in parent
                         if isinstance(child.tag, str))
        shape, count = shapes.most_common(1)[0] if shapes else (None, 0)
        if count < t.min_comment_items:
            continue
        items = [child for child in parent if isinstance(child.tag, str)
                 and (child.tag, child.get("class") or "") == shape]
        if all(_comment_like(item, t) for item in items):
            lists.append(parent)
    return lists


def _comment_like(item: etree._Element, t: Thresholds) -> bool:
    """Whether an item reads as a comment: dated, authored, some prose, no headline link."""
    return _DATED(item) and _AUTHORED(item) and not _HEADLINE_LINK(item) \
        and _chars(item) >= t.min_comment_item_chars


def _outermost(elements: list[etree._Element]) -> list[etree._Element]:
    """The elements not inside another of them, in document order, each once."""
    chosen = set(elements)
    out: list[etree._Element] = []
    for el in elements:
        if el in out or any(anc in chosen for anc in el.iterancestors()):
            continue
        out.append(el)
    if len(out) <= 1:
        return out
    return sorted(out, key=_document_position)


def _document_position(el: etree._Element) -> list[int]:
    """Where an element stands in document order, for sorting elements of which none holds
    another: the index of it and of each of its ancestors among their siblings, root first
    (cheaper than numbering every element of the page for a few)."""
    path = []
    child = el
    for parent in el.iterancestors():
        path.append(parent.index(child))
        child = parent
    path.reverse()
    return path


def _nonspace(text: str) -> int:
    """Non-space characters of a text (splitting on white space is cheaper than a regex)."""
    return sum(map(len, text.split()))


def _chars(el: etree._Element) -> int:
    """Non-space characters of an element's text."""
    return _nonspace(text_content(el))


def set_apart(sections: list[etree._Element]) -> etree._Element | None:
    """Detach the comment sections from the page and return them under one ``div`` (None when
    there are none); each section's tail text stays in the page."""
    if not sections:
        return None
    holder = sections[0].makeelement("div", {})  # the page's element class (HTML methods)
    for section in sections:
        parent = section.getparent()
        if parent is None:
            continue
        tail = section.tail
        previous = section.getprevious()
        parent.remove(section)
        if tail:
            if previous is not None:
                previous.tail = (previous.tail or "") + tail
            else:
                parent.text = (parent.text or "") + tail
        section.tail = None
        holder.append(section)
    return holder


def describe(sections: list[etree._Element]) -> list[dict[str, Any]]:
    """Short descriptions of the sections set apart, for the trace."""
    return [{"tag": el.tag, "class": (el.get("class") or "")[:80], "id": el.get("id") or "",
             "chars": _chars(el)} for el in sections]
