"""The story's head: date lines between an article's title and its first paragraph.

News and blog pages print a line or two between the headline and the story: the date, often
with the author, a category or a reading time ("7 kwietnia 2021", "By NAME · Feb 14, 2020 · 5
min read", "24.01.2022 11:38 Kategorie: News"). The page's metadata carries the date and the
author; trafilatura's users do not get these lines in the text, and we did. The rule
("story-head" in the trace) reads shape only, in any language:

- the story's first paragraph is the container's first prose block (``is_prose`` of the story's
  tail rule), when the container holds a story (``holds_story``);
- before it, a block that is not a heading (the title stays), of at most ``head_line_max_chars``
  characters, that holds a ``<time>`` element or shows a date (``shows_date``: a day, month
  and year in a date's numbers, not a range or a count beside a year) is a date line and goes.

When the first prose block is a standfirst (short, outside the story's body: its parent is not
the next paragraph's), the date lines between it and the story's next paragraph go too
(``lead-date`` in the trace: headline, standfirst, then the date and author, then the body).

A longer line that shows a date before the first paragraph (a standfirst citing a date) stays,
and so do short lines without a date (a kicker, a name: no shape tells them from the story's
first words). The rule runs where the tail rule does: on article pages, never on containers
chosen by a site rule.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from crawler.extraction.date_cues import shows_date
from crawler.extraction.story_tail import (TextBlock, all_chars, is_prose, remove_blocks,
                                           story_prose, text_blocks)
from crawler.extraction.thresholds import Thresholds
from crawler.extraction.tree_text import text_content

HEAD_RULE = "story-head"
"""The rule's name in the trace."""

LEAD_DATE_RULE = "lead-date"
"""The name in the trace of the date lines between a standfirst and the story."""


def _date_line(block: TextBlock, t: Thresholds) -> bool:
    """A short line (not a heading, code, a table or media) holding a ``<time>`` or a date."""
    if block.heading or block.opaque or block.chars > t.head_line_max_chars:
        return False
    el = block.element
    return el.tag == "time" or next(el.iter("time"), None) is not None \
        or shows_date(text_content(el))


def drop_story_head(container: etree._Element, t: Thresholds,
                    trace: list[dict[str, Any]] | None = None,
                    blocks: list[TextBlock] | None = None) -> int:
    """Remove the date lines before the story's first prose block; return how many went
    (``blocks``: the container's ``text_blocks`` as it stands, when the caller has them)."""
    if blocks is None:
        blocks = text_blocks(container)
    # A story (holds_story), or a post that opens with its title and holds a story's prose
    # under half its text (a post of lists, tables and code): the lines between its title and
    # its first paragraph are a post's head as on any story.
    prose = story_prose(blocks, t)
    if prose < t.tail_story_min_chars or (prose < t.tail_story_share * all_chars(blocks)
                                          and not blocks[0].heading):
        return 0
    first = next(i for i, block in enumerate(blocks) if is_prose(block, t))
    doomed = [b for b in blocks[:first] if _date_line(b, t)]
    after_lead = lead_date_lines(blocks, first, t)
    return remove_blocks(doomed, container, trace, HEAD_RULE,
                         "before the story's first paragraph: short lines showing a date") \
        + remove_blocks(after_lead, container, trace, LEAD_DATE_RULE,
                        "between the standfirst and the story: short lines showing a date")


def lead_date_lines(blocks: list[TextBlock], first: int, t: Thresholds) -> list[TextBlock]:
    """The date lines right after the story's first prose block when that block is a standfirst
    and only date lines stand between it and the next prose block (pictures aside): a page
    that prints the headline, the standfirst, then the date and the author before the story
    ("lead-date" in the ablation). A standfirst is short (at most ``head_lead_max_chars``) and
    stands outside the story's body: its parent is not the next paragraph's (a header holding
    the title and the standfirst, then the body). A dated line between two paragraphs of one
    body (an update note), a heading or any other line between them leaves them alone."""
    if blocks[first].chars > t.head_lead_max_chars:
        return []
    between: list[TextBlock] = []
    for block in blocks[first + 1:]:
        if is_prose(block, t):
            apart = block.element.getparent() is not blocks[first].element.getparent()
            return between if apart else []
        if not block.chars:
            continue  # a picture between them
        if not _date_line(block, t):
            return []
        between.append(block)
    return []
