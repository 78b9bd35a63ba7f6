"""Asides inside a story: short lines of links before and between its paragraphs.

News and blog pages put pointers to their other pages inside the story: a "read also" line
between two paragraphs (a label and one linked headline), a boxed list of two or three linked
headlines under a small heading, a line of category or author links above the first paragraph.
Each is a block whose text is mostly one or two links, short beside the story's paragraphs.
Trafilatura drops such blocks by their link density; we kept them, because the story's tail
rule only looks after the story's last paragraph. This rule ("story-aside" in the trace) reads
structure only:

- the story is the container's prose blocks (``is_prose`` of the story's tail rule), when the
  container holds one (``holds_story``);
- before the story's last prose block, a leaf block of at most ``aside_max_chars`` characters
  with more than ``aside_link_share`` of its text in links, every one to another page of the
  page's own site (its host or a subdomain), is an aside and goes, and so does a heading over
  asides when the two share a box holding nothing else (a "read also" box's title);
- asides stand alone: when the story holds more than ``aside_max_runs`` runs of them (blocks
  in a row), or a run of more than ``aside_max_run_blocks``, they are the page's own list of
  linked entries (a list of hotels, each a linked name over its paragraph) and all stay;
- nothing goes when what would go holds more than ``tail_max_share`` of the story's prose (a
  page of linked entries with a few paragraphs among them is an index, not a story).

Headings, code, tables and media stay (an aside is a line of text), and so do lines of the
same length without links (a quote, a date line: they may be the story's own). The rule runs
where the tail rule does: on article pages, never on containers chosen by a site rule.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from crawler.extraction.addresses import join_url, same_site, site_host
from crawler.extraction.clean import drop_orphan_labels, labels_before
from crawler.extraction.story_tail import (TextBlock, holds_story, is_prose, non_space_chars,
                                           remove_blocks, story_prose, text_blocks,
                                           under_heading)
from crawler.extraction.thresholds import Thresholds
from crawler.extraction.tree_text import text_content

ASIDE_RULE = "story-aside"
"""The rule's name in the trace."""

LABEL_RULE = "aside-label"
"""The trace name of the labels the rule's removals leave heading nothing."""


def _links_home(block: TextBlock, url: str) -> bool:
    """Whether every link of a block points to another page of the page's own site (a pointer
    to a source or a shop elsewhere is the story's reference, not the site's aside)."""
    page_host = site_host(url)
    hrefs = [a.get("href") or "" for a in block.element.iter("a")]
    if block.element.tag == "a":
        hrefs.append(block.element.get("href") or "")
    for anc in block.element.iterancestors("a"):
        hrefs.append(anc.get("href") or "")
    hrefs = [h.strip() for h in hrefs if h.strip() and not h.strip().startswith("#")]
    return bool(hrefs) and all(same_site(site_host(join_url(url, h) or ""), page_host)
                                for h in hrefs)


def _is_aside(block: TextBlock, url: str, t: Thresholds) -> bool:
    """A short line of text mostly in links to the site's other pages (not a heading, code, a
    table or media)."""
    return not block.heading and not block.opaque and block.chars <= t.aside_max_chars \
        and block.link_chars > t.aside_link_share * block.chars and _links_home(block, url)


def _aside_runs(story: list[TextBlock], url: str, t: Thresholds) -> list[list[TextBlock]] | None:
    """The asides of the story in runs (blocks in a row, headings between them included), or
    None when the story is built of them: more than ``aside_max_runs`` runs, or a run of more
    than ``aside_max_run_blocks`` lines, is the page's own list of linked entries (a list of
    hotels, each a linked name over its paragraph; a packing list of linked products)."""
    runs: list[list[TextBlock]] = []
    current: list[TextBlock] = []
    for block in story + [None]:
        if block is not None and (block.heading or _is_aside(block, url, t)):
            current.append(block)
            continue
        lines = [b for b in current if not b.heading]
        if lines:
            if len(lines) > t.aside_max_run_blocks:
                return None
            runs.append(current)
        current = []
    return None if len(runs) > t.aside_max_runs else runs


def _boxed_headings(runs: list[list[TextBlock]], t: Thresholds) -> list[TextBlock]:
    """The headings of the runs that head a box of asides: the heading and the aside lines
    right after it (up to the next heading) share an element holding nothing else (a "read
    also" box's title). A heading in the story's own flow stays, whatever follows it."""
    out = []
    for run in runs:
        for i, block in enumerate(run):
            if not block.heading:
                continue
            lines = under_heading(run, i)
            if not lines:
                continue
            box = _common_ancestor(block.element, lines[-1].element)
            if box is not None and non_space_chars(text_content(box)) \
                    == block.chars + sum(b.chars for b in lines):
                out.append(block)
    return out


def _common_ancestor(a: etree._Element, b: etree._Element) -> etree._Element | None:
    """The lowest element holding both."""
    above_a = set(a.iterancestors())
    return next((anc for anc in b.iterancestors() if anc in above_a), None)


def _doomed(story: list[TextBlock], url: str, prose: int,
            t: Thresholds) -> list[TextBlock] | None:
    """The asides of the story's blocks and the headings over only them, or None when they
    stay: the story is built of linked entries (``_aside_runs``), or they hold more than
    ``tail_max_share`` of its prose (an index among a few paragraphs)."""
    runs = _aside_runs(story, url, t)
    if runs is None:
        return None
    doomed = [b for run in runs for b in run if not b.heading]
    if not doomed:
        return []
    doomed += _boxed_headings(runs, t)
    if sum(b.chars for b in doomed) > t.tail_max_share * prose:
        return None
    return doomed


def drop_story_asides(container: etree._Element, url: str, t: Thresholds,
                      trace: list[dict[str, Any]] | None = None,
                      blocks: list[TextBlock] | None = None) -> int:
    """Remove the short link lines (and the headings over only them) before the story's last
    prose block; return how many blocks went (``blocks``: the container's ``text_blocks`` as
    it stands, when the caller has them)."""
    if blocks is None:
        blocks = text_blocks(container)
    if not holds_story(container, t, blocks):
        return 0
    end = max(i for i, block in enumerate(blocks) if is_prose(block, t))
    story = blocks[:end]
    prose = story_prose(blocks, t)
    doomed = _doomed(story, url, prose, t)
    if not doomed:
        return 0
    labels = aside_labels(doomed)
    went = remove_blocks(doomed, container, trace, ASIDE_RULE,
                         "inside the story: short lines mostly of links, and headings over "
                         "only them")
    if labels:
        drop_orphan_labels(labels, container, trace, t, LABEL_RULE,
                           "a short title line whose aside the story-aside rule removed")
    return went


def aside_labels(doomed: list[TextBlock]) -> list[etree._Element]:
    """The lines right before the asides the rule removes (the nearest earlier sibling with
    text of each), which may be their labels: a bold "read also:" line over the link line it
    announces. They go by the cleaning's orphan-label test ("aside-label" in the trace and the
    ablation): a short heading, bold line or line ending in a colon or a question mark left
    with nothing after it in its parent; a label over the story's text stays."""
    return labels_before({block.element for block in doomed})
