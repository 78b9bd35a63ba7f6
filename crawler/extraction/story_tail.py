"""The story's tail: what a chosen container holds after the story has ended.

A news or blog story ends with its last paragraph of prose; what a page's container prints
after it is rarely the story: a "read more" heading over a list of linked headlines, a share
or rating heading whose buttons were stripped, a tag line of links, a comment form's heading.
Trafilatura's users do not get them; we did, because each block is small and named in the
page's own language. The rule reads structure only:

- the story's end is the last *prose block* of the container: a leaf block (a paragraph, a
  list item, a cell) with at least ``tail_prose_min_chars`` characters of text outside links,
  when the container holds a story (``holds_story``: enough prose, making most of its text; a
  landing page of short tiles and buttons has no story to end);
- after it, a leaf block whose text is mostly links (``tail_link_share``) is a teaser or tag
  line and goes, and a heading goes when everything after it up to the next heading went too
  (it heads nothing left);
- nothing goes when what would go holds more than ``tail_max_share`` of the story's prose (a
  hub page's index of documents after its introduction is the page's own);
- short lines without links after the story (a source line, a photo credit, a date) stay: they
  may be the story's own last words.

A second rule ("tail-label" in the trace, :func:`trim_tail_labels`) reads the short lines the
first one leaves: the final run of blocks after the story's last prose block, each shorter than
a paragraph (``label_max_chars``), that stand *outside the story's flow*: in another element
than the one holding the story's paragraphs, or of another kind (a ``div`` or a heading after
``p`` paragraphs). A share prompt whose buttons were stripped, a rating widget, a category
line in a meta box, a "no comments yet" line, the name and role of an author box: each is a
widget of its own, not a paragraph of the story. A short line in the story's flow (a source
line, a credit, the author's last sentence, written as one more paragraph) and an entry of a
list (a reference, a footnote) stop the run and stay, and so does all before them; images in the run are passed over and stay. A run of more
than ``label_max_blocks`` lines is no set of labels but the story's own list of short lines (a
list of findings, a live ticker's entries, a table of nutritional values) and stays whole.

The rules run on article pages only (declared as an article, or dated: the page record's
``page_type``), never on containers chosen by a site or framework rule (documentation, forums):
on a hub or a documentation page a closing list of links is an index, which is content.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from lxml import etree

from crawler.extraction.clean import _remove as remove_keeping_tail
from crawler.extraction.thresholds import Thresholds
from crawler.extraction.tree_text import outermost, text_content

TAIL_RULE = "story-tail"
"""The rule's name in the trace."""

_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_LEAVES = frozenset({"p", "li", "dd", "dt", "td", "th", "blockquote", "figcaption", "div",
                     "section", "header", "span", "strong", "b", *_HEADINGS})
"""Elements that can be one block of text (when no block element is inside them)."""
_BLOCKS = frozenset({"p", "li", "ul", "ol", "dl", "dd", "dt", "div", "section", "article",
                     "header", "table", "tr", "td", "th", "blockquote", "pre", "figure",
                     "figcaption", "aside", "footer", "nav", "form", "fieldset", *_HEADINGS})
"""Elements that start a new block of text."""
_OPAQUE = frozenset({"pre", "table", "figure", "img", "picture", "video", "audio", "iframe",
                     "math", "svg"})
"""Blocks read as they stand: code, tables and media are never removed as the tail (nor do
they mark where the story ends: an image or an ad's table may follow it)."""


@dataclass
class TextBlock:
    """One leaf block of the container, in document order."""

    element: etree._Element
    chars: int
    link_chars: int
    heading: bool
    opaque: bool

    @property
    def prose(self) -> int:
        """Characters of the block's text outside links."""
        return self.chars - self.link_chars


def non_space_chars(text: str | None) -> int:
    """Characters of a text, spaces left out."""
    return len("".join(text.split())) if text else 0


def more_chars_than(text: str, limit: int) -> bool:
    """Whether ``non_space_chars(text) > limit``, settled on a prefix of the text when it can
    be: a caption's or a card's limit is tested against whole articles' text, and counting a
    prefix is enough to tell that they are far over it."""
    if len(text) <= limit:
        return False
    prefix = 4 * limit + 4
    if non_space_chars(text[:prefix]) > limit:
        return True
    return len(text) > prefix and non_space_chars(text) > limit


def text_blocks(container: etree._Element) -> list[TextBlock]:
    """The leaf blocks of the container in document order: elements holding no block, either
    block elements themselves or inline elements (a button link) standing beside blocks; code,
    tables and media are one opaque block each.

    One walk down from the container that stops at each block it records (what lies inside a
    block is read by lxml's own text and tag iterators, not visited element by element)."""
    holds_block: set[etree._Element] = set()
    for el in container.iter(*_BLOCKS):
        for anc in el.iterancestors():
            if anc in holds_block or anc is container:
                break
            holds_block.add(anc)
    out: list[TextBlock] = []
    in_link = container.tag == "a" or any(anc.tag == "a" for anc in container.iterancestors())
    _collect_blocks(container, True, in_link, holds_block, out)
    return out


def _collect_blocks(el: etree._Element, beside_blocks: bool, in_link: bool,
                    holds_block: set[etree._Element], out: list[TextBlock]) -> None:
    """Append the leaf blocks under ``el`` to ``out`` (``beside_blocks``: ``el`` is the container
    or holds a block, so an inline child of it is a block of its own; ``in_link``: ``el`` or
    one of its ancestors is a link, so every block under it is all link text)."""
    for child in el:
        tag = child.tag
        if not isinstance(tag, str):
            continue
        if tag in _OPAQUE:
            out.append(TextBlock(child, non_space_chars(text_content(child)), 0, False, True))
            continue
        holding = child in holds_block
        if holding or (tag not in _LEAVES and not beside_blocks):
            _collect_blocks(child, holding, in_link or tag == "a", holds_block, out)
            continue
        if not len(child):  # most blocks: their own text, no link inside but themselves
            chars = non_space_chars(child.text)
            if chars:
                links = chars if in_link or tag == "a" else 0
                out.append(TextBlock(child, chars, links, tag in _HEADINGS, False))
            continue
        chars = non_space_chars(text_content(child))
        if not chars:
            continue
        if in_link:
            links = chars  # a card whose heading sits inside its link
        else:
            links = sum(non_space_chars(text_content(a)) for a in child.iter("a"))
        out.append(TextBlock(child, chars, min(links, chars), tag in _HEADINGS, False))


def holds_story(container: etree._Element, t: Thresholds,
                blocks: list[TextBlock] | None = None) -> bool:
    """Whether the container holds a story: at least ``tail_story_min_chars`` of prose (blocks
    of ``tail_prose_min_chars`` outside links), making at least ``tail_story_share`` of its
    text (a landing page of short tiles and buttons, a grid of cards, is no story)."""
    if blocks is None:
        blocks = text_blocks(container)
    prose = story_prose(blocks, t)
    return prose >= t.tail_story_min_chars and prose >= t.tail_story_share * all_chars(blocks)


def story_prose(blocks: list[TextBlock], t: Thresholds) -> int:
    """Characters of the blocks' prose (:func:`is_prose` blocks, their text outside links)."""
    return sum(b.prose for b in blocks if is_prose(b, t))


def all_chars(blocks: list[TextBlock]) -> int:
    """Characters of the blocks' text."""
    return sum(b.chars for b in blocks)


def under_heading(blocks: list[TextBlock], at: int) -> list[TextBlock]:
    """The blocks after the heading ``blocks[at]`` up to the next heading (its section)."""
    section = []
    for later in blocks[at + 1:]:
        if later.heading:
            break
        section.append(later)
    return section


def is_prose(block: TextBlock, t: Thresholds) -> bool:
    """Whether a block is a paragraph of the story: long enough outside links, mostly not
    links, not a heading, not code or a table."""
    return not block.opaque and not block.heading and block.prose >= t.tail_prose_min_chars \
        and block.link_chars <= t.tail_link_share * block.chars


def trim_story_tail(container: etree._Element, t: Thresholds,
                    trace: list[dict[str, Any]] | None = None,
                    blocks: list[TextBlock] | None = None) -> int:
    """Remove the teaser lines and the headings that head nothing after the story's last prose
    block; return how many blocks went (``blocks``: the container's ``text_blocks``, when the
    caller has them already)."""
    if blocks is None:
        blocks = text_blocks(container)
    if not holds_story(container, t, blocks):
        return 0
    end = max(i for i, block in enumerate(blocks) if is_prose(block, t))
    tail = blocks[end + 1:]
    doomed = [b for b in tail if not b.heading
              and b.link_chars > t.tail_link_share * b.chars]
    gone = set(id(b) for b in doomed)
    headed_nothing = []
    for i, block in enumerate(tail):
        if not block.heading:
            continue
        if all(id(b) in gone for b in under_heading(tail, i)):
            headed_nothing.append(block)
    for block in reversed(headed_nothing):  # a heading over an emptied subsection goes too
        gone.add(id(block))
    doomed += headed_nothing
    story = story_prose(blocks, t)
    if sum(b.chars for b in doomed) > t.tail_max_share * story:
        return 0  # a hub's index after its introduction, not a story's teasers
    return remove_blocks(doomed, container, trace, TAIL_RULE,
                         "after the story's last paragraph: lines of links and headings "
                         "heading nothing")


TAIL_LABEL_RULE = "tail-label"
"""The second rule's name in the trace."""

_ENTRIES = frozenset({"li", "dd", "dt"})
"""Entries of a list: after the story, a reference, a footnote or a list of facts, its own."""


def _in_flow(block: TextBlock, parents: set[etree._Element], tags: set[str]) -> bool:
    """Whether a block stands in the story's flow: a sibling of the story's paragraphs and of
    their kind."""
    return block.element.getparent() in parents and block.element.tag in tags


def tail_labels(blocks: list[TextBlock], t: Thresholds) -> list[TextBlock]:
    """The final run of short blocks outside the story's flow after its last prose block (read
    from the end back; a block in the flow, a long block, an entry of a list, a table or code
    stops the run; an image is passed over and stays). A run of more than ``label_max_blocks`` lines is the
    story's own list of short lines and none of it is returned."""
    prose_at = [i for i, block in enumerate(blocks) if is_prose(block, t)]
    parents = {blocks[i].element.getparent() for i in prose_at}
    tags = {blocks[i].element.tag for i in prose_at}
    end = prose_at[-1]
    run: list[TextBlock] = []
    for block in reversed(blocks[end + 1:]):
        if block.opaque:
            if block.chars:
                break
            continue
        if block.chars > t.label_max_chars or block.element.tag in _ENTRIES \
                or _in_flow(block, parents, tags):
            break
        run.append(block)
        if len(run) > t.label_max_blocks:
            return []  # a list of short lines (facts, a ticker, a table of values): the story's
    run.reverse()
    return run


def trim_tail_labels(container: etree._Element, t: Thresholds,
                     trace: list[dict[str, Any]] | None = None,
                     blocks: list[TextBlock] | None = None) -> int:
    """Remove the final run of short lines outside the story's flow after its last paragraph
    (see :func:`tail_labels`); return how many blocks went (``blocks``: the container's
    ``text_blocks`` as it stands, when the caller has them)."""
    return _trim_final_run(container, t, trace, blocks, tail_labels, TAIL_LABEL_RULE,
                           "after the story's last paragraph: short lines outside the story's "
                           "flow (another element or another kind than its paragraphs)")


def _trim_final_run(container: etree._Element, t: Thresholds,
                    trace: list[dict[str, Any]] | None, blocks: list[TextBlock] | None,
                    find: Callable[[list[TextBlock], Thresholds], list[TextBlock]], rule: str,
                    why: str) -> int:
    """Remove the blocks ``find`` returns from a container holding a story, unless they hold
    more than ``tail_max_share`` of the prose that stays; return how many went."""
    if blocks is None:
        blocks = text_blocks(container)
    if not holds_story(container, t, blocks):
        return 0
    doomed = find(blocks, t)
    if not doomed:
        return 0
    gone = {id(b) for b in doomed}
    story = sum(b.prose for b in blocks if id(b) not in gone and is_prose(b, t))
    if sum(b.chars for b in doomed) > t.tail_max_share * story:
        return 0
    return remove_blocks(doomed, container, trace, rule, why)


TAIL_NOTE_RULE = "tail-note"
"""The third rule's name in the trace."""

_EMPHASIS = frozenset({"em", "i", "strong", "b"})
"""Inline elements that set a text apart from the story's plain prose."""


def emphasis_share(block: TextBlock) -> float:
    """The share of a block's text set in emphasis (``em``, ``i``, ``strong``, ``b``), the
    block itself or the outermost emphasis elements inside it counted once."""
    el = block.element
    if el.tag in _EMPHASIS or not block.chars:
        return 1.0 if block.chars else 0.0
    inside = sum(non_space_chars(text_content(node)) for node in outermost(el, _EMPHASIS))
    return min(1.0, inside / block.chars)


def tail_notes(blocks: list[TextBlock], t: Thresholds) -> list[TextBlock]:
    """The final run of blocks set wholly in emphasis and holding a link, after the story's
    last plain paragraph (read from the end back: a block not set in emphasis or without a
    link, an entry of a list, a heading, a table or code stops the run; an image is passed over
    and stays). The story's own paragraphs are plain text; a note set apart in italics or bold
    and pointing elsewhere is the site's: a subscription or newsletter call, an author's
    biography with a link to the author, a pointer to another story. An emphasised line
    without a link (a quotation closing the story, a footnote on its method, a source line)
    may be the story's own and stays. Nothing is returned when the story has no plain paragraph
    before the run."""
    run: list[TextBlock] = []
    start = len(blocks)
    for start in range(len(blocks) - 1, -1, -1):
        block = blocks[start]
        if block.opaque:
            if block.chars:
                break
            continue
        if block.element.tag in _ENTRIES or block.heading or not block.link_chars \
                or emphasis_share(block) < t.note_emphasis_share:
            break
        run.append(block)
    else:
        return []  # no block before the run: no plain paragraph
    if not run or not any(is_prose(b, t) for b in blocks[:start + 1]):
        return []
    run.reverse()
    return run


def trim_tail_notes(container: etree._Element, t: Thresholds,
                    trace: list[dict[str, Any]] | None = None,
                    blocks: list[TextBlock] | None = None) -> int:
    """Remove the final run of emphasised notes after the story's last plain paragraph (see
    :func:`tail_notes`); return how many blocks went (``blocks``: the container's
    ``text_blocks`` as it stands, when the caller has them)."""
    return _trim_final_run(container, t, trace, blocks, tail_notes, TAIL_NOTE_RULE,
                           "after the story's last plain paragraph: notes set wholly in "
                           "emphasis (italics or bold) holding a link")


def remove_blocks(doomed: list[TextBlock], container: etree._Element,
                  trace: list[dict[str, Any]] | None, rule: str, why: str) -> int:
    """Remove ``doomed`` from ``container`` and note it in ``trace`` under ``rule`` (with the
    first blocks' text); return how many blocks went."""
    for block in doomed:
        remove_block(block.element, container)
    if trace is not None and doomed:
        trace.append({"step": "clean", "action": "removed", "rule": rule, "why": why,
                      "count": len(doomed),
                      "text": [" ".join(text_content(b.element).split())[:60]
                               for b in doomed[:5]]})
    return len(doomed)


def remove_block(el: etree._Element, container: etree._Element) -> None:
    """Remove a block (its tail text kept in place), then each wrapper it leaves empty."""
    parent = el.getparent()
    if parent is None:
        return
    remove_keeping_tail(el)
    while parent is not None and parent is not container and len(parent) == 0 \
            and not (parent.text or "").strip() and parent.tag not in _OPAQUE:
        grand = parent.getparent()
        if grand is None:
            break
        if (parent.tail or "").strip():
            break
        grand.remove(parent)
        parent = grand
