"""Lone link buttons: a block whose whole text is one short link ("Learn more", "Get started",
"Download now", "Read the review") standing between the page's own blocks.

Landing, service and product pages put a call to action after each section; a story ends with
a "read more" link. None of it is the page's text, and the cleaning's other rules miss it: it is
too short to be link-dense by the numbers, and its words are the page's own language. The rule
reads structure only:

- a *button* is a leaf block (as :func:`~crawler.extraction.story_tail.text_blocks` reads the
  container) whose whole text is inside one link to the page's own site (a call to action
  converts on the site; a lone link to another site is a reference the text gives), or one
  link that ran a script (``javascript:history.back()``: a control, leading to no page), of at
  most ``button_max_words`` words, not a heading, and not in a list, a table or a definition (there
  a short link is an entry of an index, which is content);
- a short link right before a paragraph of prose (``tail_prose_min_chars`` outside links) is
  that paragraph's title (a linked source name over each item of a round-up) and stays;
- a run of more than ``button_max_run`` such blocks in a row is a list of links (a menu, an
  index of pages), read as it stands;
- in a card (one of ``button_card_items`` or more siblings of one tag and class) a short link
  is the card's title unless the same words stand on another card ("View", "Learn more"):
  a grid of products or headlines keeps its titles;
- the container keeps all of them when they would take more than ``button_max_share`` of its
  text (a page of links).

It runs on containers no site or framework rule chose.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from lxml import etree

from crawler.extraction.clean import SCRIPT_LINK
from crawler.extraction.addresses import site_host
from crawler.extraction.like_siblings import LikeSiblings
from crawler.extraction.story_tail import (TextBlock, is_prose, non_space_chars, remove_block,
                                           text_blocks)
from crawler.extraction.thresholds import Thresholds
from crawler.extraction.tree_text import text_content

BUTTON_RULE = "link-button"
"""The rule's name in the trace."""

_ENTRY_TAGS = frozenset({"li", "td", "th", "dd", "dt", "caption", "figcaption"})
"""Containers whose short link is an entry of a list, a table or a definition."""
_WORD = re.compile(r"\w+")


def _is_button(block: TextBlock, site: str, t: Thresholds, scripts: bool = True) -> bool:
    """Whether a leaf block is one short link to the page's own site and nothing else (a link
    to another site is a reference the text gives), or one script control (``scripts``: the
    container holds a link that ran a script, so a block may be one)."""
    el = block.element
    if block.heading or block.opaque or block.chars == 0:
        return False
    if not (scripts and _script_button(block)):
        if block.link_chars < block.chars:
            return False
        links = [el] if el.tag == "a" else list(el.iter("a"))
        if len(links) != 1 or not links[0].get("href"):
            return False
        target = site_host(links[0].get("href", "").strip())
        if target and target != site:
            return False
    if el.tag in _ENTRY_TAGS or any(a.tag in _ENTRY_TAGS for a in el.iterancestors()):
        return False
    return len(_WORD.findall(text_content(el))) <= t.button_max_words


_SCRIPT_SPANS = etree.XPath(f"descendant-or-self::*/@{SCRIPT_LINK}/..")
_HOLDS_SCRIPT_SPAN = etree.XPath(f"boolean(descendant-or-self::*/@{SCRIPT_LINK})")
"""Whether a container holds a link that ran a script: asked once, so that the blocks of a
container without any (most) are not searched for one each."""


def _script_button(block: TextBlock) -> bool:
    """Whether a block's whole text is one link that ran a script (``javascript:history.back()``,
    ``javascript:print()``, made plain text by cleaning): a control of the page, leading to no
    page, like a call to action leading to one of the site's own."""
    spans = _SCRIPT_SPANS(block.element)
    return len(spans) == 1 and not block.link_chars \
        and non_space_chars(text_content(spans[0])) == block.chars


def _in_card(el: etree._Element, container: etree._Element, t: Thresholds,
             alike: LikeSiblings) -> bool:
    """Whether an element sits in a card: an ancestor below the container that is one of at
    least ``button_card_items`` siblings of its tag and class (a class: plain paragraphs of a
    text are no cards). The siblings of each parent are counted once (``alike``): a row of
    thousands of cards, each with its button, is not counted again for every button."""
    for anc in (el, *el.iterancestors()):
        if anc is container:
            return False
        if anc.getparent() is None:
            return False
        if not anc.get("class"):
            continue
        if alike.count(anc) >= t.button_card_items:
            return True
    return False


def _label(block: TextBlock) -> str:
    """A button's words, lower-cased (to find the same call to action on several cards)."""
    return " ".join(_WORD.findall(text_content(block.element).lower()))


def drop_link_buttons(container: etree._Element, url: str, t: Thresholds,
                      trace: list[dict[str, Any]] | None = None,
                      blocks: list[TextBlock] | None = None) -> int:
    """Remove the lone link buttons between the container's blocks; return how many went
    (``blocks``: the container's ``text_blocks`` as it stands, when the caller has them)."""
    if blocks is None:
        blocks = text_blocks(container)
    site = site_host(url.strip())
    scripts = _HOLDS_SCRIPT_SPAN(container)
    flags = [_is_button(b, site, t, scripts) for b in blocks]
    for i, flag in enumerate(flags):
        if flag and i + 1 < len(blocks) and is_prose(blocks[i + 1], t):
            flags[i] = False  # a linked line that introduces a paragraph is its title
    labels = Counter(_label(b) for b, flag in zip(blocks, flags) if flag)
    alike = LikeSiblings()
    flags = [flag and (labels[_label(b)] > 1 or not _in_card(b.element, container, t, alike))
             for b, flag in zip(blocks, flags)]
    doomed: list[TextBlock] = []
    i = 0
    while i < len(blocks):
        if not flags[i]:
            i += 1
            continue
        j = i
        while j < len(blocks) and flags[j]:
            j += 1
        if j - i <= t.button_max_run:
            doomed.extend(blocks[i:j])
        i = j
    if not doomed:
        return 0
    total = sum(b.chars for b in blocks)
    if sum(b.chars for b in doomed) > t.button_max_share * total:
        return 0
    for block in doomed:
        remove_block(block.element, container)
    if trace is not None:
        trace.append({"step": "clean", "action": "removed", "rule": BUTTON_RULE,
                      "why": "blocks whose whole text is one short link (calls to action)",
                      "count": len(doomed),
                      "text": [" ".join(text_content(b.element).split()) for b in doomed[:8]]})
    return len(doomed)
