"""The container choice as an ordered list of named stages over one page record.

The proposers (site/framework rules, HTML5 semantics, class/id patterns, density scoring) fill
:attr:`PageAnalysis.candidates`; then :data:`STAGES` run in order, each a function
``(page, choice) -> Choice | None`` that either returns a new choice (applied) or ``None`` (left
as it was). :func:`run_stages` runs them and appends one :class:`Decision` per stage, applied or
not, so a trace shows every stage and the stage that decided, and a benchmark can switch any
stage off (``disabled``) to measure what it earns.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import lxml.html
from lxml import etree
from lxml.html import HtmlElement

from crawler.extraction import candidates as tiers
from crawler.extraction.candidates import Candidate, Check, Verdict
from crawler.extraction.frameworks import Detection, PageChrome, RuleSet
from crawler.extraction.name_patterns import NamePattern
from crawler.extraction.scoring import Stats, compute_stats
from crawler.extraction.thresholds import Thresholds

_WORD = re.compile(r"\w+")

PRODUCT_TYPES = frozenset({"product", "productgroup", "offer", "og:product"})
"""Declared types (JSON-LD/microdata ``@type``, ``og:type``) that make a page a product page."""


@dataclass(frozen=True)
class Choice:
    """The chosen content container and why, as one stage left it.

    ``fallback`` marks a choice made after no cheap candidate was chosen (trafilatura, or the
    grid that beats it): the stages that repair a fallback act on those only.
    """

    candidate: Candidate
    why: str
    fallback: bool = False


@dataclass(frozen=True)
class Declined:
    """A stage that ran and left the choice as it was: what it looked at and why it declined.
    For people (the trace): no code reads ``why``."""

    why: str


ALREADY_CHOSEN = Declined("a choice was already made (the stage fills in when nothing is)")
NOTHING_CHOSEN = Declined("nothing is chosen yet (the stage acts on a choice)")


STORY_PAGE_TYPE = "article"
"""The page type (declared as an article, or dated) on which a story's tail and its pictures'
captions are trimmed: on hub, service and documentation pages closing link lists and the text
beside pictures are content."""

@dataclass(frozen=True)
class Decision:
    """What one stage did to the choice: applied or not, why, the chosen candidate before and
    after it, and the thresholds it reads (described only when the trace asks: the record is
    kept for every page)."""

    stage: str
    applied: bool
    why: str
    before: Candidate | None
    after: Candidate | None
    uses: tuple[str, ...] = ()

    def as_dict(self, thresholds: Thresholds) -> dict[str, Any]:
        """The decision as plain data (the trace's ``decisions`` list)."""
        return {"stage": self.stage, "applied": self.applied, "why": self.why,
                "before": self.before.describe() if self.before is not None else None,
                "after": self.after.describe() if self.after is not None else None,
                "thresholds_used": thresholds.pick(self.uses)}


@dataclass
class PageAnalysis:
    """One page as the extraction sees it: the trees, their figures, what the page declares, the
    candidates and the decisions taken on it.

    ``tree`` is the untouched parse (metadata and trafilatura read it); ``body`` is the body of a
    working tree with scripts and hidden markup removed (candidates point into it).
    """

    url: str
    untouched: Callable[[], HtmlElement]
    """Gives the untouched parse (:attr:`tree`), when first asked for."""
    body: HtmlElement
    stats: dict[etree._Element, Stats]
    scores: dict[etree._Element, float]
    rules: RuleSet
    detection: Detection
    thresholds: Thresholds
    structured: Any = None
    metadata: Any = None
    candidates: list[Candidate] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    trace: list[dict[str, Any]] | None = None
    comments: HtmlElement | None = None
    """The reader-comment sections taken out of ``body`` before the choice (rendered apart)."""
    discussion_posts: NamePattern | None = None
    """On a discussion page, the names of the blocks holding its replies (neither discounted in
    the choice nor removed by name); None elsewhere."""

    @property
    def declared_types(self) -> frozenset[str]:
        """The page's declared types: JSON-LD/microdata ``@type``s and ``og:type``, lower-case."""
        sd = self.structured
        if sd is None:
            return frozenset()
        declared = {t.lower() for t in sd.types}
        og_type = (sd.og.get("type") or "").lower()
        if og_type:
            declared.add(og_type)
        return frozenset(declared)

    @property
    def is_product(self) -> bool:
        """Whether the page declares itself a product (never guessed from the URL path)."""
        return bool(self.declared_types & PRODUCT_TYPES)

    @property
    def chrome(self) -> PageChrome:
        """The tags and roles of the page's chrome, as the rules name them."""
        return self.rules.cleaning.chrome

    @cached_property
    def tree(self) -> HtmlElement:
        """The untouched parse of the page: the working tree may be the first parse itself,
        changed in place, and then the page is parsed again for the few stages that read it
        (the trafilatura fallback)."""
        return self.untouched()

    @cached_property
    def item_grid(self) -> Candidate | None:
        """The page's grid of linked cards outside the chrome, or None: read once, as the
        listing-grid and fallback-grid stages each ask for it."""
        return tiers.item_grid(self.body, self.stats, self.scores, self.chrome, self.thresholds)

    def add(self, cand: Candidate) -> Candidate:
        """Record a candidate a stage built (so the trace lists it)."""
        self.candidates.append(cand)
        return cand


StageFunction = Callable[[PageAnalysis, "Choice | None"], "Choice | Declined"]


@dataclass(frozen=True)
class Stage:
    """One named step of the choice: when it acts, what it does, which thresholds it reads.

    ``run`` returns the new choice (applied) or a :class:`Declined` saying why it left the
    choice as it was."""

    name: str
    run: StageFunction
    runs_when: str
    """For people: the condition under which the stage acts (the README's stage table)."""
    uses: tuple[str, ...] = ()


# --------------------------------------------------------------------------- the stages

PAGE_AGREE_RULE = "page-agree"
"""The rule's name in the trace and the ablation: on a page that is no article, a container
holding the density winner agrees with it on a lower share of content-like added text."""


def agreement_extra_good(page: PageAnalysis) -> float:
    """The share of content-like text a semantic/pattern container holding the density winner
    must add to agree with it. On an article, ``container_extra_good``: what a landmark adds
    around a story is mostly its chrome (a byline, a share row, a teaser rail). On any other
    page ("page-agree": a category, listing, product or service page, or a page of unknown
    type), ``container_extra_good_page``: the density winner is one section or card of the
    page's content and the landmark holding it adds the others, written as shorter blocks."""
    t = page.thresholds
    if page.metadata is not None and page.metadata.page_type == STORY_PAGE_TYPE:
        return t.container_extra_good
    return t.container_extra_good_page


def agree(page: PageAnalysis, choice: Choice | None) -> Choice | Declined:
    """The first valid rule, else the semantic/pattern candidate agreeing with the (widened)
    density winner, else the density winner."""
    if choice is not None:
        return ALREADY_CHOSEN
    extra_good = agreement_extra_good(page)
    chosen, why = tiers.choose(page.candidates, page.stats, page.chrome, page.trace,
                              page.thresholds, extra_good)
    if chosen is None:
        counted = ", ".join(f"{n} {tier}" for tier, n in _tier_counts(page.candidates)) or "none"
        return Declined(f"{why}: none of the proposed candidates ({counted}) passes validation")
    if extra_good != page.thresholds.container_extra_good:
        why += (f" ({PAGE_AGREE_RULE}: no article, a container agrees when {extra_good:.0%} of "
                f"what it adds is content-like)")
    return Choice(chosen, why)


def _tier_counts(cands: list[Candidate]) -> list[tuple[str, int]]:
    """How many candidates each tier proposed, in the order the tiers first appear."""
    counts: dict[str, int] = {}
    for cand in cands:
        counts[cand.tier] = counts.get(cand.tier, 0) + 1
    return list(counts.items())


def _not_widened_tier(choice: Choice) -> Declined:
    """Why a stage that reshapes density, pattern and semantic choices leaves this one."""
    return Declined(f"the choice comes from the {choice.candidate.tier} tier (the stage reshapes "
                    f"density, pattern and semantic choices only)")


def _good_share(page: PageAnalysis, cand: Candidate) -> float | None:
    """The share of the page's content-like text the candidate holds (None when unknown)."""
    page_st, st = page.stats.get(page.body), cand.stats(page.stats).get(cand.element)
    if page_st is None or st is None or page_st.good == 0:
        return None
    return st.good / page_st.good


def widen_to_coverage(page: PageAnalysis, choice: Choice | None) -> Choice | Declined:
    """A chosen block holding little of the page's content-like text, widened to the ancestor
    (or the page frame's sections) holding most of it."""
    if choice is None:
        return NOTHING_CHOSEN
    if choice.candidate.tier not in tiers.COVERAGE_TIERS:
        return _not_widened_tier(choice)
    t = page.thresholds
    wider = tiers.widen_to_coverage(choice.candidate, page.body, page.stats, page.chrome,
                                    page.trace, t)
    if wider is not choice.candidate:
        return Choice(wider, "the choice held little of the page's content-like text; widened")
    share = _good_share(page, choice.candidate)
    if share is None:
        return Declined("the page has no content-like text to measure the choice against")
    if share >= t.coverage_min:
        return Declined(f"the choice holds {share:.0%} of the page's content-like text "
                        f"(coverage_min {t.coverage_min:.0%} is enough)")
    return Declined(f"the choice holds {share:.0%} of the page's content-like text, but no "
                    f"ancestor below a link-dense block or the page frame holds "
                    f"{t.coverage_target:.0%} of it (or the choice holds enough of the text "
                    f"outside footers, navigation and dialogs)")


def larger_item_grid(page: PageAnalysis, choice: Choice | None) -> Choice | Declined:
    """The page's grid of linked cards when it lies outside the chosen block and holds far more
    text than it (a category page whose short intro won the density score). Never on a page
    declaring an article: there a grid outside the story is a rail of other stories or the
    site's menu, however long."""
    grid = _grid_outside(page, choice, refuse_story=True)
    if isinstance(grid, Declined):
        return grid
    t = page.thresholds
    chosen = choice.candidate
    if grid.chars <= t.grid_over_choice * chosen.chars:
        return Declined(f"the page's grid of linked items ({grid.source}) holds "
                        f"{grid.chars / max(chosen.chars, 1):.1f}x the choice's text, not over "
                        f"grid_over_choice {t.grid_over_choice:g}x")
    if tiers.contains(grid.element, chosen.element) \
            or tiers.contains(chosen.element, grid.element):
        return Declined("the page's grid of linked items and the choice hold one another")
    page.add(tiers.validate(grid, t))
    return Choice(grid, f"a grid of linked items outside the choice holds over "
                        f"{t.grid_over_choice:g}x its text (a listing page)")


def _grid_outside(page: PageAnalysis, choice: Choice | None,
                  refuse_story: bool = False) -> Candidate | Declined:
    """The page's grid of linked cards, for a stage that sets it against a density, pattern or
    semantic choice that is not itself a container of repeated items (and, with
    ``refuse_story``, not on an article, where a grid beside the story is a teaser rail)."""
    if choice is None:
        return NOTHING_CHOSEN
    if choice.candidate.tier not in tiers.COVERAGE_TIERS:
        return _not_widened_tier(choice)
    if refuse_story and page.metadata is not None \
            and page.metadata.page_type == STORY_PAGE_TYPE:
        return Declined("an article: a grid beside the story is a teaser rail, not its list")
    if choice.candidate.repeated:
        return Declined("the choice is already a container of repeated items")
    grid = page.item_grid
    if grid is None:
        return _no_grid(page.thresholds)
    return grid


def _no_grid(t: Thresholds) -> Declined:
    """Why no grid of linked items was found."""
    return Declined(f"the page has no grid of linked items (at least {t.min_grid_items} linked "
                    f"siblings of one tag and class holding {t.grid_items_share:.0%} of a "
                    f"container of {t.grid_min_chars}+ characters, outside the chrome)")


def widen_small_blocks(page: PageAnalysis, choice: Choice | None) -> Choice | Declined:
    """No candidate validated because every block is short: the best density block widened to
    the page's content-like text, if that validates."""
    if choice is not None:
        return ALREADY_CHOSEN
    wider, why = tiers.widen_small_blocks(page.candidates, page.body, page.stats, page.chrome,
                                          page.trace, page.thresholds)
    if wider is not None:
        return Choice(wider, why)
    if not any(c.tier == tiers.TIER_DENSITY for c in page.candidates):
        return Declined("no density candidate to widen")
    return Declined("the best density block, widened to the page's content-like text, does "
                    "not validate (or holds enough of it already)")


def product_description(page: PageAnalysis, choice: Choice | None) -> Choice | Declined:
    """On a page that declares itself a product, its description block inside the choice."""
    if choice is None:
        return NOTHING_CHOSEN
    if choice.candidate.tier not in tiers.COVERAGE_TIERS:
        return _not_widened_tier(choice)
    if not page.is_product:
        declared = ", ".join(sorted(page.declared_types)) or "none"
        return Declined(f"the page declares no product type (declared types: {declared})")
    t = page.thresholds
    description = tiers.product_description(
        choice.candidate, page.stats, page.scores,
        page.rules.cleaning.product_description_pattern, t)
    if description is None:
        return Declined(f"no block named as a description inside the choice holds "
                        f"{t.min_description_share:.0%} of its content-like text and validates")
    page.add(description)
    return Choice(description, "a product page: its description block inside the choice")


def structured_article_body(page: PageAnalysis, choice: Choice | None) -> Choice | Declined:
    """No container validated: the declared articleBody, when most of its words are on the
    page."""
    sd = page.structured
    if choice is not None:
        return ALREADY_CHOSEN
    if sd is None or not sd.article_body:
        return Declined("the page declares no articleBody")
    t = page.thresholds
    page_words = set(_WORD.findall(" ".join(page.body.itertext()).lower()))
    cand = _article_body_candidate(sd.article_body, page_words, t)
    if cand is None:
        return Declined(f"the declared articleBody ({len(sd.article_body)} characters) is "
                        f"shorter than article_body_min_chars {t.article_body_min_chars}, or "
                        f"has no words")
    return _choose_if_valid(page, cand, "the declared articleBody",
                            "no container validated; structured articleBody agrees")


def _choose_if_valid(page: PageAnalysis, cand: Candidate, what: str,
                     why: str) -> Choice | Declined:
    """Add a candidate a stage built to the page's candidates (the trace lists it) and choose
    it when it validates; else say which checks ``what`` failed."""
    page.add(cand)
    if not cand.valid:
        return Declined(f"{what} fails: {'; '.join(cand.reasons)}")
    return Choice(cand, why)


def _article_body_candidate(article_body: str, page_words: set[str],
                            t: Thresholds) -> Candidate | None:
    """A candidate built from JSON-LD/microdata articleBody, validated; it fails
    :attr:`Check.DISAGREES_WITH_PAGE` when too few of its words are on the page."""
    if len(article_body) < t.article_body_min_chars:
        return None
    words = _WORD.findall(article_body.lower())
    if not words:
        return None
    agreement = sum(1 for w in words if w in page_words) / len(words)
    wrapper = lxml.html.Element("div")
    for line in article_body.splitlines():
        if line.strip():
            etree.SubElement(wrapper, "p").text = line.strip()
    cand = tiers.make_candidate(wrapper, tiers.TIER_STRUCTURED,
                                f"articleBody ({agreement:.0%} of words on the page)",
                                {wrapper: _text_stats(article_body, t)}, {}, 0)
    if cand is None:
        return None
    tiers.validate(cand, t)
    if agreement < t.article_body_agreement:
        cand.verdict = Verdict(cand.verdict.failed | {Check.DISAGREES_WITH_PAGE})
        cand.reasons = [r for r in cand.reasons if r != "passes validation"]
        cand.reasons.append("articleBody does not agree with the page text")
    return cand


def _text_stats(text: str, t: Thresholds) -> Stats:
    """Figures of a plain text (no links)."""
    return Stats(chars=len("".join(text.split())), commas=text.count(","),
                 paragraphs=sum(1 for line in text.splitlines()
                                 if len(line.strip()) >= t.paragraph_min_chars))


def linked_item_list(page: PageAnalysis, choice: Choice | None) -> Choice | Declined:
    """No container validated: the page's own list container failing on link density alone (a
    listing page of linked items)."""
    if choice is not None:
        return ALREADY_CHOSEN
    hub = tiers.linked_item_list(page.candidates, page.thresholds)
    if hub is None:
        return Declined(f"no list container (repeated items, or the main landmark) of "
                        f"min_list_chars {page.thresholds.min_list_chars}+ characters fails on "
                        f"link density alone")
    return Choice(hub, "no container validated; the page's own list container fails only on "
                       "link density (a listing page of linked items)")


def trafilatura_fallback(page: PageAnalysis, choice: Choice | None) -> Choice | Declined:
    """No cheap candidate chosen: trafilatura on the untouched tree, fast mode first, the full
    mode when the fast result does not validate; not run on a page of more than
    ``fallback_max_elements`` elements, whose cost it would dominate."""
    if choice is not None:
        return ALREADY_CHOSEN
    # counted in the tree trafilatura reads, the untouched parse: the working body leaves out
    # what no reader sees (a <template> of 100,000 elements)
    elements = sum(1 for _ in page.tree.iter(etree.Element))
    most = page.thresholds.fallback_max_elements
    if elements > most:
        return Declined(f"a page of {elements} elements, over fallback_max_elements {most}: "
                        f"trafilatura is not run (its cost on such a page passed the "
                        f"extraction timeout); the stages after it choose")
    cand = _trafilatura_candidate(page)
    if cand is None:
        return Declined("trafilatura found no main content (fast and full modes)")
    page.add(cand)
    if cand.chars <= 0:
        return Declined("trafilatura's main content has no text")
    return Choice(cand, "no cheap candidate validated; trafilatura found text", fallback=True)


def _trafilatura_candidate(page: PageAnalysis) -> Candidate | None:
    """trafilatura's main content as a candidate (the last one tried when none validates). The
    full mode is run only on a page of at most ``fallback_full_mode_max_elements`` elements: it
    repeats the fast mode's extraction, so on a large page (a link farm) the two took twice the
    time the page is worth."""
    cand = None
    modes = (True, False) if len(page.stats) <= page.thresholds.fallback_full_mode_max_elements \
        else (True,)
    for fast in modes:
        element = _trafilatura_element(page.tree, page.url, fast=fast)
        if element is None:
            continue
        cand = tiers.make_candidate(element, tiers.TIER_TRAFILATURA,
                                    "trafilatura.extract" + (" (fast)" if fast else ""),
                                    compute_stats(element, page.thresholds), {}, 0)
        if cand is not None:
            tiers.validate(cand, page.thresholds)
            if cand.valid:
                return cand
    return cand


def _trafilatura_element(tree: HtmlElement, url: str, fast: bool) -> HtmlElement | None:
    """trafilatura's main content of the original tree, as an element (None when it finds none)."""
    import trafilatura

    try:
        html = trafilatura.extract(tree, url=url, output_format="html", include_links=True,
                                   include_tables=True, include_images=False,
                                   include_comments=False, with_metadata=False, fast=fast)
    except Exception:  # noqa: BLE001 - the fallback must never raise
        return None
    if not html:
        return None
    try:
        fragment = lxml.html.fragment_fromstring(html, create_parent="div")
    except (etree.ParserError, ValueError):
        return None
    body = fragment.find(".//body")
    return body if body is not None else fragment


def grid_over_fallback(page: PageAnalysis, choice: Choice | None) -> Choice | Declined:
    """When the choice fell back (or nothing was chosen), the page's grid of linked cards if it
    holds far more text than the fallback (the fallback kept a category page's intro)."""
    if choice is not None and not choice.fallback:
        return CHEAP_CHOICE
    t = page.thresholds
    grid = page.item_grid
    if grid is None:
        return _no_grid(t)
    page.add(tiers.validate(grid, t))
    grid = tiers.expand(grid, page.stats, page.chrome, page.trace, t)
    if choice is not None and grid.chars <= t.grid_over_fallback * choice.candidate.chars:
        return Declined(f"the page's grid of linked items holds "
                        f"{grid.chars / max(choice.candidate.chars, 1):.1f}x the fallback's "
                        f"text, not over grid_over_fallback {t.grid_over_fallback:g}x")
    return Choice(grid, f"no container validated; a grid of linked items holds over "
                        f"{t.grid_over_fallback:g}x the fallback's text (a listing page)",
                  fallback=True)


CHEAP_CHOICE = Declined("a cheap candidate was chosen (the stage repairs fallback choices)")


def nearly_valid(page: PageAnalysis, choice: Choice | None) -> Choice | Declined:
    """Nothing valid chosen: the best density candidate failing on link density alone (a hub
    page), unless the fallback failed fewer checks."""
    if choice is not None and not choice.fallback:
        return CHEAP_CHOICE
    if choice is not None and choice.candidate.valid:
        return Declined("the fallback choice passes validation")
    near = tiers.nearly_valid(page.candidates, page.thresholds)
    if near is None:
        return Declined(f"no density candidate fails on link density alone below "
                        f"nearly_max_link_density {page.thresholds.nearly_max_link_density:g}")
    if choice is not None and len(near.verdict.failed) > len(choice.candidate.verdict.failed):
        return Declined("the fallback choice fails fewer checks than the nearly valid "
                        "density candidate")
    return Choice(near, "nothing validated; the page's own best container fails only on link "
                        "density (a hub page)")


def whole_body(page: PageAnalysis, choice: Choice | None) -> Choice | Declined:
    """Nothing chosen at all: the whole body, as a last resort."""
    if choice is not None:
        return ALREADY_CHOSEN
    whole = tiers.make_candidate(page.body, tiers.TIER_BODY, "body", page.stats, page.scores, 0)
    if whole is None or whole.chars <= 0:
        return Declined("the body has no text")
    page.add(tiers.validate(whole, page.thresholds))
    return Choice(whole, "nothing validated; whole body as last resort")


STAGES: tuple[Stage, ...] = (
    Stage("agree", agree, "always (first stage)",
          ("container_extra_chars_share", "container_extra_good", "container_extra_good_page",
           "inside_share",
           "expand_good_share", "max_link_density")),
    Stage("coverage", widen_to_coverage,
          "a density, pattern or semantic choice holding little of the page's text",
          ("coverage_min", "coverage_target", "max_link_density")),
    Stage("listing-grid", larger_item_grid,
          "a density, pattern or semantic choice that is not a container of repeated items, on "
          "a page that is no article",
          ("grid_over_choice", "grid_min_chars", "min_grid_items", "grid_items_share",
           "min_grid_item_chars", "grid_linked_share")),
    Stage("short-blocks", widen_small_blocks, "nothing chosen yet",
          ("coverage_min", "coverage_target", "max_link_density")),
    Stage("product", product_description,
          "a density, pattern or semantic choice on a page declaring a product type",
          ("min_description_share",)),
    Stage("article-body", structured_article_body,
          "nothing chosen yet and the page declares an articleBody",
          ("article_body_min_chars", "article_body_agreement")),
    Stage("linked-list", linked_item_list, "nothing chosen yet", ("min_list_chars",)),
    Stage("trafilatura", trafilatura_fallback, "nothing chosen yet"),
    Stage("fallback-grid", grid_over_fallback, "nothing chosen yet, or trafilatura's choice",
          ("grid_over_fallback", "grid_min_chars", "min_grid_items", "grid_items_share",
           "min_grid_item_chars", "grid_linked_share")),
    Stage("nearly-valid", nearly_valid,
          "nothing chosen yet, or a fallback choice that fails validation",
          ("nearly_max_link_density",)),
    Stage("whole-body", whole_body, "nothing chosen yet"),
)
"""The stages of the choice, in the order they run."""

STAGE_NAMES: tuple[str, ...] = tuple(stage.name for stage in STAGES)


def run_stages(page: PageAnalysis, stages: tuple[Stage, ...] = STAGES,
               disabled: frozenset[str] = frozenset()) -> Choice | None:
    """Run the stages in order over the page; one :class:`Decision` per stage on the page."""
    choice: Choice | None = None
    for stage in stages:
        before = choice.candidate if choice is not None else None
        if stage.name in disabled:
            page.decisions.append(Decision(stage.name, False, "switched off", before, before,
                                           stage.uses))
            continue
        after = stage.run(page, choice)
        if isinstance(after, Declined):
            page.decisions.append(Decision(stage.name, False, after.why, before, before,
                                           stage.uses))
            continue
        page.decisions.append(Decision(stage.name, True, after.why, before, after.candidate,
                                       stage.uses))
        choice = after
    return choice


def unknown_stages(names: Mapping[str, Any] | frozenset[str] | set[str]) -> list[str]:
    """The names that are no stage (to refuse a bad ``disabled_stages``)."""
    return sorted(set(names) - set(STAGE_NAMES))
