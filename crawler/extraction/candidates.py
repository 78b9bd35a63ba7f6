"""Tiers propose content candidates; each is validated into a :class:`Verdict`, then the stages of
:mod:`crawler.extraction.stages` choose one. Every number comes from a :class:`Thresholds`."""

from __future__ import annotations

import enum
import logging
from collections import ChainMap
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import lxml.html
from lxml import etree

from crawler.extraction.frameworks import CleaningRules, Detection, PageChrome, css
from crawler.extraction.name_patterns import NamePattern
from crawler.extraction.scoring import Stats, compute_stats
from crawler.extraction.thresholds import THRESHOLDS, Thresholds

logger = logging.getLogger(__name__)

# Tier names, most specific first; the order breaks ties only, validation and score decide.
TIER_RULES = "rules"
TIER_STRUCTURED = "structured"
TIER_SEMANTIC = "semantic"
TIER_PATTERN = "pattern"
TIER_DENSITY = "density"
TIER_TRAFILATURA = "trafilatura"
TIER_BODY = "body"

StatsMap = Mapping[etree._Element, Stats]
"""Text figures by element: the page's own, or a candidate's wrapper figures over the page's."""

HOOK_ATTRIBUTES = ("class", "id", "data-testid", "data-component", "data-module", "itemprop",
                   "data-qa", "data-test")


class Check(enum.Enum):
    """One validation check a candidate can fail."""

    NO_TEXT = "no_text"
    """A rule matched an element without text."""
    TOO_SHORT = "too_short"
    """No more than ``min_chars`` characters."""
    FEW_PARAGRAPHS = "few_paragraphs"
    """Fewer than ``min_paragraphs`` paragraphs and shorter than ``paragraphs_waived_chars``."""
    LINK_DENSITY = "link_density"
    """``max_link_density`` or more of the text in links."""
    DISAGREES_WITH_PAGE = "disagrees_with_page"
    """A declared articleBody whose words are mostly not on the page."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What validation found: the checks a candidate failed (none: it is valid)."""

    failed: frozenset[Check] = frozenset()

    @property
    def valid(self) -> bool:
        """Whether every check passed."""
        return not self.failed

    @property
    def fails_only_on_link_density(self) -> bool:
        """Whether link density is the one failed check ("nearly valid": hub and listing pages)."""
        return self.failed == _LINK_DENSITY_ONLY


_LINK_DENSITY_ONLY = frozenset({Check.LINK_DENSITY})
_ROLE_MAIN = etree.XPath('/descendant-or-self::*/@role[.="main"]/..')
"""The page's elements with ``role=main`` (found through the attribute axis: cheaper than
testing every element)."""
NOT_VALIDATED = Verdict(frozenset({Check.NO_TEXT}))
"""The verdict of a candidate nobody validated yet."""


@dataclass
class Candidate:
    """One proposed content container and what validation found.

    ``reasons`` are sentences for people (the trace); decisions read ``verdict`` only.
    ``own_stats`` holds the figures of elements the proposer built (a wrapper joining several
    matches), so proposers never write into the page's figures.
    """

    element: etree._Element
    tier: str
    source: str
    chars: int = 0
    link_density: float = 0.0
    paragraphs: int = 0
    score: float = 0.0
    verdict: Verdict = NOT_VALIDATED
    reasons: list[str] = field(default_factory=list)
    rank: int = 0
    repeated: bool = False
    own_stats: dict[etree._Element, Stats] | None = None

    @property
    def valid(self) -> bool:
        """Whether the candidate passed validation."""
        return self.verdict.valid

    def stats(self, page_stats: StatsMap) -> StatsMap:
        """The figures to read this candidate's elements with (its own wrapper's first)."""
        return ChainMap(self.own_stats, page_stats) if self.own_stats else page_stats

    def describe(self) -> dict[str, Any]:
        """The trace entry of this candidate."""
        el = self.element
        return {"tier": self.tier, "source": self.source, "tag": el.tag,
                "class": (el.get("class") or "")[:80], "id": el.get("id") or "",
                "chars": self.chars, "link_density": round(self.link_density, 3),
                "paragraphs": self.paragraphs, "score": round(self.score, 1),
                "valid": self.valid, "failed": sorted(c.value for c in self.verdict.failed),
                "reasons": list(self.reasons)}


def make_candidate(el: etree._Element, tier: str, source: str, stats: StatsMap,
                   scores: Mapping[etree._Element, float], rank: int,
                   own_stats: dict[etree._Element, Stats] | None = None) -> Candidate | None:
    """A Candidate for an element, with its text figures (None for elements outside the stats)."""
    st = own_stats.get(el) if own_stats else None
    if st is None:
        st = stats.get(el)
    if st is None:
        return None
    return Candidate(element=el, tier=tier, source=source, chars=st.chars,
                     link_density=st.link_density, paragraphs=st.paragraphs,
                     score=scores.get(el, 0.0), rank=rank, own_stats=own_stats)


def rule_candidates(tree: etree._Element, detection: Detection, stats: StatsMap,
                    scores: Mapping[etree._Element, float], t: Thresholds) -> list[Candidate]:
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
                cand = make_candidate(wrapper, TIER_RULES,
                                      f"{rule.source}: {selector.css} (x{len(matches)})",
                                      stats, scores, rank, own_stats=compute_stats(wrapper, t))
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


def semantic_candidates(tree: etree._Element, stats: StatsMap,
                        scores: Mapping[etree._Element, float],
                        t: Thresholds = THRESHOLDS) -> list[Candidate]:
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
        if stats[top].chars >= t.article_dominance * rest:
            out.append(make_candidate(top, TIER_SEMANTIC, f"article (largest of {len(articles)})", stats,
                             scores, 1))
    mains = [m for m in tree.iter("main") if m in stats]
    mains += [m for m in _ROLE_MAIN(tree) if m in stats and m.tag != "main"]
    for m in mains:
        out.append(make_candidate(m, TIER_SEMANTIC, "main" if m.tag == "main" else "[role=main]", stats,
                         scores, 2))
    return [c for c in out if c is not None]


def pattern_candidates(tree: etree._Element, stats: StatsMap,
                       scores: Mapping[etree._Element, float], cleaning: CleaningRules,
                       t: Thresholds = THRESHOLDS) -> list[Candidate]:
    """Candidates whose class, id or data hook matches ``content_name`` (the rules'
    ``content_name_pattern``): the largest few, and the common container of repeated ones."""
    content_name = cleaning.content_name_pattern
    if content_name is None:
        return []
    found: list[tuple[int, etree._Element, str]] = []
    named: dict[str, bool] = {}  # class values repeat: each is searched once
    for el, st in stats.items():
        if st.chars < t.min_chars or el.tag in ("html", "body", "a", "span", "p", "li", "ul"):
            continue
        for attr in HOOK_ATTRIBUTES:
            value = el.get(attr)
            if not value:
                continue
            hit = named.get(value)
            if hit is None:
                hit = named[value] = content_name.found(value)
            if hit:
                if not _in_frame(el, cleaning.chrome):  # a "prose" policy text in a footer modal is not content
                    found.append((st.chars, el, f"{attr}={value[:60]!r}"))
                break
    found.sort(key=lambda item: item[0], reverse=True)
    out = []
    for i, (_, el, source) in enumerate(found[:t.pattern_limit]):
        cand = make_candidate(el, TIER_PATTERN, source, stats, scores, i)
        if cand is not None:
            out.append(cand)
    out.extend(_repeated_containers(found, stats, scores, t))
    return out


def _repeated_containers(found: list[tuple[int, etree._Element, str]], stats: StatsMap,
                         scores: Mapping[etree._Element, float],
                         t: Thresholds) -> list[Candidate]:
    """The common container of content wrappers that repeat (forum posts, answers, cards)."""
    groups: dict[tuple[str, str], list[etree._Element]] = {}
    for _, el, _source in found:
        groups.setdefault((el.tag, el.get("class") or el.get("data-testid") or ""), []).append(el)
    out = []
    for (tag, name), members in groups.items():
        members = [m for m in members
                   if not any(a in members for a in m.iterancestors())]
        if len(members) < t.min_repeats:
            continue
        common = common_ancestor(members)
        if common is None or common.tag in ("html", "body") or common not in stats:
            continue
        members_good = sum(stats[m].good for m in members if m in stats)
        if members_good < t.repeated_items_share * stats[common].good:
            continue  # the items are a small part of their container (cards beside an article)
        cand = make_candidate(common, TIER_PATTERN, f"common container of {len(members)} x "
                     f"{tag}.{name[:40]!r}", stats, scores, 0)
        if cand is not None:
            cand.repeated = True
            out.append(cand)
    return out



def common_ancestor(elements: list[etree._Element]) -> etree._Element | None:
    """Lowest common ancestor of several elements."""
    paths = [list(reversed([e, *e.iterancestors()])) for e in elements]
    common = None
    for level in zip(*paths):
        if all(node is level[0] for node in level):
            common = level[0]
        else:
            break
    return common


def density_candidates(stats: StatsMap, scores: Mapping[etree._Element, float],
                       chrome: PageChrome, t: Thresholds = THRESHOLDS) -> list[Candidate]:
    """The best Readability-style scored containers outside page chrome (footer, nav, forms)."""
    ranked = sorted(scores.items(), key=lambda item: item[1], reverse=True)
    out = []
    for el, _ in ranked:
        if len(out) >= t.density_limit:
            break
        st = stats.get(el)
        if st is None or st.in_form or _in_chrome(el, chrome) or _frames_page(el, chrome):
            continue
        cand = make_candidate(el, TIER_DENSITY, f"density #{len(out) + 1}", stats, scores, len(out))
        if cand is not None:
            out.append(cand)
    return out


def _in_chrome(el: etree._Element, chrome: PageChrome) -> bool:
    """Whether an element is, or sits inside, the page's header, footer, navigation or aside."""
    for node in (el, *el.iterancestors()):
        if node.tag in chrome.tags or node.get("role") in chrome.roles:
            return True
    return False


def _in_frame(el: etree._Element, chrome: PageChrome) -> bool:
    """Whether an element sits in the page footer, the navigation or a modal dialog (headers and
    asides are left out: themes wrap whole pages in them)."""
    for node in (el, *el.iterancestors()):
        if node.tag in chrome.frame_tags or node.get("role") in chrome.frame_roles \
                or node.get("aria-modal") == "true":
            return True
    return False


def validate(cand: Candidate, t: Thresholds = THRESHOLDS) -> Candidate:
    """Check a candidate against the validation chain: its verdict (the failed checks) and, for
    people, a sentence per failed check."""
    failed: list[Check] = []
    reasons: list[str] = []
    if cand.tier == TIER_RULES:
        # A site or framework rule names the container exactly: short pages are still pages.
        if cand.chars == 0:
            failed.append(Check.NO_TEXT)
            reasons.append("rule matched an element without text")
        cand.verdict = Verdict(frozenset(failed))
        cand.reasons = reasons or ["rule match with text (rules skip the size checks)"]
        return cand
    if cand.chars <= t.min_chars:
        failed.append(Check.TOO_SHORT)
        reasons.append(f"text {cand.chars} <= {t.min_chars} chars")
    if cand.paragraphs < t.min_paragraphs and cand.chars < t.paragraphs_waived_chars:
        failed.append(Check.FEW_PARAGRAPHS)
        reasons.append(f"{cand.paragraphs} paragraphs < {t.min_paragraphs}")
    if cand.link_density >= t.max_link_density:
        failed.append(Check.LINK_DENSITY)
        reasons.append(f"link density {cand.link_density:.2f} >= {t.max_link_density}")
    cand.verdict = Verdict(frozenset(failed))
    cand.reasons = reasons or ["passes validation"]
    return cand


def contains(outer: etree._Element, inner: etree._Element) -> bool:
    """Whether inner is outer or one of its descendants."""
    if outer is inner:
        return True
    return any(a is outer for a in inner.iterancestors())


def choose(cands: list[Candidate], stats: StatsMap, chrome: PageChrome,
           trace: list[dict[str, Any]] | None = None,
           t: Thresholds = THRESHOLDS,
           extra_good: float | None = None) -> tuple[Candidate | None, str]:
    """Pick the content container: valid rules first, then the semantic/pattern candidate that best
    agrees with the (widened) density winner, then the density winner itself.

    ``extra_good`` is the share of content-like text a container holding the density winner
    must add to agree with it (``container_extra_good`` when not given)."""
    if extra_good is None:
        extra_good = t.container_extra_good
    valid = [c for c in cands if c.valid]
    rules = [c for c in valid if c.tier == TIER_RULES]
    if rules:
        return min(rules, key=lambda c: c.rank), "first valid site/framework rule"
    density = [expand(c, stats, chrome, trace, t) for c in valid if c.tier == TIER_DENSITY]
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
            added_good = good - best_good
            if extra <= t.container_extra_chars_share * best.chars \
                    or added_good >= extra_good * extra:
                agreeing.append((best_good / max(good, 1), c))
                c.reasons.append(f"contains the density winner; the rest is content-like "
                                 f"({added_good}/{extra} chars)")
            else:
                c.reasons.append(f"contains the density winner but adds mostly other text "
                                 f"({added_good}/{extra} content-like chars, "
                                 f"{extra_good:.0%} needed)")
        elif contains(best.element, c.element):
            share = good / best_good
            if share >= t.inside_share:
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
        agreeing.sort(key=lambda item: (-round(item[0], t.agreement_tie_decimals),
                                        tier_order.get(item[1].tier, len(tier_order))))
        return agreeing[0][1], "semantic/pattern candidate agreeing with the density winner"
    return best, "density winner (widened)"



def _good(cand: Candidate, stats: StatsMap) -> int:
    """Content-like characters of a candidate."""
    st = stats.get(cand.element)
    return st.good if st is not None else cand.chars


def expand(cand: Candidate, stats: StatsMap, chrome: PageChrome,
           trace: list[dict[str, Any]] | None = None, t: Thresholds = THRESHOLDS) -> Candidate:
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
        extra_good = pst.good - st.good - _frame_good(parent, cur, stats, chrome)
        if extra > 0 and not (extra_good >= t.expand_good_share * extra
                              and pst.link_density < t.max_link_density):
            break
        cur, st = parent, pst
        steps += 1
    if steps == 0 or cur is cand.element:
        return cand
    wider = Candidate(element=cur, tier=cand.tier, source=f"{cand.source} widened x{steps}",
                      chars=st.chars, link_density=st.link_density, paragraphs=st.paragraphs,
                      score=cand.score, rank=cand.rank)
    validate(wider, t)
    if trace is not None:
        trace.append({"step": "expand", "from": cand.describe(), "to": wider.describe(),
                      "why": "ancestors add mostly content-like text"})
    return wider if wider.valid else cand


SECTIONING_TAGS = ("article", "main", "section")


def _page_frame_children(el: etree._Element, chrome: PageChrome) -> list[etree._Element]:
    """Children of an element that belong to the page frame: a header, footer, navigation or
    aside outside any article/main/section (an article's own header, its title and byline, is
    not the frame)."""
    return [child for child in el if isinstance(child.tag, str)
            and (child.tag in chrome.tags or child.get("role") in chrome.roles)
            and not any(a.tag in SECTIONING_TAGS for a in child.iterancestors())]


def _frames_page(el: etree._Element, chrome: PageChrome) -> bool:
    """Whether an element directly holds part of the page frame, i.e. it is the site layout
    around the content column rather than the column."""
    return bool(_page_frame_children(el, chrome))


def _frame_good(parent: etree._Element, child: etree._Element, stats: StatsMap,
                chrome: PageChrome) -> int:
    """Content-like characters that widening from child to parent would take from the page
    frame (a site banner's tagline reads like a paragraph but is not content)."""
    return sum(stats[f].good for f in _page_frame_children(parent, chrome)
               if f is not child and f in stats)


COVERAGE_TIERS = (TIER_DENSITY, TIER_PATTERN, TIER_SEMANTIC)
"""Tiers whose choice is widened when it holds little of the page (rules name the container)."""


def widen_to_coverage(cand: Candidate, page: etree._Element, stats: StatsMap, chrome: PageChrome,
                      trace: list[dict[str, Any]] | None = None,
                      t: Thresholds = THRESHOLDS) -> Candidate:
    """When the chosen container holds little of the page's content-like text (sectioned service
    and landing pages), widen it to the lowest ancestor holding most of it."""
    page_st, st = stats.get(page), stats.get(cand.element)
    if page_st is None or st is None or page_st.good == 0:
        return cand
    if st.good >= t.coverage_min * page_st.good:
        return cand
    framed = _frame_text_good(page, cand.element, stats, chrome)
    if framed and st.good >= t.coverage_min * (page_st.good - framed):
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
        if ast is None or ast.link_density >= t.max_link_density:
            break
        if next(anc.iter("footer", "nav"), None) is not None:
            frame = anc  # reached the page frame: widening further would take the chrome along
            break
        if ast.good >= t.coverage_target * page_st.good:
            wider = Candidate(element=anc, tier=cand.tier,
                              source=f"{cand.source}, widened to {ast.good / page_st.good:.0%} "
                                     "of the page's content-like text",
                              chars=ast.chars, link_density=ast.link_density,
                              paragraphs=ast.paragraphs, score=cand.score, rank=cand.rank)
            validate(wider, t)
            if trace is not None:
                trace.append({"step": "widen", "from": cand.describe(), "to": wider.describe(),
                              "why": f"the choice held {st.good / page_st.good:.0%} of the "
                                     "page's content-like text"})
            return wider
    if frame is not None:
        return _frame_sections(cand, frame, page_st, stats, chrome, trace, t) or cand
    return cand


def _frame_text_good(page: etree._Element, choice: etree._Element, stats: StatsMap,
                     chrome: PageChrome) -> int:
    """Content-like characters of the page's footers, navigation and dialogs outside the
    choice (a privacy policy printed in a footer modal reads like content but is not the
    page's)."""
    framed = [el for el in page.iter() if isinstance(el.tag, str) and el in stats
              and (el.tag in chrome.frame_tags or el.get("role") in chrome.frame_roles
                   or el.get("aria-modal") == "true")
              and not contains(el, choice) and not contains(choice, el)]
    framed_set = set(framed)
    return sum(stats[el].good for el in framed
               if not any(a in framed_set for a in el.iterancestors()))


def widen_small_blocks(cands: list[Candidate], page: etree._Element, stats: StatsMap,
                       chrome: PageChrome, trace: list[dict[str, Any]] | None = None,
                       t: Thresholds = THRESHOLDS) -> tuple[Candidate | None, str]:
    """When no candidate validates because every block is short (landing pages of one-paragraph
    sections), the best density block widened to the page's content-like text, if that
    validates."""
    best = next((c for c in cands if c.tier == TIER_DENSITY), None)
    if best is None:
        return None, "no valid candidate"
    wider = widen_to_coverage(best, page, stats, chrome, trace, t)
    if wider is best or not wider.valid:
        return None, "no valid candidate"
    return wider, "no candidate validated; the best short block widened to the page's sections"


def _frame_sections(cand: Candidate, frame: etree._Element, page_st: Stats, stats: StatsMap,
                    chrome: PageChrome, trace: list[dict[str, Any]] | None,
                    t: Thresholds) -> Candidate | None:
    """The page frame's sections without its header, footer, navigation and asides, joined,
    when they hold most of the page's content-like text (landing pages whose sections sit side
    by side with the site chrome; manuals written straight into <body>)."""
    frame_chrome = _page_frame_children(frame, chrome)
    parts = [child for child in frame if child in stats and child not in frame_chrome]
    st = Stats()
    for part in parts:
        pst = stats[part]
        st.chars += pst.chars
        st.link_chars += pst.link_chars
        st.paragraphs += pst.paragraphs
        st.good += pst.good
    if st.good < t.coverage_target * page_st.good \
            or st.link_density >= t.max_link_density:
        return None
    wrapper = lxml.html.Element("div")
    wrapper.set("class", "extracted-sections")
    for part in parts:
        wrapper.append(_detached_copy(part))
    wider = Candidate(element=wrapper, tier=cand.tier,
                      source=f"{cand.source}, widened to the {len(parts)} sections of the page "
                             f"frame ({st.good / page_st.good:.0%} of the content-like text)",
                      chars=st.chars, link_density=st.link_density, paragraphs=st.paragraphs,
                      score=cand.score, rank=cand.rank, own_stats={wrapper: st})
    validate(wider, t)
    if not wider.valid:
        return None
    if trace is not None:
        trace.append({"step": "widen", "from": cand.describe(), "to": wider.describe(),
                      "why": "the choice held little of the page's content-like text; the "
                             "frame's own header, footer, navigation and asides are left out"})
    return wider


def nearly_valid(cands: list[Candidate], t: Thresholds = THRESHOLDS) -> Candidate | None:
    """The best density candidate that fails validation on link density alone (hub pages whose
    content is a list of links with short descriptions)."""
    for cand in cands:
        if cand.tier != TIER_DENSITY or cand.valid:
            continue
        if cand.verdict.fails_only_on_link_density \
                and cand.link_density < t.nearly_max_link_density:
            return cand
    return None


def linked_item_list(cands: list[Candidate], t: Thresholds = THRESHOLDS) -> Candidate | None:
    """The page's own list container when it fails validation on link density alone: a grid of
    cards each wrapped in a link, or a ``main`` landmark made of them (listing and category
    pages whose content is the list itself)."""
    hubs = [c for c in cands if (c.repeated or c.element.tag == "main" or c.source == "[role=main]")
            and c.chars >= t.min_list_chars and c.verdict.fails_only_on_link_density]
    if not hubs:
        return None
    return max(hubs, key=lambda c: (c.repeated, c.chars))


def children_by_shape(parent: etree._Element) -> dict[tuple[str, str], list[etree._Element]]:
    """``parent``'s element children grouped by tag and whole class string (the items of a
    grid or a row of cards share both), in document order."""
    groups: dict[tuple[str, str], list[etree._Element]] = {}
    for child in parent:
        if isinstance(child.tag, str):
            groups.setdefault((child.tag, child.get("class") or ""), []).append(child)
    return groups


def item_grid(page: etree._Element, stats: StatsMap, scores: Mapping[etree._Element, float],
              chrome: PageChrome, t: Thresholds = THRESHOLDS) -> Candidate | None:
    """The largest grid of linked items: an element whose children repeat one tag and class,
    each holding a link, and together hold most of its text (product and category cards
    without content-like class names). On a page with a main landmark the grid must be in it
    (a "more like this" carousel under a product is not the page's list)."""
    mains = [m for m in page.iter("main")]
    best: tuple[int, etree._Element, int] | None = None
    for el, st in stats.items():
        if st.chars < t.grid_min_chars or len(el) < t.min_grid_items or st.nav_like(t):
            continue
        if mains and not any(contains(m, el) for m in mains):
            continue
        for members in children_by_shape(el).values():
            if len(members) < t.min_grid_items:
                continue
            chars = sum(stats[m].chars for m in members if m in stats)
            if chars < t.grid_items_share * st.chars \
                    or chars < t.min_grid_item_chars * len(members):
                continue
            linked = sum(1 for m in members if _links_out(m))
            if linked < t.grid_linked_share * len(members):
                continue
            if (best is None or st.chars > best[0]) and not _in_chrome(el, chrome):
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


def product_description(cand: Candidate, stats: StatsMap, scores: Mapping[etree._Element, float],
                        names_pattern: NamePattern | None,
                        t: Thresholds = THRESHOLDS) -> Candidate | None:
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
        if not names or not names_pattern.found(names):
            continue
        good = stats[el].good
        if good >= t.min_description_share * st.good and (best is None or good > best[0]):
            best = (good, el)
    if best is None:
        return None
    found = make_candidate(best[1], TIER_PATTERN, f"product description inside {cand.source}",
                           stats, scores, 0)
    if found is None or not validate(found, t).valid:
        return None
    return found
