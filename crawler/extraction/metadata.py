"""Page metadata (title, authors, dates, language, canonical URL, page type) from a parsed tree."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from urllib.parse import urljoin, urlsplit

from lxml.html import HtmlElement

from crawler.extraction.structured import ARTICLE_TYPES, StructuredData

logger = logging.getLogger(__name__)

__all__ = ["Metadata", "extract_metadata", "split_title", "normalise_date"]

_WS = re.compile(r"\s+")
#: Separators between a page title and the site name in ``<title>``.
_TITLE_SEPARATORS = re.compile(r"\s+[|\-–—:·•»«/~]\s+|\s*[|·•»«]\s*|\s+::\s+")
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_BYLINE_PREFIX = re.compile(r"^\s*(?:by|von|par|por|di|door|written by|posted by|author:?)\s+",
                            re.IGNORECASE)
_AUTHOR_SPLIT = re.compile(r"\s*(?:,\s*and\s+|,\s*&\s*|\s+and\s+|\s*&\s*|\s*,\s*|\s*;\s*|\s*\|\s*)\s*")


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
        """Authors joined into one display string."""
        return ", ".join(self.authors) if self.authors else None


def _clean(text: str | None) -> str | None:
    """Whitespace-collapsed text or None."""
    if not text:
        return None
    text = _WS.sub(" ", text).strip()
    return text or None


def _key(text: str) -> str:
    """Comparison key of a title fragment: case-folded word characters only."""
    return " ".join(re.findall(r"\w+", text.casefold()))


# --------------------------------------------------------------------------- title

def split_title(raw: str) -> list[str]:
    """The fragments of a ``<title>`` split at site-name separators (``Page | Site`` → two)."""
    parts = [p.strip() for p in _TITLE_SEPARATORS.split(raw)]
    return [p for p in parts if p]


def _h1_texts(tree: HtmlElement) -> list[str]:
    """Texts of the page's ``<h1>`` elements (at most a few)."""
    out = []
    for h1 in tree.iter("h1"):
        text = _clean(h1.text_content())
        if text and len(text) < 300:
            out.append(text)
        if len(out) >= 4:
            break
    return out


def _strip_site(title: str, site_names: list[str]) -> str:
    """``title`` without a leading or trailing site-name fragment."""
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


def _choose_title(tree: HtmlElement, sd: StructuredData, site_names: list[str]) -> tuple[str | None, str]:
    """The page title and where it came from: h1 agreement first, then structured data, then <title>."""
    title_el = tree.find(".//title")
    raw_title = _clean(title_el.text_content()) if title_el is not None else None
    h1s = _h1_texts(tree)
    candidates = [(sd.headline, "headline"), (sd.og.get("title"), "og:title"),
                  (sd.twitter.get("title"), "twitter:title"), (raw_title, "title")]
    candidates = [(_clean(c), s) for c, s in candidates if _clean(c)]
    # An h1 that another source agrees with (equal, or a fragment of <title>) is the page title.
    for h1 in h1s:
        hk = _key(h1)
        if not hk:
            continue
        for cand, source in candidates:
            ck = _key(cand)
            if ck == hk or hk in {_key(p) for p in split_title(cand)} or (
                    ck.startswith(hk) and len(hk) > 0.5 * len(ck)):
                return h1, f"h1+{source}"
    for cand, source in candidates:
        cleaned = _strip_site(cand, site_names)
        if cleaned:
            return cleaned, source
    if h1s:
        return h1s[0], "h1"
    return None, ""


# --------------------------------------------------------------------------- authors

def _split_authors(text: str) -> list[str]:
    """Individual names from a byline string ("By A, B and C")."""
    text = _BYLINE_PREFIX.sub("", text.strip())
    parts = [p.strip(" ,.;:") for p in _AUTHOR_SPLIT.split(text)]
    return [p for p in parts if p and len(p) < 80]


def _meta_authors(tree: HtmlElement) -> list[str]:
    """Authors named by ``<meta name=author>``-style tags."""
    out: list[str] = []
    for meta in tree.iter("meta"):
        name = (meta.get("name") or meta.get("property") or "").lower()
        if name in ("author", "dc.creator", "dcterms.creator", "sailthru.author", "parsely-author",
                    "byl", "citation_author"):
            content = _clean(meta.get("content"))
            if content and not content.startswith(("http://", "https://")):
                out.append(_BYLINE_PREFIX.sub("", content))
    return out


def _byline_authors(tree: HtmlElement) -> list[str]:
    """Authors from visible bylines: ``rel=author`` links and author/byline classes."""
    els = tree.xpath(
        "//a[@rel='author'] | //*[contains(concat(' ', normalize-space(@class), ' '), ' author-name ')]"
        " | //*[contains(concat(' ', normalize-space(@class), ' '), ' byline__name ')]"
        " | //*[@class='author' or @class='byline' or @class='author vcard']")
    out = []
    for el in els[:4]:
        text = _clean(el.text_content())
        if text and len(text) < 80:
            out.extend(_split_authors(text))
    return out


def _choose_authors(tree: HtmlElement, sd: StructuredData) -> tuple[list[str], str]:
    """Authors from structured data, then meta tags, then visible bylines."""
    if sd.authors:
        names = [n for a in sd.authors for n in ([a] if len(sd.authors) > 1 else _split_authors(a) or [a])]
        return _unique(names), sd.sources.get("authors", "structured")
    meta = _meta_authors(tree)
    if meta:
        return _unique(n for m in meta for n in (_split_authors(m) or [m])), "meta"
    byline = _byline_authors(tree)
    if byline:
        return _unique(byline), "byline"
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

def normalise_date(value: str | None) -> str | None:
    """An ISO 8601 date (YYYY-MM-DD) from a date or datetime string, or None when unreadable."""
    if not value:
        return None
    value = value.strip()
    m = _ISO_DATE.search(value)
    if m:
        try:
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3))).isoformat()
        except ValueError:
            return None
    for fmt in ("%Y/%m/%d", "%d/%m/%Y", "%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%Y%m%d"):
        try:
            return datetime.strptime(value[:40].strip(), fmt).date().isoformat()
        except ValueError:
            continue
    return None


def _htmldate(tree: HtmlElement, url: str, original: bool) -> str | None:
    """The date htmldate finds in the tree (``original``: publication rather than last change)."""
    try:
        from htmldate import find_date
        return find_date(tree, url=url, original_date=original, extensive_search=True,
                         outputformat="%Y-%m-%d")
    except Exception as exc:  # htmldate raises a variety of errors on odd markup
        logger.debug("htmldate failed on %s: %s", url, exc)
        return None


def _choose_dates(tree: HtmlElement, url: str, sd: StructuredData) -> tuple[str | None, str | None, str]:
    """Published and modified dates: structured data first, then htmldate."""
    published = normalise_date(sd.date_published)
    modified = normalise_date(sd.date_modified)
    source = sd.sources.get("date_published", "") if published else ""
    if not published:
        published = _htmldate(tree, url, original=True)
        source = "htmldate" if published else ""
    if modified and published and modified < published:
        modified = None
    return published, modified, source


# --------------------------------------------------------------------------- other fields

def _language(tree: HtmlElement, sd: StructuredData) -> str | None:
    """The page language (BCP 47 tag) from ``<html lang>``, Content-Language or structured data."""
    lang = tree.get("lang") or tree.get("xml:lang")
    if not lang:
        for meta in tree.iter("meta"):
            if (meta.get("http-equiv") or "").lower() == "content-language":
                lang = meta.get("content")
                break
    lang = lang or sd.language
    if not lang:
        return None
    lang = lang.strip().replace("_", "-").split(",")[0]
    return lang or None


def _canonical(tree: HtmlElement, url: str, sd: StructuredData) -> str | None:
    """The canonical URL declared by ``<link rel=canonical>`` (or og:url), made absolute."""
    for link in tree.iter("link"):
        if "canonical" in (link.get("rel") or "").lower().split() and link.get("href"):
            return urljoin(url, link.get("href").strip())
    og_url = sd.og.get("url")
    return urljoin(url, og_url) if og_url else None


def _description(tree: HtmlElement, sd: StructuredData) -> str | None:
    """The page description from ``<meta name=description>`` or structured data."""
    for meta in tree.iter("meta"):
        if (meta.get("name") or "").lower() == "description":
            text = _clean(meta.get("content"))
            if text:
                return text
    return sd.description


def _site_name(tree: HtmlElement, url: str, sd: StructuredData) -> str | None:
    """The site name from structured data or ``application-name``."""
    if sd.site_name:
        return sd.site_name
    for meta in tree.iter("meta"):
        if (meta.get("name") or "").lower() in ("application-name", "apple-mobile-web-app-title"):
            text = _clean(meta.get("content"))
            if text:
                return text
    return None


_DOC_PATH = re.compile(r"/(docs?|documentation|manual|reference|api|guide|guides|tutorial|handbook|wiki)(/|$)")
_FORUM_PATH = re.compile(r"/(forums?|threads?|topic|t|questions|discussions?|community|board)(/|$)")
_LISTING_PATH = re.compile(r"/(category|categories|tag|tags|archive|archives|page|search|blog|news)(/|$)")
_PRODUCT_PATH = re.compile(r"/(product|products|p|item|dp|shop|store)(/|$)")
_SERVICE_PATH = re.compile(r"/(services?|solutions?|pricing|features?|about|contact)(/|$)")


def _page_type(tree: HtmlElement, url: str, sd: StructuredData, has_date: bool) -> str:
    """A coarse guess of what kind of page this is, from declared types, URL shape and markup."""
    types = {t.lower() for t in sd.types}
    og_type = (sd.og.get("type") or "").lower()
    path = urlsplit(url).path.lower() if url else ""
    if types & {"product", "productgroup", "offer"} or og_type in ("product", "og:product"):
        return "product"
    if types & {"discussionforumposting", "qapage", "question"}:
        return "forum"
    if types & {"techarticle", "apireference"} or _DOC_PATH.search(path):
        return "documentation"
    if path in ("", "/") or path.rstrip("/").count("/") == 0 and path.endswith(("index.html", "index.php")):
        return "homepage"
    if types & {"collectionpage", "searchresultspage", "itemlist"}:
        return "listing"
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


def extract_metadata(tree: HtmlElement, url: str, structured: StructuredData | None = None) -> Metadata:
    """All page metadata, preferring what the page declares and cross-checking it with visible text."""
    sd = structured or StructuredData()
    md = Metadata()
    if tree is None:
        return md
    md.site_name = _site_name(tree, url, sd)
    host = urlsplit(url).hostname or "" if url else ""
    site_names = [s for s in (md.site_name, host, host.removeprefix("www."),
                              host.removeprefix("www.").split(".")[0]) if s]
    md.title, md.sources["title"] = _choose_title(tree, sd, site_names)
    md.authors, md.sources["authors"] = _choose_authors(tree, sd)
    md.published, md.modified, md.sources["published"] = _choose_dates(tree, url, sd)
    md.language = _language(tree, sd)
    md.canonical_url = _canonical(tree, url, sd)
    md.description = _description(tree, sd)
    md.image = urljoin(url, sd.image) if sd.image else None
    md.page_type = _page_type(tree, url, sd, bool(md.published))
    return md
