"""Each tier on small pages, cleaning, the trace, and hostile input (never an exception)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import cleaning_steps

FIXTURES = Path(__file__).parent / "fixtures" / "extraction" / "sites"
SITE_ROWS = [json.loads(line) for line in (FIXTURES / "truth.jsonl").read_text().splitlines()]

STORY = ("The harbour reopened on Monday after three weeks of repairs, and the first boats, "
         "loaded with fish, ice and visitors, arrived before noon. ")
BODY = "".join(f"<p>{STORY}Paragraph {i} adds its own detail, number {i}.</p>" for i in range(6))
NAV = "<ul>" + "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(12)) + "</ul>"
SHARE = ('<div class="share-buttons"><a href="https://x.example/share">Share on X</a> '
         '<a href="https://fb.example/share">Share on Facebook</a> Tell your friends about it</div>')
NEWSLETTER = ('<div class="newsletter-signup"><p>Sign up for our newsletter and get the weekly '
              'digest of harbour news delivered to your inbox.</p></div>')
COOKIE = ('<div id="onetrust-banner-sdk"><p>We use cookies to improve your experience; accept '
          'all cookies or manage your preferences here.</p></div>')
SIDEBAR_TEXT = ("Other towns also rebuilt their piers this year, with money from the regional fund, "
                "and local councils, volunteers and fishermen, all helping out. ")


def page(body: str, head: str = "") -> str:
    return f"<!doctype html><html><head><title>Harbour reopens</title>{head}</head><body>{body}</body></html>"


CASES = [
    ("semantic article", page(f"<nav>{NAV}</nav><article>{BODY}</article>"
                              f"<div class='sidebar'><p>{SIDEBAR_TEXT * 2}</p></div>"),
     "semantic", [SIDEBAR_TEXT[:40], "Section 3"]),
    ("semantic main", page(f"<header>{NAV}</header><main>{BODY}{SHARE}</main><footer>{NAV}</footer>"),
     None, ["Share on X", "Section 3"]),
    ("itemprop articleBody", page(f"<div>{NAV}</div><div itemprop='articleBody'>{BODY}</div>"
                                  f"<div><p>{SIDEBAR_TEXT}</p></div>"),
     None, ["Section 3"]),
    ("class pattern", page(f"<div class='menu'>{NAV}</div><div class='entry-content'>{BODY}"
                           f"{NEWSLETTER}</div><div class='comments'><p>{SIDEBAR_TEXT}</p></div>"),
     "pattern", ["Sign up for our newsletter", "Section 3"]),
    ("hashed CSS-in-JS names", page(f"<div class='Nav__wrap-sc-19x7'>{NAV}</div>"
                                    f"<div class='styles_articleBody__aB12c'>{BODY}</div>"),
     "pattern", ["Section 3"]),
    ("density only", page(f"<div>{NAV}</div><div><div>{BODY}</div></div><div>{COOKIE}</div>"),
     None, ["Section 3", "We use cookies"]),
    ("data-testid hook", page(f"<div>{NAV}</div><div data-testid='article-body'>{BODY}</div>"),
     "pattern", ["Section 3"]),
    ("story after a stray </body></html>",
     page(f"<header>{NAV}</header>") + f"<div class='blog-page'><div>{BODY}</div></div></body></html>",
     None, ["Section 3"]),
]


@pytest.mark.parametrize("name, html, tier, absent", CASES, ids=[c[0] for c in CASES])
def test_tier_finds_the_story_and_drops_boilerplate(name, html, tier, absent) -> None:
    result = extract(html, "https://news.example/harbour")
    for i in range(6):
        assert f"Paragraph {i} adds its own detail" in result.content_text
    for snippet in absent:
        assert snippet not in result.content_text, snippet
    if tier:
        assert result.method == tier
    assert result.title == "Harbour reopens"


def test_trace_explains_candidates_choice_and_cleaning() -> None:
    html = page(f"<main><article><div class='entry-content'>{BODY}{SHARE}{NEWSLETTER}</div>"
                f"</article></main>")
    result = extract(html, "https://news.example/harbour", trace=True)
    steps = {entry["step"] for entry in result.trace}
    assert {"document", "framework", "candidates", "choice", "clean"} <= steps
    cands = next(e for e in result.trace if e["step"] == "candidates")["candidates"]
    assert {c["tier"] for c in cands} >= {"semantic", "pattern", "density"}
    assert all("reasons" in c and "valid" in c for c in cands)
    removed = [e for e in result.trace if e["step"] == "clean" and e.get("action") == "removed"]
    assert any("Share on X" in e.get("text", "") for e in removed)
    assert any("newsletter" in e.get("text", "").lower() for e in removed)
    assert result.trace is not None and extract(html, "https://x.example/").trace is None


def test_code_tables_and_lists_survive_cleaning() -> None:
    extra = ("<pre><code>print('harbour')</code></pre><table><tr><th>Boat</th><th>Catch</th></tr>"
             "<tr><td>Mary</td><td>Cod</td></tr></table><ul><li>Ice</li><li>Nets</li></ul>")
    result = extract(page(f"<article>{BODY}{extra}</article>"), "https://news.example/h")
    for snippet in ("print('harbour')", "Mary", "Cod", "Nets"):
        assert snippet in result.content_text


HOSTILE = [
    ("empty", b""),
    ("whitespace", b"   \n  "),
    ("not html", b"\x00\x01\x02 binary \xff\xfe junk"),
    ("unclosed tags", b"<html><body><div><p>Open <b>bold <i>italic" * 50),
    ("latin-1 declared", ("<html><head><meta charset='iso-8859-1'></head><body><article>"
                          + "<p>Caf\u00e9 cr\u00e8me au lait, tr\u00e8s bon, vraiment tr\u00e8s bon.</p>" * 8
                          + "</article></body></html>").encode("latin-1")),
    ("utf-16 with BOM", ("\ufeff<html><body><main>" + f"<p>{STORY}</p>" * 5
                         + "</main></body></html>").encode("utf-16")),
    ("xml declaration", b"<?xml version='1.0' encoding='utf-8'?><html><body><p>x</p></body></html>"),
    ("deep nesting", b"<div>" * 5000 + b"deep" + b"</div>" * 5000),
    ("huge", b"<html><body><article>" + b"<p>" + b"word " * 2_000_000 + b"</p></article></body></html>"),
]


@pytest.mark.parametrize("name, data", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_input_gives_a_result_not_an_exception(name, data) -> None:
    result = extract(data, "https://hostile.example/")
    assert isinstance(result.content_text, str)
    if name == "latin-1 declared":
        assert "Caf\u00e9 cr\u00e8me" in result.content_text
    if name == "utf-16 with BOM":
        assert "harbour reopened" in result.content_text
    if name in ("empty", "whitespace"):
        assert result.content_text == "" and result.quality_score == 0.0


@pytest.mark.parametrize("row", SITE_ROWS, ids=[r["fixture"] for r in SITE_ROWS])
def test_real_site_pages(row: dict) -> None:
    from crawler.extraction.evaluation import page_scores

    html = gzip.decompress((FIXTURES / row["fixture"]).read_bytes())
    result = extract(html, "http://localhost" + row["path"])
    assert page_scores(result.content_text, row["main_text"])[2] >= 0.9
    text = result.content_text.lower()
    for snippet in row["boilerplate_snippets"]:
        assert snippet.lower() not in text, snippet


TAGLINE = ("The harbour authority is responsible for the coordination of moorings, pilots, "
           "tide tables and other port resources across the region.")
PANELS = "".join(f"<div class='panel'><h2><a href='/p{i}'>Service {i}</a></h2><p>{STORY}Panel {i} "
                 f"describes one of the services of the harbour.</p><ul><li><a href='/p{i}/a'>"
                 f"Moorings {i}</a></li><li><a href='/p{i}/b'>Pilots {i}</a></li><li>"
                 f"<a href='/p{i}/c'>Tide tables {i}</a></li></ul></div>" for i in range(3))
BANDS = "".join(f"<section class='band'><div class='container'><h2>Offer {i}</h2><p>{STORY}Offer {i} "
                f"is one of the services we run for harbour towns.</p><p>Ask the office about offer "
                f"{i}: prices, dates and moorings for visiting boats.</p></div></section>"
                for i in range(6))
STEPS = "".join(f"<h2>Part {i}</h2><p>{STORY}</p><div class='steps'><h4>Step block {i}</h4><ol>"
                + "".join(f"<li>Step {i}.{j}: tighten the mooring line and check the knot twice "
                          f"before leaving.</li>" for j in range(4)) + "</ol></div>" for i in range(6))
TILES = "".join(f"<section class='tile'><h2>Rowing plan {i}</h2><p>Plan {i}: rent a rowing machine "
                f"for the season, delivered and installed.</p></section>" for i in range(8))
COPYRIGHT = "Harbour Services Ltd, registered in the county, all rights reserved."
STANDFIRST = "After three weeks of repairs, the harbour is open again for boats and visitors alike."

MOORINGS = "".join(
    f"<div class='card'>" + (f"<a href='/moorings/{i}'>Visitor mooring number {i} on the north "
                             f"pontoon, with water, power and a short walk to the harbour office</a>"
                             if i % 3 else f"<b>Visitor mooring number {i}, north pontoon, full</b>")
    + f"<span>Berth {i} takes boats up to twelve metres long.</span></div>" for i in range(14))
"""Cards under a short intro, two in three titled by a long link: neither a grid nor text that
widening by ancestors takes in, yet most of the page's prose."""

FRAME_CASES = [
    # (name, body html, text that must stay, text that must go)
    # A multi-column homepage: the banner's tagline is the frame; each panel's links are content.
    ("site banner tagline beside the main column",
     f"<div class='layout'><header><h1>Harbour Authority</h1><div class='intro'><p>{TAGLINE}</p>"
     f"</div></header><div id='main'>{PANELS}</div></div><footer>{NAV}</footer>",
     ["Panel 0 describes", "Panel 2 describes", "Tide tables 1"], [TAGLINE[:40], "Harbour Authority"]),
    # A landing page whose sections sit directly beside the site header and footer.
    ("sections of the page frame without its chrome",
     f"<header class='top'>{NAV}</header>{BANDS}<footer><p>{COPYRIGHT}</p>{NAV}</footer>",
     ["Offer 0 is one", "Ask the office about offer 5"], [COPYRIGHT, "Section 3"]),
    # A landing page of one-paragraph tiles: no block validates alone; together they are the page.
    ("short tiles of a landing page, headings included",
     f"<header>{NAV}</header><div class='hero'><h1>Gym rental</h1></div>{TILES}"
     f"<footer><p>{COPYRIGHT}</p>{NAV}</footer>",
     ["Rowing plan 0", "Plan 0: rent", "Rowing plan 7", "Plan 7: rent"], [COPYRIGHT, "Section 3"]),
    # A manual written straight into <body> (no frame at all): every block is the content.
    ("content written straight into the body",
     f"<h1>Harbour manual</h1><p>This manual shows how to moor a boat in the harbour.</p>{STEPS}",
     ["This manual shows how", "Step 0.1:", "Step 5.3:"], []),
    # A service page whose intro wins the scores but holds a third of the page's prose.
    ("a short intro widened to the cards below it",
     f"<header>{NAV}</header><div class='wrap'><div class='intro-wrap'><div><div class='intro'>"
     f"<h1>Moorings</h1>" + "".join(f"<p>Intro {j}: {STORY}</p>" for j in range(3))
     + f"</div></div></div><div class='cards'>{MOORINGS}</div></div><footer>{NAV}</footer>",
     ["Intro 0:", "Berth 0 takes", "Berth 13 takes"], ["Section 3"]),
    # A call to action that reads like prose does not make its wrapper the content: the
    # wrapper's own metadata lines stay out.
    ("prose of a call to action does not widen the story to its wrapper",
     f"<header>{NAV}</header><main><div><span>Rights: public domain</span> <span>Scanned "
     f"2023</span></div><div class='story'>{BODY}</div><div class='cta-panel'>"
     + "".join(f"<p>Join {j}: {SIDEBAR_TEXT}</p>" for j in range(4)) + "</div></main>",
     ["Paragraph 5 adds"], ["Rights: public domain", "Join 2:"]),
    ("an article's own header is part of the article",
     f"<header class='site'>{NAV}</header><div class='wrap'><article><header><h1>Harbour "
     f"reopens</h1><p class='standfirst'>{STANDFIRST}</p></header><div>{BODY}</div></article></div>",
     [STANDFIRST, "Paragraph 5 adds"], ["Section 3"]),
]


@pytest.mark.parametrize("name, body, kept, gone", FRAME_CASES, ids=[c[0] for c in FRAME_CASES])
def test_page_frame_is_not_content(name, body, kept, gone) -> None:
    result = extract(page(body), "https://harbour.example/")
    for snippet in kept:
        assert snippet in result.content_text, snippet
    for snippet in gone:
        assert snippet not in result.content_text, snippet


CLEANING_CASES = [
    # (name, body html, text that must stay, text that must go)
    # A handbook's home page lists its chapters under a section heading of its own (a heading
    # with a permalink to itself): the list is the document's; a menu at the container's
    # edge, under a heading without one, is not.
    ("link list under a section heading with its own permalink kept",
     f"<main><ul><li><a href='/a'>Home</a></li><li><a href='/b'>Docs</a></li></ul><article>"
     f"<h1>Handbook</h1>{BODY}<h2 id='chapters'>Chapters<a href='#chapters'>#</a></h2><ul>"
     + "".join(f"<li><a href='/c{i}/'>Chapter {i} notes</a></li>" for i in range(5))
     + "</ul><h3>More from us</h3><ul>" + "".join(f"<li><a href='/m{i}/'>Menu entry {i}</a></li>"
                                                  for i in range(5)) + "</ul></article></main>",
     ["Chapters", "Chapter 0 notes", "Chapter 4 notes", "Paragraph 5 adds"],
     ["Menu entry 0", "Menu entry 4"]),
    # A client-rendered handbook routes by the fragment: its headings' permalinks name the
    # section as the route's place (``#/?id=chapters``, the whole heading one link); a link to
    # another route is no permalink, and the menu under such a heading still goes.
    ("link list under a section heading whose permalink is a hash route's place kept",
     f"<main><ul><li><a href='#/a'>Home</a></li><li><a href='#/b'>Docs</a></li></ul><article "
     f"id='main' class='markdown-section' role='main'><h1 id='handbook'><a href="
     f"'#/?id=handbook' data-id='handbook' class='anchor'><span>Handbook</span></a></h1>{BODY}"
     f"<h2 id='chapters'><a href='#/?id=chapters' data-id='chapters' class='anchor'><span>"
     f"Chapters</span></a></h2><ul>"
     + "".join(f"<li><a href='#/guide/c{i}'>Chapter {i} notes</a></li>" for i in range(5))
     + "</ul><h3 id='more'><a href='#/more'>More from us</a></h3><ul>"
     + "".join(f"<li><a href='#/m{i}'>Menu entry {i}</a></li>" for i in range(5))
     + "</ul></article></main>",
     ["Chapters", "Chapter 0 notes", "Chapter 4 notes", "Paragraph 5 adds"],
     ["Menu entry 0", "Menu entry 4"]),
    ("noscript server rendering",
     f"<div id='app'></div><noscript><div class='topic'>{BODY}</div></noscript>",
     ["Paragraph 5 adds its own detail"], []),
    ("collapsed tab panel kept",
     f"<article>{BODY}<div role='tabpanel' class='tab-pane' hidden><p>Hidden tab: install "
     f"with pip, then run the harbour tool, and check the output.</p></div></article>",
     ["Hidden tab: install with pip"], []),
    ("accordion panel opened by an aria-controls button kept",
     f"<article>{BODY}<h3><button aria-controls='q7' aria-expanded='false'>How deep is "
     f"the harbour?</button></h3><div id='q7' class='x' aria-hidden='true'><p>Eight metres "
     f"at low tide, enough for the ferries and the fishing fleet.</p></div></article>",
     ["Eight metres at low tide"], []),
    ("panel after a collapsed toggle that names no panel kept",
     f"<article>{BODY}<div><a href='#' aria-expanded='false'>How the tides are measured</a>"
     f"</div><div class='hide' aria-hidden='true'><p>Gauges at the pier record the water "
     f"level every six minutes, day and night.</p></div></article>",
     ["Gauges at the pier record"], []),
    ("hidden block after an open toggle dropped",
     f"<article>{BODY}<div><a href='#' aria-expanded='true'>Menu</a></div><div class='x' "
     f"hidden><p>Subscribe now to our premium offers and save money.</p></div></article>",
     ["Paragraph 0 adds its own detail", "Paragraph 5 adds its own detail"], ["Subscribe now"]),
    ("closed <details> answer kept",
     f"<article>{BODY}<details aria-expanded='false'><summary>Is parking free?</summary><div "
     f"class='content' aria-hidden='true'><p>Parking on the quay is free for the first two "
     f"hours, then two pounds an hour.</p></div></details></article>",
     ["Parking on the quay is free"], []),
    ("hidden raw copy of the whole story dropped",
     f"<article>{BODY}<pre class='raw' hidden>" + BODY.replace("<p>", "").replace(
         "</p>", "\n").replace("The harbour", "_The harbour_") + "</pre></article>",
     ["Paragraph 5 adds"], ["_The harbour_"]),
    ("streamed segment of a server-rendered React page kept",
     f"<main>{BODY}<div hidden id='S:0'><p>Harbour tours start at nine every morning from the "
     f"old pier, weather permitting.</p></div></main>",
     ["Harbour tours start at nine"], []),
    ("hidden modal dropped",
     f"<article>{BODY}<div class='x' hidden><p>Subscribe now to our premium offers and "
     f"save money.</p></div></article>",
     ["Paragraph 0 adds its own detail", "Paragraph 5 adds its own detail"], ["Subscribe now"]),
    ("repeated block printed twice",
     f"<article>{BODY}<div class='mobile-copy'><p>{STORY}Paragraph 0 adds its own detail, "
     f"number 0.</p></div></article>",
     ["Paragraph 0 adds"], []),
    ("boilerplate name among other class names",
     f"<article>{BODY}<div class='author-bio border p-4'><p>Jo Harbour writes about boats, "
     f"piers and the people who fix them, every week since 2010.</p></div></article>",
     ["Paragraph 5 adds"], ["Jo Harbour writes"]),
    ("author box after the story",
     f"<article>{BODY}<div class='article-author-box'><p>Jo Harbour has covered the coast for "
     f"the paper since 2010 and lives by the pier.</p></div></article>",
     ["Paragraph 5 adds"], ["Jo Harbour has covered"]),
    ("footnotes stay, a disclosure goes",
     f"<article>{BODY}<section class='footnotes'><ol><li>Harbour authority annual report, "
     f"page 12, consulted in May.</li></ol></section><div class='full-disclosure-text'><p>Some "
     f"links on this page are affiliate links and earn us a commission.</p></div></article>",
     ["Paragraph 5 adds", "annual report, page 12"], ["affiliate links"]),
    ("call to action and post navigation after the story",
     f"<article>{BODY}<div class='cta-banner'><p>Book a harbour tour today and save twenty "
     f"percent on the family ticket.</p></div><div class='nv-post-navigation'><p>Previous story: "
     f"the lighthouse gets a new coat of paint before winter.</p></div></article>",
     ["Paragraph 5 adds"], ["Book a harbour tour", "Previous story"]),
    ("copyright line inside the content column",
     f"<article>{BODY}<p class='copyright-txt'>Harbour Weekly content copyright 2024 by the "
     f"Harbour Press Group, all rights reserved.</p></article>",
     ["Paragraph 5 adds"], ["Harbour Press Group"]),
    ("script-hook and layout-state names are not boilerplate names",
     f"<article>{BODY}<section class='band js-stop-sidebar has-sidebar'><p>{SIDEBAR_TEXT}</p>"
     f"</section></article>",
     [SIDEBAR_TEXT[:30]], []),
    ("a state adjective does not make a block boilerplate",
     f"<article>{BODY}<div class='card subscription-eligible'><p>{SIDEBAR_TEXT}</p></div>"
     f"</article>",
     [SIDEBAR_TEXT[:30]], []),
    ("a thread of short messages is its posts, without their signatures",
     f"<header>{NAV}</header><div class='wrap'><div class='board'>" + "".join(
         f"<div class='msg'><div class='info'>Skipper{j} #{j}</div><div class='msg_body'>"
         f"<div class='msg_text'>Post {j}: the ferry to the island leaves at nine from the old "
         f"pier, and the return boat waits until six.</div><div class='signature'>Sig {j}: "
         f"sailing since 1990</div></div></div>" for j in range(6)) + "</div>"
     f"<div class='about'><p>{SIDEBAR_TEXT}</p></div></div>",
     ["Post 0: the ferry", "Post 5: the ferry"], ["Sig 2:", SIDEBAR_TEXT[:30]]),
    ("sign-up box around an email field dropped",
     f"<article>{BODY}<div class='flex p-4'><p class='text-xl'>Harbour Weekly</p><p>Get the "
     f"best threads of the week in your inbox every Friday!</p><label>Email address</label>"
     f"<input type='email' name='email'><div x-show='done'>You have subscribed!</div></div>"
     f"</article>",
     ["Paragraph 5 adds"], ["Get the best threads", "You have subscribed"]),
    ("a card with a notify-me email field is still a card",
     f"<article>{BODY}<ul>" + "".join(
         f"<li class='card'><h3>Boat tour {j}</h3><p>Two hours around the bay with a skipper "
         f"who knows every rock and seal.</p><input type='email' placeholder='Notify me'></li>"
         for j in range(3)) + "</ul></article>",
     ["Paragraph 5 adds", "Boat tour 2", "who knows every rock"], []),
    ("a table of contents longer than the text it lists is not content",
     f"<article><div class='intro'>{BODY}</div><div id='toc'><ul>" + "".join(
         f"<li>Chapter {j}: harbour demand by product, region and market, 2014 to 2034</li>"
         for j in range(30)) + "</ul></div></article>",
     ["Paragraph 5 adds"], ["Chapter 3: harbour demand"]),
    ("a photo's caption and credit are not the story",
     f"<article>{BODY}<figure><img src='/pier.jpg' alt=''><figcaption>The rebuilt pier at "
     f"dawn. Photo: J. Harbour for the Weekly</figcaption></figure></article>",
     ["Paragraph 5 adds"], ["The rebuilt pier at dawn"]),
    ("a quote's attribution and a card's caption stay",
     f"<article>{BODY}<figure><blockquote>We waited three weeks for this morning.</blockquote>"
     f"<figcaption>Skipper Jo, on the first boat in</figcaption></figure><ul>" + "".join(
         f"<li><figure><img src='/b{j}.jpg' alt=''><figcaption>Berth {j}: deep water for "
         f"ferries</figcaption></figure></li>" for j in range(3)) + "</ul></article>",
     ["Paragraph 5 adds", "Skipper Jo, on the first boat", "Berth 2: deep water"], []),
    ("comment section of an article",
     f"<article><div class='entry-content'>{BODY}</div></article><div id='comments' "
     f"class='comments-area'><p>{SIDEBAR_TEXT}</p></div>",
     ["Paragraph 0 adds its own detail", "Paragraph 5 adds its own detail"], [SIDEBAR_TEXT[:30]]),
]


@pytest.mark.parametrize("name, body, kept, gone", CLEANING_CASES, ids=[c[0] for c in CLEANING_CASES])
def test_cleaning_cases(name, body, kept, gone) -> None:
    assert kept, "every cleaning case names text that must stay (it cannot pass on empty output)"
    result = extract(page(body), "https://news.example/harbour", trace=True)
    for snippet in kept:
        assert snippet in result.content_text, snippet
    for snippet in gone:
        assert snippet not in result.content_text, snippet
    if name == "repeated block printed twice":
        assert result.content_text.count("Paragraph 0 adds its own detail") == 1


def _panel_grid(panels: int) -> str:
    """A landing page's grid of panels, each a heading, a line of text and its links."""
    cards = "".join(f"<div class='card'><p>Intro text {i} for card.</p><h2 id='s{i}'>S{i}"
                    f"<a href='#s{i}'>#</a></h2><ul><li><a href='/a{i}'>Link a {i}</a></li>"
                    f"<li><a href='/b{i}'>Link b {i}</a></li></ul></div>" for i in range(panels))
    return f"<html><body><main>{cards}</main></body></html>"


def test_cleaning_a_grid_of_panels_grows_linearly() -> None:
    """Eight times the panels cost eight times the cleaning's steps: the like panels of a grid
    are counted once, not once per panel's link list (which made a 2.7 MB grid of 14,000
    panels take two minutes). Every panel's links stay."""
    cleaning_steps(_panel_grid(10))  # first-use work out of the count
    small, _ = cleaning_steps(_panel_grid(100))
    large, text = cleaning_steps(_panel_grid(800))
    assert large <= 9 * small, (small, large)
    assert "Link a 0" in text and "Link b 799" in text and "Intro text 400" in text
