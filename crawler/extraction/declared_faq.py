"""The questions a page declares as its FAQ, kept with the content (declared-faq).

A page that declares a schema.org ``FAQPage`` in JSON-LD says its questions and answers are
part of what it publishes: a category page, a service page or a guide closes on them. They sit
in a block of their own, often beside the container the engine chose (after a product grid, in
a section below the article's body), or in a collapsed accordion that the cleaning takes for a
widget, so the output misses them. The rule reads structure only:

- the *declared questions* are the ``name`` of each JSON-LD ``Question`` of the page's
  ``FAQPage`` (at least ``faq_min_questions`` of them);
- a ``<button>`` whose text is a declared question (an accordion's toggle) becomes a plain
  block before form controls are stripped, so the question stays beside its answer;
- each question's *place* on the page is the smallest element (of the working copy, before
  cleaning) whose words are the question's, with at most ``faq_question_extra_chars`` more
  characters (a number, a toggle's sign);
- the *FAQ block* is the nearest element holding the places of at least ``faq_found_share``
  of the declared questions, when its text is at most ``faq_block_ratio`` times the declared
  questions and answers (a heading and the answers' markup, not the page around them); a block
  that holds the chosen container is the container's own business;
- when the cleaned container holds fewer than ``faq_found_share`` of the declared questions,
  a copy of the FAQ block (taken before cleaning) is added after the content, its collapsed
  answers shown.

Discussion pages (a Q&A page's question is its opening post) are judged as posts, not here.
"""

from __future__ import annotations

import re
from copy import deepcopy
from typing import Any

from lxml import etree

from crawler.extraction.clean import unhide
from crawler.extraction.thresholds import Thresholds
from crawler.extraction.tree_text import text_content

FAQ_RULE = "declared-faq"
"""The rule's name in the trace."""

_WORD = re.compile(r"\w+")


def _words(text: str) -> str:
    """The lower-cased words of a text, one space apart (markup and punctuation apart)."""
    return " ".join(_WORD.findall(text.lower()))


def _places(body: etree._Element, faq: list[tuple[str, str]],
            t: Thresholds) -> list[etree._Element]:
    """The place of each declared question found on the page: the smallest element whose words
    are the question's (with a few more characters), climbing from the elements whose own text
    is part of a question (one pass over the page; each climb stops at the question's size, and
    an element's words are read once however many questions climb through it)."""
    wanted = [w for w in (_words(q) for q, _ in faq) if w]
    found: dict[str, etree._Element] = {}
    words_of: dict[etree._Element, str] = {}  # each element's words read once, not per question
    for el in body.iter():
        if not isinstance(el.tag, str) or not el.text or len(found) == len(wanted):
            continue
        own = _words(el.text)
        if not own:
            continue
        for question in wanted:
            if question in found or own not in question:
                continue
            most = len(question) + t.faq_question_extra_chars
            node: etree._Element | None = el
            while node is not None:
                words = words_of.get(node)
                if words is None:
                    words = words_of[node] = _words(text_content(node))
                if len(words) > most:
                    break
                if question in words:
                    found[question] = node
                    break
                node = node.getparent()
    return list(found.values())


def keep_declared_questions(root: etree._Element, faq: list[tuple[str, str]],
                            t: Thresholds) -> int:
    """Turn the controls (``<button>``) whose text is a declared question into plain blocks,
    before form controls are stripped: an accordion's question is its toggle's label, and
    without it the answers stand alone. Returns how many were kept."""
    if len(faq) < t.faq_min_questions:
        return 0
    wanted = [w for w in (_words(q) for q, _ in faq) if w]
    kept = 0
    for button in list(root.iter("button")):
        words = _words(text_content(button))
        if words and any(q in words and len(words) <= len(q) + t.faq_question_extra_chars
                         for q in wanted):
            button.tag = "div"
            kept += 1
    return kept


def _common_ancestor(elements: list[etree._Element]) -> etree._Element:
    """The nearest element holding every one of ``elements``."""
    paths = [[el, *el.iterancestors()][::-1] for el in elements]
    common = paths[0][0]
    for level in zip(*paths):
        if any(el is not level[0] for el in level):
            break
        common = level[0]
    return common


def find_declared_faq(body: etree._Element, chosen: etree._Element,
                      faq: list[tuple[str, str]], t: Thresholds) -> etree._Element | None:
    """A copy of the block holding the page's declared questions (before cleaning), or None
    when the page declares too few, they are not found together, or the block is the chosen
    container's own (holding it or held by it)."""
    if len(faq) < t.faq_min_questions:
        return None
    places = _places(body, faq, t)
    if len(places) < max(t.faq_min_questions, t.faq_found_share * len(faq)):
        return None
    block = _common_ancestor(places)
    declared = sum(len(_words(q)) + len(_words(a)) for q, a in faq)
    if len(_words(text_content(block))) > t.faq_block_ratio * declared:
        return None
    if block is chosen or any(a is block for a in chosen.iterancestors()):
        return None
    return deepcopy(block)


def add_declared_faq(container: etree._Element, block: etree._Element | None,
                     faq: list[tuple[str, str]], t: Thresholds,
                     log: list[dict[str, Any]] | None) -> bool:
    """Add the FAQ block after the cleaned content when the content lost most of the declared
    questions; whether it was added."""
    if block is None:
        return False
    text = _words(text_content(container))
    kept = sum(1 for q, _ in faq if _words(q) in text)
    if kept >= t.faq_found_share * len(faq):
        return False
    block.tail = None
    for el in block.iter():
        if isinstance(el.tag, str):
            unhide(el)  # the answers of a collapsed accordion: declared, shown when opened
    container.append(block)
    if log is not None:
        log.append({"step": "clean", "rule": FAQ_RULE, "declared_questions": len(faq),
                    "in_content": kept, "added_chars": len(text_content(block)),
                    "why": "the page declares an FAQ the content lost: its block is added"})
    return True
