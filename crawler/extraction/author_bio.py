"""The author's biography closing a story, found by the name the page declares.

Blog and news pages end the story with a note on who wrote it: a line with the author's name
(often with a role line under it) and a short biography, or a biography opening with the name
("Jane Doe is a reporter who ..."), in an author box or as one more paragraph. The biography is
prose, so the story's tail rules take it for the story's last paragraph; trafilatura's users do
not get it and the references leave it out. The rule ("author-bio" in the trace) reads the
name the page declares as its author (JSON-LD, microdata, meta: the metadata's authors), not
words of any language:

- only a full name (at least ``bio_name_min_words`` words) is looked for, written as the page
  declares it (case aside);
- the story's last prose block (``is_prose`` of the tail rule) is the biography when its text
  opens with the name and it holds at most ``bio_max_chars`` characters; or a line that is
  the name alone stands among the ``bio_max_lines`` blocks before it, and the blocks from that
  line to the last prose block hold at most ``bio_max_chars`` (name, role, biography);
- what goes is that run; the container must still hold a story without it (``holds_story``
  of the tail rule). A story that quotes its author by name in its last paragraph keeps it
  unless the paragraph opens with the full name.

It runs where the story's tail rules do: on article pages, never on containers chosen by a
site or framework rule.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from crawler.extraction.story_tail import (TextBlock, holds_story, is_prose, remove_blocks,
                                           text_blocks)
from crawler.extraction.thresholds import Thresholds
from crawler.extraction.tree_text import text_content

BIO_RULE = "author-bio"
"""The rule's name in the trace."""


def _folded(text: str) -> str:
    """White space collapsed, case folded."""
    return " ".join(text.split()).casefold()


def _full_names(authors: list[str], t: Thresholds) -> list[str]:
    """The declared authors' names of at least ``bio_name_min_words`` words, folded."""
    return [name for name in (_folded(a) for a in authors)
            if len(name.split()) >= t.bio_name_min_words]


def author_bio(blocks: list[TextBlock], authors: list[str], t: Thresholds) -> list[TextBlock]:
    """The blocks of the author's biography closing the story (see the module's docstring), or
    none."""
    names = _full_names(authors, t)
    prose = [i for i, b in enumerate(blocks) if is_prose(b, t)]
    if not names or not prose:
        return []
    end = prose[-1]
    last = _folded(text_content(blocks[end].element))
    if any(last.startswith(name) for name in names):
        run = [blocks[end]]
    else:
        start = next((i for i in range(end - 1, max(end - 1 - t.bio_max_lines, -1), -1)
                      if _folded(text_content(blocks[i].element)) in names), None)
        if start is None:
            return []
        run = blocks[start:end + 1]
    if sum(b.chars for b in run) > t.bio_max_chars:
        return []
    return run


def drop_author_bio(container: etree._Element, authors: list[str], t: Thresholds,
                    trace: list[dict[str, Any]] | None = None,
                    blocks: list[TextBlock] | None = None) -> int:
    """Remove the author's biography closing the story; return how many blocks went
    (``blocks``: the container's ``text_blocks`` as it stands, when the caller has them)."""
    if not authors:
        return 0
    if blocks is None:
        blocks = text_blocks(container)
    run = author_bio(blocks, authors, t)
    if not run:
        return 0
    gone = set(id(b) for b in run)
    if not holds_story(container, t, [b for b in blocks if id(b) not in gone]):
        return 0
    return remove_blocks(run, container, trace, BIO_RULE,
                         "the author's biography closing the story: it opens with the name the "
                         "page declares as its author, or follows a line holding that name")
