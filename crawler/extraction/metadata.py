"""Page metadata (title, authors, dates, language, canonical URL, page type) from a parsed tree."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from collections.abc import Iterator
from datetime import date
from itertools import islice
from urllib.parse import urlsplit

from lxml import etree
from lxml.html import HtmlElement

from crawler.extraction.date_cues import may_hold_date
from crawler.extraction.frameworks import PageNames, RuleSet, load_rules
from crawler.extraction.metadata_cues import MetadataCues
from crawler.extraction.month_names import MonthNames
from crawler.extraction.addresses import is_web_url, join_url, tree_base
from crawler.extraction.story_tail import more_chars_than, non_space_chars
from crawler.extraction.structured import (ARTICLE_TYPES, StructuredData, element_text,
                                           is_placeholder)
from crawler.extraction.tree_text import outermost, text_content, visible_metadata
from crawler.extraction.vocabulary import (HEADING_TAGS, METADATA_SKIPPED_TAGS, PAGE_TEXT_BREAK_TAGS,
                                           STRUCTURED_SKIPPED_TAGS)

logger = logging.getLogger(__name__)

__all__ = ["Metadata", "extract_metadata", "split_title", "normalise_date"]

_WS = re.compile(r"\s+")
BLOCK_BREAK = "\u2063"
"""Where one block of the page's text ends and the next begins in the text around the title (an
invisible separator: no whitespace, so a run of spaces around it is not one with it)."""
#: Separators between a page title and the site name in ``<title>``.
_TITLE_SEPARATORS = re.compile(r"\s+[|\-–—:·•»«/~]\s+|\s*[|·•»«]\s*|\s+::\s+")
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")


@dataclass
class Metadata:
    """What a page says about itself: the fields the extraction result carries next to the content."""

    title: str | None = None
    authors: list[str] = field(default_factory=list)
    published: str | None = None
    modified: str | None = None
    language: str | None = None
    canonical_url: str | None = None
    description: str | None = None
    site_name: str | None = None
    page_type: str | None = None
    image: str | None = None
    sources: dict[str, str] = field(default_factory=dict)

    @property
    def author(self) -> str | None:
        """Authors joined into one display string ("A", "A and B", "A, B, and C")."""
        return join_names(self.authors)


def join_names(names: list[str]) -> str | None:
    """Names joined the way a byline reads them ("A", "A and B", "A, B, and C")."""
    if not names:
        return None
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + ", and " + names[-1]


def _clean(text: str | None) -> str | None:
    """Whitespace-collapsed text without invisible format characters, or None."""
    if not text:
        return None
    text = _WS.sub(" ", visible_metadata(text)).strip()
    return text or None


@dataclass
class _Tags:
    """The page's ``<meta>``, ``<link>``, ``<h1>`` and ``<title>`` elements in document order,
    gathered in one walk of the tree: the fields read them from lists instead of walking the
    whole tree once each (a walk costs as much as reading all of them)."""

    tree: HtmlElement
    metas: list[HtmlElement] = field(default_factory=list)
    links: list[HtmlElement] = field(default_factory=list)
    h1s: list[HtmlElement] = field(default_factory=list)
    titles: list[HtmlElement] = field(default_factory=list)

    def __post_init__(self) -> None:
        lists = {"meta": self.metas, "link": self.links, "h1": self.h1s, "title": self.titles}
        for el in self.tree.iter("meta", "link", "h1", "title"):
            lists[el.tag].append(el)

    def title(self) -> HtmlElement | None:
        """The first ``<title>`` below the tree (``tree.find(".//title")``)."""
        return next((t for t in self.titles if t is not self.tree), None)


def _key(text: str) -> str:
    """Comparison key of a title fragment: case-folded word characters only."""
    return " ".join(re.findall(r"\w+", text.casefold()))


# --------------------------------------------------------------------------- title

def split_title(raw: str) -> list[str]:
    """The fragments of a ``<title>`` split at site-name separators (``Page | Site`` → two)."""
    parts = [p.strip() for p in _TITLE_SEPARATORS.split(raw)]
    return [p for p in parts if p]


_CHROME_HINT = re.compile(r"logo|brand|masthead|site-?title|site-?name|navbar|topbar|site-?header", re.I)
_HEADING_MARKS = re.compile(r"[\s¶#§🔗]+$")
_LEADING_MARKS = re.compile(r"^[\s¶#§🔗]+")
_MARKS_ONLY = re.compile(r"[\s¶#§🔗]*")


def _heading_text(heading: HtmlElement) -> str:
    """A heading's text without the mark of its own anchor link: after it ("Title ¶", Sphinx)
    always, before it ("# Title", VuePress) when the heading holds a link to a fragment whose
    text is only such marks, so a title that starts with "#" ("#MeToo at ten") keeps it."""
    text = element_text(heading)
    if any((a.get("href") or "").startswith("#") and _MARKS_ONLY.fullmatch(text_content(a))
           for a in heading.iter("a")):
        text = _LEADING_MARKS.sub("", text)
    return _HEADING_MARKS.sub("", text)


def _in_site_chrome(el: HtmlElement) -> bool:
    """Whether an element sits in the site's chrome (navigation, footer, logo, page-wide header)."""
    in_content = False
    header_seen = False
    for anc in el.iterancestors():
        tag = anc.tag if isinstance(anc.tag, str) else ""
        if tag in ("article", "main") or anc.get("role") == "main":
            in_content = True
        elif tag in ("nav", "footer", "aside"):
            return True
        elif tag == "header":
            header_seen = True
        elif tag in PAGE_ELEMENTS:
            continue  # the whole page's classes ("wp-custom-logo" on <body>) name no block
        hint = (anc.get("class") or "") + " " + (anc.get("id") or "")
        if hint.strip() and _CHROME_HINT.search(hint):
            return True
    return header_seen and not in_content


PAGE_ELEMENTS = frozenset({"body", "html"})
"""Elements that hold the whole page: their class names describe the page or its theme's
options (WordPress writes ``wp-custom-logo`` on ``<body>`` of a site with a logo), not a block
of the site's chrome."""

_BRAND = re.compile(r"logo|brand", re.I)
BRAND_MAX_BLOCKS = 8
"""Logo/brand blocks read, the first in the page."""


def _brand_class(value: str) -> bool:
    """Whether a class value names a logo or a brand."""
    return "logo" in value or "brand" in value or "Logo" in value or "Brand" in value


def _brand_id(value: str) -> bool:
    """Whether an id names a logo or a brand."""
    return "logo" in value or "brand" in value


def _brand_blocks(tree: HtmlElement, names: PageNames | None = None) -> Iterator[HtmlElement]:
    """The page's elements whose class names a logo or a brand (``logo``, ``Brand``...) or whose
    id does (``logo``, ``brand``), in document order, found lazily: the first few are read, so
    the walk usually stops in the page's header (a substring test per element is cheaper than
    the same test in XPath, which copies every attribute's value); the page's own elements
    (``<body>``, ``<html>``) are none, their classes naming theme options.

    The page's class values and ids (``names``, when the caller listed them) tell how many
    values name a logo or a brand: the walk ends at the element holding the last of them
    instead of going on to the end of the page (most pages have their logos in the header, and
    a few none at all)."""
    root = tree.getroottree().getroot()
    if names is None or names.root is not root:
        names = PageNames(root)
    left = sum(1 for value in names.class_values() if _brand_class(value)) \
        + sum(1 for value in names.ids() if _brand_id(value))
    if not left:
        return
    for el in root.iter(etree.Element):
        classes = el.get("class")
        by_class = classes is not None and _brand_class(classes)
        ident = el.get("id")
        by_id = ident is not None and _brand_id(ident)
        if by_class or by_id:
            left -= by_class + by_id
            if el.tag not in PAGE_ELEMENTS:
                yield el
            if not left:
                return
BRAND_MAX_CHARS = 60
"""A logo's text or alt longer than this is not a name (a tagline, a whole header)."""


def _brand_text(el: HtmlElement) -> str:
    """The visible text of a logo or brand block, or an empty string when it is certainly
    longer than a name: a header named after the brand may hold the whole menu (with its
    buttons and scripts), and counting its visible characters from lxml's own text is cheaper
    than walking it in Python for a text that is then dropped."""
    if more_chars_than(text_content(el), BRAND_MAX_CHARS) \
            and _shown_chars(el) > BRAND_MAX_CHARS:
        return ""
    return element_text(el)


def _shown_chars(el: HtmlElement) -> int:
    """Non-space characters of the text :func:`element_text` shows of a block: lxml's own text
    of the block less that of each outermost skipped element inside it (a script, a button;
    its tail is shown). White space aside, both read the same characters."""
    return non_space_chars(text_content(el)) - sum(
        non_space_chars(text_content(skipped))
        for skipped in outermost(el, STRUCTURED_SKIPPED_TAGS))


def _brand_names(tree: HtmlElement, page_names: PageNames | None = None) -> list[str]:
    """Names the site shows as its logo or brand: the text and image alt of logo/brand blocks
    (``page_names``: the page's class values and ids, when the caller listed them)."""
    names: list[str] = []
    for el in islice(_brand_blocks(tree, page_names), BRAND_MAX_BLOCKS):
        hint = f"{el.get('class') or ''} {el.get('id') or ''}"
        if not _BRAND.search(hint):
            continue
        values = [_brand_text(el)] + [img.get("alt") or "" for img in el.iter("img")]
        if el.tag == "img":
            values.append(el.get("alt") or "")
        for value in values:
            value = _clean(value)
            if value and len(value) <= BRAND_MAX_CHARS and value not in names:
                names.append(value)
    return names


def _h1_texts(tags: _Tags) -> list[str]:
    """Texts of the page's ``<h1>`` elements outside the site chrome (at most a few)."""
    out = []
    for h1 in tags.h1s:
        if _in_site_chrome(h1):
            continue
        text = _clean(_heading_text(h1))
        if text and len(text) < 300:
            out.append(text)
        if len(out) >= 4:
            break
    return out


TITLE_TRAIL_MAX_WORDS = 4
"""Words of each fragment of a ``<title>`` trail (a site's sections after the page's title:
"Topic / Section / Site Forums") dropped as a whole. Swept 3/4/5/6 on extraction-dev: the same
titles (the trail also holds fewer characters than the title it follows)."""


def _strip_site(title: str, site_names: list[str]) -> str:
    """``title`` without a leading or trailing site-name fragment."""
    for name in site_names:
        if name and title.casefold().startswith(name.casefold() + ":") and len(title) > len(name) + 2:
            return title[len(name) + 1:].strip()
    parts = split_title(title)
    if len(parts) < 2:
        return title
    keys = {_key(s) for s in site_names if s}
    kept = [p for p in parts if _key(p) not in keys]
    if kept and len(kept) < len(parts):
        # Rebuild from the original string so internal punctuation survives.
        if _key(parts[-1]) in keys:
            cut = _find_separator_before(title, parts[-1])
            if cut is not None:
                return _strip_site(title[:cut].strip(), site_names)
        if _key(parts[0]) in keys:
            cut = _find_separator_after(title, parts[0])
            if cut is not None:
                return _strip_site(title[cut:].strip(), site_names)
    # No known site name: the longest fragment at either end is the page title.
    if len(parts) >= 2:
        first, last = parts[0], parts[-1]
        candidate = first if len(first) >= len(last) else last
        other = last if candidate is first else first
        # Every other fragment short and together shorter ("Topic / Section / Site Forums"):
        # a trail of the site's sections after (or before) the page's own title.
        rest = parts[1:] if candidate is first else parts[:-1]
        if len(rest) > 1 and len(candidate) > sum(map(len, rest)) \
                and all(len(p.split()) <= TITLE_TRAIL_MAX_WORDS for p in rest):
            return candidate
        if len(other.split()) <= 4 and len(candidate) > len(other):
            if candidate is first:
                cut = _find_separator_before(title, last)
                return title[:cut].strip() if cut is not None else first
            cut = _find_separator_after(title, first)
            return title[cut:].strip() if cut is not None else last
    return title


def _find_separator_before(title: str, tail: str) -> int | None:
    """Index where the separator preceding the trailing fragment ``tail`` starts."""
    idx = title.rfind(tail)
    if idx <= 0:
        return None
    head = title[:idx]
    m = re.search(r"\s*(?:[|\-–—:·•»«/~]|::)\s*$", head)
    return m.start() if m else None


def _find_separator_after(title: str, head: str) -> int | None:
    """Index where the text following the leading fragment ``head`` and its separator starts."""
    if not title.startswith(head):
        return None
    m = re.match(r"\s*(?:[|\-–—:·•»«/~]|::)\s*", title[len(head):])
    return len(head) + m.end() if m else None


def _site_keys(site_names: list[str], raw_title: str | None) -> set[str]:
    """Comparison keys (spaces removed) of names the site goes by, including a trailing <title> part."""
    names = list(site_names)
    if raw_title:
        parts = split_title(raw_title)
        if len(parts) >= 2:
            names.append(parts[-1])
    return {_key(n).replace(" ", "") for n in names if n and _key(n)}


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})


def _choose_title(tags: _Tags, sd: StructuredData, site_names: list[str]) -> tuple[str | None, str]:
    """The page title (typographic apostrophes as ASCII, so equal titles compare equal) and its source."""
    title, source = _pick_title(tags, sd, site_names)
    return (title.translate(_APOSTROPHES) if title else title), source


def _pick_title(tags: _Tags, sd: StructuredData, site_names: list[str]) -> tuple[str | None, str]:
    """The page title and its source: the main ``<h1>`` (checked against declared titles), else <title>."""
    title_el = tags.title()
    raw_title = _clean(text_content(title_el)) if title_el is not None else None
    candidates = [(sd.headline, "headline"), (sd.og.get("title"), "og:title"),
                  (sd.twitter.get("title"), "twitter:title"), (raw_title, "title")]
    candidates = [(_clean(c), s) for c, s in candidates if _clean(c)]
    site_keys = _site_keys(site_names, raw_title)
    all_h1s = [h for h in _h1_texts(tags) if _key(h)]
    h1s = [h for h in all_h1s if _key(h).replace(" ", "") not in site_keys]
    # An h1 naming the site (a logo heading) tells which <title> part is the site name.
    site_names = site_names + [h for h in all_h1s if h not in h1s]
    fragments = [(f, source) for cand, source in candidates
                 for f in dict.fromkeys([cand, *split_title(cand)])
                 if _key(f) and _key(f).replace(" ", "") not in site_keys]
    # An h1 that a declared title agrees with (equal, a fragment, or its start) is the page title.
    for h1 in h1s:
        hk = _key(h1)
        for frag, source in fragments:
            fk = _key(frag)
            if fk == hk or (fk.startswith(hk) and len(hk) > 0.4 * len(fk)):
                return h1, f"h1+{source}"
    # An h1 wrapping a declared title with extras (a label, a date, a count) yields that title.
    for h1 in h1s[:1]:
        hk = _key(h1)
        best = max((f for f in fragments if _key(f[0]) in hk and len(_key(f[0])) > 0.5 * len(hk)),
                   key=lambda f: len(f[0]), default=None)
        if best:
            return best[0], f"{best[1]}-in-h1"
    # Otherwise the first content h1 is what readers see as the title.
    if h1s:
        return h1s[0], "h1"
    for cand, source in candidates:
        cleaned = _strip_site(cand, site_names)
        if cleaned:
            return cleaned, source
    return None, ""


# --------------------------------------------------------------------------- authors

def _split_authors(text: str, cues: MetadataCues) -> list[str]:
    """Individual names from a byline string ("By A, B and C"), job titles after a comma dropped."""
    text = cues.byline_prefix.sub("", text.strip())
    parts = [p.strip(" ,.;:") for p in cues.author_split.split(text)]
    names = [p for p in parts if p and len(p) < 80]
    # "Jane Doe, Senior Editor": keep the name when the rest does not look like names.
    if len(names) > 1 and all(_looks_like_role(p, cues) for p in names[1:]):
        return names[:1]
    return names


def _looks_like_role(text: str, cues: MetadataCues) -> bool:
    """Whether a byline fragment is a job title or credential rather than a name."""
    return bool(cues.role_word.search(text)) or not text[:1].isupper()


def _clean_name(text: str, cues: MetadataCues, visible: bool = True) -> str | None:
    """A name from a byline's text: lead-ins ("Text by"), dates, counters and (visible bylines) roles removed."""
    text = _clean(text) or ""
    text = cues.name_lead.sub("", text, count=1)
    for stop in (cues.name_stop, cues.role_stop) if visible else (cues.name_stop,):
        m = stop.search(text)
        if m:
            text = text[: m.start()]
    tail = cues.month_tail.search(text)
    if tail and len(text[: tail.start()].split()) != 1:  # a given name before: a surname
        text = text[: tail.start()]
    text = re.split(r"\s[|•·–—]\s|\s+-\s+|\n", text)[0].strip(" ,.;:-–—")
    words = text.split()
    half = len(words) // 2
    if half and len(words) % 2 == 0 and words[:half] == words[half:]:
        text = " ".join(words[:half])  # "Jane Doe Jane Doe": name repeated by responsive markup
    if not text or len(text) > 60 or len(text.split()) > 6 or not re.search(r"[^\W\d_]", text):
        return None
    if text.casefold() in cues.not_names or ("." in text and " " not in text) \
            or is_placeholder(text):  # template keys: page.author; a script's "undefined"
        return None
    return text


def _meta_authors(tags: _Tags, cues: MetadataCues) -> list[str]:
    """Authors named by ``<meta name=author>``-style tags."""
    out: list[str] = []
    for meta in tags.metas:
        name = (meta.get("name") or meta.get("property") or "").lower()
        if name in ("author", "dc.creator", "dcterms.creator", "sailthru.author", "parsely-author",
                    "byl", "citation_author"):
            content = _clean_name(meta.get("content") or "", cues, visible=False)
            if content and not content.startswith(("http://", "https://")):
                out.append(content)
    return out


BYLINE_MAX_BLOCKS = 16
"""Author/byline blocks read, the first in the page."""


def _byline_blocks(tree: HtmlElement) -> Iterator[HtmlElement]:
    """The page's elements whose class names an author or a byline, or that are declared the
    author (``rel``, ``itemprop`` or ``id`` "author"), in document order, found lazily: the
    first one that reads as a name ends the search."""
    for el in tree.getroottree().getroot().iter(etree.Element):
        names = el.get("class")
        if (names is not None and ("author" in names or "Author" in names or "byline" in names)) \
                or el.get("rel") == "author" or el.get("itemprop") == "author" \
                or el.get("id") == "author":
            yield el
_BYLINE_CLASS = re.compile(r"(?:^|[\s_-])(?:author|byline)(?:$|[\s_-]|name|Name|__name|-name|-link)|"
                           r"author-?name|authorName|AuthorName|post-author|entry-author|article-author", re.I)


def _byline_authors(view: _PageView) -> list[str]:
    """Authors from visible bylines: author/byline elements, then "By Name" text near the title."""
    cues = view.cues
    for el in islice(_byline_blocks(view.tree), BYLINE_MAX_BLOCKS):
        if el.tag in ("meta", "link", "script", "style", "img", "body", "html") \
                or _in_page_frame(el, view.frame_tags) or _is_form_field(el):
            continue
        if el.get("class") and not (el.get("rel") == "author" or el.get("itemprop") == "author"
                                    or _BYLINE_CLASS.search(el.get("class"))):
            continue
        name = _clean_name(element_text(_name_part(el)), cues)
        if name and not cues.role_word.search(name.split()[0]):
            return _split_authors(name, cues)
    text = view.around_title(before=300, after=1500, blocks=True)
    title = view.title_text()
    links: str | None = None
    for m in cues.by_text.finditer(text):
        phrase = m.group(0).strip(" |•·" + BLOCK_BREAK)
        if _shouted(m, text) or (title and phrase in title):
            continue  # capitals that are no name; the title's own words ("Commuting by Bicycle")
        if links is None:
            links = _label_texts(view.tree)
        if _in_linked_title(links, phrase):
            continue  # another page's title, a heading or a control ("Filter by Color")
        names = [n for n in (_clean_name(p, cues)
                             for p in _split_authors(_sentence_end(m.group(1)), cues)) if n]
        if names:
            return names
        break
    return []


_LINK_BREAK = "\x00"
_LABEL_TAGS = ("a", *sorted(HEADING_TAGS), "button", "label", "legend", "summary", "option")
"""Elements whose text names something other than the page's author when "by" stands inside it
after other words: a link (another page's title), a heading or a control (a shop's "Filter by
Color", "Shop by Room")."""


def _label_texts(tree: HtmlElement) -> str:
    """The texts of the page's links, headings and controls (``_LABEL_TAGS``), runs of spaces
    made one, each opened by ``_LINK_BREAK``."""
    return "".join(_LINK_BREAK + _WS.sub(" ", text_content(a)).strip()
                   for a in tree.iter(*_LABEL_TAGS))


def _name_part(block: HtmlElement) -> HtmlElement:
    """The element of an author block whose class names a name (``_NAME_CLASS``), outside a
    form (a comment form's name field), where the block writes the name and the author's own
    title apart ("Maren Holt" over "Baker and cyclist", which read as one
    line gave "Maren Holt Baker"); else the block."""
    for el in block.iterdescendants(etree.Element):
        names = el.get("class")
        if names is not None and any(_NAME_CLASS.search(n) for n in names.split()) \
                and not _is_form_field(el) and not _in_form_below(el, block):
            return el
    return block


def _in_form_below(el: HtmlElement, block: HtmlElement) -> bool:
    """Whether an element sits in a ``<form>`` inside ``block`` (a comment form's name field
    under a story's author-named block), where a reader types a name."""
    for anc in el.iterancestors():
        if anc is block:
            return False
        if anc.tag == "form":
            return True
    return False


_NAME_CLASS = re.compile(r"(?:^|[_-])name$|[a-z]Name$")
"""A class naming the part of an author block that holds the name: ``name``, ``author-name``,
``byline__name``, ``authorName``."""


def _in_linked_title(links: str, phrase: str) -> bool:
    """Whether a "by NAME" phrase stands inside a link's, a heading's or a control's text after
    other words (``links`` from :func:`_label_texts`): the title of another page (a table of
    contents or a "next" link: "A Year of Commuting by Bicycle") or of a shop's filter ("Filter
    by Color"), not a byline, whose "by" comes before a linked name ("by
    <a>Jane Doe</a>") or opens the link. Two counts of the joined texts, whatever the number of
    links."""
    return links.count(phrase) > links.count(_LINK_BREAK + phrase)


_SENTENCE_END = re.compile(r"(?:[^\W\d_]{3,}|[^\W\d_a-z]{2,})\.(?=\s)")


def _sentence_end(name: str) -> str:
    """A matched name cut where a sentence ends inside it ("URL. Make" is "URL"; an initial or
    a title such as "J." or "Dr." does not end it)."""
    m = _SENTENCE_END.search(name)
    return name[:m.end() - 1] if m else name


_CAPS_WORD = re.compile(r"[^\W\d_]{2,}")


def _shouted(m: re.Match, text: str) -> bool:
    """Whether a "by NAME" match is capitals that are not a byline: a single capitalised word
    (an acronym or placeholder such as URL or NAME), or capitals inside a run of capitals (the
    disclaimer of a licence, written in capitals: "PROVIDED BY THE COPYRIGHT HOLDERS")."""
    name = _sentence_end(m.group(1))
    words = _CAPS_WORD.findall(name)
    if not words or not all(w.isupper() for w in words):
        return False
    if len(words) == 1:
        return True
    before = _CAPS_WORD.findall(text[max(0, m.start() - 40):m.start()])
    return bool(before) and before[-1].isupper()


_FORM_CONTROLS = ("input", "textarea", "select", "label")


def _is_form_field(el: HtmlElement) -> bool:
    """Whether an author-named element is a form's field or its row (a comment form's "Name *"
    label beside its input): the place a reader types a name, not a byline. A byline holding
    a widget further down (a rating's inputs after the name) is still one."""
    return el.tag in _FORM_CONTROLS or any(child.tag in _FORM_CONTROLS for child in el)


def _in_page_frame(el: HtmlElement, frame_tags: frozenset[str]) -> bool:
    """Whether an element sits in the page frame's tags (``page_frame`` of the cleaning rules:
    navigation, a footer), where author links are archives and menus, not bylines."""
    return any(isinstance(a.tag, str) and a.tag in frame_tags for a in el.iterancestors())


def _choose_authors(view: _PageView, sd: StructuredData) -> tuple[list[str], str]:
    """Authors from structured data (persons), then meta tags, visible bylines, organisations last."""
    source = sd.sources.get("authors", "structured")
    declared = [a for a in sd.authors if not is_placeholder(a)]
    if declared and source != "json-ld-organization":
        names = [_clean_name(a, view.cues, visible=False) or a for a in declared]
        if source == "microdata":
            names = [n for a in names for n in _split_authors(a, view.cues)] or names
        return _unique(names), source
    meta = _meta_authors(view.tags, view.cues)
    if meta:
        return _unique(meta), "meta"
    byline = _byline_authors(view)
    if byline:
        return _unique(byline), "byline"
    if declared:
        return _unique(declared), source
    return [], ""


def _unique(values) -> list[str]:
    """Values in order without case-insensitive duplicates."""
    seen, out = set(), []
    for v in values:
        k = v.casefold()
        if k and k not in seen:
            seen.add(k)
            out.append(v)
    return out


# --------------------------------------------------------------------------- dates

def normalise_date(value: str | None, months: MonthNames | None = None,
                   language: str | None = None) -> str | None:
    """An ISO 8601 date (YYYY-MM-DD) from a date or datetime string, or None when unreadable
    (``months``: the month names it may name, the rules' by default)."""
    if not value:
        return None
    value = value.strip()
    m = _ISO_DATE.search(value)
    if m:
        try:
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3))).isoformat()
        except ValueError:
            return None
    for m, month in _date_matches(value[:60], months or load_rules().months, language):
        return _to_date(m, False, month)
    return None


def _htmldate(tree: HtmlElement, url: str, original: bool, extensive: bool) -> str | None:
    """The date htmldate finds in the tree (``original``: publication rather than last change);
    not called on a page without anything it could read as a date (it would find none)."""
    if not extensive and not may_hold_date(tree, url):
        return None
    try:
        from htmldate import find_date
        return find_date(tree, url=url, original_date=original, extensive_search=extensive,
                         outputformat="%Y-%m-%d")
    except Exception as exc:  # htmldate raises a variety of errors on odd markup
        logger.debug("htmldate failed on %s: %s", url, exc)
        return None


# A month is a word whose name the month names of the rules know (``dates.yaml``, many
# languages): a match whose word is no month is dropped and the search goes on from its next
# character, so a word that is no month hides no date after it.
_VISIBLE_DATE = re.compile(
    r"\b(?:(?P<mon>[^\W\d_]+)\.?\s+(?P<d1>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y1>(?:19|20)\d\d)"
    r"|(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?P<mon2>[^\W\d_]+)\.?,?\s+(?P<y2>(?:19|20)\d\d)"
    r"|(?P<y3>(?:19|20)\d\d)[-/.](?P<m3>\d{1,2})[-/.](?P<d3>\d{1,2})"
    r"|(?P<a4>\d{1,2})[/.](?P<b4>\d{1,2})[/.](?P<y4>(?:19|20)\d\d))\b",
    re.IGNORECASE)


def _month_word(m: re.Match) -> str | None:
    """The word a visible-date match reads as its month (None for a numeric date)."""
    return m.group("mon") or m.group("mon2")


def _to_date(m: re.Match, day_first: bool, month: int | None) -> str | None:
    """ISO date of one visible-date match (``month``: what its month word means), or None when
    it is not a real calendar date."""
    g = m.groupdict()
    try:
        if g["mon"]:
            y, mo, d = int(g["y1"]), month, int(g["d1"])
        elif g["mon2"]:
            y, mo, d = int(g["y2"]), month, int(g["d2"])
        elif g["y3"]:
            y, mo, d = int(g["y3"]), int(g["m3"]), int(g["d3"])
        else:
            a, b, y = int(g["a4"]), int(g["b4"]), int(g["y4"])
            mo, d = (b, a) if (day_first or a > 12) and b <= 12 else (a, b)
        return date(y, mo, d).isoformat()
    except (ValueError, KeyError, TypeError):
        return None


def _text_around_title(tree: HtmlElement, before: int = 600, after: int = 2500) -> tuple[str, int]:
    """Reader-visible text around the first ``<h1>`` (bylines and dates live there) and the h1's offset."""
    body = tree.find("body")
    root = body if body is not None else tree
    limit = 20000 if root.find(".//h1") is not None else after
    pieces: list[str] = []
    size = 0
    h1_at: int | None = None
    broken = False  # a block boundary since the last piece: the next one is joined by BLOCK_BREAK
    # One walk in document order (lxml's own, with a start and an end per element): an
    # element's text at its start, its tail at its end; skipped elements and comments give only
    # their tails. It stops as soon as the window is read.
    walk = etree.iterwalk(root, events=("start", "end", "comment", "pi"))
    for event, el in walk:
        if event == "start":
            if el is not root and el.tag in METADATA_SKIPPED_TAGS:
                walk.skip_subtree()
                continue
            if h1_at is None and el.tag == "h1":
                h1_at = size
            broken = broken or el.tag in PAGE_TEXT_BREAK_TAGS
            text = el.text
        else:
            if el is root:
                break
            broken = broken or el.tag in PAGE_TEXT_BREAK_TAGS
            text = el.tail
        if text:
            pieces.append((BLOCK_BREAK if broken and pieces else " ") + text)
            broken = False
            size += len(text) + 1
        if (h1_at is not None and size > h1_at + after) or (h1_at is None and size > limit):
            break
    # Runs of spaces are made one before the window is cut: counted in the markup's spaces, a
    # theme's indentation ahead of the title moved the window past what the reader sees there.
    joined = "".join(pieces)[1:]  # without the first piece's separator
    if h1_at is None:
        return _WS.sub(" ", joined)[:after], 0
    return _collapsed_window(joined, h1_at, before, after)


_NON_SPACE = re.compile(r"\S")


def _collapsed_window(text: str, at: int, before: int, after: int) -> tuple[str, int]:
    """The window of ``text`` from ``before`` characters ahead of offset ``at`` to ``after``
    past it, counted once each run of white space is made one space, and where ``at`` falls in
    it.

    Only the stretch ahead of ``at`` that the window reads is collapsed (the text ahead of a
    title may run to thousands of characters of menus): the text is cut where a character
    other than white space stands, so no run of spaces spans the cut and the parts collapsed
    apart give the same text; the cut goes further back, twice as far each time, until the
    stretch up to ``at`` holds ``before`` characters, or to the start."""
    reach = max(2 * before, 1)
    while at - reach > 0:
        first = _NON_SPACE.search(text, at - reach, at)
        if first is not None:
            cut = first.start()
            ahead = len(_WS.sub(" ", text[cut:at]))
            if ahead >= before:
                return _WS.sub(" ", text[cut:])[ahead - before: ahead + after], before
        reach *= 2
    ahead = len(_WS.sub(" ", text[:at]))
    start = max(0, ahead - before)
    return _WS.sub(" ", text)[start: ahead + after], ahead - start


class _PageView:
    """One page's tree with the text around its title, computed once for every field that reads
    it, and the rules' data metadata reads (month names, the page frame's tags)."""

    def __init__(self, tree: HtmlElement, rules: RuleSet, tags: _Tags | None = None) -> None:
        self.tree = tree
        self._tags = tags
        self.months: MonthNames = rules.months
        self.frame_tags: frozenset[str] = rules.cleaning.chrome.frame_tags
        self.cues: MetadataCues = rules.cues
        self._window: tuple[str, int] | None = None

    @property
    def tags(self) -> _Tags:
        """The page's meta, link, h1 and title elements (gathered when first read)."""
        if self._tags is None:
            self._tags = _Tags(self.tree)
        return self._tags

    def around_title(self, before: int = 600, after: int = 2500, blocks: bool = False) -> str:
        """Visible text from ``before`` characters ahead of the title to ``after`` past it, its
        runs of spaces made one; with ``blocks``, where one block of the page ends and the next
        begins is ``BLOCK_BREAK`` (a table's "Finished by" cell and the "History of maps" cell
        after it are no "by NAME" line), else a space."""
        if self._window is None:
            self._window = _text_around_title(self.tree)
        text, at = self._window
        window = text[max(0, at - before): at + after]
        return window if blocks else _WS.sub(" ", window.replace(BLOCK_BREAK, " "))

    def title_text(self) -> str:
        """The text of the page's first ``<h1>``, its runs of spaces made one ("" without one)."""
        h1 = self.tags.h1s[0] if self.tags.h1s else None
        return _WS.sub(" ", text_content(h1)).strip() if h1 is not None else ""


def visible_dates(tree: HtmlElement | _PageView, day_first: bool = False,
                  language: str | None = None) -> list[tuple[str, bool]]:
    """Dates shown to the reader around the title, in order, each with "labelled as an update"
    (month names read in the page's ``language`` where they mean different months)."""
    view = tree if isinstance(tree, _PageView) else _PageView(tree, load_rules())
    text = view.around_title()
    out = []
    for m, month in _date_matches(text, view.months, language):
        iso = _to_date(m, day_first, month)
        if iso:
            out.append((iso, bool(view.cues.modified_cue.search(text[max(0, m.start() - 40):
                                                                        m.start()]))))
    return out


def _date_matches(text: str, months: MonthNames,
                  language: str | None) -> Iterator[tuple[re.Match, int | None]]:
    """Each date-shaped match of a text in order, with the month its word means (None for a
    numeric date); a match whose word is no month is skipped and the search goes on from the
    next character, so a date starting inside it is still found."""
    at = 0
    while (m := _VISIBLE_DATE.search(text, at)) is not None:
        word = _month_word(m)
        month = months.month(word, language) if word else None
        if word and month is None:
            at = m.start() + 1
            continue
        at = m.end()
        yield m, month


_DATE_META_NAMES = re.compile(r"(^|[:._-])(published|publish|pubdate|date|created|issued|release)", re.IGNORECASE)


def _meta_date(tags: _Tags, months: MonthNames) -> str | None:
    """A publication date from any ``<meta>`` whose name says so (``published``, ``*.date``, ...)."""
    for meta in tags.metas:
        name = meta.get("name") or meta.get("property") or meta.get("itemprop") or ""
        if name and _DATE_META_NAMES.search(name) and "modif" not in name.lower() \
                and "update" not in name.lower():
            found = normalise_date(meta.get("content"), months)
            if found:
                return found
    return None


def _choose_dates(view: _PageView, url: str, sd: StructuredData,
                  language: str | None) -> tuple[str | None, str | None, str]:
    """Published and modified dates: declared dates and htmldate's, the one shown to the reader winning."""
    declared = normalise_date(sd.date_published, view.months, language)
    modified = normalise_date(sd.date_modified, view.months, language)
    day_first = bool(language) and "-" in language and not language.lower().startswith("en-us")
    tree = view.tree
    if declared:
        # The declared date stands when the page shows it; otherwise htmldate's date may win, if shown.
        shown = [d for d, _ in visible_dates(view, day_first, language)]
        published, source = declared, sd.sources.get("date_published", "structured")
        if shown and declared not in shown:  # htmldate's date can only win when it is shown
            found = _htmldate(tree, url, original=True, extensive=False)
            if found and found != declared and found in shown:
                published, source = found, "htmldate+shown"
    else:
        # Nothing declared: the first date shown around the title, else htmldate's guess.
        shown = [d for d, _ in visible_dates(view, day_first, language)]
        published, source = (shown[0], "shown") if shown else (None, "")
        if not published:
            published, source = _htmldate(tree, url, original=True, extensive=False), "htmldate"
        if not published:
            published, source = _meta_date(view.tags, view.months), "meta"
        if not published:
            source = ""
    if modified and published and modified < published:
        modified = None
    return published, modified, source


# --------------------------------------------------------------------------- other fields

def _language(tags: _Tags, sd: StructuredData) -> str | None:
    """The page language (BCP 47 tag) from ``<html lang>``, Content-Language or structured data."""
    lang = tags.tree.get("lang") or tags.tree.get("xml:lang")
    if not lang:
        for meta in tags.metas:
            if (meta.get("http-equiv") or "").lower() == "content-language":
                lang = meta.get("content")
                break
    lang = lang or sd.language
    if not lang:
        return None
    lang = lang.strip().replace("_", "-").split(",")[0]
    return lang or None


def _canonical(tags: _Tags, url: str, sd: StructuredData) -> str | None:
    """The canonical URL declared by ``<link rel=canonical>`` (made absolute against the page's
    base, as a link is, and as the crawl reads it) or og:url (against the page's URL: a meta's
    content is no link); None when the declared one cannot be read as a URL or is no web
    address (``javascript:``, ``data:``, ``mailto:``: such a "canonical URL" was returned and
    stored as it was)."""
    declared = None
    for link in tags.links:
        if "canonical" in (link.get("rel") or "").lower().split() and link.get("href"):
            declared = join_url(tree_base(tags.tree, url), link.get("href"))
            break
    else:
        og_url = sd.og.get("url")
        declared = join_url(url, og_url) if og_url else None
    return declared if declared and is_web_url(declared) else None


def _description(tags: _Tags, sd: StructuredData) -> str | None:
    """The page description from ``<meta name=description>`` or structured data."""
    for meta in tags.metas:
        if (meta.get("name") or "").lower() == "description":
            text = _clean(meta.get("content"))
            if text:
                return text
    return sd.description


def _site_name(tags: _Tags, url: str, sd: StructuredData) -> str | None:
    """The site name from structured data or ``application-name``."""
    if sd.site_name:
        return sd.site_name
    for meta in tags.metas:
        if (meta.get("name") or "").lower() in ("application-name", "apple-mobile-web-app-title"):
            text = _clean(meta.get("content"))
            if text:
                return text
    return None


_POST_TYPES = frozenset({"blogposting", "newsarticle", "article"})
"""Declared types of a post, which a documentation generator's blog writes too."""
_DOC_PATH = re.compile(r"/(docs?|documentation|manual|reference|api|guide|guides|tutorial|handbook|wiki)(/|$)")
_FORUM_PATH = re.compile(r"/(forums?|threads?|topic|t|questions|discussions?|community|board)(/|$)")
_LISTING_PATH = re.compile(r"/(category|categories|tag|tags|archive|archives|page|search|blog|news)(/|$)")
_PRODUCT_PATH = re.compile(r"/(product|products|p|item|dp|shop|store)(/|$)")
_SERVICE_PATH = re.compile(r"/(services?|solutions?|pricing|features?|about|contact)(/|$)")


_DOCS_GENERATOR = re.compile(r"sphinx|docutils|mkdocs|docusaurus|gitbook|honkit|vitepress|nextra|"
                             r"docfx|doxygen|javadoc|rustdoc|antora|jsdoc", re.IGNORECASE)


def _is_docs(tags: _Tags) -> bool:
    """Whether a documentation generator made the page (its generator meta or a "… documentation" title)."""
    for meta in tags.metas:
        if (meta.get("name") or "").lower() == "generator" and _DOCS_GENERATOR.search(meta.get("content") or ""):
            return True
    title = tags.title()
    text = (title.text or "") if title is not None else ""
    return bool(re.search(r"\b(documentation|docs|manual|reference guide)\s*$", text, re.IGNORECASE))


_PRICE = re.compile(r"[$€£¥]\s?\d|\d\s?(?:€|EUR|USD|GBP)\b")


def _page_type(tags: _Tags, url: str, sd: StructuredData, has_date: bool) -> str:
    """A coarse guess of what kind of page this is; many prices on a page that is no product make a collection."""
    tree = tags.tree
    kind = _declared_page_type(tags, url, sd, has_date)
    if kind in ("product", "documentation", "forum") or (kind == "article" and has_date):
        return kind
    body = tree.find("body")
    text = text_content(body if body is not None else tree)
    if len(_PRICE.findall(text)) >= 8:
        return "collection"
    return kind


LIST_TYPES = frozenset({"collectionpage", "searchresultspage", "itemlist"})
"""schema.org types declaring a list of other pages (a category, search results, a rail)."""


def _article_beside_list(types: set[str], og_type: str, has_date: bool) -> bool:
    """Whether a page declaring a list is a dated article whose list is a rail beside it.

    News pages declare their story (``NewsArticle``, ``og:type`` article) and, in the same
    markup, the ``ItemList`` of the related stories around it; a category page declares the
    list alone (its entries are ``itemListElement`` values, never read as the page's own nodes)
    and an ``og:type`` of a website, even where its cards carry article microdata. A dated page
    declaring itself an article both ways is the article, so the story rules read it."""
    return has_date and og_type == "article" and bool(types & ARTICLE_TYPES)


def _declared_page_type(tags: _Tags, url: str, sd: StructuredData, has_date: bool) -> str:
    """The page type from declared types, URL shape and generator hints."""
    types = {t.lower() for t in sd.types}
    og_type = (sd.og.get("type") or "").lower()
    path = urlsplit(url).path.lower() if url else ""
    if types & {"product", "productgroup", "offer"} or og_type in ("product", "og:product"):
        return "product"
    if types & {"discussionforumposting", "qapage"}:
        return "forum"
    home = path in ("", "/") or path.rstrip("/").count("/") == 0 and path.endswith(("index.html", "index.php"))
    if types & {"techarticle", "apireference"}:
        return "documentation"
    if types & _POST_TYPES and not home and not types & LIST_TYPES:
        return "article"
    if _DOC_PATH.search(path) or _is_docs(tags):
        return "documentation"
    if home:
        return "homepage"
    if types & LIST_TYPES:
        return "article" if _article_beside_list(types, og_type, has_date) else "listing"
    if types & ARTICLE_TYPES or og_type == "article":
        return "article"
    if _FORUM_PATH.search(path):
        return "forum"
    if _PRODUCT_PATH.search(path):
        return "product"
    if _LISTING_PATH.search(path) and not has_date:
        return "listing"
    if types & {"service", "localbusiness"} or _SERVICE_PATH.search(path):
        return "service"
    if has_date:
        return "article"
    return "page"


def extract_metadata(tree: HtmlElement, url: str, structured: StructuredData | None = None,
                     rules: RuleSet | None = None, names: PageNames | None = None) -> Metadata:
    """All page metadata, preferring what the page declares and cross-checking it with visible
    text (``rules``: the site rules whose month names and page frame it reads; the project's
    own by default; ``names``: the page's class values and ids, when the caller shares them
    with other steps)."""
    sd = structured or StructuredData()
    md = Metadata()
    if tree is None:
        return md
    tags = _Tags(tree)
    md.site_name = _site_name(tags, url, sd)
    # The names the site goes by come from the page (declared name, logo), never from the URL:
    # the same page gives the same title wherever it is served.
    site_names = [s for s in (md.site_name, *_brand_names(tree, names)) if s]
    md.title, md.sources["title"] = _choose_title(tags, sd, site_names)
    view = _PageView(tree, rules or load_rules(), tags)
    md.authors, md.sources["authors"] = _choose_authors(view, sd)
    md.language = _language(tags, sd)
    md.published, md.modified, md.sources["published"] = _choose_dates(view, url, sd, md.language)
    md.canonical_url = _canonical(tags, url, sd)
    md.description = _description(tags, sd)
    md.image = join_url(url, sd.image) if sd.image else None
    md.page_type = _page_type(tags, url, sd, bool(md.published))
    if md.page_type == "article" and LIST_TYPES & {t.lower() for t in sd.types}:
        md.sources["page_type"] = "a dated article declared beside a list (its rail)"
    return md
