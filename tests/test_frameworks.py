"""Framework detection and site rules as data: real generator-built pages, user-added rule files."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from crawler.extraction import extract
from crawler.extraction.document import parse_html
from crawler.extraction.frameworks import SelectorSet, css, detect_framework, load_rules

FIXTURES = Path(__file__).parent / "fixtures" / "extraction" / "sites"
ROWS = [json.loads(line) for line in (FIXTURES / "truth.jsonl").read_text().splitlines()]


def _page(row: dict) -> bytes:
    return gzip.decompress((FIXTURES / row["fixture"]).read_bytes())


@pytest.mark.parametrize("row", ROWS, ids=[r["fixture"] for r in ROWS])
def test_detects_the_generator(row: dict) -> None:
    tree = parse_html(_page(row)).tree
    detection = detect_framework(tree, "http://localhost" + row["path"], load_rules())
    assert detection.framework == row["framework"]
    if row["framework"]:
        assert detection.evidence


@pytest.mark.parametrize("row", [r for r in ROWS if r["site"].startswith("sphinx")],
                         ids=lambda r: r["fixture"])
def test_sphinx_without_meta_generator_is_found_by_markup(row: dict) -> None:
    tree = parse_html(_page(row)).tree
    assert not tree.xpath('//meta[@name="generator"]')
    detection = detect_framework(tree, "http://localhost/", load_rules())
    assert detection.framework == "sphinx"
    assert detection.evidence[0].startswith("markup")


@pytest.mark.parametrize("site, theme", [
    ("sphinx-furo-click", "furo"), ("sphinx-pydata-click", "pydata"),
    ("sphinx-rtd-click", "read-the-docs"), ("sphinx-alabaster-requests", "alabaster"),
    ("hugo-book", "book"), ("jekyll-just-the-docs", "just-the-docs"),
])
def test_detects_the_theme(site: str, theme: str) -> None:
    row = next(r for r in ROWS if r["site"] == site)
    detection = detect_framework(parse_html(_page(row)).tree, "http://localhost/", load_rules())
    assert detection.theme == theme


def test_every_shipped_rule_file_loads_cleanly() -> None:
    rules = load_rules()
    assert not rules.errors
    names = {r.name for r in rules.frameworks}
    assert {"sphinx", "docusaurus", "mkdocs-material", "gitbook", "hugo", "jekyll", "nextra",
            "wordpress"} <= names
    assert all(r.content or r.exclude for r in rules.frameworks)
    assert rules.cleaning.remove and rules.cleaning.boilerplate_pattern is not None


PAGE = """<html><head><title>T</title></head><body>
<div id="top">Site menu: Home About Contact</div>
<div class="story-area"><p>{para}</p><p>{para}</p><p class="promo-line">Buy our mugs today
and save a lot of money on every mug you order this week, really.</p></div>
<div class="other"><p>{other}</p><p>{other}</p><p>{other}</p></div>
</body></html>"""


def _rule_dir(tmp_path: Path, text: str) -> Path:
    (tmp_path / "frameworks").mkdir()
    (tmp_path / "domains").mkdir()
    (tmp_path / "domains" / "mugs.yaml").write_text(text)
    return tmp_path


def test_a_user_adds_a_site_by_adding_a_file(tmp_path: Path, monkeypatch) -> None:
    para = "The story of the mug, told in one long sentence with enough words to count."
    other = ("A much longer unrelated block of text, written so that density scoring prefers it, "
             "with commas, clauses, and more commas, to outweigh the story area easily.")
    html = PAGE.format(para=para, other=other)
    without_rule = extract(html, "https://shop.mugs.example/story")
    assert other in without_rule.content_text

    folder = _rule_dir(tmp_path, "name: mugs\ndomains: [mugs.example]\n"
                                 "content: ['div.story-area']\nexclude: ['p.promo-line']\n")
    monkeypatch.setenv("SITE_RULES_DIR", str(folder))
    rules = load_rules(folder)
    assert [r.name for r in rules.domains] == ["mugs"]
    with_rule = extract(html, "https://shop.mugs.example/story", trace=True)
    assert para in with_rule.content_text
    assert other not in with_rule.content_text
    assert "Buy our mugs" not in with_rule.content_text
    assert with_rule.method == "rules"
    removed = [t for t in with_rule.trace if t.get("step") == "clean" and t.get("action") == "removed"]
    assert any("p.promo-line" in t["why"] for t in removed)


def test_a_broken_rule_file_is_reported_not_fatal(tmp_path: Path) -> None:
    folder = _rule_dir(tmp_path, "name: bad\ndomains: [x.example]\ncontent: ['div[[[']\n")
    (folder / "frameworks" / "broken.yaml").write_text("name: [unclosed\n")
    rules = load_rules(folder)
    assert any("invalid content selector" in e for e in rules.errors)
    assert any(e.startswith("broken.yaml") for e in rules.errors)


MONTHS = "jan | feb | mar | apr | may | jun | jul | aug | sep | oct | nov | dec"
"""Twelve months of a sound ``dates.yaml`` language (the broken ones below change one thing)."""


@pytest.mark.parametrize("file, text, error", [
    ("domains/typo.yaml", "name: t\ndomains: [t.example]\ncontnet: ['main']\n",
     "typo.yaml: unknown key 'contnet'"),
    ("domains/types.yaml", "name: t\ndomains: [t.example]\ncontent: {main: 1}\n",
     "types.yaml: 'content' must be a list, not a dict"),
    ("frameworks/detect.yaml", "name: d\ndetect:\n  generators: ['^D']\n",
     "detect.yaml detect: unknown key 'generators'"),
    ("frameworks/list.yaml", "- name: a\n- name: b\n", "list.yaml: holds a list"),
    ("frameworks/theme.yaml", "name: th\ndetect:\n  selectors: ['div[[']\n",
     "theme.yaml: invalid detect selector 'div[['"),
    ("frameworks/twice.yaml", "name: tw\ndetect:\n  signatures: ['div.x']\n  selectors: ['div.x']\n",
     "twice.yaml: detect selector listed under two strengths: div.x"),
    ("cleaning.yaml", "boilerplate_pattern: '(?:share|'\nremove: ['nav']\n",
     "cleaning.yaml: boilerplate_pattern is not a valid regular expression"),
    ("cleaning.yaml", "remove: ['nav']\nboilerplate_patterns: 'share'\n",
     "cleaning.yaml: unknown key 'boilerplate_patterns'"),
    ("cleaning.yaml", "remove: ['nav']\npage_chrome:\n  tags: [footer, navv]\n",
     "cleaning.yaml: page_chrome names tags HTML does not have: navv"),
    ("dates.yaml", "month_name: {}\n", "dates.yaml: unknown key 'month_name'"),
    ("dates.yaml", "month_names:\n  en: 'jan | feb'\n",
     "dates.yaml: month_names en does not name twelve months"),
    ("dates.yaml", "month_names:\n  English: '%s'\n" % MONTHS,
     "dates.yaml: month_names has 'English', which is not a language code"),
    ("dates.yaml", "month_names:\n  en: '%s'\n" % MONTHS.replace("feb", "Feb"),
     "dates.yaml: month_names en month 2 has 'Feb', which is not a lower-case word"),
    ("dates.yaml", "month_names:\n  en: '%s'\n" % MONTHS.replace("dec", "dec 12"),
     "dates.yaml: month_names en month 12 has '12', which is not a lower-case word"),
    ("dates.yaml", "month_names:\n  en: '%s'\n" % MONTHS.replace("dec", "dec jan"),
     "dates.yaml: month_names en names two months 'jan'"),
])
def test_rule_files_are_checked_against_their_schema(tmp_path: Path, file: str, text: str,
                                                     error: str) -> None:
    """Each broken file gives one problem naming the file and the key; the sound rules of the
    folder still load (what must stay), and the folder's problem is one sentence."""
    folder = _rule_dir(tmp_path, "name: mugs\ndomains: [mugs.example]\ncontent: ['div.story']\n")
    (folder / file).write_text(text)
    rules = load_rules(folder)
    assert any(e.startswith(error) for e in rules.errors), rules.errors
    assert [r.name for r in rules.domains if r.name == "mugs"] == ["mugs"]
    problem = rules.problem()
    assert problem is not None and problem.startswith(f"the site rules in {folder} are invalid: ")
    assert "\n" not in problem


def test_the_project_rules_are_sound() -> None:
    """The shipped site_rules folder passes its own schema (a crawl would refuse it otherwise)."""
    rules = load_rules()
    assert rules.errors == () and rules.problem() is None
    assert rules.cleaning.content_name_pattern is not None
    assert rules.cleaning.content_name_pattern.search("styles_articleBody__x1Yz")
    assert not rules.cleaning.content_name_pattern.search("sidebar-widget")
    assert len(rules.months.by_language) > 100
    assert [rules.months.month(n) for n in ("march", "märz", "mars", "marzo", "марта")] == [3] * 5


REPLY = ("The harbour reopened on Monday after three weeks of repairs, and the first boats "
         "arrived before noon; the pier looks better than it did before the storm.")


def _xenforo_post(n: int, user: str, quote: str = "") -> str:
    quoted = (f"<blockquote class='bbCodeBlock bbCodeBlock--quote'><div class='bbCodeBlock-title'>"
              f"{quote} said:</div><div class='bbCodeBlock-content'>{REPLY}</div>"
              f"<div class='bbCodeBlock-expandLink'>Click to expand...</div></blockquote>"
              if quote else "")
    return (f"<article class='message message--post'><div class='message-inner'>"
            f"<div class='message-cell message-cell--user'><section class='message-user'>"
            f"<div class='message-avatar'><a class='avatar'><span>{user[0]}</span></a></div>"
            f"<div class='message-userDetails'><h4 class='message-name'><a class='username'>{user}"
            f"</a></h4><h5 class='userTitle message-userTitle'>Full Member</h5></div>"
            f"<div class='message-userExtras'><dl><dt>Joined</dt><dd>Jun 29, 2016</dd></dl></div>"
            f"</section></div><div class='message-cell message-cell--main'><header "
            f"class='message-attribution'><ul class='message-attribution-main'><li><time>Jul {n}, "
            f"2024</time></li></ul><ul class='message-attribution-opposite'><li><a>#{n}</a></li>"
            f"</ul></header><div class='message-content'><article class='message-body'>"
            f"<div class='samCodeUnit'>Advertisement - Members don't see this ad</div>{quoted}"
            f"<div class='bbWrapper'>Post {n}: {REPLY}</div></article></div><footer "
            f"class='message-footer'><div class='reactionsBar'>Liked by 3 members</div></footer>"
            f"</div></div></article>")


def _xenforo_card(n: int, user: str) -> str:
    return (f"<div class='MessageCard js-messageCard'><header class='MessageCard__header'><div "
            f"class='MessageCard__user-info'><div class='MessageCard__name-with-attributions'><a "
            f"class='MessageCard__user-info__name'>{user}</a><span class='message-attribution-"
            f"discussion-starter'>Discussion starter</span></div><div class='MessageCard__user-"
            f"details'><span>410 posts</span> · <span>Joined 2002</span></div></div></header>"
            f"<article class='message-body'><div class='bbWrapper'><p>Post {n}: {REPLY}</p><p>"
            f"{REPLY}</p></div></article></div>")


def _discourse_post(n: int, user: str) -> str:
    return (f"<div id='post_{n}' itemprop='comment' class='topic-body crawler-post'>"
            f"<div class='crawler-post-meta'><span class='creator' itemprop='author'><a>"
            f"<span itemprop='name'>{user}</span></a></span><span class='crawler-post-infos'>"
            f"<time itemprop='datePublished' class='post-time'>July {n}, 2024, 9:1{n}am</time>"
            f"<span itemprop='position'>{n}</span></span></div><div class='post' itemprop='text'>"
            f"<p>Post {n}: {REPLY}</p></div><div itemprop='interactionStatistic'>"
            f"<span class='post-likes'>4 Likes</span></div></div>")


def _phpbb_post(n: int, user: str) -> str:
    return (f"<div id='p{n}' class='post has-profile bg{n % 2 + 1}'><div class='inner'>"
            f"<dl class='postprofile'><dt><a class='username'>{user}</a></dt><dd class="
            f"'profile-posts'><strong>Posts:</strong> 2630</dd></dl><div class='postbody'><div>"
            f"<h3><a>Re: Harbour repairs</a></h3><ul class='post-buttons'><li>Quote</li></ul>"
            f"<p class='author'><span class='responsive-hide'>by</span> <strong><a class="
            f"'username'>{user}</a></strong> &raquo; <time>Sat Feb {n}, 2024 5:12 pm</time></p>"
            f"<div class='content'>Post {n}: {REPLY}</div><div class='signature'>Fair winds "
            f"and following seas to all the crews</div></div></div></div></div>")


def _phpbb30_post(n: int, user: str) -> str:
    return (f"<div id='p{n}' class='post bg{n % 2 + 1}'><div class='inner'><div class='postbody'>"
            f"<ul class='profile-icons'><li class='quote-icon'><a title='Reply with quote'><span>"
            f"Reply with quote</span></a></li></ul><h3><a>Re: Harbour repairs</a></h3><p "
            f"class='author'>by <strong><a>{user}</a></strong> &raquo; Tue Aug {n}, 2019 1:47 am"
            f"</p><div class='content'>Post {n}: {REPLY}</div><div class='notice'>Last edited by "
            f"{user} on Tue Aug {n}, 2019, edited 2 times in total.</div></div><dl class="
            f"'postprofile'><dt><a>{user}</a></dt><dd><strong>Posts:</strong> 4032</dd></dl>"
            f"</div></div>")


def _xenforo1_post(n: int, user: str) -> str:
    return (f"<li id='post-{n}' class='message   ' data-author='{user}'><div class='messageUserInfo'>"
            f"<div class='messageUserBlock'><div class='avatarHolder'><a class='avatar'><img "
            f"alt='{user}'></a></div><h3 class='userText'><a class='username'>{user}</a><em "
            f"class='userTitle'>Greenhorn</em></h3><div class='extraUserInfo'><dl><dt>Trophy "
            f"Points:</dt><dd>5</dd></dl></div></div></div><div class='messageInfo'><a class='item "
            f"muted postNumber'>#{n}</a><div class='messageContent'><article><blockquote "
            f"class='messageText'>Post {n}: {REPLY}</blockquote></article></div><div "
            f"class='messageMeta'><div class='privateControls'><span class='DateTime'>May {n}, "
            f"2024</span><a class='item control ip'>IP</a></div><div class='publicControls'><a>"
            f"Like</a><a>Reply</a></div></div></div></li>")


STORY_PARAGRAPHS = "".join(f"<p>Paragraph {i}: {REPLY}</p>" for i in range(4))

RULE_CASES = [
    # (framework, page html, text that must stay, text that must go)
    ("wordpress",
     "<html><head><title>Harbour</title><link rel='stylesheet' href='/wp-content/themes/x.css'>"
     "</head><body><article><div class='entry-content'>" + STORY_PARAGRAPHS
     + "<div class='abh_box abh_box_down'><p>Jo Harbour writes about boats and piers every week, "
     "and has done so since 2010.</p></div><div class='crp_related crp-thumbs-grid'><p>Related: "
     "ten more stories about harbours, piers and lighthouses along the coast.</p></div></div>"
     "</article></body></html>",
     ["Paragraph 0:", "Paragraph 3:"], ["Jo Harbour writes", "ten more stories"]),
    # A Sphinx section is named after its heading: a chapter titled "Table of Contents" (its
    # toctree) and a sidebar directive are the writer's; the `contents` directive still goes.
    ("sphinx",
     "<html><head><title>Harbour</title><script src='_static/documentation_options.js'></script>"
     "</head><body><div class='document'><div class='body' role='main'><section id='harbour'>"
     "<h1>Harbour</h1>" + STORY_PARAGRAPHS + "<section id='usage'><h2>Usage</h2><nav class="
     "'contents local' id='on-this-page'><p class='topic-title'>On this page</p><ul><li><a "
     "href='#tides'>Tides</a></li></ul></nav><section id='tides'><h3>Tides</h3><p>The tide "
     "tables are posted at the harbour office every morning.</p><aside class='sidebar'><p "
     "class='sidebar-title'>Spring tides</p><p>Twice a month the range is largest.</p></aside>"
     "</section></section><section id='table-of-contents'><h2>Table of Contents</h2><div "
     "class='toctree-wrapper compound'><ul><li class='toctree-l1'><a href='moorings.html'>Moorings "
     "and berths</a></li><li class='toctree-l1'><a href='pilots.html'>Pilots and tugs</a></li>"
     "</ul></div></section></section></div></div><div class='sphinxsidebar'><p>Quick search for "
     "the harbour documentation pages</p></div></body></html>",
     ["Paragraph 3:", "Table of Contents", "Moorings and berths", "Pilots and tugs",
      "Twice a month the range is largest."],
     ["On this page", "Quick search"]),
    # pdoc: a function's signature is its API (the class name reads like boilerplate).
    ("pdoc",
     "<html><head><title>harbour.tides API documentation</title><meta name='generator' "
     "content='pdoc 16.0.0'></head><body><nav class='pdoc'><h2>API Documentation</h2><ul><li>"
     "<a href='#tide_table'>tide_table</a></li><li>Built with pdoc for the harbour project</li>"
     "</ul></nav><main class='pdoc'><section class='module-info'><h1 class='modulename'>harbour"
     "<wbr>.tides</h1>" + STORY_PARAGRAPHS + "</section><section id='tide_table'><div class="
     "'attr function'><span class='def'>def</span> <span class='name'>tide_table</span><span "
     "class='signature pdoc-code condensed'>(pier: int, days: int = 7) -> list[str]:</span>"
     "</div><div class='docstring'><p>The tide table of one pier for the coming days.</p></div>"
     "</section></main></body></html>",
     ["harbour.tides", "(pier: int, days: int = 7) -> list[str]:", "The tide table of one pier"],
     ["API Documentation", "Built with pdoc"]),
    # pdoc3 (its generator names it pdoc3, not pdoc): a class's ancestors and inherited members
    # are lists of links, its API all the same; the toggle of the source listing goes, the
    # listing stays, and so does the module index beside the article.
    ("pdoc3",
     "<html><head><meta name='generator' content='pdoc3 0.11.6'><title>harbour.tides API "
     "documentation</title></head><body><main><article id='content'><header><h1 class='title'>"
     "Module <code>harbour.tides</code></h1></header><section id='section-intro'>"
     + STORY_PARAGRAPHS + "</section><section><h2 class='section-title' id='header-classes'>"
     "Classes</h2><dl><dt id='harbour.tides.TideTable'><code class='flex name class'><span>class "
     "<span class='ident'>TideTable</span></span><span>(</span><span>pier: int,<br>days: int = 7)"
     "</span></code></dt><dd><details class='source'><summary><span>Expand source code</span>"
     "</summary><pre><code class='python'>class TideTable(Table):\n    pass</code></pre></details>"
     "<div class='desc'><p>The tide table of one pier for the coming days.</p></div><h3>Ancestors"
     "</h3><ul class='hlist'><li><a title='harbour.tables.Table' href='tables.html#harbour.tables."
     "Table'>Table</a></li><li>typing.Generic</li></ul><h3>Inherited members</h3><ul class="
     "'hlist'><li><code><b><a title='harbour.tables.Table' href='tables.html#harbour.tables.Table'>"
     "Table</a></b></code>:<ul class='hlist'><li><code><a title='harbour.tables.Table.rows' href="
     "'tables.html#harbour.tables.Table.rows'>rows</a></code></li><li><code><a title="
     "'harbour.tables.Table.print_out' href='tables.html#harbour.tables.Table.print_out'>print_out"
     "</a></code></li></ul></li></ul></dd></dl></section></article><nav id='sidebar'><ul id="
     "'index'><li><h3>Super-module</h3><ul><li><code><a title='harbour' href='index.html'>"
     "harbour</a></code></li></ul></li></ul></nav></main><footer id='footer'><p>Generated by "
     "<a href='https://pdoc3.github.io/pdoc'>pdoc 0.11.6</a>.</p></footer></body></html>",
     ["Module harbour.tides", "Paragraph 3:", "class TideTable(Table):", "Ancestors",
      "typing.Generic", "Inherited members", "print_out", "The tide table of one pier"],
     ["Expand source code", "Super-module", "Generated by"]),
    # VitePress: a README's own list of contents is the writer's; the sidebar, outline and
    # prev/next footer are outside div.vp-doc.
    ("vitepress",
     "<html><head><title>harbour-tides | Harbour Notes</title><meta name='generator' "
     "content='VitePress v1.6.4'></head><body><div id='app'><header class='VPNav'><a>Harbour "
     "Notes</a><nav><a href='/'>Home</a></nav></header><aside class='VPSidebar'><nav><a href="
     "'/tides'>Tide tables of the pier</a></nav></aside><div class='VPContent'><div class='VPDoc'>"
     "<main class='main'><div class='vp-doc'><h1 id='harbour-tides'>harbour-tides <a class="
     "'header-anchor' href='#harbour-tides'>Permalink</a></h1><h2>Contents</h2><ul><li><a href="
     "'#install'>Install</a></li><li><a href='#use'>Use</a></li><li><a href='#api'>API</a></li>"
     "</ul>" + STORY_PARAGRAPHS + "</div></main><footer class='VPDocFooter'><nav class="
     "'prev-next'><a href='/pilots'>Previous page: pilots and tugs</a></nav></footer></div></div>"
     "<footer class='VPFooter'><p>Released under the harbour licence.</p></footer></div></body>"
     "</html>",
     ["harbour-tides", "Install", "Use", "API", "Paragraph 0:", "Paragraph 3:"],
     ["Permalink", "Tide tables of the pier", "Previous page", "Released under"]),
    # Starlight: its second meta generator names it (Astro comes first), and its searchable main
    # is the one Nextra marks too; a README's own list of contents is the writer's.
    ("starlight",
     "<html><head><title>harbour-tides | Harbour Notes</title><meta name='generator' content="
     "'Astro v5.7.14'><meta name='generator' content='Starlight v0.34.3'></head><body><div class="
     "'page'><header class='header'><a class='site-title'>Harbour Notes</a></header><nav class="
     "'sidebar'><a href='/tides/'>Tide tables of the pier</a></nav><div class='main-frame'><aside "
     "class='right-sidebar-container'><starlight-toc><nav><h2>On this page</h2><a href='#_top'>"
     "Overview</a></nav></starlight-toc></aside><main data-pagefind-body><h1 id='_top'>"
     "harbour-tides</h1><div class='sl-markdown-content'><h2 id='contents'>Contents</h2><a class="
     "'sl-anchor-link' href='#contents'>Section titled Contents</a><ul><li><a href='#install'>"
     "Install</a></li><li><a href='#use'>Use</a></li><li><a href='#api'>API</a></li></ul>"
     + STORY_PARAGRAPHS + "</div><footer><div class='pagination-links'><a href='/pilots/'>"
     "Previous pilots and tugs</a></div></footer></main></div></div></body></html>",
     ["harbour-tides", "Install", "Use", "API", "Paragraph 0:", "Paragraph 3:"],
     ["Section titled", "Tide tables of the pier", "On this page", "Previous pilots"]),
    # Starlight's asides (`:::tip[Title]` and the <Aside> component) are the writer's callouts
    # between the paragraphs, though an aside; the right sidebar's aside is not.
    ("starlight",
     "<html><head><title>Harbour server | Harbour Notes</title><meta name='generator' content="
     "'Astro v7.3.5'/><meta name='generator' content='Starlight v0.42.4'/></head><body><div class="
     "'page sl-flex'><div class='main-frame'><aside class='right-sidebar-container'><starlight-toc>"
     "<nav><h2>On this page</h2><a href='#_top'>Overview</a></nav></starlight-toc></aside><main "
     "data-pagefind-body><div class='content-panel'><h1 id='_top'>Harbour server</h1></div><div "
     "class='content-panel'><div class='sl-markdown-content'>" + STORY_PARAGRAPHS + "<aside "
     "aria-label='Before you start' class='starlight-aside starlight-aside--tip'><p class="
     "'starlight-aside__title' aria-hidden='true'><svg viewBox='0 0 24 24' class="
     "'starlight-aside__icon'><path d='M1 1'/></svg>Before you start</p><div class="
     "'starlight-aside__content'><p>Check that the old laptop boots from its new disk with the "
     "lid closed before it goes on the shelf.</p></div></aside><aside aria-label='Caution' class="
     "'starlight-aside starlight-aside--caution'><p class='starlight-aside__title' aria-hidden="
     "'true'>Caution</p><div class='starlight-aside__content'><p>Some firmware refuses to start "
     "without a display attached.</p></div></aside></div><footer class='sl-flex'><div class="
     "'pagination-links'><a href='/pilots/'>Previous pilots and tugs</a></div></footer></div>"
     "</main></div></div></body></html>",
     ["Harbour server", "Paragraph 3:", "boots from its new disk",
      "refuses to start without a display"],
     ["On this page", "Previous pilots"]),
    # MkDocs' built-in themes write no generator and Sphinx-like header links: the built-in
    # search plugin's script names them.
    ("mkdocs",
     "<html><head><title>Tides - Harbour Notes</title></head><body><div class='navbar'><a>Harbour "
     "Notes</a><a href='search.html'>Search the harbour notes</a></div><div class='container'>"
     "<div class='col-md-3'><ul><li><a href='#tides'>Tide tables of the pier</a></li></ul></div>"
     "<div class='col-md-9' role='main'><h1 id='tides'>Tides<a class='headerlink' href='#tides' "
     "title='Permanent link'>Permalink to this heading</a></h1>" + STORY_PARAGRAPHS + "</div></div>"
     "<footer><p>Documentation built with MkDocs.</p></footer><script src='search/main.js'>"
     "</script></body></html>",
     ["Tides", "Paragraph 0:", "Paragraph 3:"],
     ["Permalink", "Tide tables of the pier", "Search the harbour", "built with MkDocs"]),
    # Hexo: Sphinx-like header links, but a meta generator; the post's body is the element the
    # theme renders the Markdown into, without the meta line, licence box and neighbours.
    ("hexo",
     "<html><head><title>Harbour repairs</title><meta name='generator' content='Hexo 8.1.2'>"
     "</head><body><main><article class='post-content'><h1 id='seo-header'>Harbour repairs</h1>"
     "<p class='note note-info'>Last updated on November 25, 2026 am</p><div class="
     "'markdown-body'><h2 id='tides'><a href='#tides' class='headerlink' title='Tides'></a>Tides"
     "</h2>" + STORY_PARAGRAPHS + "</div><div><div class='license-box'><div class='license-title'>"
     "<div>Harbour repairs</div><div>http://harbour.example/2024/repairs/</div></div><div class="
     "'license-meta'><div>Author</div><div>Maren Holt</div></div></div><div class='post-prevnext'>"
     "<article class='post-prev'><a href='/2024/tides/'>Tide tables of the pier</a><span>Previous"
     "</span></article></div></div></article></main></body></html>",
     ["Tides", "Paragraph 0:", "Paragraph 3:"],
     ["Last updated on", "http://harbour.example", "Tide tables of the pier", "Maren Holt"]),
    ("docusaurus",
     "<html><head><title>Release 3.3</title><meta name='generator' content='Docusaurus v3.10.2'>"
     "</head><body><main><article><header><h2>Release 3.3</h2><div class='avatar'><div class="
     "'avatar__intro authorDetails_lV9A'><span>Alex Rattray</span><small>Maintainer</small></div>"
     "</div></header><div class='markdown'>" + STORY_PARAGRAPHS + "</div></article>"
     "<nav class='pagination-nav'><a>Newer entries</a><a>Older entries</a></nav></main>"
     "</body></html>",
     ["Alex Rattray", "Paragraph 3:"], ["Older entries"]),
    # Joined posts are guarded like any block: a wrapper name that reads like boilerplate and
    # would take every post is the site's vocabulary, not a reason to empty the page.
    ("stackexchange",
     "<html><head><title>Harbour question</title></head><body><div id='question-header'><h1>"
     "Harbour question</h1></div>" + "".join(f"<div class='js-post-body'><div class='promo'>"
                                            f"Answer {i}: {REPLY}</div></div>" for i in range(3))
     + "</body></html>",
     ["Answer 0: The harbour", "Answer 2: The harbour"], []),
    ("phpbb",
     "<html><head><title>Harbour repairs</title></head><body id='phpbb'><div id='wrap'>"
     "<div class='action-bar'><a>Post Reply</a> 12 posts Page 1 of 1</div>"
     + _phpbb_post(1, "boatwright") + _phpbb_post(2, "pierkeeper") + "</div></body></html>",
     ["boatwright", "Sat Feb 1, 2024 5:12 pm", "Post 1: The harbour", "pierkeeper", "Post 2:"],
     ["Posts:", "Re: Harbour repairs", "Fair winds", "Post Reply"]),
    ("phpbb",
     "<html><head><title>Harbour repairs</title></head><body id='phpbb'><div id='wrap'>"
     + _phpbb30_post(1, "boatwright") + _phpbb30_post(2, "pierkeeper") + "</div></body></html>",
     ["boatwright", "Tue Aug 1, 2019 1:47 am", "Post 1: The harbour", "pierkeeper", "Post 2:"],
     ["Reply with quote", "Last edited by", "Posts:"]),
    ("discourse",
     "<html><head><title>Harbour topic</title><meta name='generator' content='Discourse 3.4.0'>"
     "</head><body><div id='main-outlet' role='main'><h1>Harbour topic</h1>"
     + _discourse_post(1, "boatwright") + _discourse_post(2, "pierkeeper")
     + "</div><footer><p>Powered by Discourse, best viewed with JavaScript enabled.</p></footer>"
     "</body></html>",
     ["boatwright", "July 1, 2024, 9:11am", "Post 1: The harbour", "pierkeeper", "Post 2: The"],
     ["4 Likes", "Powered by Discourse"]),
    ("xenforo",
     "<html id='XF'><head><title>Harbour thread</title></head><body><div class='p-body-main'>"
     "<div class='p-body-pageContent'>" + _xenforo_post(1, "boatwright")
     + _xenforo_post(2, "pierkeeper", quote="boatwright") + "</div><div class='p-body-sidebar'>"
     "<p>Members online: 1,204 members and 8,112 guests browsing the forum right now.</p></div>"
     "</div></body></html>",
     ["boatwright", "Jul 1, 2024", "Post 1: The harbour", "boatwright said:", "Post 2: The harbour"],
     ["Click to expand", "Joined", "Advertisement", "Full Member", "Liked by", "#2",
      "Members online"]),
    ("xenforo",
     "<html id='XF'><head><title>Harbour thread</title></head><body><div class='p-body-main'>"
     "<div class='p-body-pageContent'><div class='MessageCard__thread-info'>6.3K views 23 "
     "replies 14 participants</div>" + _xenforo_card(1, "boatwright")
     + _xenforo_card(2, "pierkeeper") + "</div></div></body></html>",
     ["boatwright", "Post 1: The harbour", "pierkeeper", "Post 2: The harbour"],
     ["Discussion starter", "410 posts", "Joined 2002", "participants"]),
    ("xenforo1",
     "<html id='XenForo'><head><title>Harbour thread</title></head><body><div class='pageContent'>"
     "<ol class='messageList' id='messageList'><li class='message'><div class='ad'>Advertise "
     "virtually anything here, with banner ads and contextual links.</div></li>"
     + _xenforo1_post(1, "boatwright") + _xenforo1_post(2, "pierkeeper") + "</ol></div>"
     "</body></html>",
     ["boatwright", "May 1, 2024", "Post 1: The harbour", "pierkeeper", "Post 2: The harbour"],
     ["Trophy Points", "Greenhorn", "#2", "Like", "Advertise virtually"]),
]


@pytest.mark.parametrize("engine, html, kept, gone", RULE_CASES, ids=[c[0] for c in RULE_CASES])
def test_framework_rules_keep_the_content_and_drop_the_chrome(engine, html, kept, gone) -> None:
    result = extract(html, "https://forum.example/threads/harbour.1/")
    assert result.framework == engine
    for snippet in kept:
        assert snippet in result.content_text, snippet
    for snippet in gone:
        assert snippet not in result.content_text, snippet


def _material_look(head: str) -> str:
    """A page in the MkDocs Material look (its header, content and typeset article classes),
    with ``head`` added: a Sphinx theme porting that look writes the same classes."""
    return ("<html><head><title>Starter</title>" + head + "</head><body>"
            "<header class='md-header'><a href='/'>Weekend notes</a></header>"
            "<div class='md-content'><article class='md-content__inner md-typeset' role='main'>"
            "<h1>Sourdough starter<a class='headerlink' href='#s'>\u00b6</a></h1>"
            "<p>Feed the starter twice a day with equal weights of flour and water, and keep "
            "it somewhere warm until it doubles within six hours of a feed.</p>"
            "<div class='related'><a href='/prev'>Previous: Home server</a></div>"
            "</article></div></body></html>")


# Pages matching two framework rules: the strongest evidence decides (declared meta generator,
# then the generator's own files and attributes, then theme class names), not file-name order.
STRENGTH_CASES = [
    ("sphinx-helper-script", '<script src="_static/documentation_options.js"></script>',
     "sphinx", "markup signature"),
    ("sphinx-highlight-script", '<script src="../_static/sphinx_highlight.js"></script>',
     "sphinx", "markup signature"),
    ("sphinx-declared", '<meta name="generator" content="Sphinx 7.2.6">', "sphinx",
     "meta generator"),
    # what must stay: MkDocs Material pages (declared or not, header links included)
    ("material-declared", '<meta name="generator" content="mkdocs-1.6.1, mkdocs-material-9.5">'
     '<script src="_static/extra.js"></script>', "mkdocs-material", "meta generator"),
    ("material-look-only", '<script src="assets/javascripts/bundle.js"></script>',
     "mkdocs-material", "markup"),
    # a _static/ folder alone is no signature: other sites serve their files from one too
    ("static-folder-only", '<link rel="stylesheet" href="/_static/site.css">',
     "mkdocs-material", "markup"),
]


@pytest.mark.parametrize("head, framework, evidence", [c[1:] for c in STRENGTH_CASES],
                         ids=[c[0] for c in STRENGTH_CASES])
def test_the_strongest_detection_evidence_wins(head: str, framework: str, evidence: str) -> None:
    html = _material_look(head)
    detection = detect_framework(parse_html(html).tree, "http://localhost/", load_rules())
    assert detection.framework == framework
    assert detection.evidence[0].startswith(evidence + " ")
    result = extract(html, "http://localhost/guide/sourdough-starter.html")
    assert result.framework == framework
    assert "Sourdough starter" in result.content_text
    assert "equal weights of flour and water" in result.content_text
    assert "\u00b6" not in result.content_text
    assert "Previous: Home server" not in result.content_text


# Pages and selectors of a selector set: whether one of its selectors can match (its tag, class
# name, id or tested attribute value is on the page), and what the walk then finds. A class
# name, id or value that only contains the selector's is no match.
SELECTOR_CASES = [
    ('<div class="x md-content"><p>a</p></div>', [".md-content"], True),
    ('<div class="md-content-wide"><p>a</p></div>', [".md-content"], False),
    ('<div id="sidebar"></div>', ["#sidebar"], True),
    ('<div id="sidebar2"></div>', ["#sidebar"], False),
    ('<link href="/wp-content/x.css"><a href="/wp-content/">a</a>',
     ['link[href*="/wp-content/"]'], True),
    ('<a href="/wp-content/">a</a>', ['link[href*="/wp-content/"]'], False),
    ('<main data-pagefind-body="">text</main>', ["main[data-pagefind-body]"], True),
    ('<main>text</main>', ["main[data-pagefind-body]"], False),
    ('<div class="ad-slot">x</div>', ['[class*="ad-"]'], True),
    ('<div class="head">x</div>', ['[class*="ad-"]'], False),
    ('<nav><a href="/">home</a></nav>', ["nav", ".menu"], True),
    ('<div><span class="menu-item">home</span></div>', ["nav", ".menu"], False),
    ('<div id="x" class="y">plain</div>', ["nav", ".menu", "#sidebar", "[hidden]"], False),
]


@pytest.mark.parametrize("html,selectors,can_match", SELECTOR_CASES)
def test_selector_set_walks_only_pages_it_can_match(html: str, selectors: list[str],
                                                    can_match: bool) -> None:
    root = parse_html(f"<html><body>{html}</body></html>").tree
    selector_set = SelectorSet(selectors)
    assert selector_set.may_match(root) is can_match
    found = {el for el, _ in selector_set.matches(root)}
    assert found == {el for selector in selectors for el in css(selector)(root)}
    assert bool(found) is can_match


# Selectors with combinators beside simple ones: lxml's CSS engine runs only on pages holding
# every class name and id the selector names, and finds what it finds on its own; an attribute
# test or a pseudo-class leaves it run on every page.
COMBINATOR_CASES = [
    ('<div class="side-bar">m</div><div class="main">text</div>', "div.side-bar + div.main", 1),
    ('<div class="side-bar">m</div><p>x</p><div class="main">text</div>',
     "div.side-bar + div.main", 0),
    ('<div class="main">text</div>', "div.side-bar + div.main", 0),
    ('<div id="top"><p class="lead">a</p></div><p class="lead">b</p>', "#top > p.lead", 1),
    ('<div id="other"><p class="lead">a</p></div>', "#top > p.lead", 0),
    ('<div><p lang="en">a</p></div>', 'div > p[lang="en"]', 1),
    ('<ul><li>a</li><li>b</li></ul>', "ul li:first-child", 1),
    ('<link href="/wp-content/x.css"><div class="main"><p>a</p></div>', "div.main p", 1),
]


@pytest.mark.parametrize("html,selector,count", COMBINATOR_CASES)
def test_selector_set_runs_combinators_where_their_names_are(html: str, selector: str,
                                                             count: int) -> None:
    root = parse_html(f"<html><body>{html}</body></html>").tree
    selectors = [selector, 'link[href*="/wp-content/"]', "#sidebar"]
    found = [el for el, sel in SelectorSet(selectors).matches(root) if sel == selector]
    assert found == css(selector)(root)
    assert len(found) == count
