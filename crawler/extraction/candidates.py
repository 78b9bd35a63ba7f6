"""Tiers propose content candidates; each is validated, then one is chosen and the choice traced."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any

import lxml.html
from lxml import etree

from crawler.extraction.frameworks import Detection, css
from crawler.extraction.scoring import Stats, compute_stats

logger = logging.getLogger(__name__)

# Tier names, most specific first; the order breaks ties only, validation and score decide.
TIER_RULES = "rules"
TIER_STRUCTURED = "structured"
TIER_SEMANTIC = "semantic"
TIER_PATTERN = "pattern"
TIER_DENSITY = "density"
TIER_TRAFILATURA = "trafilatura"
TIER_BODY = "body"

MIN_CHARS = 100
MIN_PARAGRAPHS = 2
MAX_LINK_DENSITY = 0.5

CONTENT_NAME = re.compile(
    r"(?:article|story|post|entry|blog|news|page|main|single|product|item|td-post|c-entry|"
    r"l-article|rich|msg|message)[-_]{0,2}(?:body|content|text|entry|copy|inner|main|"
    r"description|detail)"
    r"|(?:^|[-_\s])(?:articlebody|storybody|postbody|entrycontent|bodytext|body-text|"
    r"markdown-body|prose|rich-text|richtext|post|article|entry|main-content|maincontent|"
    r"page-content|content-body|field-body|node-content|text-content)(?:$|[-_\s])", re.I)
"""Class/id/hook names of content wrappers; searched inside the name so hashed CSS-in-JS names
(``styles_articleBody__x1Yz``, ``ArticleBody-sc-3kq9``) match too."""

HOOK_ATTRIBUTES = ("class", "id", "data-testid", "data-component", "data-module", "itemprop",
                   "data-qa", "data-test")


@dataclass
class Candidate:
    """One proposed content container and what validation found."""

    element: etree._Element
    tier: str
    source: str
    chars: int = 0
    link_density: float = 0.0
    paragraphs: int = 0
    score: float = 0.0
    valid: bool = False
    reasons: list[str] = field(default_factory=list)
    rank: int = 0
    repeated: bool = False

    def describe(self) -> dict[str, Any]:
        """The trace entry of this candidate."""
        el = self.element
        return {"tier": self.tier, "source": self.source, "tag": el.tag,
                "class": (el.get("class") or "")[:80], "id": el.get("id") or "",
                "chars": self.chars, "link_density": round(self.link_density, 3),
                "paragraphs": self.paragraphs, "score": round(self.score, 1),
                "valid": self.valid, "reasons": list(self.reasons)}


def make_candidate(el: etree._Element, tier: str, source: str, stats: dict[etree._Element, Stats],
          scores: dict[etree._Element, float], rank: int) -> Candidate | None:
    """A Candidate for an element, with its text figures (None for elements outside the stats)."""
    st = stats.get(el)
    if st is None:
        return None
    return Candidate(element=el, tier=tier, source=source, chars=st.chars,
                     link_density=st.link_density, paragraphs=st.paragraphs,
                     score=scores.get(el, 0.0), rank=rank)


def rule_candidates(tree: etree._Element, detection: Detection, stats: dict[etree._Element, Stats],
                    scores: dict[etree._Element, float]) -> list[Candidate]:
    """Candidates from framework and domain rules, in rule order."""
    out: list[Candidate] = []
    rank = 0
    for rule in detection.rules:
        for selector in rule.content:
            matches = [m for m in css(selector.css)(tree) if m in stats]
            if not matches:
                continue
            if selector.multiple and len(matches) > 1:
                wrapper = lxml.html.Element("div")
                wrapper.set("class", "extracted-multiple")
                for m in matches:
                    if not any(a in matches for a in m.iterancestors()):
                        wrapper.append(_detached_copy(m))
                # The joined copies get their own figures, so cleaning guards them like any
                # element of the page (shares of the text, the name rule's safety check).
                stats.update(compute_stats(wrapper))
                cand = make_candidate(wrapper, TIER_RULES, f"{rule.source}: {selector.css} (x{len(matches)})",
                             stats, scores, rank)
            elif len(matches) == 1:
                cand = make_candidate(matches[0], TIER_RULES, f"{rule.source}: {selector.css}", stats,
                             scores, rank)
            else:
                continue
            if cand is not None:
                out.append(cand)
                rank += 1
    return out


def _detached_copy(el: etree._Element) -> etree._Element:
    """A copy of an element without its tail text."""
    from copy import deepcopy

    clone = deepcopy(el)
    clone.tail = None
    return clone


def semantic_candidates(tree: etree._Element, stats: dict[etree._Element, Stats],
                        scores: dict[etree._Element, float]) -> list[Candidate]:
    """Candidates from HTML5 semantics: articleBody, a dominant article, main, role=main."""
    out: list[Candidate] = []
    for el in tree.iter("main", "article", "div", "section"):
        if el not in stats:
            continue
        if el.get("itemprop") == "articleBody":
            out.append(make_candidate(el, TIER_SEMANTIC, "[itemprop=articleBody]", stats, scores, 0))
    articles = [a for a in tree.iter("article") if a in stats]
    if articles:
        articles.sort(key=lambda a: stats[a].chars, reverse=True)
        top = articles[0]
        rest = sum(stats[a].chars for a in articles[1:]
                   if not any(anc is top for anc in a.iterancestors()))
        if stats[top].chars >= 2 * rest:
            out.append(make_candidate(top, TIER_SEMANTIC, f"article (largest of {len(articles)})", stats,
                             scores, 1))
    mains = [m for m in tree.iter("main") if m in stats]
    mains += [m for m in tree.xpath('//*[@role="main"]') if m in stats and m.tag != "main"]
    for m in mains:
        out.append(make_candidate(m, TIER_SEMANTIC, "main" if m.tag == "main" else "[role=main]", stats,
                         scores, 2))
    return [c for c in out if c is not None]


def pattern_candidates(tree: etree._Element, stats: dict[etree._Element, Stats],
                       scores: dict[etree._Element, float], limit: int = 4) -> list[Candidate]:
    """Candidates whose class, id or data hook names a content wrapper (largest few)."""
    found: list[tuple[int, etree._Element, str]] = []
    for el, st in stats.items():
        if st.chars < MIN_CHARS or el.tag in ("html", "body", "a", "span", "p", "li", "ul"):
            continue
        for attr in HOOK_ATTRIBUTES:
            value = el.get(attr)
            if value and CONTENT_NAME.search(value):
                if not _in_frame(el):  # a "prose" policy text in a footer modal is not content
                    found.append((st.chars, el, f"{attr}={value[:60]!r}"))
                break
    found.sort(key=lambda item: item[0], reverse=True)
    out = []
    for i, (_, el, source) in enumerate(found[:limit]):
        cand = make_candidate(el, TIER_PATTERN, source, stats, scores, i)
        if cand is not None:
            out.append(cand)
    out.extend(_repeated_containers(found, stats, scores))
    return out


def _repeated_containers(found: list[tuple[int, etree._Element, str]],
                         stats: dict[etree._Element, Stats],
                         scores: dict[etree._Element, float]) -> list[Candidate]:
    """The common container of content wrappers that repeat (forum posts, answers, cards)."""
    groups: dict[tuple[str, str], list[etree._Element]] = {}
    for _, el, _source in found:
        groups.setdefault((el.tag, el.get("class") or el.get("data-testid") or ""), []).append(el)
    out = []
    for (tag, name), members in groups.items():
        members = [m for m in members
                   if not any(a in members for a in m.iterancestors())]
        if len(members) < MIN_REPEATS:
            continue
        common = _common_ancestor(members)
        if common is None or common.tag in ("html", "body") or common not in stats:
            continue
        members_good = sum(stats[m].good for m in members if m in stats)
        if members_good < 0.5 * stats[common].good:
            continue  # the items are a small part of their container (cards beside an article)
        cand = make_candidate(common, TIER_PATTERN, f"common container of {len(members)} x "
                     f"{tag}.{name[:40]!r}", stats, scores, 0)
        if cand is not None:
            cand.repeated = True
            out.append(cand)
    return out


MIN_REPEATS = 2


def _common_ancestor(elements: list[etree._Element]) -> etree._Element | None:
    """Lowest common ancestor of several elements."""
    paths = [list(reversed([e, *e.iterancestors()])) for e in elements]
    common = None
    for level in zip(*paths):
        if all(node is level[0] for node in level):
            common = level[0]
        else:
            break
    return common


def density_candidates(stats: dict[etree._Element, Stats], scores: dict[etree._Element, float],
                       limit: int = 3) -> list[Candidate]:
    """The best Readability-style scored containers outside page chrome (footer, nav, forms)."""
    ranked = sorted(scores.items(), key=lambda item: item[1], reverse=True)
    out = []
    for el, _ in ranked:
        if len(out) >= limit:
            break
        st = stats.get(el)
        if st is None or st.in_form or _in_chrome(el) or _frames_page(el):
            continue
        cand = make_candidate(el, TIER_DENSITY, f"density #{len(out) + 1}", stats, scores, len(out))
        if cand is not None:
            out.append(cand)
    return out


CHROME_TAGS = frozenset({"footer", "nav", "aside", "header"})
CHROME_ROLES = frozenset({"contentinfo", "navigation", "banner", "complementary", "dialog"})


def _in_chrome(el: etree._Element) -> bool:
    """Whether an element is, or sits inside, the page's header, footer, navigation or aside."""
    for node in (el, *el.iterancestors()):
        if node.tag in CHROME_TAGS or node.get("role") in CHROME_ROLES:
            return True
    return False


FRAME_TAGS = frozenset({"footer", "nav"})
FRAME_ROLES = frozenset({"contentinfo", "navigation", "dialog", "alertdialog"})


def _in_frame(el: etree._Element) -> bool:
    """Whether an element sits in the page footer, the navigation or a modal dialog (headers and
    asides are left out: themes wrap whole pages in them)."""
    for node in (el, *el.iterancestors()):
        if node.tag in FRAME_TAGS or node.get("role") in FRAME_ROLES \
                or node.get("aria-modal") == "true":
            return True
    return False


def validate(cand: Candidate) -> Candidate:
    """Check a candidate against the validation chain; record why it passes or fails."""
    reasons = []
    if cand.tier == TIER_RULES:
        # A site or framework rule names the container exactly: short pages are still pages.
        if cand.chars == 0:
            reasons.append("rule matched an element without text")
        cand.valid = not reasons
        cand.reasons = reasons or ["rule match with text (rules skip the size checks)"]
        return cand
    if cand.chars <= MIN_CHARS:
        reasons.append(f"text {cand.chars} <= {MIN_CHARS} chars")
    if cand.paragraphs < MIN_PARAGRAPHS and cand.chars < 600:
        reasons.append(f"{cand.paragraphs} paragraphs < {MIN_PARAGRAPHS}")
    if cand.link_density >= MAX_LINK_DENSITY:
        reasons.append(f"link density {cand.link_density:.2f} >= {MAX_LINK_DENSITY}")
    cand.valid = not reasons
    cand.reasons = reasons or ["passes validation"]
    return cand


def contains(outer: etree._Element, inner: etree._Element) -> bool:
    """Whether inner is outer or one of its descendants."""
    if outer is inner:
        return True
    return any(a is outer for a in inner.iterancestors())


def choose(cands: list[Candidate], stats: dict[etree._Element, Stats],
           trace: list[dict[str, Any]] | None = None) -> tuple[Candidate | None, str]:
    """Pick the content container: valid rules first, then the semantic/pattern candidate that best
    agrees with the (widened) density winner, then the density winner itself."""
    valid = [c for c in cands if c.valid]
    rules = [c for c in valid if c.tier == TIER_RULES]
    if rules:
        return min(rules, key=lambda c: c.rank), "first valid site/framework rule"
    density = [expand(c, stats, trace) for c in valid if c.tier == TIER_DENSITY]
    best = max(density, key=lambda c: (_good(c, stats), c.score)) if density else None
    others = [c for c in valid if c.tier in (TIER_SEMANTIC, TIER_PATTERN)]
    if best is None:
        if others:
            pick = max(others, key=lambda c: _good(c, stats))
            return pick, "no valid density candidate; most content-like semantic/pattern candidate"
        return None, "no valid candidate"
    best_good = max(_good(best, stats), 1)
    agreeing: list[tuple[float, Candidate]] = []
    for c in others:
        good = _good(c, stats)
        if contains(c.element, best.element):
            extra = c.chars - best.chars
            extra_good = good - best_good
            if extra <= 0.1 * best.chars or extra_good >= CONTAINER_EXTRA_GOOD * extra:
                agreeing.append((best_good / max(good, 1), c))
                c.reasons.append(f"contains the density winner; the rest is content-like "
                                 f"({extra_good}/{extra} chars)")
            else:
                c.reasons.append(f"contains the density winner but adds mostly other text "
                                 f"({extra_good}/{extra} content-like chars)")
        elif contains(best.element, c.element):
            share = good / best_good
            if share >= 0.7:
                agreeing.append((1.0 + share, c))
                c.reasons.append(f"inside the density winner with {share:.0%} of its content")
            else:
                c.reasons.append(f"inside the density winner but only {share:.0%} of its content")
        else:
            c.reasons.append("disjoint from the density winner")
    repeated = [c for _, c in agreeing if c.repeated and contains(c.element, best.element)]
    if repeated:
        pick = max(repeated, key=lambda c: _good(c, stats))
        return pick, "container of repeated content items holding the density winner"
    if agreeing:
        tier_order = {TIER_PATTERN: 0, TIER_SEMANTIC: 1}
        agreeing.sort(key=lambda item: (-round(item[0], 1), tier_order.get(item[1].tier, 2)))
        return agreeing[0][1], "semantic/pattern candidate agreeing with the density winner"
    return best, "density winner (widened)"


CONTAINER_EXTRA_GOOD = 0.4


def _good(cand: Candidate, stats: dict[etree._Element, Stats]) -> int:
    """Content-like characters of a candidate."""
    st = stats.get(cand.element)
    return st.good if st is not None else cand.chars


def expand(cand: Candidate, stats: dict[etree._Element, Stats],
           trace: list[dict[str, Any]] | None = None) -> Candidate:
    """Widen a container to the ancestors that add mostly content-like text (sectioned pages)."""
    cur = cand.element
    st = stats.get(cur)
    if st is None:
        return cand
    steps = 0
    while True:
        parent = cur.getparent()
        if parent is None or parent.tag in ("body", "html") or parent not in stats:
            break
        pst = stats[parent]
        extra = pst.chars - st.chars
        extra_good = pst.good - st.good - _frame_good(parent, cur, stats)
        if extra > 0 and not (extra_good >= EXPAND_GOOD_SHARE * extra
                              and pst.link_density < MAX_LINK_DENSITY):
            break
        cur, st = parent, pst
        steps += 1
    if steps == 0 or cur is cand.element:
        return cand
    wider = Candidate(element=cur, tier=cand.tier, source=f"{cand.source} widened x{steps}",
                      chars=st.chars, link_density=st.link_density, paragraphs=st.paragraphs,
                      score=cand.score, rank=cand.rank)
    validate(wider)
    if trace is not None:
        trace.append({"step": "expand", "from": cand.describe(), "to": wider.describe(),
                      "why": "ancestors add mostly content-like text"})
    return wider if wider.valid else cand


EXPAND_GOOD_SHARE = 0.5

SECTIONING_TAGS = ("article", "main", "section")


def _page_frame_children(el: etree._Element) -> list[etree._Element]:
    """Children of an element that belong to the page frame: a header, footer, navigation or
    aside outside any article/main/section (an article's own header, its title and byline, is
    not the frame)."""
    return [child for child in el if isinstance(child.tag, str)
            and (child.tag in CHROME_TAGS or child.get("role") in CHROME_ROLES)
            and not any(a.tag in SECTIONING_TAGS for a in child.iterancestors())]


def _frames_page(el: etree._Element) -> bool:
    """Whether an element directly holds part of the page frame, i.e. it is the site layout
    around the content column rather than the column."""
    return bool(_page_frame_children(el))


def _frame_good(parent: etree._Element, child: etree._Element,
                stats: dict[etree._Element, Stats]) -> int:
    """Content-like characters that widening from child to parent would take from the page
    frame (a site banner's tagline reads like a paragraph but is not content)."""
    return sum(stats[f].good for f in _page_frame_children(parent) if f is not child and f in stats)


COVERAGE_MIN = 0.4
COVERAGE_TARGET = 0.6
COVERAGE_TIERS = (TIER_DENSITY, TIER_PATTERN, TIER_SEMANTIC)
"""Tiers whose choice is widened when it holds little of the page (rules name the container)."""


def widen_to_coverage(cand: Candidate, page: etree._Element, stats: dict[etree._Element, Stats],
                      trace: list[dict[str, Any]] | None = None) -> Candidate:
    """When the chosen container holds little of the page's content-like text (sectioned service
    and landing pages), widen it to the lowest ancestor holding most of it."""
    page_st, st = stats.get(page), stats.get(cand.element)
    if page_st is None or st is None or page_st.good == 0:
        return cand
    if st.good >= COVERAGE_MIN * page_st.good:
        return cand
    framed = _frame_text_good(page, cand.element, stats)
    if framed and st.good >= COVERAGE_MIN * (page_st.good - framed):
        if trace is not None:
            trace.append({"step": "widen", "from": cand.describe(), "to": None,
                          "why": f"not widened: the choice holds {st.good / (page_st.good - framed):.0%} "
                                 "of the content-like text outside the footer, navigation and "
                                 "dialogs"})
        return cand
    frame = None
    for anc in cand.element.iterancestors():
        if anc is page or anc.tag in ("body", "html"):
            frame = page
            break
        ast = stats.get(anc)
        if ast is None or ast.link_density >= MAX_LINK_DENSITY:
            break
        if next(anc.iter("footer", "nav"), None) is not None:
            frame = anc  # reached the page frame: widening further would take the chrome along
            break
        if ast.good >= COVERAGE_TARGET * page_st.good:
            wider = Candidate(element=anc, tier=cand.tier,
                              source=f"{cand.source}, widened to {ast.good / page_st.good:.0%} "
                                     "of the page's content-like text",
                              chars=ast.chars, link_density=ast.link_density,
                              paragraphs=ast.paragraphs, score=cand.score, rank=cand.rank)
            validate(wider)
            if trace is not None:
                trace.append({"step": "widen", "from": cand.describe(), "to": wider.describe(),
                              "why": f"the choice held {st.good / page_st.good:.0%} of the "
                                     "page's content-like text"})
            return wider
    if frame is not None:
        return _frame_sections(cand, frame, page_st, stats, trace) or cand
    return cand


def _frame_text_good(page: etree._Element, choice: etree._Element,
                     stats: dict[etree._Element, Stats]) -> int:
    """Content-like characters of the page's footers, navigation and dialogs outside the
    choice (a privacy policy printed in a footer modal reads like content but is not the
    page's)."""
    framed = [el for el in page.iter() if isinstance(el.tag, str) and el in stats
              and (el.tag in FRAME_TAGS or el.get("role") in FRAME_ROLES
                   or el.get("aria-modal") == "true")
              and not contains(el, choice) and not contains(choice, el)]
    framed_set = set(framed)
    return sum(stats[el].good for el in framed
               if not any(a in framed_set for a in el.iterancestors()))


def widen_small_blocks(cands: list[Candidate], page: etree._Element,
                       stats: dict[etree._Element, Stats],
                       trace: list[dict[str, Any]] | None = None) -> tuple[Candidate | None, str]:
    """When no candidate validates because every block is short (landing pages of one-paragraph
    sections), the best density block widened to the page's content-like text, if that
    validates."""
    best = next((c for c in cands if c.tier == TIER_DENSITY), None)
    if best is None:
        return None, "no valid candidate"
    wider = widen_to_coverage(best, page, stats, trace)
    if wider is best or not wider.valid:
        return None, "no valid candidate"
    return wider, "no candidate validated; the best short block widened to the page's sections"


def _frame_sections(cand: Candidate, frame: etree._Element, page_st: Stats,
                    stats: dict[etree._Element, Stats],
                    trace: list[dict[str, Any]] | None) -> Candidate | None:
    """The page frame's sections without its header, footer, navigation and asides, joined,
    when they hold most of the page's content-like text (landing pages whose sections sit side
    by side with the site chrome; manuals written straight into <body>)."""
    chrome = _page_frame_children(frame)
    parts = [child for child in frame if child in stats and child not in chrome]
    st = Stats()
    for part in parts:
        pst = stats[part]
        st.chars += pst.chars
        st.link_chars += pst.link_chars
        st.paragraphs += pst.paragraphs
        st.good += pst.good
    if st.good < COVERAGE_TARGET * page_st.good \
            or st.link_density >= MAX_LINK_DENSITY:
        return None
    wrapper = lxml.html.Element("div")
    wrapper.set("class", "extracted-sections")
    for part in parts:
        wrapper.append(_detached_copy(part))
    stats[wrapper] = st
    wider = Candidate(element=wrapper, tier=cand.tier,
                      source=f"{cand.source}, widened to the {len(parts)} sections of the page "
                             f"frame ({st.good / page_st.good:.0%} of the content-like text)",
                      chars=st.chars, link_density=st.link_density, paragraphs=st.paragraphs,
                      score=cand.score, rank=cand.rank)
    validate(wider)
    if not wider.valid:
        return None
    if trace is not None:
        trace.append({"step": "widen", "from": cand.describe(), "to": wider.describe(),
                      "why": "the choice held little of the page's content-like text; the "
                             "frame's own header, footer, navigation and asides are left out"})
    return wider


NEARLY_MAX_LINK_DENSITY = 0.7


def nearly_valid(cands: list[Candidate]) -> Candidate | None:
    """The best density candidate that fails validation on link density alone (hub pages whose
    content is a list of links with short descriptions)."""
    for cand in cands:
        if cand.tier != TIER_DENSITY or cand.valid:
            continue
        if len(cand.reasons) == 1 and cand.reasons[0].startswith("link density") \
                and cand.link_density < NEARLY_MAX_LINK_DENSITY:
            return cand
    return None


MIN_LIST_CHARS = 1000
"""A linked list smaller than this is a menu or a hero section rather than a listing."""


def linked_item_list(cands: list[Candidate]) -> Candidate | None:
    """The page's own list container when it fails validation on link density alone: a grid of
    cards each wrapped in a link, or a ``main`` landmark made of them (listing and category
    pages whose content is the list itself)."""
    hubs = [c for c in cands if (c.repeated or c.element.tag == "main" or c.source == "[role=main]")
            and not c.valid and c.chars >= MIN_LIST_CHARS
            and len(c.reasons) == 1 and c.reasons[0].startswith("link density")]
    if not hubs:
        return None
    return max(hubs, key=lambda c: (c.repeated, c.chars))


MIN_GRID_ITEMS = 4
GRID_ITEMS_SHARE = 0.7
"""A grid is at least this many sibling items of one tag and class, holding this share of the
text of their parent, four in five of them linking out."""
MIN_GRID_ITEM_CHARS = 40
"""Items shorter than this on average are menu entries, not cards."""


def item_grid(page: etree._Element, stats: dict[etree._Element, Stats],
              scores: dict[etree._Element, float]) -> Candidate | None:
    """The largest grid of linked items: an element whose children repeat one tag and class,
    each holding a link, and together hold most of its text (product and category cards
    without content-like class names). On a page with a main landmark the grid must be in it
    (a "more like this" carousel under a product is not the page's list)."""
    mains = [m for m in page.iter("main")]
    best: tuple[int, etree._Element, int] | None = None
    for el, st in stats.items():
        if st.chars < 3 * MIN_CHARS or len(el) < MIN_GRID_ITEMS or st.nav_like:
            continue
        if mains and not any(contains(m, el) for m in mains):
            continue
        groups: dict[tuple[str, str], list[etree._Element]] = {}
        for child in el:
            if isinstance(child.tag, str):
                groups.setdefault((child.tag, child.get("class") or ""), []).append(child)
        for members in groups.values():
            if len(members) < MIN_GRID_ITEMS:
                continue
            chars = sum(stats[m].chars for m in members if m in stats)
            if chars < GRID_ITEMS_SHARE * st.chars or chars < MIN_GRID_ITEM_CHARS * len(members):
                continue
            linked = sum(1 for m in members if _links_out(m))
            if linked < 0.8 * len(members):
                continue
            if (best is None or st.chars > best[0]) and not _in_chrome(el):
                best = (st.chars, el, len(members))
    if best is None:
        return None
    _, el, count = best
    cand = make_candidate(el, TIER_PATTERN, f"grid of {count} linked items", stats, scores, 0)
    if cand is not None:
        cand.repeated = True
    return cand


def _links_out(item: etree._Element) -> bool:
    """Whether an item links to a page (itself a link, or holding one)."""
    return item.tag == "a" or any(a.get("href") for a in item.iter("a"))


MIN_DESCRIPTION_SHARE = 0.3
"""A product's description block replaces the whole product page when it holds at least this
share of the page's content-like text (a one-line teaser is not the description)."""


def product_description(cand: Candidate, stats: dict[etree._Element, Stats],
                        scores: dict[etree._Element, float],
                        names_pattern: re.Pattern[str] | None) -> Candidate | None:
    """On a product page, the block inside the choice whose class/id ``names_pattern`` marks as
    the description: the product's own text, without the purchase box, specifications, bundles
    and warranty notes printed around it."""
    st = stats.get(cand.element)
    if names_pattern is None or st is None or st.good == 0:
        return None
    best: tuple[int, etree._Element] | None = None
    for el in cand.element.iter():
        if el is cand.element or not isinstance(el.tag, str) or el not in stats:
            continue
        names = " ".join(filter(None, (el.get("class"), el.get("id"))))
        if not names or not names_pattern.search(names):
            continue
        good = stats[el].good
        if good >= MIN_DESCRIPTION_SHARE * st.good and (best is None or good > best[0]):
            best = (good, el)
    if best is None:
        return None
    found = make_candidate(best[1], TIER_PATTERN, f"product description inside {cand.source}",
                           stats, scores, 0)
    if found is None or not validate(found).valid:
        return None
    return found
