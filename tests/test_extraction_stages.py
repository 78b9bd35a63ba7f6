"""The container choice as named stages: which stage decided each kind of page, the decision
record of every stage, verdicts instead of reason strings, switching stages off, thresholds."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import crawler.extraction
import crawler.extraction.thresholds

from crawler.extraction import STAGE_NAMES, THRESHOLDS, extract
from crawler.extraction.candidates import Candidate, Check, Verdict, nearly_valid, validate
from crawler.extraction.thresholds import Thresholds

WORDS = ["moorings", "tides", "pilots", "cranes", "ferries", "locks", "buoys", "quays", "tugs",
         "berths", "sluices", "wharves", "beacons", "slipways", "dredgers", "harbourmasters"]


def para(i: int) -> str:
    """A content paragraph no other paragraph repeats."""
    return (f"<p>Paragraph {i} explains the harbour's {WORDS[i % 16]} in plain words, with the "
            f"rules visitors need on day {i}, and where to find the office that handles "
            f"{WORDS[(i + 3) % 16]}.</p>")


def paras(start: int, stop: int) -> str:
    return "".join(para(i) for i in range(start, stop))


def card(i: int) -> str:
    """A linked card of a listing grid."""
    return (f'<div class="card"><a href="/item/{i}"><h3>Item number {i} of the catalogue of '
            f'harbour supplies</h3></a><span>Item {i}.</span></div>')


def list_card(i: int) -> str:
    return (f'<li class="card"><a href="/item/{i}">Item number {i} of the catalogue, with '
            f'{WORDS[i % 16]} and more</a></li>')


ARTICLE_BODY = "\\n".join(f"Line {i}: the harbour reopened on Monday after the storm, said the "
                          f"{WORDS[i % 16]} office." for i in range(12))
ARTICLE_TEXT = " ".join(f"Line {i}: the harbour reopened on Monday after the storm, said the "
                        f"{WORDS[i % 16]} office." for i in range(12))
PRODUCT_PAGE = ('<html><head>{declaration}</head><body><main><div class="buy">' + para(0)
                + '<button>Add to cart</button></div><div class="product-description">'
                + paras(1, 4) + '</div><div class="specs">' + paras(4, 6)
                + "</div></main></body></html>")
def dense_para(i: int) -> str:
    """A paragraph of long, comma-rich prose: it wins the density score."""
    return (f"<p>Paragraph {i}, on the {WORDS[i % 16]}, says this, and that, and more, with "
            f"commas, many of them, so that, in the end, the block scores high, as dense prose "
            f"does, in any scorer, and wins.</p>")


def service(i: int) -> str:
    return f"<p>Service {i} covers the {WORDS[i % 16]} of the harbour for every visitor.</p>"


# A dense lead in an article, a block of short labels, then eight short sections: the lead wins
# the density score and its article agrees, but holds under coverage_min of the content-like
# text (the labels keep the density winner from widening by itself).
SERVICE_PAGE = ("<html><body><div class='wrap'><article><div><div><div>"
                + "".join(dense_para(i) for i in range(3)) + "</div></div></div></article>"
                + "<div class='labels'>" + "".join(f"<span>label {i}</span> " for i in range(150))
                + "</div>" + "".join(f"<div class='part'><div>{service(i)}{service(i + 20)}"
                                     f"</div></div>" for i in range(8))
                + "</div></body></html>")
PRODUCT_DECLARED = '<script type="application/ld+json">{"@type":"Product","name":"Kettle"}</script>'

# name, html, url, stages switched off, deciding stage, text that must stay, text that must go
CASES = [
    ("article", f"<html><body><nav><a href='/'>Home</a> <a href='/about'>About us</a></nav>"
                f"<article>{paras(0, 4)}</article><footer>Harbour authority footer</footer>"
                f"</body></html>", "https://example.org/a", (), "agree",
     "Paragraph 3 explains", "Harbour authority footer"),
    ("category page: intro beside a grid", f"<html><body><div class='intro'>{paras(0, 2)}</div>"
     f"<div class='grid'>{''.join(card(i) for i in range(30))}</div></body></html>",
     "https://example.org/c", (), "listing-grid", "Item number 29 of the catalogue", None),
    ("landing page of short sections", "<html><body>" + "".join(
        f"<section><h2>Part {i}</h2><p>One short sentence about part {i} of our service "
        f"offer.</p></section>" for i in range(8)) + "</body></html>",
     "https://example.org/s", (), "short-blocks", "part 7 of our service offer", None),
    ("declared product", PRODUCT_PAGE.format(declaration=PRODUCT_DECLARED),
     "https://example.org/pages/kettle", (), "product", "Paragraph 3 explains",
     "Paragraph 0 explains"),
    ("articleBody, no container", '<html><head><script type="application/ld+json">'
     '{"@type":"NewsArticle","articleBody":"' + ARTICLE_BODY + '"}</script></head><body><div>'
     f"<span>{ARTICLE_TEXT}</span></div></body></html>", "https://example.org/n", (),
     "article-body", "Line 11: the harbour reopened", None),
    ("main landmark of linked stories", "<html><body><main>" + "".join(
        f'<a href="/p/{i}"><h3>Story {i}: the harbour reopened after the storm season</h3>'
        f'<p>Read how the port handled traffic {i}.</p></a>' for i in range(20))
     + "</main><footer>Harbour authority footer</footer></body></html>", "https://example.org/l",
     (), "linked-list", "Story 19: the harbour reopened", "Harbour authority footer"),
    ("short note", "<html><body><span>Just a short note about the harbour.</span></body></html>",
     "https://example.org/t", (), "trafilatura", "a short note about the harbour", None),
    ("grid, trafilatura off", "<html><body><p>Our catalogue.</p><ul class='grid'>"
     + "".join(list_card(i) for i in range(30)) + "</ul></body></html>",
     "https://example.org/g", ("trafilatura",), "fallback-grid", "Item number 29", None),
    ("hub of linked guides, trafilatura off", "<html><body><div class='hub'>" + "".join(
        f'<p><a href="/g/{i}">Guide {i} to the harbour {WORDS[i % 16]}</a> explains it well.</p>'
        for i in range(12)) + "</div></body></html>", "https://example.org/h", ("trafilatura",),
     "nearly-valid", "Guide 11 to the harbour", None),
    ("short note, trafilatura off", "<html><body><span>Just a short note about the harbour."
     "</span></body></html>", "https://example.org/w", ("trafilatura",), "whole-body",
     "a short note about the harbour", None),
    ("service page: a dense lead beside short sections", SERVICE_PAGE,
     "https://example.org/services", (), "coverage", "Service 7 covers the quays", None),
]


@pytest.mark.parametrize("name, html, url, off, stage, stays, goes", CASES,
                         ids=[c[0] for c in CASES])
def test_the_stage_that_decided(name: str, html: str, url: str, off: tuple[str, ...], stage: str,
                                stays: str, goes: str | None) -> None:
    result = extract(html, url, trace=True, disabled_stages=set(off))
    decisions = result.decisions or []
    assert [d["stage"] for d in decisions] == list(STAGE_NAMES)  # every stage, in order
    applied = [d for d in decisions if d["applied"]]
    assert applied and applied[-1]["stage"] == stage
    assert all(d["why"] for d in decisions)
    assert stays in result.content_text
    if goes is not None:
        assert goes not in result.content_text
    for d in decisions:
        if d["stage"] in off:
            assert not d["applied"] and d["why"] == "switched off"


# name, page, url, stage, words its why must hold (what it looked at), when it did not apply
DECLINED = [
    ("article", CASES[0][1], "https://example.org/a", "coverage",
     ["% of the page's content-like text", "coverage_min"]),
    ("article", CASES[0][1], "https://example.org/a", "listing-grid", ["no grid of linked items"]),
    ("article", CASES[0][1], "https://example.org/a", "product", ["declares no product type"]),
    ("article", CASES[0][1], "https://example.org/a", "trafilatura", ["already"]),
    ("article", CASES[0][1], "https://example.org/a", "fallback-grid", ["cheap candidate"]),
    ("service page", SERVICE_PAGE, "https://example.org/services", "coverage", []),
    ("category page", CASES[1][1], "https://example.org/c", "coverage",
     ["coverage_min"]),
    ("short note, trafilatura off", CASES[-2][1], "https://example.org/w", "linked-list",
     ["min_list_chars"]),
    ("short note, trafilatura off", CASES[-2][1], "https://example.org/w", "agree",
     ["no valid candidate", "passes validation"]),
    ("short note, trafilatura off", CASES[-2][1], "https://example.org/w", "article-body",
     ["declares no articleBody"]),
    ("short note, trafilatura off", CASES[-2][1], "https://example.org/w", "nearly-valid",
     ["nearly_max_link_density"]),
]


@pytest.mark.parametrize("name, html, url, stage, words", DECLINED,
                         ids=[f"{c[0]}: {c[3]}" for c in DECLINED])
def test_a_stage_that_declines_says_what_it_looked_at(name: str, html: str, url: str,
                                                       stage: str, words: list[str]) -> None:
    """Each stage that runs without applying says why, in its own words (never a generic "no
    change"); the stage that decided still says why it applied."""
    off = {"trafilatura"} if "trafilatura off" in name else set()
    decisions = {d["stage"]: d for d in extract(html, url, trace=True,
                                                disabled_stages=off).decisions or []}
    decision = decisions[stage]
    if not words:  # the stage decided this page
        assert decision["applied"] and "widened" in decision["why"]
        return
    assert not decision["applied"]
    assert not decision["why"].startswith("no change")
    for word in words:
        assert word in decision["why"], decision["why"]


@pytest.mark.parametrize("url", ["https://example.org/shop/kettle", "https://example.org/pages/kettle"])
def test_product_stage_follows_declarations_not_the_url_path(url: str) -> None:
    """The same undeclared page under /shop/ and /pages/ comes out the same: the product stage
    acts only on a declared product; declared, the purchase box goes and the description stays."""
    undeclared = extract(PRODUCT_PAGE.format(declaration=""), url, trace=True)
    assert not any(d["applied"] for d in undeclared.decisions or [] if d["stage"] == "product")
    assert "Paragraph 0 explains" in undeclared.content_text and "Paragraph 3" in undeclared.content_text
    declared = extract(PRODUCT_PAGE.format(declaration=PRODUCT_DECLARED), url, trace=True)
    assert [d["stage"] for d in declared.decisions or [] if d["applied"]][-1] == "product"
    assert "Paragraph 0 explains" not in declared.content_text and "Paragraph 3" in declared.content_text


def test_switching_a_stage_off_changes_only_its_pages() -> None:
    """Off, the stage's page falls through to a later stage; a page it did not decide is unchanged."""
    grid_page = CASES[1][1]
    on = extract(grid_page, "https://example.org/c")
    off = extract(grid_page, "https://example.org/c", disabled_stages={"listing-grid"})
    assert "Item number 29" in on.content_text and "Item number 29" not in off.content_text
    assert "Paragraph 1 explains" in off.content_text
    article = CASES[0][1]
    assert extract(article, "https://example.org/a", disabled_stages={"listing-grid"}) \
        .content_text == extract(article, "https://example.org/a").content_text


INTRO_AND_GRID = ("<html><head>{declaration}</head><body><div class='intro'>" + paras(0, 2)
                  + "</div><div class='grid'>" + "".join(card(i) for i in range(30))
                  + "</div></body></html>")

# declaration in the head, whether listing-grid takes the grid, text that must stay, must go
GRID_DECLARATIONS = [
    ("", True, "Item number 29 of the catalogue", None),
    ('<meta property="og:type" content="website">', True, "Item number 29 of the catalogue",
     None),
    ('<meta property="og:type" content="article">', False, "Paragraph 1 explains",
     "Item number 29"),
    ('<script type="application/ld+json">{"@type":"NewsArticle","headline":"Harbour"}</script>',
     False, "Paragraph 1 explains", "Item number 29"),
]


@pytest.mark.parametrize("declaration, takes_grid, stays, goes", GRID_DECLARATIONS,
                         ids=["undeclared", "website", "og article", "NewsArticle"])
def test_listing_grid_never_replaces_the_story_of_a_declared_article(
        declaration: str, takes_grid: bool, stays: str, goes: str | None) -> None:
    """A short story beside a long rail of linked cards (other stories, a slider of the author's
    pieces, the site's mega-menu): on a page declaring an article the story stays, the rail
    goes; the same page declaring nothing, or a website, is a category page whose intro lost to
    its grid."""
    result = extract(INTRO_AND_GRID.format(declaration=declaration), "https://example.org/c",
                     trace=True)
    decision = next(d for d in result.decisions or [] if d["stage"] == "listing-grid")
    assert decision["applied"] is takes_grid, decision["why"]
    if not takes_grid:
        assert "article" in decision["why"]
    assert stays in result.content_text
    if goes is not None:
        assert goes not in result.content_text


def test_an_unknown_stage_name_is_refused() -> None:
    with pytest.raises(ValueError, match="no such extraction stage: widen-everything"):
        extract("<p>x</p>", "https://example.org/", disabled_stages={"widen-everything"})


def test_json_trace_lists_decisions_and_marks_the_chosen_candidate() -> None:
    """The chosen candidate is shown as chosen, never as rejected, even when it failed
    validation (a hub page chosen because it fails only on link density)."""
    result = extract(CASES[8][1], "https://example.org/h", trace=True,
                     disabled_stages={"trafilatura"})
    data = result.as_dict(with_trace=True)
    assert {"stage", "applied", "why", "before", "after", "thresholds_used"} \
        <= set(data["decisions"][0])
    near = next(d for d in data["decisions"] if d["stage"] == "nearly-valid")
    assert near["applied"] and near["thresholds_used"] == {"nearly_max_link_density": 0.7}
    entries = {e["step"]: e for e in data["trace"]}
    chosen = [c for c in entries["candidates"]["candidates"] if c["chosen"]]
    assert len(chosen) == 1 and chosen[0]["failed"] == ["link_density"]
    assert entries["choice"]["stage"] == "nearly-valid"
    assert "sources" in entries["metadata"]
    assert "decisions" not in result.as_dict()


def _cand(chars: int, link_density: float, paragraphs: int, tier: str = "density") -> Candidate:
    import lxml.html

    return Candidate(element=lxml.html.Element("div"), tier=tier, source="test", chars=chars,
                     link_density=link_density, paragraphs=paragraphs)


@pytest.mark.parametrize("chars, link_density, paragraphs, failed", [
    (800, 0.1, 5, set()),
    (800, 0.6, 5, {Check.LINK_DENSITY}),
    (90, 0.1, 1, {Check.TOO_SHORT, Check.FEW_PARAGRAPHS}),
    (300, 0.6, 1, {Check.FEW_PARAGRAPHS, Check.LINK_DENSITY}),
    (700, 0.1, 1, set()),  # long enough to waive the paragraph count
])
def test_validation_returns_a_verdict(chars: int, link_density: float, paragraphs: int,
                                      failed: set[Check]) -> None:
    cand = validate(_cand(chars, link_density, paragraphs))
    assert cand.verdict == Verdict(frozenset(failed))
    assert cand.valid is (not failed)
    assert cand.reasons  # sentences for people, one per failed check or "passes validation"


def test_nearly_valid_reads_the_verdict_not_the_sentences() -> None:
    only_links = validate(_cand(800, 0.6, 5))
    only_links.reasons = ["reworded for people"]
    two_checks = validate(_cand(300, 0.6, 1))
    assert nearly_valid([two_checks, only_links]) is only_links
    assert nearly_valid([validate(_cand(800, 0.75, 5))]) is None  # beyond 0.7: navigation


def test_thresholds_are_frozen_documented_and_sweepable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        THRESHOLDS.min_chars = 50  # type: ignore[misc]
    for field in dataclasses.fields(Thresholds):
        assert field.name in THRESHOLDS.as_dict()
    strict = dataclasses.replace(THRESHOLDS, min_chars=5000)
    page = CASES[0][1]
    assert extract(page, "https://example.org/a").method == "semantic"
    assert extract(page, "https://example.org/a", thresholds=strict).method != "semantic"


SIGNUP_PAGE = ("<html><body><article>" + paras(0, 5) + "<div class='box'><p>Get the harbour "
               "letter every week, with the tides, the berths and the news of the port.</p>"
               "<input type='email'></div></article></body></html>")


@pytest.mark.parametrize("changes, box_stays", [({}, False), ({"signup_max_chars": 40}, True)])
def test_cleaning_thresholds_are_swept_through_extract(changes: dict, box_stays: bool) -> None:
    """The cleaning reads the thresholds passed to ``extract`` (a sweep reaches it): a sign-up box
    longer than ``signup_max_chars`` is page text; the story stays either way."""
    result = extract(SIGNUP_PAGE, "https://example.org/a",
                     thresholds=dataclasses.replace(THRESHOLDS, **changes))
    assert "Paragraph 4 explains" in result.content_text
    assert ("Get the harbour letter" in result.content_text) is box_stays


DENSITY_PAGE = ("<html><body><div id='top'><a href='/'>Harbour</a></div><div id='story'>"
                + paras(0, 4) + "</div></body></html>")


@pytest.mark.parametrize("changes, story_scored, paragraphs", [
    ({}, True, 4),
    ({"score_min_chars": 10_000}, False, 4),  # no paragraph reaches the scoring minimum
    ({"paragraph_min_chars": 1_000}, True, 0),  # no paragraph is long enough to count
])
def test_text_statistics_and_density_score_read_the_thresholds(changes: dict, story_scored: bool,
                                                               paragraphs: int) -> None:
    """The text figures and the density score read the thresholds passed to ``extract`` (a
    sweep reaches them); the story's own text is counted whatever they say."""
    from crawler.extraction import analyse
    from crawler.extraction.document import parse_html

    page = analyse(parse_html(DENSITY_PAGE).tree, "https://example.org/a",
                   dataclasses.replace(THRESHOLDS, **changes))
    story = page.body.get_element_by_id("story")
    assert (story in page.scores) is story_scored
    assert page.stats[story].paragraphs == paragraphs
    assert page.stats[story].chars > 400


@pytest.mark.parametrize("weight", ["tag_weight_frame", "class_name_weight"])
def test_readability_weights_are_thresholds(weight: str) -> None:
    """Raising a weight raises the story's score by it (a div named ``story`` is content-like
    by its id); the other elements' scores stay."""
    from crawler.extraction import analyse
    from crawler.extraction.document import parse_html

    base = analyse(parse_html(DENSITY_PAGE).tree, "https://example.org/a", THRESHOLDS)
    more = analyse(parse_html(DENSITY_PAGE).tree, "https://example.org/a",
                   dataclasses.replace(THRESHOLDS, **{weight: getattr(THRESHOLDS, weight) + 10}))
    story = base.body.get_element_by_id("story")
    story_more = more.body.get_element_by_id("story")
    assert more.scores[story_more] == pytest.approx(base.scores[story] + 10)
    assert len(more.scores) == len(base.scores)


@pytest.mark.parametrize("names,sign", [
    ({"class": "entry-content"}, 1),          # content-like
    ({"id": "sidebar"}, -1),                  # boilerplate-like
    ({"class": "post-footer"}, 0),            # both: they cancel
    ({"class": "grid-cell"}, 0),              # neither
])
def test_readability_class_weights_come_from_the_cleaning_rules(names: dict, sign: int) -> None:
    """The density score's class/id weights read the name patterns of ``cleaning.yaml``; rules
    without them weigh no name."""
    from lxml import etree

    from crawler.extraction.frameworks import load_rules
    from crawler.extraction.scoring import class_weight

    cleaning = load_rules().cleaning
    element = etree.Element("div", names)
    assert class_weight(element, THRESHOLDS, cleaning) == sign * THRESHOLDS.class_name_weight
    bare = dataclasses.replace(cleaning, readability_positive_pattern=None,
                               readability_negative_pattern=None)
    assert class_weight(element, THRESHOLDS, bare) == 0


# Numbers that stay literals in the choice and cleaning code, each for a reason: display
# precision of trace entries and of the stored quality figures, ordinal ranks of candidates,
# cache sizes and the package's folder layout (frameworks), and the body metric's own
# definition (4-token shingles as the corpus scorer counts them, F1's harmonic mean).
LITERALS_ALLOWED = {("candidates.py", "round(self.link_density, 3)"),
                    ("candidates.py", "scores, 2))"),
                    ("quality.py", "round(ratio, 4), round(link_density, 4)"),
                    ("quality.py", "words / page_words), 4)"),
                    ("quality.py", "min(1.0, score)), 3)"),
                    ("frameworks.py", "lru_cache(maxsize="),
                    ("frameworks.py", "here.parents["),
                    ("frameworks.py", "sel.attrs[0][2]"),
                    ("evaluation.py", "SHINGLE_TOKENS = 4"),
                    ("evaluation.py", "2 * pr * rc"),
                    # how much of a long text is counted first: any length gives the same answer
                    ("story_tail.py", "prefix = 4 * limit + 4")}

CHOICE_AND_CLEANING_MODULES = ["scoring.py", "structured.py", "frameworks.py", "candidates.py",
                               "stages.py", "clean.py", "comments.py", "story_tail.py",
                               "media_captions.py", "evaluation.py",
                               "quality.py", "story_asides.py", "story_head.py",
                               "link_buttons.py", "teaser_lists.py"]


@pytest.mark.parametrize("module", CHOICE_AND_CLEANING_MODULES)
def test_no_number_steers_the_choice_or_the_cleaning_outside_the_thresholds(module: str) -> None:
    """Every number of the choice and the cleaning is a field of ``Thresholds`` (0 and 1, slice
    bounds of trace text and format specifications aside)."""
    path = Path(crawler.extraction.__file__).parent / module
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    exempt: set[int] = set()
    for node in ast.walk(tree):
        parts = [node.lower, node.upper, node.step] if isinstance(node, ast.Slice) else \
            [node.format_spec] if isinstance(node, ast.FormattedValue) else []
        exempt |= {id(sub) for part in parts if part is not None for sub in ast.walk(part)}
    lines = source.splitlines()
    found = [(module, lines[node.lineno - 1].strip()) for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and type(node.value) in (int, float)
             and node.value not in (0, 1) and id(node) not in exempt]
    unexplained = [f for f in found
                   if not any(m == f[0] and code in f[1] for m, code in LITERALS_ALLOWED)]
    assert unexplained == []


def test_every_threshold_says_what_it_means() -> None:
    """Each field of ``Thresholds`` is followed by its docstring in the source."""
    tree = ast.parse(Path(crawler.extraction.thresholds.__file__).read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Thresholds")
    body = cls.body
    documented = {body[i].target.id for i in range(len(body) - 1)
                  if isinstance(body[i], ast.AnnAssign)
                  and isinstance(body[i + 1], ast.Expr)
                  and isinstance(body[i + 1].value, ast.Constant)}
    assert documented == {f.name for f in dataclasses.fields(Thresholds)}



#: A page whose trafilatura fast result does not validate (too short), as a link farm's fails
#: on link density.
SHORT_NOTE = "<html><body><span>Just a short note about the harbour.</span></body></html>"


#: The short note beside a template of 50 elements, which no reader sees and the working body
#: leaves out, but trafilatura reads.
TEMPLATE_NOTE = SHORT_NOTE.replace("<body>", "<body><template>" + "<p>t</p>" * 50 + "</template>")


@pytest.mark.parametrize("bounds, html, modes, method", [
    ({}, SHORT_NOTE, [True, False], "trafilatura"),  # a page of a usual size, the engine's bounds
    # a page over the full mode's bound (its two elements stand for a 6 MB link farm's)
    ({"fallback_full_mode_max_elements": 1}, SHORT_NOTE, [True], "trafilatura"),
    # a page over the fallback's bound: trafilatura not run, the whole body chosen after it
    ({"fallback_max_elements": 1}, SHORT_NOTE, [], "body"),
    # the elements counted are those trafilatura reads, the template's too
    ({"fallback_max_elements": 20}, TEMPLATE_NOTE, [], "body"),
], ids=["usual page: fast, then full", "large page: fast only", "larger page: not run",
        "large template: not run"])
def test_the_fallback_runs_trafilatura_at_most_as_the_page_allows(
        monkeypatch: pytest.MonkeyPatch, bounds: dict[str, int], html: str, modes: list[bool],
        method: str) -> None:
    """When the fast result does not validate, the full mode, which repeats the fast mode's
    extraction, runs only on a page of at most ``fallback_full_mode_max_elements`` elements (a
    6 MB link farm, whose fast result fails on link density, spent 31 s in the two, past the
    extraction timeout, and was stored without content); the fast result is then the page's
    content. On a page of more than ``fallback_max_elements`` elements trafilatura is not run
    at all (its fast mode was two thirds of that page's extraction): the stages after it
    choose, and the page's text stays."""
    import crawler.extraction.stages as stages

    called: list[bool] = []
    original = stages._trafilatura_element

    def counting(tree, url, fast):  # type: ignore[no-untyped-def]
        called.append(fast)
        return original(tree, url, fast)

    monkeypatch.setattr(stages, "_trafilatura_element", counting)
    t = dataclasses.replace(THRESHOLDS, **bounds)
    result = extract(html, "https://example.org/note", thresholds=t)
    assert called == modes
    assert result.method == method
    assert result.content_text == "Just a short note about the harbour."
