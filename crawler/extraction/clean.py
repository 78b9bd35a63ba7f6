"""Cleaning inside the chosen container: rule exclusions, boilerplate blocks, ads, link-dense lists."""

from __future__ import annotations

import logging
import re
from collections import Counter
from typing import Any

from lxml import etree

from crawler.extraction.candidates import contains
from crawler.extraction.frameworks import (CleaningRules, Rule, SimpleSelector, css, parse_simple,
                                           selector_set)
from crawler.extraction.like_siblings import LikeSiblings
from crawler.extraction.name_patterns import NamePattern
from crawler.extraction.scoring import Stats, compute_stats
from crawler.extraction.thresholds import THRESHOLDS, Thresholds
from crawler.extraction.tree_text import text_content
from crawler.extraction.vocabulary import HEADING_TAGS, STRIPPED_TAGS, is_hidden

logger = logging.getLogger(__name__)

KEEP_TAGS = frozenset({"pre", "code", "table", "blockquote", "figure", "img", "h1", "h2", "h3",
                       "h4", "h5", "h6", "math", "video", "audio", "picture", "source", "br",
                       "hr", "td", "th", "iframe"})
_LINK_BLOCKS = frozenset({"ul", "ol", "div", "section", "p", "dl", "table", "span", "header",
                          "menu"})


def _describe(el: etree._Element, stats: Stats | None) -> dict[str, Any]:
    """A short, human-readable description of an element for the trace."""
    text = " ".join(text_content(el).split())[:80]
    return {"tag": el.tag, "class": (el.get("class") or "")[:80], "id": el.get("id") or "",
            "chars": stats.chars if stats else 0, "text": text}


def _remove(el: etree._Element, keep_text: bool = False) -> None:
    """Remove an element but keep its tail text (and, when asked, its own text) in place."""
    parent = el.getparent()
    if parent is None:
        return
    tail = ((el.text or "") if keep_text else "") + (el.tail or "")
    if tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(el)


_STRIP_WALK_TAGS = ("a", "form", *sorted(STRIPPED_TAGS))
"""The tags :func:`strip_non_content` lists in its walk (fields and noscripts are among the
stripped tags)."""


def strip_non_content(root: etree._Element, cleaning: CleaningRules,
                      t: Thresholds = THRESHOLDS) -> int:
    """Drop scripts, styles, templates and other never-content elements from a tree; count them.

    The elements each step reads by tag (noscripts, links, fields, forms, what is dropped) are
    listed in one walk of the tree, in document order: the steps before the drop rename a few
    of them and set attributes, and move or remove none."""
    tagged: dict[str, list[etree._Element]] = {}
    listed = list(root.iter(*_STRIP_WALK_TAGS))
    for el in listed:
        found = tagged.get(el.tag)
        if found is None:
            tagged[el.tag] = [el]
        else:
            found.append(el)
    for el in tagged.get("noscript", ()):
        if len("".join(text_content(el).split())) >= t.noscript_content_chars:
            el.tag = "div"
            el.set("data-was", "noscript")
    _mark_controlled_panels(root, t)
    _unwrap_script_links(root, tagged.get("a", []))
    fields = None  # the email fields of the whole document: listed when root is its root
    if root.getparent() is None:
        fields = [el for el in tagged.get("input", ()) if el.get("type") == "email"]
    for box in _signup_boxes(root, t, fields):
        box.set(SIGNUP, "")
    for box in _form_boxes(root, t, tagged.get("form", [])):
        box.set(FORM_BOX, "")
    doomed = [el for el in listed if el.tag in STRIPPED_TAGS]  # a noscript kept is a div now
    for el in doomed:
        _remove(el)
    _close_swallowing_chrome(root, cleaning.chrome.tags, t)
    return len(doomed)


def _close_swallowing_chrome(root: etree._Element, chrome_tags: frozenset[str],
                             t: Thresholds) -> None:
    """Close each navigation, header, footer or aside that holds most of the page's text where
    its own links end: the children from the first one that is not mostly links on move out,
    after it, as the page's author meant (the links stay chrome, the page after them does not)."""
    body = root.find("body")
    if body is None:
        body = root
    limit = None
    for el in list(body.iter(*chrome_tags)):
        if el.getparent() is None or not _swallowed_page(el):
            continue
        if limit is None:
            limit = t.swallowing_chrome_share * _all_visible_chars(body)
        if _visible_chars(el, int(limit)) <= limit:
            continue
        children = [child for child in el if isinstance(child.tag, str)]
        start = next((i for i, child in enumerate(children) if not _mostly_links(child, t)), None)
        if start is None:
            continue
        anchor = el
        for child in el[el.index(children[start]):]:
            anchor.addnext(child)  # moves the child (with its tail) out, in order
            anchor = child


_PAGE_MARKS = etree.XPath("boolean(descendant::h1 | descendant::main | descendant::article)")


def _swallowed_page(el: etree._Element) -> bool:
    """Whether a chrome block looks like an unclosed tag that took the page in: it runs to the
    end of its parent (nothing follows it) and holds what only a page has (its h1, its main
    block or its article); a footer holding a long policy, or a menu with prose, does not."""
    follower = el.getnext()
    while follower is not None and not isinstance(follower.tag, str):
        follower = follower.getnext()
    return follower is None and _PAGE_MARKS(el)


def _mostly_links(el: etree._Element, t: Thresholds) -> bool:
    """Whether an element's text is mostly link text (a menu), or it has no text."""
    total = len("".join(text_content(el).split()))
    linked = sum(len("".join(text_content(a).split())) for a in el.iter("a"))
    return total == 0 or linked > t.chrome_link_share * total


_SCRIPT_SCHEME = "javascript:"
_SCRIPT_SCHEME_CASE = str.maketrans("JAVSCRIPT", "javscript")
_XML_SPACE = " \t\r\n"


def _script_links(root: etree._Element,
                  links: list[etree._Element] | None = None) -> list[etree._Element]:
    """The links whose address, leading white space left out, starts with ``javascript:`` in
    any case (what XPath's ``normalize-space`` and ``translate`` read, tested per link in
    Python: XPath copies every address to test it); ``links``: the ``a`` elements under root,
    when the caller listed them already."""
    out = []
    for link in root.iter("a") if links is None else links:
        href = link.get("href")
        if href and href.lstrip(_XML_SPACE)[:len(_SCRIPT_SCHEME)].translate(
                _SCRIPT_SCHEME_CASE) == _SCRIPT_SCHEME:
            out.append(link)
    return out


def _unwrap_script_links(root: etree._Element,
                         links: list[etree._Element] | None = None) -> None:
    """Make a ``javascript:`` link plain text: it leads nowhere, so its text (a glossary term, a
    "show more" over the story's own words) is text, not a link that makes its block look like
    navigation; the sanitiser would drop the address anyway. The span is marked
    (``SCRIPT_LINK``): a block that is nothing but one of them is a control ("back", "print"),
    which the link-button rule removes. ``links``: the ``a`` elements under root, when the
    caller listed them already."""
    for link in _script_links(root, links):
        link.tag = "span"
        del link.attrib["href"]
        link.set(SCRIPT_LINK, "")


SCRIPT_LINK = "data-script-link"
"""Marks the span that was a ``javascript:`` link."""


SIGNUP = "data-signup-box"
"""Marks a sign-up box (set before the form fields are stripped); cleaning removes it."""
_SIGNUP_MARKED = etree.XPath(f"descendant-or-self::*/@{SIGNUP}/..")
def _signup_boxes(root: etree._Element, t: Thresholds,
                  fields: list[etree._Element] | None = None) -> list[etree._Element]:
    """The largest block around each email field whose text stays short, inside any list item:
    the sign-up box, with its pitch, its labels and its thank-you message (``fields``: the
    document's email fields, in document order, when the caller listed them already)."""
    boxes: list[etree._Element] = []
    found: set[etree._Element] = set()  # the boxes, for one walk up from each box
    alike = LikeSiblings()
    chars = _CappedChars(t.signup_max_chars)
    for field in root.xpath('//input[@type="email"]') if fields is None else fields:
        box = None
        for anc in field.iterancestors():
            if anc.tag in ("body", "html") \
                    or chars.over(anc, t.signup_max_chars) \
                    or _list_item(anc, t, alike):
                break
            box = anc
        if box is not None and box not in found and not _is_inside(box, found):
            boxes.append(box)
            found.add(box)
    return boxes


FORM_BOX = "data-form-box"
"""Marks a form the reader fills in (set before its fields are stripped); cleaning removes it."""
_FORM_MARKED = etree.XPath(f"descendant-or-self::*/@{FORM_BOX}/..")
_FILLABLE = etree.XPath(
    "boolean(.//textarea | .//select | .//input[not(@type) or not(contains("
    "' hidden submit button image reset ', concat(' ', translate(normalize-space(@type), "
    "'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), ' ')))])")


def _form_boxes(root: etree._Element, t: Thresholds,
                forms: list[etree._Element] | None = None) -> list[etree._Element]:
    """Forms the reader fills in (a field to type in, a choice to tick or select) whose text
    stays short: a comment form, a "rate this page" poll, a contact or search form. Its text is
    labels and prompts, never the page's content, in any language. The box is the form with
    the wrappers around it that add at most ``form_box_extra_chars`` (its heading, a line of
    notes), inside any list item; a form holding more than ``form_box_max_chars`` is a page
    wrapped in a form (ASP.NET) and holds none. ``forms``: the forms under root, in document
    order, when the caller listed them already."""
    boxes: list[etree._Element] = []
    found: set[etree._Element] = set()  # the boxes, for one walk up from each form
    alike = LikeSiblings()
    chars = _CappedChars(t.form_box_max_chars + t.form_box_extra_chars)
    for form in root.iter("form") if forms is None else forms:
        if _is_inside(form, found) or not _FILLABLE(form):
            continue
        own = _visible_chars(form, t.form_box_max_chars)
        if own > t.form_box_max_chars:
            continue
        box = form
        limit = own + t.form_box_extra_chars
        for anc in form.iterancestors():
            if anc.tag in ("body", "html") or chars.over(anc, limit) \
                    or _list_item(anc, t, alike):
                break
            box = anc
        boxes.append(box)
        found.add(box)
    return boxes


MEDIA_TAGS = ("img", "picture", "video", "iframe")


def _image_caption(caption: etree._Element) -> bool:
    """Whether a figcaption describes an image or a video (credits and descriptions of a
    picture are not the text), rather than attributing a quote or naming a code listing."""
    figure = caption.getparent()
    if figure is None or figure.tag != "figure":
        return False
    if not any(True for _ in figure.iter(*MEDIA_TAGS)):
        return False
    return not _card_figure(figure)


def _card_figure(figure: etree._Element) -> bool:
    """Whether a figure is a card of a list (an ingredient, a team member, a carousel slide):
    its caption is then the card's text."""
    parent = figure.getparent()
    return parent is not None and parent.tag == "li"


def _list_item(el: etree._Element, t: Thresholds, alike: LikeSiblings) -> bool:
    """Whether an element is one of a list of like items (a product card with a "notify me" field
    is a card, not a sign-up box). ``alike`` counts each parent's children once, so that a
    caller asking of many boxes among the same siblings (thousands of forms, each in its own
    div) does not count them once per box."""
    return el.tag == "li" or alike.count(el) >= t.min_repeats


_NOT_SHOWN = ("script", "style", "template")
"""Elements whose own text :func:`_visible_chars` leaves out."""


def _visible_chars(el: etree._Element, limit: int) -> int:
    """Non-space characters of an element's text (scripts and styles left out), counted up to
    just past limit."""
    chars = 0
    for node in el.iter():
        if node.tag not in _NOT_SHOWN and isinstance(node.tag, str):
            chars += len("".join((node.text or "").split()))
        if node is not el and node.tail:
            chars += len("".join(node.tail.split()))
        if chars > limit:
            break
    return chars


class _CappedChars:
    """:func:`_visible_chars` of elements counted up to one cap, each element walked once: the
    boxes around thousands of fields share their ancestors, whose text a walk from each field
    would count again (2,000 email fields in one article took 10 s)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.counted: dict[etree._Element, int] = {}

    def over(self, el: etree._Element, limit: int) -> bool:
        """Whether el holds more than ``limit`` (at most the cap) visible characters."""
        chars = self.counted.get(el)
        if chars is None:
            chars = self.counted[el] = _visible_chars(el, self.cap)
        return chars > limit


def _all_visible_chars(el: etree._Element) -> int:
    """All of :func:`_visible_chars` (no limit), read from lxml's own text of the element (its
    text and its descendants', comments left out) less the own text of the scripts, styles and
    templates in it: the same characters, counted without a Python step per element (the count
    of a whole page or container, where no limit stops the walk early)."""
    return len("".join(text_content(el).split())) - sum(
        len("".join(node.text.split())) for node in el.iter(*_NOT_SHOWN) if node.text)


CONTROLLED = "data-controlled"
"""Marks an element that another element's aria-controls opens and closes (an accordion or tab
panel): set before the controls (often <button>s) are stripped."""


# The document's attributes read from its elements: libxml2 reads ``//@name`` as the attributes
# of every node, text nodes included (a fifth more work for the same nodes).
_CONTROLS = etree.XPath("/descendant-or-self::*/@aria-controls")
_EXPANDED = etree.XPath("/descendant-or-self::*/@aria-expanded")
_WITH_ID = etree.XPath("/descendant-or-self::*/@id/..")


def _mark_controlled_panels(root: etree._Element, t: Thresholds) -> None:
    """Mark the panels a control opens and closes: hidden until the reader opens them, but
    content. A panel is named by aria-controls, or is the block right after a collapsed toggle
    (aria-expanded="false", alone in its own block) that names none."""
    ids = {ident for value in _CONTROLS(root) for ident in str(value).split()}
    for state in _EXPANDED(root):  # attribute axis: far cheaper than //*[...]
        toggle = state.getparent()
        if str(state) != "false" or toggle.get("aria-controls") is not None:
            continue
        panel = _panel_after(toggle, t)
        if panel is not None:
            panel.set(CONTROLLED, "")
    if ids:
        for el in _WITH_ID(root):
            if el.get("id") in ids:
                el.set(CONTROLLED, "")


def _panel_after(toggle: etree._Element, t: Thresholds) -> etree._Element | None:
    """The block that follows a toggle, or follows the wrappers that hold nothing but it."""
    el = toggle
    for _ in range(t.toggle_panel_depth + 1):
        following = el.getnext()
        while following is not None and not isinstance(following.tag, str):
            following = following.getnext()
        if following is not None:
            return following
        parent = el.getparent()
        if parent is None or sum(1 for child in parent if isinstance(child.tag, str)) != 1:
            return None
        el = parent
    return None


def _is_inside(el: etree._Element, removed: set[etree._Element]) -> bool:
    """Whether an ancestor of el was already removed."""
    if not removed:
        return False
    parent = el.getparent()
    while parent is not None:
        if parent in removed:
            return True
        parent = parent.getparent()
    return False


def _rule_exclude_of(el: etree._Element,
                     rule_selectors: tuple[tuple[str, SimpleSelector], ...]) -> str | None:
    """The first site-rule exclude selector without combinators that matches ``el`` itself, or
    None. The selector set names one selector an element matches (a generic ``nav`` before a
    rule's ``nav.contents``); inside a block a rule keeps, only the rule's own exclude still
    removes. Each test reads the element's own names only: no walk of what it holds."""
    tokens = frozenset((el.get("class") or "").split())
    return next((text for text, simple in rule_selectors if simple.matches(el, tokens)), None)


def _class_tokens(el: etree._Element) -> list[str]:
    """Class names and id of an element, lower-cased."""
    classes, ident = el.get("class"), el.get("id")
    tokens = classes.lower().split() if classes else []
    ident = ident.strip().lower() if ident else ""
    if ident:
        tokens.append(ident)
    return tokens


def _block_names(el: etree._Element, cleaning: CleaningRules) -> list[str]:
    """Class names and id that say what a block is: state and script-hook names
    (``has-sidebar``, ``js-stop-sidebar``, ``sidebar-enabled--false``) say nothing about it."""
    state = cleaning.state_name_pattern
    tokens = _class_tokens(el)
    ident = (el.get("id") or "").strip().lower()
    if "." in ident:  # an anchor named after code (click.echo_via_pager), not a block name
        tokens = [t for t in tokens if t != ident]
    return [t for t in tokens if state is None or not state.found(t)]


def _name_verdict(el: etree._Element, cleaning: CleaningRules,
                  exempt: NamePattern | None = None
                  ) -> tuple[re.Match | None, re.Match | None]:
    """What an element's names say: the secondary-section name they hold, and the boilerplate
    name they hold when no keep name (nor ``exempt``, a discussion's posts) overrides it (None
    for either when there is none)."""
    names = " ".join(_block_names(el, cleaning))
    if not names:
        return None, None
    secondary, pattern, keep = (cleaning.secondary_section_pattern, cleaning.boilerplate_pattern,
                                cleaning.keep_pattern)
    secondary_hit = secondary.search(names) if secondary is not None else None
    if secondary_hit:
        return secondary_hit, None
    hit = pattern.search(names) if pattern is not None else None
    if hit and not _spared(names, keep, exempt):
        return None, hit
    return None, None


def _spared(names: str, keep: NamePattern | None, exempt: NamePattern | None) -> bool:
    """Whether an element's names spare it from a boilerplate name: a keep name, or the names
    of a discussion's posts (``exempt``)."""
    return any(p is not None and p.found(names) for p in (keep, exempt))


def discount_named_blocks(root: etree._Element, stats: dict[etree._Element, Stats],
                          cleaning: CleaningRules, t: Thresholds = THRESHOLDS,
                          exempt: NamePattern | None = None) -> int:
    """Zero the content-like count of blocks whose names say they are never content (a table of
    contents, comments, an author box), so that widening and choosing a container are not
    drawn to them by their prose; cleaning still decides what is removed. Blocks whose names
    match ``exempt`` keep their count (a discussion's posts, see :func:`discussion_posts`).
    Returns how many."""
    pattern, keep = cleaning.not_content_pattern, cleaning.keep_pattern
    root_st = stats.get(root)
    if pattern is None or root_st is None or root_st.good == 0:
        return 0
    limit = t.named_discount_max_share * root_st.good
    named = []
    for el, st in stats.items():
        if st.good < t.named_discount_min_good or st.good > limit or el is root \
                or el.tag in KEEP_TAGS:
            continue
        raw = f"{el.get('class') or ''} {el.get('id') or ''}"
        if not pattern.found(raw):  # most blocks: no need to drop the state names
            continue
        names = " ".join(_block_names(el, cleaning))
        if names and pattern.found(names) and not _spared(names, keep, exempt):
            named.append(el)
    named_set = set(named)
    count = 0
    for el in named:
        if any(anc in named_set for anc in el.iterancestors()):
            continue
        good = stats[el].good
        for sub in el.iter():
            sub_st = stats.get(sub)
            if sub_st is not None:
                sub_st.good = 0
        for anc in el.iterancestors():
            anc_st = stats.get(anc)
            if anc_st is not None:
                anc_st.good = max(0, anc_st.good - good)
        count += 1
    return count


DISCUSSION_POSTS_RULE = "discussion-posts"
"""The rule's name in the trace."""


def discussion_posts(discussion: bool, cleaning: CleaningRules) -> NamePattern | None:
    """On a discussion page, the names of blocks that hold its posts: a forum engine or a page
    declaring itself a forum posting or a Q&A page names its replies as comments (``comments``,
    ``comment-list``), and there the replies are the content, so the choice must not be steered
    away from them. ``None`` elsewhere (reader comments under a story are not content)."""
    return cleaning.comment_section_pattern if discussion else None


_HEADINGS = ("h2", "h3", "h4")


def _panel_index(el: etree._Element, container: etree._Element, t: Thresholds,
                 alike: LikeSiblings) -> bool:
    """Whether a link list is the index of one panel in a grid of panels (a heading, a paragraph
    and the panel's links, repeated side by side on landing pages): content, not navigation.
    The like panels of a grid are counted once (``alike``): a count per list made a grid of
    thousands of panels quadratic."""
    panel = el.getparent()
    if panel is None or panel is container or not panel.get("class"):
        return False
    if not any(child.tag in _HEADINGS for child in panel) or panel.find("p") is None:
        return False
    return alike.count(panel) >= t.min_repeats


_MENU_TAGS = frozenset({"menu"})
"""A list of commands, chrome wherever a page puts it, beside the page chrome's tags."""


def _links_to_itself(href: str | None, anchor: str) -> bool:
    """Whether a heading's link is its permalink: its fragment is the heading's id (``#x``), or,
    on a page that routes by its fragment, the route's query names the heading as the place in
    the route's page (``#/guide?id=x``, what a client-rendered documentation site writes, whose
    fragment is taken by the route)."""
    if not href or not href.startswith("#"):
        return False
    if href == f"#{anchor}":
        return True
    route, _, query = href[1:].partition("?")
    return route.startswith(("/", "!/")) and f"id={anchor}" in query.split("&")


def _section_list(el: etree._Element, container: etree._Element,
                  chrome_tags: frozenset[str]) -> bool:
    """Whether a link list is the body of one of the document's own sections: a ``ul``/``ol``
    right after a heading that carries a permalink to itself (``<h2 id="x">..<a href="#x">``,
    what a Markdown or reStructuredText build writes for every section it renders, or a hash
    route's place ``#/page?id=x``), the heading
    not the first thing of its block, nothing between the list and the container chrome
    (``chrome_tags``: the page chrome's tags of the cleaning rules and ``menu``). A theme's
    menus and a template's related links get no such heading: the list is the author's (the
    chapters a handbook's home page links to), not navigation."""
    if el.tag not in ("ul", "ol"):
        return False
    heading = next(el.itersiblings(etree.Element, preceding=True), None)
    if heading is None or heading.tag not in _HEADINGS:
        return False
    anchor = heading.get("id")
    if not anchor or not any(_links_to_itself(a.get("href"), anchor) for a in heading.iter("a")):
        return False
    if next(heading.itersiblings(etree.Element, preceding=True), None) is None:
        return False
    node = el.getparent()
    while node is not None and node is not container:
        if node.tag in chrome_tags:
            return False
        node = node.getparent()
    return node is container


def _keep_when_mostly(dropped: list[etree._Element], removed: set[etree._Element],
                     stats: dict[etree._Element, Stats], total: int,
                     trace: list[dict[str, Any]] | None, rule: str, why: str,
                     t: Thresholds) -> None:
    """Take back removals of one kind (by ``rule``) when together they would take most of the
    container's text: what each removed block looked like is then what the page is made of."""
    chars = sum(stats[el].chars for el in dropped
                if el in removed and el in stats and not _is_inside(el, removed))
    if chars <= t.generic_max_share * total:
        return
    removed.difference_update(dropped)
    if trace is not None:
        trace.append({"step": "clean", "action": "kept", "rule": rule, "count": len(dropped),
                      "why": why.format(share=chars / total)})


def clean_container(container: etree._Element, rules: list[Rule], cleaning: CleaningRules,
                    trace: list[dict[str, Any]] | None = None,
                    stats: dict[etree._Element, Stats] | None = None,
                    prune_link_dense: bool = True,
                    t: Thresholds = THRESHOLDS,
                    exempt: NamePattern | None = None,
                    story: bool = False,
                    description: str | None = None) -> etree._Element:
    """Remove boilerplate from the chosen container in place and return it.

    ``prune_link_dense`` is off for containers named by a site/framework rule: there a list of
    links (a table of contents, a changelog) is the page's content. Blocks whose names match
    ``exempt`` (a discussion's posts, :func:`discussion_posts`) are not removed by name.
    ``story`` says the page is an article and no site rule chose the container: only then do
    declared author boxes and the labels of removed blocks go (a forum's poster boxes and a
    tree's folded branch labels are content). ``description`` is the page's declared
    description: on pages that are no story a block holding it is not removed by a guarded
    rule (:func:`_holds_declared_description`; on articles the description repeats a lead or a
    teaser line the story rules judge).
    """
    if stats is None or container not in stats:
        stats = compute_stats(container, t)
    total = max(stats[container].chars, 1)
    removed: set[etree._Element] = set()
    by_name: list[etree._Element] = []
    link_lists: list[etree._Element] = []
    protected = {m for rule in rules for sel in rule.keep for m in css(sel)(container)}
    described = "" if story else _description_key(description, t)

    def drop(el: etree._Element, rule: str, why: str, guard: bool, named: bool = False,
             max_share: float | None = None) -> None:
        """Mark ``el`` for removal by ``rule`` (named in every trace entry it writes, as the
        other cleaning stages name theirs), unless a guard keeps it."""
        if el is container or el in removed or _is_inside(el, removed):
            return

        def kept(guard_says: str, st: Stats | None) -> None:
            if trace is not None:
                trace.append({"step": "clean", "action": "kept", "rule": rule,
                              "why": f"{why}, but {guard_says}", **_describe(el, st)})

        if guard and (el in protected or _is_inside(el, protected)):
            kept("a site rule keeps it", stats.get(el))
            return
        if guard and described and _holds_declared_description(el, described, t):
            kept(f"{DECLARED_DESCRIPTION_RULE}: it holds the page's declared description",
                 stats.get(el))
            return
        heading = _emptied_heading(el)
        if heading is not None:
            kept(f"it is all the text of a heading ({heading.tag})", stats.get(el))
            return
        if named:
            by_name.append(el)
        st = stats.get(el)
        share = t.generic_max_share if max_share is None else max_share
        if guard and st is not None and st.chars > share * total:
            unhide(el)
            kept(f"holds {st.chars / total:.0%} of the text", st)
            return
        removed.add(el)
        if trace is not None:
            trace.append({"step": "clean", "action": "removed", "rule": rule, "why": why,
                          **_describe(el, st)})

    for el in _SIGNUP_MARKED(container):
        drop(el, "sign-up-box", "sign-up box (short text around an email field)", guard=False)
    for el in _FORM_MARKED(container):
        drop(el, "form-box", "form-box: a short form the reader fills in, with its heading",
             guard=True)
    for caption in container.iter("figcaption"):
        if _image_caption(caption):
            drop(caption, "image-caption", "caption of an image", guard=True)
    for el in _declared_asides(container, cleaning) if story else ():
        drop(el, "declared-aside", "declared-aside: a declared author box beside the story",
             guard=True)
    for el in _print_hidden_blocks(container, cleaning):
        drop(el, PRINT_HIDDEN_RULE, "print-hidden: a block the page leaves out of its printed "
             "copy", guard=True)
    rule_selectors = {sel: rule.source for rule in rules for sel in rule.exclude}
    generic = cleaning.ad_selectors + cleaning.remove
    selectors = selector_set(tuple(rule_selectors) + generic)
    rule_simple = tuple((sel, simple) for sel in rule_selectors
                        if (simple := parse_simple(sel)) is not None)
    for el, selector in selectors.matches(container):
        if selector not in rule_selectors and protected \
                and (el in protected or _is_inside(el, protected)):
            selector = _rule_exclude_of(el, rule_simple) or selector
        if selector in rule_selectors:
            drop(el, "site-rule", f"rule {rule_selectors[selector]}: {selector}", guard=False)
        elif selector in cleaning.hiding_selectors and not is_hidden(el):
            unhide(el)
            if trace is not None:
                trace.append({"step": "clean", "action": "kept", "rule": "generic-selector",
                              "why": f"{selector}, but the shown name its container's "
                                     "aria-label announces", **_describe(el, stats.get(el))})
        elif selector in cleaning.hiding_selectors and _collapsed_content(el, cleaning):
            unhide(el)
            if trace is not None:
                trace.append({"step": "clean", "action": "kept", "rule": "generic-selector",
                              "why": f"{selector}, but a collapsed tab/accordion panel",
                              **_describe(el, stats.get(el))})
        elif selector in cleaning.hiding_selectors and _hidden_copy(el, container, stats, total, t):
            drop(el, "hidden-copy",
                 f"generic selector {selector}: a hidden copy of the visible text", guard=False)
        else:
            drop(el, "generic-selector", f"generic selector {selector}", guard=True)
    verdicts: dict[tuple[str | None, str | None], tuple[re.Match | None, re.Match | None]] = {}
    alike = LikeSiblings()
    list_chrome = cleaning.chrome.tags | _MENU_TAGS
    for el in container.iter():
        if el is container or not isinstance(el.tag, str) or el.tag in KEEP_TAGS:
            continue
        names_key = (el.get("class"), el.get("id"))
        if names_key != (None, None):
            verdict = verdicts.get(names_key)
            if verdict is None:  # elements of one class share it: each name list read once
                verdict = verdicts[names_key] = _name_verdict(el, cleaning, exempt)
            secondary_hit, boilerplate_hit = verdict
            if secondary_hit:
                drop(el, "secondary-section",
                     f"secondary section {secondary_hit.group(0).strip(' -_')!r}",
                     guard=True, max_share=t.secondary_max_share)
                continue
            if boilerplate_hit:
                drop(el, "boilerplate-name",
                     f"boilerplate name {boilerplate_hit.group(0).strip(' -_')!r}",
                     guard=True, named=True)
                continue
        if not prune_link_dense or el.tag not in _LINK_BLOCKS:
            continue
        st = stats.get(el)
        if st is None or not st.nav_like(t):
            continue
        if _panel_index(el, container, t, alike):
            if trace is not None:
                trace.append({"step": "clean", "action": "kept", "rule": "link-dense",
                              "why": "link list of one panel in a grid of panels (heading, "
                              "text, links)", **_describe(el, st)})
            continue
        if _section_list(el, container, list_chrome):
            if trace is not None:
                trace.append({"step": "clean", "action": "kept", "rule": "link-dense",
                              "why": "link list that is the body of a section of the document "
                              "(after a heading with its own permalink)", **_describe(el, st)})
            continue
        drop(el, "link-dense",
             f"link-dense block ({st.link_density:.0%} link text, {st.links} links)", guard=True)
        if el in removed:
            link_lists.append(el)
    _keep_when_mostly(link_lists, removed, stats, total, trace, "link-dense",
                      "link-dense blocks would remove {share:.0%} of the text: the container is "
                      "a list of linked items (a listing page); link-dense pruning skipped", t)
    # Names that match this often are the site's vocabulary, not boilerplate markers.
    _keep_when_mostly(by_name, removed, stats, total, trace, "boilerplate-name",
                      "boilerplate names would remove {share:.0%} of the text; name rule "
                      "skipped on this page", t)
    labels = labels_before(removed) if story else []
    for el in removed:
        if not _is_inside(el, removed):
            _remove(el)
    unhide(container)
    drop_orphan_labels(labels, container, trace, t)
    _drop_code_chrome(container, trace, t)
    _drop_repeated_blocks(container, trace, t)
    _drop_repeated_in_cards(container, trace, t)
    _drop_empty(container, trace)
    _unwrap_forms(container, stats, t)
    drop_trailing_headings(container, trace, t)
    return container


DECLARED_DESCRIPTION_RULE = "declared-description"
"""Name of the guard keeping the block that holds the page's declared description."""


def _description_key(description: str | None, t: Thresholds) -> str:
    """The page's declared description, white space collapsed and case folded, or "" when it
    declares none long enough to tell its own block from a slogan."""
    text = " ".join((description or "").split()).casefold()
    return text if len(text) >= t.description_min_chars else ""


def _holds_declared_description(el: etree._Element, description: str, t: Thresholds) -> bool:
    """Whether a block a cleaning rule would remove holds the page's declared description
    (schema.org ``description``, ``og:description``; found by its first
    ``description_match_chars``, as meta descriptions are cut short) and little else: the page
    says this text is what it is about (a product's description in an ``<aside>``, a category's
    introduction in a link-dense header), so it is content whatever the block's names or links
    say. A wrapper holding much more than the description (a purchase box, specifications,
    reviews) is cleaned as usual."""
    text = " ".join(text_content(el).split())
    if len(text) > t.description_block_ratio * len(description):
        return False
    return description[:t.description_match_chars] in text.casefold()


_ITEMS = etree.XPath("descendant::*/@itemscope/..")
_INLINE_TAGS = frozenset({"span", "a", "strong", "em", "b", "i", "small", "cite", "time",
                          "abbr", "u", "font", "address"})


def _declared_asides(container: etree._Element,
                     cleaning: CleaningRules) -> list[etree._Element]:
    """Block items the page declares (schema.org microdata) as what accompanies the story, not
    its text: an author box declared as a Person or as the author (``declared_aside_pattern``),
    its name, portrait and biography. An inline item (a name in a sentence, a byline's link)
    is the text's own."""
    pattern = cleaning.declared_aside_pattern
    if pattern is None:
        return []
    found = []
    for item in _ITEMS(container):
        if item.tag in _INLINE_TAGS:
            continue
        kinds = [kind.rstrip("/").rsplit("/", 1)[-1]
                 for kind in (item.get("itemtype") or "").split()]
        kinds += (item.get("itemprop") or "").split()
        if any(pattern.found(kind) for kind in kinds):
            found.append(item)
    return found


PRINT_HIDDEN_RULE = "print-hidden"
"""Name of the rule removing the blocks a page leaves out of its printed copy."""
_PRINT_CLASSED = etree.XPath("descendant::*[contains(@class, 'print')]")
"""The elements whose class holds the word every print utility class spells in lower case (read
by libxml2, half the time of a case-blind test: the pattern is then tested on a few elements of
a page, not on every class)."""


def _print_hidden_blocks(container: etree._Element,
                         cleaning: CleaningRules) -> list[etree._Element]:
    """Blocks the page declares left out of its printed copy by a class of the print
    utilities of CSS frameworks and themes (``print_hidden_pattern``: ``noprint``,
    ``d-print-none``, ``print:hidden``, ...): what a printed page keeps is its text, so these
    are the chrome around it (a section menu, share and follow lines, a booking hotline, a "last
    minute" badge, an advertisement's label). The share guard keeps one holding most of the
    container. A block holding an ``h1`` stays: the story's headline in a screen-only header
    (the printed copy repeats the title in a header of its own)."""
    pattern = cleaning.print_hidden_pattern
    if pattern is None:
        return []
    return [el for el in _PRINT_CLASSED(container)
            if any(pattern.found(token) for token in el.get("class", "").split())
            and next(el.iter("h1"), None) is None]


def labels_before(removed: set[etree._Element]) -> list[etree._Element]:
    """The block right before each removed block (the nearest earlier sibling with text, nothing
    but space between them): the line that may have been its label."""
    labels: dict[etree._Element, None] = {}
    for el in removed:
        if _is_inside(el, removed):
            continue
        prev = el.getprevious()
        while prev is not None and (not isinstance(prev.tag, str) or prev in removed
                                    or not _has_text_or_media(prev)):
            if (prev.tail or "").strip():
                prev = None
                break
            prev = prev.getprevious()
        if prev is not None and not (prev.tail or "").strip():
            labels[prev] = None
    return list(labels)


def _has_text_or_media(el: etree._Element) -> bool:
    """Whether an element holds any text or a picture."""
    return bool(_WORDS.search(text_content(el))) or next(el.iter(*MEDIA_TAGS), None) is not None


_LABEL_ENDS = (":", "?", "\uff1a", "\uff1f")
"""How a line that announces what follows ends (a colon, a question put to the reader), as
written in Latin, Cyrillic, Greek and CJK scripts."""
_EMPHASIS = ("strong", "b", "label", "legend")


def _label_like(el: etree._Element, text: str) -> bool:
    """Whether a short line reads as a label: a heading, a line that is all bold (or styled
    bold), or one ending as an announcement or a question does."""
    if el.tag in HEADING_TAGS or el.tag in _EMPHASIS or text.endswith(_LABEL_ENDS):
        return True
    if "bold" in (el.get("style") or "").replace(" ", "").lower():
        return True
    for inner in el.iter(*HEADING_TAGS, *_EMPHASIS):
        if " ".join(text_content(inner).split()) == text:
            return True
    return False


def drop_orphan_labels(labels: list[etree._Element], container: etree._Element,
                       trace: list[dict[str, Any]] | None, t: Thresholds,
                       rule: str = "orphan-label",
                       why: str = "orphan-label: a short title line whose block cleaning "
                                  "removed") -> None:
    """Remove the labels that cleaning left heading nothing: a short line (a heading, a bold
    line, a line ending in a colon or a question mark) whose block after it was removed (a
    share bar, an author box, a rating widget, a list of links) and after which nothing with
    text or a picture is left in its parent. Its words are the widget's title, in any
    language; a line followed by the story's text stays. ``rule`` and ``why`` name the
    removal in the trace (the story-aside rule's labels go under their own name)."""
    doomed = []
    for label in labels:
        if label.getparent() is None or not contains(container, label) or label is container:
            continue
        text = " ".join(text_content(label).split())
        if not text or len(text.replace(" ", "")) > t.orphan_label_max_chars:
            continue
        if next(label.iter("a"), None) is not None or next(label.iter(*MEDIA_TAGS), None) \
                is not None or (label.tail or "").strip():
            continue
        if any(isinstance(sib.tag, str) and _has_text_or_media(sib) or (sib.tail or "").strip()
               for sib in label.itersiblings()):
            continue
        if _emptied_heading(label) is None and _label_like(label, text):
            doomed.append(label)
    _remove_counted(doomed, trace, rule, why)


_PROSE_TAGS = frozenset({"p", "li", "dt", "dd", "figcaption", "caption", "blockquote", "td",
                         "th", "h1", "h2", "h3", "h4", "h5", "h6", "a"})
_LINE_NUMBER_TEXT = re.compile(r"\d+(?:\s+\d+)*")


def _drop_code_chrome(container: etree._Element, trace: list[dict[str, Any]] | None,
                      t: Thresholds) -> None:
    """Remove a code block's chrome: short labels beside the <pre> in the block's own frame
    (language name, copy button text) and a gutter of line numbers (digits only), so the text
    holds the code and only the code. The words of a heading in the frame are never chrome
    (a module's name split by ``<wbr>`` over a page that is one listing)."""
    doomed: list[etree._Element] = []
    for pre in container.iter("pre"):
        frame = _code_frame(pre, container, t)
        if frame is None:
            continue
        headed = {el for heading in frame.iter(*HEADING_TAGS) for el in heading.iter()}
        for el in frame.iter():
            if not isinstance(el.tag, str) or el is frame or contains(el, pre) \
                    or contains(pre, el) or el.tag in _PROSE_TAGS or el in doomed \
                    or el in headed:
                continue
            text = " ".join(text_content(el).split())
            if not text or any(isinstance(c.tag, str) for c in el):
                continue
            if _LINE_NUMBER_TEXT.fullmatch(text) or (
                    len(text) <= t.code_chrome_max_chars
                    and len(text.split()) <= t.code_chrome_max_words):
                doomed.append(el)
    _remove_counted(doomed, trace, "code-chrome",
                    "code block chrome (labels, copy buttons, line numbers beside a <pre>)")


def _code_frame(pre: etree._Element, container: etree._Element,
                t: Thresholds) -> etree._Element | None:
    """The outermost wrapper of a <pre> (up to a few levels, below the container) whose text
    outside the <pre> stays short: the code block's frame, or None when the <pre> has none."""
    frame = None
    el = pre
    code_chars = len("".join(text_content(pre).split()))
    for _ in range(t.code_wrapper_depth):
        parent = el.getparent()
        if parent is None or parent is container:
            break
        if any(other is not pre for other in parent.iter("pre")):
            break  # a wrapper around several code blocks is a section, not one block's frame
        outside = len("".join(text_content(parent).split())) - code_chars
        if outside > t.code_wrapper_max_outside:
            break
        frame = el = parent
    return frame


_LEAF_BLOCKS = ("p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "dd", "dt", "blockquote",
                "figcaption", "div", "td")
_BLOCK_CHILDREN = frozenset({"p", "div", "ul", "ol", "li", "table", "section", "article",
                             "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "dl"})


def _drop_repeated_blocks(container: etree._Element, trace: list[dict[str, Any]] | None,
                          t: Thresholds) -> None:
    """Remove a text block that repeats an earlier one word for word (responsive layouts print
    the same description for desktop and mobile; readers see it once).

    A block is never a repeat of its own wrapper (a ``div`` whose only child is inline has the
    text of the block inside it), and a repeat in a branch shaped like the first copy's (two
    paragraphs of one story, two cards of one grid: the same tag and class under their lowest
    common ancestor) is the page's own text said twice, which stays; a copy inside a quotation
    (a reply quoting the opening post) goes."""
    seen: dict[str, etree._Element] = {}
    doomed = []
    in_code = {el for pre in container.iter("pre", "code", "table") for el in pre.iter()}
    for el in container.iter(*_LEAF_BLOCKS):
        if el in in_code or any(child.tag in _BLOCK_CHILDREN for child in el):
            continue
        text = text_content(el)
        if len(text) < t.min_repeat_chars:
            continue  # shorter still once its white space is collapsed
        text = " ".join(text.split())
        if len(text) < t.min_repeat_chars:
            continue
        first = seen.get(text)
        if first is None:
            seen[text] = el
        elif not contains(first, el) and not contains(el, first) \
                and (_quoted(el) or not _same_shape_branches(first, el)):
            doomed.append(el)
    _remove_counted(doomed, trace, "repeated-blocks", "repeated text blocks")


def _remove_counted(doomed: list[etree._Element], trace: list[dict[str, Any]] | None,
                    rule: str, why: str) -> None:
    """Remove the elements still in the tree (tails kept) and record how many, by which rule,
    and why."""
    for el in doomed:
        if el.getparent() is not None:
            _remove(el)
    if trace is not None and doomed:
        trace.append({"step": "clean", "action": "removed", "rule": rule, "why": why,
                      "count": len(doomed)})


def _quoted(el: etree._Element) -> bool:
    """Whether an element sits in a quotation (a reply quoting an earlier post)."""
    return el.tag == "blockquote" or any(a.tag == "blockquote" for a in el.iterancestors())


def _same_shape_branches(first: etree._Element, other: etree._Element) -> bool:
    """Whether two copies of a text are the page's own repeat: they are paragraphs side by
    side, or sit in branches of one shape (the children of their lowest common ancestor that
    hold them have the same tag and class) that are not themselves copies of each other."""
    chain = {anc: child for child, anc in _ancestor_pairs(first)}
    for child, anc in _ancestor_pairs(other):
        branch = chain.get(anc)
        if branch is None:
            continue
        if branch.tag != child.tag or (branch.get("class") or "") != (child.get("class") or ""):
            return False
        if branch is first:
            return True  # two paragraphs side by side: a story saying a thing twice
        # two cards of a grid sharing a line stay; two copies of a whole item do not
        return " ".join(text_content(branch).split()) != " ".join(text_content(child).split())
    return False


def _ancestor_pairs(el: etree._Element):
    """(child, parent) pairs from an element up to the root: el and its parent first."""
    child = el
    for anc in el.iterancestors():
        yield child, anc
        child = anc


_CARD_LINES = ("a", "h1", "h2", "h3", "h4", "h5", "h6", "p", "span", "div", "strong")


def _drop_repeated_in_cards(container: etree._Element, trace: list[dict[str, Any]] | None,
                            t: Thresholds) -> None:
    """Inside each card of a grid, remove a short line (a product title) that the card prints
    twice, as an image link's text and as its heading: the heading's copy is kept."""
    siblings: dict[etree._Element, Counter] = {}
    cards: dict[etree._Element, None] = {}
    for heading in container.iter(*HEADING_TAGS):
        for anc in heading.iterancestors():
            parent = anc.getparent()
            if anc is container or parent is None:
                break
            kinds = siblings.get(parent)
            if kinds is None:
                kinds = siblings[parent] = Counter(
                    (child.tag, child.get("class") or "") for child in parent
                    if isinstance(child.tag, str))
            if kinds[(anc.tag, anc.get("class") or "")] >= t.min_cards:
                cards[anc] = None  # the heading's card: the nearest ancestor that repeats
                break
    doomed = []
    for card in cards:
        if next(card.iter("a"), None) is not None \
                and len(" ".join(text_content(card).split())) <= t.max_card_chars:
            doomed += _repeated_lines(card, t)
    _remove_counted(doomed, trace, "card-chrome",
                    "a line each card of a grid prints twice (image link and heading)")


def _repeated_lines(card: etree._Element, t: Thresholds) -> list[etree._Element]:
    """The copies of a card's lines that repeat another line of the card, headings kept."""
    lines: dict[str, list[etree._Element]] = {}
    for el in card.iter(*_CARD_LINES):
        if el is card or any(isinstance(child.tag, str) and child.tag in _BLOCK_CHILDREN
                             for child in el):
            continue
        text = " ".join(text_content(el).split())
        if len(text) >= t.min_card_line_chars:
            lines.setdefault(text, []).append(el)
    doomed = []
    for copies in lines.values():
        if len(copies) < t.min_repeats:
            continue
        headed = [c for c in copies if _in_tags(c, HEADING_TAGS)]
        if not headed:
            continue
        keep = headed[0]
        doomed += [c for c in copies if c is not keep and _in_tags(c, _LINK_TAG)
                   and not _in_tags(c, HEADING_TAGS) and not contains(c, keep)
                   and not contains(keep, c)]
    return doomed


_LINK_TAG = frozenset({"a"})


def _in_tags(el: etree._Element, tags: frozenset[str]) -> bool:
    """Whether an element is, or sits inside, one of the tags."""
    return el.tag in tags or any(a.tag in tags for a in el.iterancestors())


_WORDS = re.compile(r"\w+")


def _hidden_copy(el: etree._Element, container: etree._Element,
                 stats: dict[etree._Element, Stats], total: int, t: Thresholds) -> bool:
    """Whether a large hidden block repeats the container's visible text (only blocks the size
    guard would keep are compared: smaller hidden blocks are removed anyway)."""
    st = stats.get(el)
    if st is None or st.chars <= t.generic_max_share * total:
        return False
    hidden = Counter(_WORDS.findall(text_content(el).lower()))
    if not hidden:
        return False
    rest = Counter(_WORDS.findall(text_content(container).lower())) - hidden
    repeated = sum((hidden & rest).values())
    return repeated >= t.hidden_copy_share * sum(hidden.values())


def _collapsed_content(el: etree._Element, cleaning: CleaningRules) -> bool:
    """Whether a hidden element is a collapsed panel of the content (tab, accordion, FAQ): a
    control on the page opens it (aria-controls), it is the body of a <details>, or its names
    say so."""
    if el.get(CONTROLLED) is not None:
        return True
    if any(anc.tag == "details" for anc in el.iterancestors()):
        return True  # the body of a <details> element: closed until the reader opens it
    pattern = cleaning.hidden_content_pattern
    if pattern is None:
        return False
    names = " ".join(filter(None, (el.get("class"), el.get("id"), el.get("role"))))
    return bool(names) and pattern.found(names)


TRAILING_HEADING_RULE = "trailing-heading"
"""The rule's name in the trace."""

_CONTENT_MARKS = frozenset({"img", "picture", "video", "iframe", "table", "svg"})
"""Elements that are content after a heading though they hold no text."""


def trailing_headings(container: etree._Element) -> list[etree._Element]:
    """The headings standing after the container's last text (and picture or table), when it
    holds text before them: titles whose section is gone (a rail's heading whose cards a
    script fills, a comment form's heading over the fields cleaning stripped). A heading's own
    text is not text after it. Read from the container's end back to its last text: most
    containers end with text, so few elements are read."""
    trailing: list[etree._Element] = []
    if container.tag in HEADING_TAGS or not _text_from_end(container, trailing, True):
        return []  # no text at all (a heading's own text is not text after it)
    trailing.reverse()
    return trailing


def _text_from_end(node: etree._Element, headings: list[etree._Element],
                   is_container: bool = False) -> bool:
    """Read an element (not inside a heading) from its end back (its tail, its children last
    first, its own text): whether it reaches text, a picture or a table; each heading passed
    before then is added to ``headings`` (and not read inside). Comments and processing
    instructions, with their tails, are not read (the parser drops them)."""
    tag = node.tag
    if not isinstance(tag, str):
        return False
    if not is_container and node.tail and node.tail.strip():
        return True
    if tag in HEADING_TAGS:
        headings.append(node)
        return False
    for child in reversed(node):
        if _text_from_end(child, headings):
            return True
    return tag in _CONTENT_MARKS or bool(node.text and node.text.strip())


def drop_trailing_headings(container: etree._Element, trace: list[dict[str, Any]] | None,
                           t: Thresholds) -> int:
    """Remove the headings left after the container's last text (:func:`trailing_headings`),
    unless they hold over ``trailing_heading_max_share`` of its text (a story written in
    headings); return how many went."""
    headings = trailing_headings(container)
    if not headings:
        return 0
    held = sum(_all_visible_chars(h) for h in headings)
    total = _all_visible_chars(container)
    if held > t.trailing_heading_max_share * total:
        if trace is not None:
            trace.append({"step": "clean", "action": "kept", "rule": TRAILING_HEADING_RULE,
                          "why": f"headings after the last text hold {held / max(total, 1):.0%} "
                                 f"of the text", "count": len(headings)})
        return 0
    for heading in headings:
        if trace is not None:
            trace.append({"step": "clean", "action": "removed", "rule": TRAILING_HEADING_RULE,
                          "why": "a heading after the container's last text (its section is "
                                 "gone)", **_describe(heading, None)})
        _remove(heading)
    return len(headings)


def unhide(el: etree._Element) -> None:
    """Clear the hiding markers of an element kept as content (it is shown to the reader)."""
    for attr in ("hidden", "aria-hidden"):
        el.attrib.pop(attr, None)
    if el.get("style") is not None and is_hidden(el):
        del el.attrib["style"]


def _emptied_heading(el: etree._Element) -> etree._Element | None:
    """The heading that removing el would leave without text (a Sphinx heading is a back link
    to the table of contents: the link is the heading's text), or None."""
    if el.tag in HEADING_TAGS:
        return None
    heading = next((a for a in el.iterancestors(*HEADING_TAGS)), None)
    if heading is None:
        return None
    if not _WORDS.search(text_content(el)):
        return None
    rest = [heading.text or ""]
    for node in heading.iterdescendants():
        inside = node is el or contains(el, node)
        if not inside and isinstance(node.tag, str):
            rest.append(node.text or "")
        if node is el or not contains(el, node.getparent()):
            rest.append(node.tail or "")
    # what stays has no word: at most a permalink marker such as a pilcrow
    return None if _WORDS.search("".join(rest)) else heading


def _unwrap_forms(container: etree._Element, stats: dict[etree._Element, Stats],
                  t: Thresholds) -> None:
    """Turn forms and fieldsets that hold real text into plain divs (whole-page ASP.NET forms)."""
    for el in list(container.iter("form", "fieldset")):
        st = stats.get(el)
        if st is not None and st.chars >= t.form_content_chars:
            el.tag = "div"
    if container.tag in ("form", "fieldset"):
        container.tag = "div"


def _drop_empty(container: etree._Element, trace: list[dict[str, Any]] | None) -> None:
    """Remove elements with neither text nor media, innermost first."""
    empty = 0
    for el in reversed(list(container.iter())):
        if el is container or not isinstance(el.tag, str):
            continue
        if el.tag in HEADING_TAGS:
            if not "".join(el.itertext()).strip() and next(el.iter(*MEDIA_TAGS), None) is None:
                _remove(el)  # a heading with nothing to say heads nothing
                empty += 1
            continue
        if el.tag in KEEP_TAGS:
            continue
        if len(el) == 0 and not (el.text or "").strip():
            _remove(el, keep_text=True)
            empty += 1
    if trace is not None and empty:
        trace.append({"step": "clean", "action": "removed", "rule": "empty-elements",
                      "why": "empty elements", "count": empty})
