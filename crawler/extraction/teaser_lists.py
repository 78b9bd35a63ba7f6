"""Teaser lists around a story: rows of cards, each a linked headline of another of the site's
pages ("more on this topic", "you might also like", "latest videos", a rail of recent stories),
and lone teaser cards (a boxed linked headline over its summary).

News and blog pages print, inside or right after the story's container, a row of cards that
each point to another story of the site: a headline that is one link, often a short summary, a
date or an author. The cleaning's other rules miss them: a card's headline is too long for the
link-dense rule (menus are made of short links), the summaries count as prose, so the story's
tail rule takes the last card for the story's end, and a row of ten is too long for an aside
and too large for the tail's share. The rule reads structure only:

- a *card* is an element of at most ``teaser_card_max_chars`` characters holding a *headline
  link*: a link to another page of the page's own site (its host or a subdomain; not the page
  itself, not an anchor) that reads as a story's address (a path segment of at least
  ``teaser_slug_words`` words, a slug, or a number of at least ``teaser_id_digits`` digits, an
  id: a section's hub such as ``/studio`` or ``/about/versions`` is no story), whose text has
  at least ``teaser_headline_words`` words and stands on its own line (the whole text of its
  parent, or a link wrapping blocks), not a few words linked inside a sentence;
- a *teaser row* is an element (below the container) whose children of one tag and class, at
  least ``teaser_min_cards`` of them and ``grid_linked_share`` of them cards, hold at least
  ``teaser_row_share`` of its text (the rest: the row's label, a "show all" link), not a
  table (its rows are data); the row goes, with the heading or short label line right before
  it (its title), when it stands after the story's last paragraph, or sits before it in a box
  of its own (its parent holds only it and its title: a "read also" module): a list standing
  between the story's paragraphs is the story's own, and so is a row titled by a heading with
  another heading of its level beside it (a section of the page's own outline: a hub page's
  index of documents, section after section);
- cards that each carry a class of their own (an index, a post's id) are grouped by their tag
  when grouping by tag and class finds no row (``teaser-tag`` in the trace);
- a row in a box holding nothing but teaser rows and headings (``teaser-box``: "more from this
  author" over "latest", each under its heading) goes with the whole box, wherever it stands
  and whatever its headings (a linked author's name, a heading beside another): a section of
  the story's own outline holds prose beside its headings;
- a *lone card* goes too when it stands after the story's last paragraph: a box (an element
  below the container of at most ``teaser_card_max_chars``, holding no other heading) around
  a heading that is all one headline link, or that a headline link wraps (a story's own
  subheadings link nowhere), with its summary, date or label; boxed linked headlines between
  the story's paragraphs (a round-up's products), and a linked heading without a box of its
  own, standing in the container's flow over its paragraph, stay;
- the story must stay: the container's blocks outside the rows hold a story (``holds_story``
  of the tail rule: enough prose, most of their text), and the rows at most
  ``teaser_max_share`` times that prose (a page made of such cards is a listing, and a service
  page of tiles and customer quotes no story, whatever their type says).

It runs where the story's tail rule does: on article pages, never on containers chosen by a
site or framework rule; on listing and collection pages the cards are the content.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from lxml import etree

from crawler.extraction.candidates import children_by_shape
from crawler.extraction.addresses import page_key, same_site, site_host
from crawler.extraction.story_tail import (TextBlock, holds_story, is_prose, more_chars_than,
                                           non_space_chars, remove_block, text_blocks)
from crawler.extraction.thresholds import Thresholds
from crawler.extraction.tree_text import text_content
from crawler.extraction.vocabulary import HEADING_TAGS

TEASER_RULE = "teaser-list"
"""The rule's name in the trace."""
TEASER_TAG_RULE = "teaser-tag"
"""Name of the part that groups a row's cards by tag when each carries a class of its own
(:func:`per_card_groups`)."""
TEASER_BOX_RULE = "teaser-box"
"""Name of the part that takes a box of titled rows whole (:func:`row_boxes`)."""

_WORD = re.compile(r"\w+")
_BLOCKS = frozenset({"p", "div", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "figure",
                     "figcaption", "section", "article", "header", "footer", "span", "img",
                     "picture"})
"""Elements inside a link that make it a card's link rather than words of a sentence."""


def _standalone(link: etree._Element, chars: int) -> bool:
    """Whether a link stands on its own line: it wraps blocks (a card whose heading and
    picture sit in the link), or it is all the text of its parent (a linked heading, a linked
    list item)."""
    if any(isinstance(el.tag, str) and el.tag in _BLOCKS for el in link.iterdescendants()):
        return True
    parent = link.getparent()
    return parent is not None and non_space_chars(text_content(parent)) == chars


_CARD_HEADINGS = ("h2", "h3", "h4", "h5", "h6")
"""Headings that may title a card (a page's ``h1`` is the story's own)."""
_TABLE = frozenset({"table", "thead", "tbody", "tfoot", "tr"})
"""A table's rows are its data, never a row of teasers."""
_SLUG_WORD = re.compile(r"[^\W_]+")
_DIGITS = re.compile(r"\d+")


def story_address(url: str, t: Thresholds) -> bool:
    """Whether an address reads as one story's: a path segment that is a slug of at least
    ``teaser_slug_words`` words, or a path or query holding an id of ``teaser_id_digits``
    digits."""
    try:
        parts = urlsplit(url)
    except ValueError:  # an unreadable address is no story's
        return False
    for segment in parts.path.split("/"):
        if len(_SLUG_WORD.findall(segment)) >= t.teaser_slug_words:
            return True
    return any(len(run) >= t.teaser_id_digits
               for run in _DIGITS.findall(parts.path + "?" + parts.query))


@dataclass
class _SiteLinks:
    """Which link addresses of one page lead to another story of its site. A link inside a
    card is read again for every row around the card, so each address is parsed once."""

    url: str
    t: Thresholds
    page: str = ""
    site: str = ""
    verdicts: dict[str, bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.page, self.site = page_key(self.url, self.url), site_host(self.url)

    def to_story(self, href: str) -> bool:
        """Whether an address (stripped) leads to another page of the site that reads as a
        story's (:func:`story_address`)."""
        verdict = self.verdicts.get(href)
        if verdict is None:
            target = page_key(href, self.url)
            verdict = self.verdicts[href] = target != self.page \
                and same_site(site_host(target), self.site) and story_address(target, self.t)
        return verdict


def _headline_link(item: etree._Element, links: _SiteLinks) -> bool:
    """Whether an item holds a headline link: a link standing on its own line, of at least
    ``teaser_headline_words`` words, to another page of the page's own site."""
    candidates = [item] if item.tag == "a" else []
    candidates += item.iter("a")
    for link in candidates:
        href = (link.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:")) or not links.to_story(href):
            continue
        text = text_content(link)
        if len(_WORD.findall(text)) >= links.t.teaser_headline_words \
                and _standalone(link, non_space_chars(text)):
            return True
    return False


def _is_card(item: etree._Element, links: _SiteLinks) -> bool:
    """A short element holding a headline link to another of the site's pages (an element
    without any link, a story's paragraph in most rows of like items, is told first: finding
    no link costs less than reading its text)."""
    if next(item.iter("a"), None) is None:
        return False
    text = text_content(item)
    return not more_chars_than(text, links.t.teaser_card_max_chars) \
        and bool(text) and not text.isspace() and _headline_link(item, links)


def _cards_reach(members: list[etree._Element], links: _SiteLinks, needed: float) -> bool:
    """Whether at least ``needed`` of the members are cards (:func:`_is_card`), read in order
    until the answer is known: most rows of like items (menus, lists) are settled by their
    first few non-cards."""
    cards = 0
    left = len(members)
    for member in members:
        left -= 1
        if _is_card(member, links):
            cards += 1
            if cards >= needed:
                return True
        elif cards + left < needed:
            return False
    return cards >= needed


def find_teaser_rows(container: etree._Element, url: str, t: Thresholds,
                     links: _SiteLinks | None = None,
                     by_tag: list[etree._Element] | None = None) -> list[etree._Element]:
    """The teaser rows of the container, outermost first (a row inside another is left to it);
    ``by_tag`` collects those only :func:`per_card_groups` found. The rows found are looked
    up in a set: a page of thousands of rows tests each element's ancestors against it."""
    links = links or _SiteLinks(url, t)
    rows: list[etree._Element] = []
    found: set[etree._Element] = set()
    for parent in container.iter():
        if not isinstance(parent.tag, str) or parent is container or parent.tag in _TABLE \
                or len(parent) < t.teaser_min_cards:
            continue
        if found and any(anc in found for anc in parent.iterancestors()):
            continue
        shapes = children_by_shape(parent)
        if _row_of(parent, list(shapes.values()), links, t):
            rows.append(parent)
            found.add(parent)
        elif _row_of(parent, per_card_groups(parent, shapes), links, t):
            rows.append(parent)
            found.add(parent)
            if by_tag is not None:
                by_tag.append(parent)
    return rows


def _row_of(parent: etree._Element, groups: list[list[etree._Element]], links: _SiteLinks,
            t: Thresholds) -> bool:
    """Whether one of the groups of a parent's children makes it a teaser row: at least
    ``teaser_min_cards`` members, ``grid_linked_share`` of them cards, holding at least
    ``teaser_row_share`` of the parent's text."""
    for members in groups:
        if len(members) < t.teaser_min_cards:
            continue
        if not _cards_reach(members, links,
                            max(t.teaser_min_cards, t.grid_linked_share * len(members))):
            continue
        held = sum(non_space_chars(text_content(m)) for m in members)
        if held >= t.teaser_row_share * non_space_chars(text_content(parent)):
            return True
    return False


def per_card_groups(parent: etree._Element,
                    shapes: dict[tuple[str, str], list[etree._Element]] | None = None
                    ) -> list[list[etree._Element]]:
    """A parent's element children grouped by tag alone, the groups whose members carry more
    than one class string: cards that each carry a class of their own (``article_0``,
    ``article_1``; ``views-row-1``; ``post-190299``), which grouping by tag and class splits
    into groups of one ("teaser-tag" in the ablation). A group of one class string was read
    already. ``shapes``: the parent's ``children_by_shape``, when the caller has it; a tag
    holding more than one of its keys has more than one class string, and a parent with no
    such tag (most) is settled from the keys without reading its children again."""
    if shapes is None:
        shapes = children_by_shape(parent)
    seen: set[str] = set()
    split: set[str] = set()
    for tag, _ in shapes:
        (split if tag in seen else seen).add(tag)
    if not split:
        return []
    groups: dict[str, list[etree._Element]] = {}
    for child in parent:
        if child.tag in split:
            groups.setdefault(child.tag, []).append(child)
    return list(groups.values())


def find_lone_cards(container: etree._Element, url: str, t: Thresholds,
                    rows: list[etree._Element],
                    links: _SiteLinks | None = None) -> list[etree._Element]:
    """The lone teaser cards of the container outside its rows: a box (an element below the
    container, of at most ``teaser_card_max_chars``) holding one heading that is all one
    headline link (a story's own subheadings link nowhere), with at most its summary, date
    and label beside it. A linked heading standing in the container's own flow, with no box
    of its own, stays (a list of linked entries, each over its paragraph). Each ancestor is
    measured once (``too_big``), and the rows and boxes so far are sets: a page of thousands
    of boxed linked headings under one parent reads that parent once, not once per heading."""
    links = links or _SiteLinks(url, t)
    boxes: list[etree._Element] = []
    taken = set(rows)
    too_big: dict[etree._Element, bool] = {}
    for heading in container.iter(*_CARD_HEADINGS):
        if any(anc in taken for anc in heading.iterancestors()):
            continue
        wrapper = next(heading.iterancestors("a"), None)  # a card whose link wraps it all
        link = wrapper
        if link is None:
            inside = list(heading.iter("a"))
            if len(inside) != 1 or non_space_chars(text_content(inside[0])) \
                    != non_space_chars(text_content(heading)):
                continue
            link = inside[0]
        if not _headline_link(link, links):
            continue
        box = None
        for anc in (wrapper if wrapper is not None else heading).iterancestors():
            if anc is container:
                break
            verdict = too_big.get(anc)
            if verdict is None:
                verdict = too_big[anc] = \
                    more_chars_than(text_content(anc), t.teaser_card_max_chars) \
                    or sum(1 for _ in anc.iter(*_CARD_HEADINGS)) > 1
            if verdict:
                break
            box = anc
        if box is not None:
            boxes.append(box)
            taken.add(box)
    return boxes


def _row_title(row: etree._Element, container: etree._Element,
               t: Thresholds) -> etree._Element | None:
    """The heading or short label line right before a row (or before the wrappers that hold
    nothing before it), with no link in it: the row's title."""
    el = row
    while True:
        before = el.getprevious()
        while before is not None and not isinstance(before.tag, str):
            before = before.getprevious()
        if before is not None:
            break
        el = el.getparent()
        if el is None or el is container:
            return None
    if next(before.iter("a"), None) is None \
            and 0 < non_space_chars(text_content(before)) <= t.teaser_label_max_chars:
        return before
    return None


def _inside(block: TextBlock, doomed: set[etree._Element]) -> bool:
    """Whether a block is, or sits inside, one of the doomed elements."""
    if not doomed:
        return False
    return block.element in doomed or any(anc in doomed for anc in block.element.iterancestors())


def _boxed(row: etree._Element, title: etree._Element | None,
           container: etree._Element) -> bool:
    """Whether a row is a box of its own: it holds its label among its cards (a child with
    text and no link), or its parent (below the container) holds nothing but the row and its
    title (a "read also" module), not the story's paragraphs."""
    if any(isinstance(child.tag, str) and next(child.iter("a"), None) is None
           and non_space_chars(text_content(child)) for child in row):
        return True
    parent = row.getparent()
    if parent is None or parent is container:
        return False
    own = non_space_chars(text_content(row))
    if title is not None:
        own += non_space_chars(text_content(title))
    return non_space_chars(text_content(parent)) <= own


def _in_flow(rows: list[etree._Element], titles: dict[etree._Element, etree._Element | None],
             container: etree._Element, blocks: list[TextBlock], t: Thresholds,
             boxes: dict[etree._Element, etree._Element]) -> list[etree._Element]:
    """The rows that may go: those after the story's last paragraph outside the rows, and those
    before it that sit in a box of their own (a list standing between the story's paragraphs
    is the story's own; ``boxes``: :func:`row_boxes` of the rows)."""
    if not rows:
        return []
    last = _story_end(blocks, set(rows), titles, t)
    firsts = _first_blocks(blocks, rows)
    kept = []
    for row in rows:
        boxed = row in boxes
        if not boxed and _outline_section(row, titles[row]):
            continue
        first = firsts[row]
        if first is None or first > last or boxed or _boxed(row, titles[row], container):
            kept.append(row)
    return kept


def row_boxes(rows: list[etree._Element],
              container: etree._Element) -> dict[etree._Element, etree._Element]:
    """The box each row shares only with headings and other rows (below the container): a
    module of titled teaser lists ("more from this author", then "latest"), whose headings
    title the rows, never the story's own outline (a row whose parent holds anything else has
    none). Structural: a section of the story holds prose beside its headings. Each parent is
    read once, whatever the number of rows it holds."""
    found = set(rows)
    verdicts: dict[etree._Element, bool] = {}
    out: dict[etree._Element, etree._Element] = {}
    for row in rows:
        parent = row.getparent()
        if parent is None or parent is container:
            continue
        verdict = verdicts.get(parent)
        if verdict is None:
            headings, other = 0, False
            for child in parent:
                if not isinstance(child.tag, str):
                    continue
                if child.tag in HEADING_TAGS:
                    headings += 1
                elif child not in found:
                    other = True
                    break
            verdict = verdicts[parent] = bool(headings) and not other
        if verdict:
            out[row] = parent
    return out


def _after_story(cards: list[etree._Element], rows: list[etree._Element],
                 titles: dict[etree._Element, etree._Element | None], blocks: list[TextBlock],
                 t: Thresholds) -> list[etree._Element]:
    """The lone cards that stand after the story's last paragraph outside rows and cards (boxed
    linked headlines between the story's paragraphs are entries of a list the story is made
    of, as a round-up's products)."""
    if not cards:
        return []
    last = _story_end(blocks, set(rows) | set(cards), titles, t)
    firsts = _first_blocks(blocks, cards)
    return [card for card in cards if firsts[card] is not None and firsts[card] > last]


def _story_end(blocks: list[TextBlock], going: set[etree._Element],
               titles: dict[etree._Element, etree._Element | None], t: Thresholds) -> int:
    """The index of the story's last paragraph outside what is going (the rows, the cards and
    their titles); -1 when there is none."""
    gone = going | {title for title in titles.values() if title is not None}
    return max((i for i, b in enumerate(blocks) if is_prose(b, t) and not _inside(b, gone)),
               default=-1)


def _first_blocks(blocks: list[TextBlock],
                  els: list[etree._Element]) -> dict[etree._Element, int | None]:
    """The index of the first block that is, or lies inside, each of ``els`` (None when none
    does). One pass over the blocks, each reading its own ancestors: a search per element
    cost cards times blocks, minutes on a page of ten thousand cards."""
    wanted = set(els)
    firsts: dict[etree._Element, int | None] = dict.fromkeys(els)
    for i, block in enumerate(blocks):
        el = block.element
        while el is not None:
            if el in wanted and firsts[el] is None:
                firsts[el] = i
            el = el.getparent()
    return firsts


def _outline_section(row: etree._Element, title: etree._Element | None) -> bool:
    """Whether a row is one section of the page's own outline: its title is a heading with
    another heading of its level beside it (a hub page's index of documents, section after
    section, or a list under one of the story's own subheadings)."""
    if title is None or title.tag not in HEADING_TAGS:
        return False
    parent = title.getparent()
    return parent is not None and any(sib is not title and sib.tag == title.tag
                                      for sib in parent)


def drop_teaser_lists(container: etree._Element, url: str, t: Thresholds,
                      trace: list[dict[str, Any]] | None = None,
                      blocks: list[TextBlock] | None = None) -> int:
    """Remove the teaser rows (and their titles) from a story's container; return how many rows
    went (``blocks``: the container's ``text_blocks``, when the caller has them)."""
    links = _SiteLinks(url, t)
    by_tag: list[etree._Element] = []
    rows = find_teaser_rows(container, url, t, links, by_tag)
    if blocks is None:
        blocks = text_blocks(container)
    titles = {row: _row_title(row, container, t) for row in rows}
    boxes = row_boxes(rows, container)
    rows = _in_flow(rows, titles, container, blocks, t, boxes)
    taken = list(dict.fromkeys(boxes[row] for row in rows if row in boxes))
    rows = list(dict.fromkeys(boxes.get(row, row) for row in rows))
    titles.update((box, None) for box in taken)
    if trace is not None and taken:
        trace.append({"step": "clean", "action": "removed", "rule": TEASER_BOX_RULE,
                      "why": "a box holding only teaser rows and their headings goes whole",
                      "text": [" ".join(text_content(box).split())[:60] for box in taken]})
    cards = _after_story(find_lone_cards(container, url, t, rows, links), rows, titles, blocks, t)
    titles.update((card, None) for card in cards)
    rows += cards
    if not rows:
        return 0
    doomed = list(rows)
    for row in rows:
        title = titles[row]
        if title is not None and title not in doomed:
            doomed.append(title)
    gone = set(doomed)
    rest = [b for b in blocks if not _inside(b, gone)]
    story = sum(b.prose for b in rest if is_prose(b, t))
    removed = sum(non_space_chars(text_content(el)) for el in rows)
    if not holds_story(container, t, rest) or removed > t.teaser_max_share * story:
        if trace is not None:
            trace.append({"step": "clean", "action": "kept", "rule": TEASER_RULE,
                          "why": "rows of linked headlines, but no story beside them: the "
                                 "container lists pages", "count": len(rows),
                          "chars": removed, "story_chars": story})
        return 0
    for el in doomed:
        remove_block(el, container)
    tagged = [row for row in by_tag
              if row in gone or any(anc in gone for anc in row.iterancestors())]
    if trace is not None and tagged:
        trace.append({"step": "clean", "action": "removed", "rule": TEASER_TAG_RULE,
                      "why": "teaser rows whose cards each carry a class of their own, found "
                             "by their tag", "count": len(tagged),
                      "text": [" ".join(text_content(row).split())[:60] for row in tagged[:5]]})
    if trace is not None:
        trace.append({"step": "clean", "action": "removed", "rule": TEASER_RULE,
                      "why": "rows of cards, each a linked headline of another of the site's "
                             "pages, and their titles",
                      "count": len(rows), "chars": removed, "story_chars": story,
                      "text": [" ".join(text_content(el).split())[:60] for el in doomed[:5]]})
    return len(rows)
