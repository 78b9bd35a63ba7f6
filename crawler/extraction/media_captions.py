"""Captions and credits of a story's pictures, found by where they sit, not what they say.

A caption is the short text that shares a picture's own box: ``<figcaption>`` is one (cleaning
already takes it out), but most pages write ``<div class="...image..."><img><p>Photo: ...</p>
</div>``, a credit in a ``<small>`` or a ``<span>`` beside the picture, in any language. The rule
("media-caption" in the trace) climbs from each picture of the container to the largest block
around it whose text stays short (``caption_max_chars``) and removes that text, keeping the
picture. It acts, like the story's tail rule, on article pages only, when the container holds a story (``holds_story`` of the story's tail rule), and
leaves alone:

- a box outside the story's flow: neither the text block right before it nor the one right
  after it is a paragraph of prose (a feature tile among tiles);
- a picture inline in a sentence (text runs on right beside it, or beside the link to its full
  size that holds only it: an emoji, an icon, a picture floated at a paragraph's start);
- a box holding a heading, a table, a list, code or a quotation (a pull quote beside its
  speaker's portrait), or whose text is mostly links (a teaser card: image, linked headline);
- boxes holding more than ``caption_max_media`` pictures, and boxes that are one of a row of
  ``caption_card_items`` like items with pictures, one of them right beside it (a gallery or a
  grid of cards reads as it stands; like boxes each between the story's paragraphs are the
  story's captioned pictures: a content management system wraps each element of the flow
  alike).

A picture without a box of its own (its parent is the story's column, or a header holding the
title) has its caption and credit as the lines right after it among its parent's children: a
run of short blocks written in another tag than the story's paragraphs ("caption-sibling"),
while a paragraph of the story's own tag (a lead under the hero picture) stays.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from lxml import etree

from crawler.extraction.story_tail import (TextBlock, holds_story, is_prose, more_chars_than,
                                              non_space_chars, remove_keeping_tail, text_blocks)
from crawler.extraction.thresholds import Thresholds
from crawler.extraction.tree_text import text_beside, text_content

CAPTION_RULE = "media-caption"
"""The rule's name in the trace."""

_MEDIA = ("img", "picture", "video")
_CAPTION_LINES = frozenset({"p", "div", "span", "small", "em", "i", "figcaption"})
"""The elements a caption or credit line standing beside its picture is written in."""
_STRUCTURES = ("h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "pre", "blockquote")
"""A box holding one of these is a section, a table, a list or a quote (a pull quote beside
its speaker's portrait) that happens to hold a picture."""


def _media_count(el: etree._Element) -> int:
    """Pictures in an element (an ``img`` inside a ``picture`` counts once)."""
    return sum(1 for m in el.iter(*_MEDIA)
               if not (m.tag == "img" and m.getparent() is not None
                       and m.getparent().tag == "picture"))


_WRAPPERS = frozenset({"a", "span", "strong", "b", "em", "i"})
"""Inline elements a picture is wrapped in (a link to its full size) without text of their own."""


def _outer_wrapper(media: etree._Element) -> etree._Element:
    """The outermost inline element around a picture that holds no text but it (a link to the
    picture's full size), or the picture itself ("caption-wrapper" in the ablation)."""
    el = media
    parent = el.getparent()
    while parent is not None and parent.tag in _WRAPPERS \
            and not non_space_chars(text_content(parent)):
        el, parent = parent, parent.getparent()
    return el


def _inline(media: etree._Element) -> bool:
    """Whether a picture sits in a run of text: text right before or after it, or after the
    inline wrapper that holds only it (:func:`_outer_wrapper`), in their parent."""
    return text_beside(_outer_wrapper(media))


def _caption_box(media: etree._Element, container: etree._Element,
                 t: Thresholds) -> etree._Element | None:
    """The largest block around a picture whose text stays a caption's length, or None."""
    box = None
    for anc in media.iterancestors():
        if anc is container:
            break
        if more_chars_than(text_content(anc), t.caption_max_chars) \
                or _media_count(anc) > t.caption_max_media:
            break
        box = anc
    if box is None or not non_space_chars(text_content(box)):
        return None
    if next(box.iter(*_STRUCTURES), None) is not None or _one_of_cards(box, t):
        return None
    links = sum(non_space_chars(text_content(a)) for a in box.iter("a"))
    if links > t.tail_link_share * non_space_chars(text_content(box)):
        return None
    return box


def _one_of_cards(box: etree._Element, t: Thresholds) -> bool:
    """Whether a box is one of a row of like items with pictures (a gallery, a grid of cards):
    at least ``caption_card_items`` siblings of its tag and class hold a picture, and one of
    them stands right beside it (:func:`_card_beside`)."""
    parent = box.getparent()
    if parent is None:
        return False
    alike = sum(1 for sib in parent if _alike_card(sib, box))
    return alike >= t.caption_card_items and _card_beside(box)


def _alike_card(el: etree._Element, box: etree._Element) -> bool:
    """Whether an element has a box's tag and class and holds a picture."""
    return (el.tag, el.get("class")) == (box.tag, box.get("class")) \
        and next(el.iter(*_MEDIA), None) is not None


def _card_beside(box: etree._Element) -> bool:
    """Whether the element right before or right after a picture's box (line breaks aside) is
    a like box with a picture: cards of a grid or a gallery stand side by side, while the
    captioned pictures of a story each sit between its paragraphs, in wrappers of one tag and
    class (a content management system wraps every element of the flow alike) that a count of
    like siblings alone takes for a grid ("caption-row" in the ablation)."""
    for preceding in (True, False):
        neighbour = next((sib for sib in box.itersiblings(preceding=preceding)
                          if isinstance(sib.tag, str) and sib.tag != "br"), None)
        if neighbour is not None and _alike_card(neighbour, box):
            return True
    return False


def _beside_prose(box: etree._Element, blocks: list[TextBlock], t: Thresholds) -> bool:
    """Whether a picture's box sits in the story's flow: the text block right before it or
    right after it is a paragraph of prose (a feature tile of a landing page sits among other
    tiles)."""
    held = set(box.iter())  # the box and what lies inside it
    inside = [i for i, b in enumerate(blocks) if b.element in held]
    if not inside:
        return False
    before = blocks[inside[0] - 1] if inside[0] > 0 else None
    after = blocks[inside[-1] + 1] if inside[-1] + 1 < len(blocks) else None
    return any(b is not None and is_prose(b, t) for b in (before, after))


def _picture_element(media: etree._Element) -> etree._Element:
    """What stands for a picture among its parent's children: the inline wrapper holding only
    it (:func:`_outer_wrapper`), or the ``picture`` element around an ``img``."""
    el = _outer_wrapper(media)
    if el.tag == "img" and el.getparent() is not None and el.getparent().tag == "picture":
        el = el.getparent()
    return el


def _in_long_parent(media: etree._Element, long_parents: dict[etree._Element, bool],
                    t: Thresholds) -> bool:
    """Whether a picture has no box of its own: its parent holds more than a caption's length
    (``caption_max_chars``: the story's column) or a heading, a list, a table or a quote (a
    story's header with its title), so a caption beside it is one of the parent's lines. Each
    parent is measured once (``long_parents``: the answers so far; a page of thousands of
    pictures in one column reads the column once)."""
    parent = _picture_element(media).getparent()
    if parent is None:
        return False
    if parent not in long_parents:
        long_parents[parent] = more_chars_than(text_content(parent), t.caption_max_chars) \
            or next(parent.iter(*_STRUCTURES), None) is not None
    return long_parents[parent]


def _story_kinds(blocks: list[TextBlock], t: Thresholds) -> set[str]:
    """The tags the story's paragraphs are written in: those of at least
    ``caption_story_kind_blocks`` prose blocks of the container (a caption long enough to read
    as prose is one block of its tag). Tags, not classes: one story's paragraphs carry
    different classes (a lead, a paragraph after an advertisement)."""
    kinds = Counter(b.element.tag for b in blocks if is_prose(b, t))
    return {kind for kind, count in kinds.items() if count >= t.caption_story_kind_blocks}


def caption_lines(media: etree._Element, story_kinds: set[str],
                  t: Thresholds) -> list[etree._Element]:
    """The caption and credit lines standing right after a picture that has no box of its own
    (:func:`_in_long_parent`: the story's column, a header with the title): the run of sibling
    blocks after the picture, line breaks aside, of at most ``caption_max_chars`` together,
    none of them written in a tag the story's paragraphs are written in, none holding a
    picture, a heading, a list, a table or a quote, none mostly links, with no loose text
    between or after them (a dateline in italics after a picture at a paragraph's start is a
    word of its sentence; "caption-sibling" in the ablation). A paragraph of the story's own
    tag right after the picture (a lead under a hero picture) ends the run and stays."""
    el = _picture_element(media)
    run: list[etree._Element] = []
    total = 0
    if (el.tail or "").strip():
        return run
    for steps, sib in enumerate(el.itersiblings()):
        if steps >= t.caption_max_breaks + t.caption_max_chars:
            break  # every line holds a character: this is no caption's run of lines
        if not isinstance(sib.tag, str):
            if (sib.tail or "").strip():
                break
            continue
        if sib.tag == "br":
            if (sib.tail or "").strip():
                break
            continue
        if sib.tag not in _CAPTION_LINES or sib.tag in story_kinds \
                or next(sib.iter(*_MEDIA, *_STRUCTURES), None) is not None:
            break
        if (sib.tail or "").strip():
            break  # text runs on after it: a word of a sentence (a dateline), not a line
        chars = non_space_chars(text_content(sib))
        links = sum(non_space_chars(text_content(a)) for a in sib.iter("a"))
        total += chars
        if not chars or total > t.caption_max_chars or links > t.tail_link_share * chars:
            break
        run.append(sib)
    return run


def _strip_text(box: etree._Element) -> None:
    """Remove every text of a box but its pictures (and the wrappers that hold them)."""
    keep: set[etree._Element] = set()
    for media in box.iter(*_MEDIA):
        for anc in media.iterancestors():
            if anc is box:
                break
            keep.add(anc)
    box.text = None
    for el in list(box):
        _strip_branch(el, keep)


def _strip_branch(el: etree._Element, keep: set[etree._Element]) -> None:
    """Remove a branch of a caption box unless it leads to a picture (then only its text)."""
    if isinstance(el.tag, str) and el.tag in _MEDIA:
        el.tail = None
        return
    if el not in keep:
        el.getparent().remove(el)
        return
    el.text = el.tail = None
    for child in list(el):
        _strip_branch(child, keep)


def drop_media_captions(container: etree._Element, t: Thresholds,
                        trace: list[dict[str, Any]] | None = None,
                        blocks: list[TextBlock] | None = None) -> int:
    """Remove the captions and credits around the story's pictures; return how many
    (``blocks``: the container's ``text_blocks`` as it stands, when the caller has them)."""
    if next(container.iter(*_MEDIA), None) is None:
        return 0
    if blocks is None:
        blocks = text_blocks(container)
    if not holds_story(container, t, blocks):
        return 0
    boxes: list[etree._Element] = []
    lines: list[etree._Element] = []
    story_kinds = _story_kinds(blocks, t)
    long_parents: dict[etree._Element, bool] = {}
    for media in list(container.iter(*_MEDIA)):
        if media.tag == "img" and media.getparent() is not None \
                and media.getparent().tag == "picture":
            continue
        if _inline(media) or any(b is media or b in media.iterancestors() for b in boxes):
            continue
        box = _caption_box(media, container, t)
        if box is not None and _beside_prose(box, blocks, t):
            boxes.append(box)
        elif box is None and _in_long_parent(media, long_parents, t):
            lines += caption_lines(media, story_kinds, t)
    texts = [" ".join(text_content(b).split())[:60] for b in boxes + lines]
    for box in boxes:
        _strip_text(box)
    for line in lines:
        if line.getparent() is not None:
            remove_keeping_tail(line)
    boxes += lines
    if trace is not None and boxes:
        trace.append({"step": "clean", "action": "removed", "rule": CAPTION_RULE,
                      "why": "short text sharing a picture's box (a caption or a credit)",
                      "count": len(boxes), "text": texts[:5]})
    return len(boxes)
