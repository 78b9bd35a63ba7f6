"""The HTML vocabulary of the engine, once: which tags break lines, which never hold text, which
hide an element, and the purpose sets built from them.

Every module that asks "is this a block?", "is this text?", "is this hidden?" reads the answer
here (the cleaning, the stages, the renderer, the parser's depth guard, metadata, structured
data and the domain boilerplate analysis), so a tag added to one group reaches every reader.
The purpose sets are named unions of the groups: where two readers differ (the renderer drops
media, the statistics keep it out; bylines skip code), the difference is spelt here, not in a
private copy of the list. :func:`vocabulary_problems` checks the groups (lower-case names,
the purpose sets made of known groups); the site rules loader refuses a rules folder naming a
chrome tag the vocabulary does not know.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree

# --------------------------------------------------------------------------- groups of tags

HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
"""Section headings."""

BLOCK_TAGS = frozenset({
    "p", "div", "section", "article", "main", "aside", "header", "footer", "nav", "body", "html",
    "ul", "ol", "li", "dl", "dt", "dd", "table", "tr", "thead", "tbody", "tfoot", "caption",
    "pre", "blockquote", "figure", "figcaption", "hr", "address", "details", "summary",
    "center", "hgroup", "menu", "fieldset", "picture", "form", "legend", "search",
}) | HEADING_TAGS
"""Elements whose content starts on a new line when an element is turned into text."""

TABLE_CELL_TAGS = frozenset({"td", "th"})
"""Table cells: a line of their own where cells are not laid out as a table."""

SCRIPT_TAGS = frozenset({"script", "style", "noscript", "template", "svg"})
"""Code and drawing instructions: never text, for any reader."""

HEAD_TAGS = frozenset({"head", "title", "meta", "link"})
"""The document head and what only it holds."""

EMBEDDED_TAGS = frozenset({"math", "iframe", "object", "embed", "canvas"})
"""Embedded documents and drawings: their text (a fallback message) is not the page's."""

FORM_CONTROL_TAGS = frozenset({"button", "select", "option", "textarea", "input"})
"""Form controls: labels of a widget, not prose."""

MEDIA_TAGS = frozenset({"audio", "video", "source", "track", "map"})
"""Media players and their parts."""

LEGACY_EMBED_TAGS = frozenset({"frame", "frameset", "applet", "param", "portal", "base",
                               "optgroup", "datalist", "dialog"})
"""Frames, applets and the remaining interactive or head-only elements."""

CODE_TAGS = frozenset({"pre", "code", "kbd", "samp"})
"""Code and program output (``by NAME`` in a usage example is not a byline)."""

VOID_TAGS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                       "meta", "param", "source", "track", "wbr"})
"""Elements that never hold others (no end tag), as HTML parsers know them."""
"""Code and program output (``by NAME`` in a usage example is not a byline)."""

# --------------------------------------------------------------------------- purpose sets

NOT_TEXT_TAGS = SCRIPT_TAGS | HEAD_TAGS | EMBEDDED_TAGS | FORM_CONTROL_TAGS
"""Elements whose text never counts as page content (statistics and scoring skip them)."""

STRIPPED_TAGS = NOT_TEXT_TAGS - HEAD_TAGS - {"iframe"}
"""Elements removed from the working copy before the choice (the head stays for metadata; an
iframe stays so a rule can name a frame as the content)."""

DROPPED_TAGS = NOT_TEXT_TAGS | MEDIA_TAGS | LEGACY_EMBED_TAGS
"""Elements the renderer removes with their content (executable, embedded or interactive)."""

SANITIZER_DROPPED_TAGS = DROPPED_TAGS - VOID_TAGS
"""What the sanitiser removes with its content (the dropped elements that can hold any)."""

METADATA_SKIPPED_TAGS = SCRIPT_TAGS | {"head", "title"} | CODE_TAGS
"""Elements whose text is not read for bylines and dates: scripts, and code."""

STRUCTURED_SKIPPED_TAGS = SCRIPT_TAGS | {"button"}
"""Elements whose text is not read as the visible text of a structured-data item."""

PAGE_TEXT_SKIPPED_TAGS = SCRIPT_TAGS | {"head", "select", "textarea", "button", "iframe",
                                        "object"}
"""Elements whose text the domain boilerplate analysis leaves out of a page's lines (the ones
with an end tag: the analysis reads raw markup)."""

PAGE_TEXT_BREAK_TAGS = BLOCK_TAGS | TABLE_CELL_TAGS | {"br", "dialog", "label"}
"""Elements whose start and end break a page's lines for the domain boilerplate analysis."""

DEEP_BLOCK_TAGS = BLOCK_TAGS | TABLE_CELL_TAGS
"""Elements whose content is a paragraph of its own when the parser's depth guard unwraps them."""

FLOW_HOLDERS = {"ul": ("li",), "ol": ("li",), "menu": ("li",), "dl": ("dd",),
                "table": ("tr", "td"), "thead": ("tr", "td"), "tbody": ("tr", "td"),
                "tfoot": ("tr", "td"), "tr": ("td",)}
"""Elements whose content is read only through their items or cells (a list's ``li``, a table's
rows and cells), and the elements, outermost first, that hold text under each: the depth guard
puts the unwrapped text of such an element there, where it is read."""

# --------------------------------------------------------------------------- hiding

HIDING_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
"""An inline style that hides an element."""

HIDING_ATTRIBUTES: dict[str, str | None] = {"hidden": None, "aria-hidden": "true",
                                            "style": "HIDING_STYLE"}
"""Attributes that hide an element: present at all (None), equal to a value, or (``style``) a
value :data:`HIDING_STYLE` finds."""


def is_hidden(el: etree._Element) -> bool:
    """Whether an element is hidden from readers (``hidden``, ``aria-hidden="true"``, an inline
    style hiding it). An ``aria-hidden`` element whose text is the ``aria-label`` of its parent
    is not: it is the container's name shown to the eye and hidden from screen readers only
    because the label already announces it (an admonition's title beside the admonition's
    label), so a reader of the page sees it."""
    if el.get("hidden") is not None:
        return True
    style = el.get("style")
    if style and HIDING_STYLE.search(style):
        return True
    return el.get("aria-hidden") == "true" and not _shows_parent_label(el)


def _shows_parent_label(el: etree._Element) -> bool:
    """Whether an element's text is its parent's ``aria-label`` (spaces and case aside)."""
    parent = el.getparent()
    label = parent.get("aria-label") if parent is not None else None
    if not label or not label.strip():
        return False
    text = etree.tostring(el, method="text", encoding="unicode", with_tail=False)
    return " ".join(text.split()).casefold() == " ".join(label.split()).casefold()


def hides(attribute: str, operator: str | None, value: str | None) -> bool:
    """Whether an attribute test of a selector (``[hidden]``, ``[aria-hidden="true"]``,
    ``[style*="display:none"]``) matches only hidden elements."""
    name = attribute.lower()
    if name not in HIDING_ATTRIBUTES:
        return False
    wanted = HIDING_ATTRIBUTES[name]
    if wanted is None:
        return True
    if name == "style":
        return operator in ("=", "*=") and value is not None \
            and HIDING_STYLE.search(value) is not None
    return operator == "=" and value is not None and value.lower() == wanted


# --------------------------------------------------------------------------- checks

GROUPS: dict[str, frozenset[str]] = {
    "HEADING_TAGS": HEADING_TAGS, "BLOCK_TAGS": BLOCK_TAGS, "TABLE_CELL_TAGS": TABLE_CELL_TAGS,
    "SCRIPT_TAGS": SCRIPT_TAGS, "HEAD_TAGS": HEAD_TAGS, "EMBEDDED_TAGS": EMBEDDED_TAGS,
    "FORM_CONTROL_TAGS": FORM_CONTROL_TAGS, "MEDIA_TAGS": MEDIA_TAGS,
    "LEGACY_EMBED_TAGS": LEGACY_EMBED_TAGS, "CODE_TAGS": CODE_TAGS, "VOID_TAGS": VOID_TAGS,
}
"""The groups every purpose set is made of."""

KNOWN_TAGS: frozenset[str] = frozenset().union(*GROUPS.values()) | {
    "a", "span", "img", "figure", "br", "wbr", "em", "strong", "b", "i", "u", "s", "small",
    "mark", "sub", "sup", "abbr", "time", "cite", "q", "del", "ins", "var", "tt", "font",
    "label", "colgroup", "col", "area", "search"}
"""Every tag name the engine knows (what a rules file may name as page chrome)."""

_TAG_NAME = re.compile(r"[a-z][a-z0-9-]*")


def unknown_tags(names: Iterable[str]) -> list[str]:
    """The names that are no tag the vocabulary knows (a typo in a rules file)."""
    return sorted(str(n) for n in names if str(n) not in KNOWN_TAGS)


def vocabulary_problems() -> list[str]:
    """Sentences naming what is wrong with the groups (none when sound): every name a lower-case
    tag name, and the purpose sets built only of known tags."""
    problems = [f"{group} holds {name!r}, which is not a lower-case tag name"
                for group, names in GROUPS.items() for name in sorted(names)
                if not _TAG_NAME.fullmatch(name)]
    for purpose, names in (("NOT_TEXT_TAGS", NOT_TEXT_TAGS), ("STRIPPED_TAGS", STRIPPED_TAGS),
                           ("DROPPED_TAGS", DROPPED_TAGS),
                           ("SANITIZER_DROPPED_TAGS", SANITIZER_DROPPED_TAGS),
                           ("METADATA_SKIPPED_TAGS", METADATA_SKIPPED_TAGS),
                           ("STRUCTURED_SKIPPED_TAGS", STRUCTURED_SKIPPED_TAGS),
                           ("PAGE_TEXT_SKIPPED_TAGS", PAGE_TEXT_SKIPPED_TAGS),
                           ("PAGE_TEXT_BREAK_TAGS", PAGE_TEXT_BREAK_TAGS),
                           ("DEEP_BLOCK_TAGS", DEEP_BLOCK_TAGS)):
        problems += [f"{purpose} holds {name!r}, which no group names"
                     for name in sorted(unknown_tags(names))]
    return problems
