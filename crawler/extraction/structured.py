"""Structured data of a page (JSON-LD, microdata, OpenGraph, Twitter cards) read from its parsed tree."""

from __future__ import annotations

import html
import json
import logging
import re
from dataclasses import dataclass, field
from enum import IntEnum, auto
from typing import Any, Iterable, Iterator

from lxml import etree
from lxml.html import HtmlElement

from crawler.extraction.thresholds import THRESHOLDS, Thresholds
from crawler.extraction.vocabulary import STRUCTURED_SKIPPED_TAGS

logger = logging.getLogger(__name__)

__all__ = ["StructuredData", "parse_structured", "ARTICLE_TYPES", "is_placeholder"]

#: schema.org types whose ``articleBody`` / headline describe the page's main content.
ARTICLE_TYPES = frozenset({
    "article", "newsarticle", "blogposting", "techarticle", "scholarlyarticle", "report",
    "analysisnewsarticle", "opinionnewsarticle", "reportagenewsarticle", "reviewnewsarticle",
    "backgroundnewsarticle", "askpublicnewsarticle", "satiricalarticle", "socialmediaposting",
    "liveblogposting", "discussionforumposting", "medicalscholarlyarticle", "advertisercontentarticle",
    "apireference", "howto", "recipe", "qapage", "posting",
})

#: Types describing a whole page (a weaker source of title/date than an article node).
PAGE_TYPES = frozenset({
    "webpage", "itempage", "aboutpage", "contactpage", "collectionpage", "searchresultspage",
    "profilepage", "medicalwebpage", "checkoutpage", "realestatelisting", "faqpage", "qapage",
})

#: Types that are main entities in their own right (a product page, an event, a course, ...).
ENTITY_TYPES = frozenset({
    "product", "productgroup", "event", "course", "softwareapplication", "service", "jobposting",
    "book", "movie", "localbusiness", "organization", "videoobject", "dataset", "offer",
})

_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_WS = re.compile(r"\s+")
_ITEM_SCOPES = etree.XPath("//@itemtype/parent::*[@itemscope]")
_ITEM_PROPERTIES = etree.XPath("//@itemprop/..")
"""Microdata items and properties, found through the attribute axis (several times cheaper
than testing every element for the attribute)."""


@dataclass
class StructuredData:
    """Metadata (and possibly the article body) a page declares about itself in machine-readable form."""

    type: str | None = None
    headline: str | None = None
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    date_published: str | None = None
    date_modified: str | None = None
    description: str | None = None
    site_name: str | None = None
    language: str | None = None
    image: str | None = None
    url: str | None = None
    article_body: str | None = None
    types: list[str] = field(default_factory=list)
    og: dict[str, str] = field(default_factory=dict)
    twitter: dict[str, str] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)
    faq: list[tuple[str, str]] = field(default_factory=list)
    """The questions and answers of a declared ``FAQPage`` (JSON-LD ``Question`` nodes: their
    ``name`` and the text of their ``acceptedAnswer``; the FAQ a node names as its
    ``subjectOf`` too), in order; empty on other pages."""

    @property
    def is_article(self) -> bool:
        """Whether the page declares itself an article-like document."""
        return any(t.lower() in ARTICLE_TYPES for t in self.types) or self.og.get("type") == "article"


# --------------------------------------------------------------------------- helpers

_INLINE_TAGS = frozenset({"a", "span", "em", "strong", "b", "i", "u", "small", "mark", "abbr", "sup", "sub",
                          "code", "q", "s", "del", "ins", "time", "font", "label", "cite", "kbd"})


def element_text(el: HtmlElement) -> str:
    """Visible text of an element: block children and ``<br>`` separate words, scripts/styles skipped."""
    parts: list[str] = []
    _collect_text(el, parts)
    return _WS.sub(" ", "".join(parts)).strip()


def _collect_text(node: HtmlElement, parts: list[str]) -> None:
    """Append the visible text pieces of a node to parts (a module-level function: a closure
    that calls itself is a reference cycle left for the garbage collector)."""
    if node.text:
        parts.append(node.text)
    for child in node:
        tag = child.tag if isinstance(child.tag, str) else None
        if tag is not None and tag not in STRUCTURED_SKIPPED_TAGS:
            if tag not in _INLINE_TAGS:
                parts.append(" ")
            _collect_text(child, parts)
            if tag not in _INLINE_TAGS:
                parts.append(" ")
        if child.tail:
            parts.append(child.tail)


def _clean(value: Any) -> str | None:
    """A whitespace-collapsed string, or None for empty / non-scalar values."""
    if value is None or isinstance(value, (dict, list, bool)):
        return None
    text = str(value)
    if "&" in text:
        text = html.unescape(text)
    text = _WS.sub(" ", text).strip()
    return text or None


def _types_of(node: dict) -> list[str]:
    """The schema.org type names of a JSON-LD node, without IRI prefixes."""
    raw = node.get("@type")
    values = raw if isinstance(raw, list) else [raw]
    out = []
    for value in values:
        if isinstance(value, str) and value:
            out.append(value.rsplit("/", 1)[-1].rsplit(":", 1)[-1])
    return out


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _load_json(text: str) -> Any:
    """Parse a JSON-LD script body, repairing the common breakages (comments, trailing commas,
    ...); lone surrogates it escapes (``"\\ud800"``, which no encoder can write) are replaced.
    JSON nested deeper than the decoder can recurse is unreadable: None, like broken JSON (the
    page's other structured data is still read)."""
    try:
        data = _parse_json(text)
    except RecursionError:
        logger.debug("JSON-LD nested too deep to read (%d chars)", len(text))
        return None
    if data is not None and _SURROGATE_ESCAPE.search(text):
        data = _without_lone_surrogates(data)
    return data


def _without_lone_surrogates(data: Any) -> Any:
    """``data`` with every lone surrogate in its strings (keys and values) replaced by U+FFFD;
    escaped pairs were joined by the decoder already. Iterative: the data may nest as deep as
    the decoder allowed."""
    def fixed(value: Any) -> Any:
        if isinstance(value, str):
            return _LONE_SURROGATE.sub("\ufffd", value)
        if isinstance(value, dict):
            copy: dict = {}
            pending.append((value, copy))
            return copy
        if isinstance(value, list):
            copy_list: list = []
            pending.append((value, copy_list))
            return copy_list
        return value

    pending: list[tuple[Any, Any]] = []
    root = fixed(data)
    while pending:
        source, target = pending.pop()
        if isinstance(source, dict):
            for key, value in source.items():
                target[fixed(key)] = fixed(value)
        else:
            target.extend(fixed(value) for value in source)
    return root


def _parse_json(text: str) -> Any:
    """The JSON of a script body as written, or as repaired; None when it cannot be read."""
    text = text.strip()
    if not text:
        return None
    try:
        return json.loads(text, strict=False)
    except ValueError:
        pass
    repaired = text
    for prefix in ("<!--", "<![CDATA[", "//<![CDATA["):
        if repaired.startswith(prefix):
            repaired = repaired[len(prefix):]
    for suffix in ("-->", "]]>", "//]]>"):
        if repaired.endswith(suffix):
            repaired = repaired[: -len(suffix)]
    repaired = _CONTROL_CHARS.sub(" ", repaired).strip().rstrip(";")
    repaired = _TRAILING_COMMA.sub(r"\1", repaired)
    try:
        return json.loads(repaired, strict=False)
    except ValueError:
        pass
    # Several objects concatenated in one script, or trailing junk after the first object.
    decoder = json.JSONDecoder(strict=False)
    items, pos = [], 0
    while pos < len(repaired):
        while pos < len(repaired) and repaired[pos] in " \t\r\n,;":
            pos += 1
        if pos >= len(repaired):
            break
        try:
            obj, pos = decoder.raw_decode(repaired, pos)
        except ValueError:
            break
        items.append(obj)
    if items:
        return items if len(items) > 1 else items[0]
    logger.debug("unparseable JSON-LD (%d chars)", len(text))
    return None


def _walk_nodes(data: Any, max_depth: int, depth: int = 0) -> Iterator[dict]:
    """Every JSON-LD object in document order: arrays, ``@graph`` and nested objects flattened
    (down to ``max_depth`` levels of nesting)."""
    if depth > max_depth:
        return
    if isinstance(data, list):
        for item in data:
            yield from _walk_nodes(item, max_depth, depth + 1)
    elif isinstance(data, dict):
        if "@type" in data or "@id" in data:
            yield data
        graph = data.get("@graph")
        if graph is not None:
            yield from _walk_nodes(graph, max_depth, depth + 1)
        for key in ("mainEntity", "mainEntityOfPage", "itemReviewed", "about"):
            value = data.get(key)
            if isinstance(value, (dict, list)):
                yield from _walk_nodes(value, max_depth, depth + 1)


_PLACEHOLDER = re.compile(r"(?:undefined|null|none|nan|\[object object\])|.*(?:\{\{|\{%|\$\{|%\w+%).*",
                          re.IGNORECASE | re.DOTALL)
"""What a template or a script writes where its value is missing: an unset variable printed
("undefined", "null", "[object Object]") or a placeholder left unfilled ("{{ author }}",
"${name}", "%author%")."""


def is_placeholder(text: str) -> bool:
    """Whether a declared or shown value is a missing value's placeholder, not a value."""
    return bool(_PLACEHOLDER.fullmatch(text.strip()))


def _names(value: Any, index: dict[str, dict]) -> list[str]:
    """Names of persons/organisations from an ``author``-like value (string, object, @id, list)."""
    out: list[str] = []
    values = value if isinstance(value, list) else [value]
    for item in values:
        if isinstance(item, str):
            name = _clean(item)
            if name and not name.startswith(("http://", "https://")):
                out.extend(p for p in (s.strip() for s in name.split(";"))
                           if p and not is_placeholder(p))
        elif isinstance(item, dict):
            if "name" not in item and item.get("@id") in index:
                item = index[item["@id"]]
            name = item.get("name")
            if isinstance(name, list):
                name = name[0] if name else None
            if isinstance(name, dict):
                name = name.get("@value")
            name = _clean(name)
            if not name:
                given, family = _clean(item.get("givenName")), _clean(item.get("familyName"))
                name = " ".join(p for p in (given, family) if p) or None
            if name and not is_placeholder(name):
                out.append(name)
    return out


def _has_person(value: Any, index: dict[str, dict]) -> bool:
    """Whether an ``author`` value names at least one person (not only organisations)."""
    values = value if isinstance(value, list) else [value]
    for item in values:
        if isinstance(item, str):
            return True
        if isinstance(item, dict):
            if "@type" not in item and item.get("@id") in index:
                item = index[item["@id"]]
            types = {t.lower() for t in _types_of(item)}
            if not types or "person" in types:
                return True
    return False


def _first_url(value: Any) -> str | None:
    """A URL from an ``image``/``url`` value (string, ImageObject, list)."""
    if isinstance(value, list):
        for item in value:
            url = _first_url(item)
            if url:
                return url
        return None
    if isinstance(value, dict):
        return _first_url(value.get("url") or value.get("contentUrl") or value.get("@id"))
    return _clean(value)


def _text_value(value: Any) -> str | None:
    """A string from a JSON-LD literal that may be a list or a ``@value`` object."""
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("@value") or value.get("name")
    return _clean(value)


class NodeRank(IntEnum):
    """How strongly a JSON-LD node describes the page's main content, weakest first."""

    NONE = auto()
    """Describes something else (a site, a breadcrumb, an organisation)."""
    PAGE = auto()
    """A whole page: a weaker source of title and date than an article."""
    ENTITY = auto()
    """A main entity (a product, an event): its name is the page's headline."""
    ARTICLE = auto()
    """An article-like node: its ``articleBody`` or ``text`` is the page's body."""
    ARTICLE_WITH_BODY = auto()
    """An article-like node that carries its body or headline."""


def _node_rank(node: dict) -> NodeRank:
    """How strongly a JSON-LD node describes the page's main content (higher is better)."""
    types = {t.lower() for t in _types_of(node)}
    if types & ARTICLE_TYPES:
        if node.get("articleBody") or node.get("headline"):
            return NodeRank.ARTICLE_WITH_BODY
        return NodeRank.ARTICLE
    if types & ENTITY_TYPES - {"organization", "offer"}:
        return NodeRank.ENTITY
    if types & PAGE_TYPES:
        return NodeRank.PAGE
    return NodeRank.NONE


# --------------------------------------------------------------------------- sources

def _json_ld(scripts: list[HtmlElement], max_depth: int) -> list[dict]:
    """All JSON-LD nodes of the page (``scripts``: its scripts)."""
    nodes: list[dict] = []
    for script in scripts:
        kind = (script.get("type") or "").lower()
        if "ld+json" not in kind:
            continue
        data = _load_json(script.text or "")
        if data is not None:
            nodes.extend(_walk_nodes(data, max_depth))
    return nodes


def _apply_json_ld(sd: StructuredData, nodes: list[dict], max_questions: int) -> None:
    """Fill ``sd`` from the JSON-LD node that best describes the page (others fill gaps)."""
    index = {n["@id"]: n for n in nodes if isinstance(n.get("@id"), str)}
    for node in nodes:
        for t in _types_of(node):
            if t not in sd.types:
                sd.types.append(t)
    for node in nodes:
        if "website" in {t.lower() for t in _types_of(node)}:
            _set(sd, "site_name", _text_value(node.get("name")), "json-ld")
            _set(sd, "language", _text_value(node.get("inLanguage")), "json-ld")
    sd.faq = _faq_entries(nodes, index, max_questions)
    ranked = sorted((n for n in nodes if _node_rank(n) > NodeRank.NONE), key=_node_rank,
                    reverse=True)
    for node in ranked:
        rank = _node_rank(node)
        if sd.type is None:
            sd.type = (_types_of(node) or [None])[0]
            sd.sources["type"] = "json-ld"
        headline = _text_value(node.get("headline")) \
            or (_text_value(node.get("name")) if rank >= NodeRank.ENTITY else None)
        _set(sd, "headline", headline, "json-ld")
        if rank >= NodeRank.PAGE:
            _set(sd, "title", _text_value(node.get("name")) or headline, "json-ld")
        if not sd.authors:
            value = node.get("author") or node.get("creator")
            authors = _names(value, index)
            if authors:
                sd.authors = _dedupe(authors)
                sd.sources["authors"] = "json-ld" if _has_person(value, index) else "json-ld-organization"
        _set(sd, "date_published", _text_value(node.get("datePublished") or node.get("dateCreated")
                                               or node.get("uploadDate")), "json-ld")
        _set(sd, "date_modified", _text_value(node.get("dateModified")), "json-ld")
        _set(sd, "description", _text_value(node.get("description")), "json-ld")
        _set(sd, "image", _first_url(node.get("image") or node.get("thumbnailUrl")), "json-ld")
        _set(sd, "language", _text_value(node.get("inLanguage")), "json-ld")
        _set(sd, "url", _first_url(node.get("url")), "json-ld")
        body = node.get("articleBody") or node.get("text") if rank >= NodeRank.ARTICLE else None
        if isinstance(body, str) and body.strip():
            _set(sd, "article_body", body.strip(), "json-ld")
        publisher = node.get("publisher")
        if isinstance(publisher, dict) and "name" not in publisher and publisher.get("@id") in index:
            publisher = index[publisher["@id"]]
        if isinstance(publisher, dict):
            _set(sd, "site_name", _text_value(publisher.get("name")), "json-ld")


_TAG = re.compile(r"<[^>]*>")


def _listed(value: Any) -> list[Any]:
    """A JSON-LD value that may be one item or a list, as a list."""
    return value if isinstance(value, list) else [value]


def _faq_entries(nodes: list[dict], index: dict[str, dict],
                 max_questions: int) -> list[tuple[str, str]]:
    """Question and answer text of the ``Question`` nodes of every ``FAQPage`` of the page: a
    node of its own, or the ``subjectOf`` of another (a web page naming its FAQ); questions may
    be written out or referenced by ``@id``; an answer may be HTML (its tags go). At most
    ``max_questions`` (the first), so a page cannot make the search for them long."""
    def typed(value: Any, kind: str) -> dict | None:
        if isinstance(value, dict) and "@type" not in value and value.get("@id") in index:
            value = index[value["@id"]]
        if isinstance(value, dict) and kind in {t.lower() for t in _types_of(value)}:
            return value
        return None

    pages = [n for n in nodes if typed(n, "faqpage")]
    for node in nodes:
        pages += [page for page in (typed(v, "faqpage") for v in _listed(node.get("subjectOf")))
                  if page is not None]
    entries: dict[str, str] = {}
    for page in pages:
        for value in _listed(page.get("mainEntity")):
            node = typed(value, "question")
            question = _text_value(node.get("name")) if node is not None else None
            if not question or question in entries:
                continue
            answer = _listed(node.get("acceptedAnswer"))[0] if node.get("acceptedAnswer") \
                else None
            text = _text_value(answer.get("text")) if isinstance(answer, dict) else None
            entries[question] = _TAG.sub(" ", text or "")
            if len(entries) >= max_questions:
                return list(entries.items())
    return list(entries.items())


def _itemprop_value(el: HtmlElement) -> str | None:
    """The value of a microdata property element (content/datetime/href attribute or text)."""
    for attr in ("content", "datetime"):
        if el.get(attr):
            return _clean(el.get(attr))
    if el.tag in ("a", "link") and el.get("href"):
        return None
    if el.tag == "meta":
        return None
    return _clean(element_text(el))


def _apply_microdata(sd: StructuredData, tree: HtmlElement, max_name_chars: int) -> None:
    """Fill gaps in ``sd`` from microdata (``itemprop``) properties."""
    for el in _ITEM_SCOPES(tree):
        t = el.get("itemtype", "").rstrip("/").rsplit("/", 1)[-1]
        if t and t not in sd.types:
            sd.types.append(t)
            if sd.type is None and t.lower() in ARTICLE_TYPES | ENTITY_TYPES - {"organization"}:
                sd.type = t
                sd.sources["type"] = "microdata"
    authors: list[str] = []
    for el in _ITEM_PROPERTIES(tree):
        props = el.get("itemprop", "").split()
        for prop in props:
            if prop == "articleBody" and not sd.article_body:
                text = element_text(el)
                if text:
                    sd.article_body = text
                    sd.sources["article_body"] = "microdata"
            elif prop == "headline":
                _set(sd, "headline", _itemprop_value(el), "microdata")
            elif prop in ("author", "creator") and not authors:
                # The first one only: later ones belong to comments, replies or teasers.
                names = el.xpath(".//*[@itemprop='name']")
                name = _itemprop_value(names[0]) if names else _itemprop_value(el)
                if name and len(name) < max_name_chars:
                    authors.append(name)
            elif prop in ("datePublished", "dateCreated"):
                _set(sd, "date_published", _itemprop_value(el), "microdata")
            elif prop == "dateModified":
                _set(sd, "date_modified", _itemprop_value(el), "microdata")
            elif prop == "description" and el.tag == "meta":
                _set(sd, "description", _clean(el.get("content")), "microdata")
            elif prop == "inLanguage":
                _set(sd, "language", _itemprop_value(el), "microdata")
    if authors and not sd.authors:
        sd.authors = _dedupe(authors)
        sd.sources["authors"] = "microdata"


_CARD_PREFIXES = ("og:", "article:", "twitter:")
"""Name prefixes of the ``<meta>`` tags read as OpenGraph and Twitter card properties."""


def _apply_meta(sd: StructuredData, metas: list[HtmlElement]) -> None:
    """Read OpenGraph (``og:``/``article:``) and Twitter card ``<meta>`` tags (``metas``: the
    page's ``<meta>`` tags); fill gaps in ``sd``."""
    article_authors: list[str] = []
    for meta in metas:
        key = (meta.get("property") or meta.get("name") or "").strip().lower()
        if not key.startswith(_CARD_PREFIXES):
            continue  # a tag no card reads: its content is not cleaned
        content = _clean(meta.get("content"))
        if not content:
            continue
        if key.startswith("og:"):
            sd.og.setdefault(key[3:], content)
        elif key.startswith("article:"):
            if key == "article:author":
                if not content.startswith(("http://", "https://")):
                    article_authors.append(content)
            else:
                sd.og.setdefault(key, content)
        elif key.startswith("twitter:"):
            sd.twitter.setdefault(key[8:], content)
    og, tw = sd.og, sd.twitter
    _set(sd, "title", og.get("title"), "opengraph")
    _set(sd, "title", tw.get("title"), "twitter")
    _set(sd, "description", og.get("description"), "opengraph")
    _set(sd, "description", tw.get("description"), "twitter")
    _set(sd, "site_name", og.get("site_name"), "opengraph")
    _set(sd, "image", og.get("image") or og.get("image:url") or og.get("image:secure_url"), "opengraph")
    _set(sd, "image", tw.get("image") or tw.get("image:src"), "twitter")
    _set(sd, "url", og.get("url"), "opengraph")
    _set(sd, "date_published", og.get("article:published_time"), "opengraph")
    _set(sd, "date_modified", og.get("article:modified_time") or og.get("updated_time"), "opengraph")
    _set(sd, "language", og.get("locale"), "opengraph")
    if not sd.type and og.get("type"):
        sd.type = og["type"]
        sd.sources["type"] = "opengraph"
    if not sd.authors:
        creator = tw.get("creator")
        if article_authors:
            sd.authors = _dedupe(article_authors)
            sd.sources["authors"] = "opengraph"
        elif creator and not creator.startswith("@"):
            sd.authors = [creator]
            sd.sources["authors"] = "twitter"


def _set(sd: StructuredData, name: str, value: str | None, source: str) -> None:
    """Set a field only when it is still empty, recording where the value came from."""
    if value and not getattr(sd, name):
        setattr(sd, name, value)
        sd.sources[name] = source


def _dedupe(values: Iterable[str]) -> list[str]:
    """Values in first-seen order without case-insensitive duplicates."""
    seen: set[str] = set()
    out = []
    for value in values:
        key = value.casefold()
        if key not in seen:
            seen.add(key)
            out.append(value)
    return out


def parse_structured(tree: HtmlElement, url: str,
                     thresholds: Thresholds = THRESHOLDS) -> StructuredData:
    """All structured data a parsed page declares: JSON-LD first, then microdata, then OG/Twitter."""
    sd = StructuredData()
    if tree is None:
        return sd
    try:
        # Scripts and <meta> tags are gathered in one walk of the tree (a walk costs as much
        # as reading both).
        scripts: list[HtmlElement] = []
        metas: list[HtmlElement] = []
        for el in tree.iter("script", "meta"):
            (scripts if el.tag == "script" else metas).append(el)
        _apply_json_ld(sd, _json_ld(scripts, thresholds.structured_max_depth),
                       thresholds.faq_max_questions)
        _apply_microdata(sd, tree, thresholds.structured_max_name_chars)
        _apply_meta(sd, metas)
    except (etree.LxmlError, ValueError, TypeError, AttributeError) as exc:  # malformed markup
        logger.debug("structured data of %s partly unreadable: %s", url, exc)
    return sd
