"""The date pre-check: htmldate is skipped only on pages where it would find no date."""

from __future__ import annotations

from pathlib import Path

import pytest
from htmldate import find_date

from crawler.extraction.date_cues import may_hold_date
from crawler.extraction.document import parse_html
from crawler.extraction.metadata import extract_metadata
from crawler.extraction.structured import parse_structured

SITES = Path(__file__).parent / "sites"
URL = "https://site.example/guide/page.html"


def _tree(html: str):
    return parse_html(f"<html><head><title>Guide</title></head><body>{html}</body></html>"
                      .encode("utf-8")).tree


def _htmldate(tree, url: str | None) -> str | None:
    return find_date(tree, url=url, original_date=True, extensive_search=False,
                     outputformat="%Y-%m-%d")


#: Pages whose only date is one htmldate's fast path finds (in each of the places it looks).
DATED_PAGES = [
    ("<h1>Post</h1><p>No date here.</p>", "https://site.example/2021/03/04/post"),
    ('<meta name="date" content="2019-07-08"><h1>Post</h1>', URL),
    ('<meta itemprop="copyrightYear" content="2018"><h1>Post</h1>', URL),
    ('<meta property="og:image" content="https://cdn.example/2017/05/06/pic.jpg"><h1>Post</h1>', URL),
    ('<script type="application/ld+json">{"datePublished": "2016-01-02"}</script><h1>P</h1>', URL),
    ('<h1>Post</h1><abbr data-utime="1577836800">then</abbr>', URL),
    ('<h1>Post</h1><abbr class="published" title="2015-04-03">April</abbr>', URL),
    ('<h1>Post</h1><time datetime="2014-11-12T10:00:00">last week</time>', URL),
    ('<h1>Post</h1><span class="date">05.01.20</span>', URL),
    ('<h1>Post</h1><p>Issue 12</p><span class="date">05.01.20</span>', URL),  # digits before it
    ('<h1>Post</h1><div class="meta">5.' + " " * 300 + "\n\n März 2020</div>", URL),
    ('<h1>Post</h1><div class="meta">2013 March 5</div>', URL),
    ('<h1>Post</h1><div class="byline"><b>Posted</b> 5th of March, 2012</div>', URL),
    ('<h1>Post</h1><span class="time">20110304</span>', URL),
    ('<h1>Post</h1><p>Updated: 04.05.10</p>', URL),
    ('<h1>Post</h1><p>Datum: 04.05.09</p>', URL),
    ('<h1>Post</h1><p>05.06.20 tarihinde güncellendi</p>', URL),
    ('<h1>Post</h1><p class="x" data-x="2007-08-09 10:11:12">text</p>', URL),
    ('<h1>Post</h1><p aria-label="Last update&#10;05.01.20">text</p>', URL),
]

#: Pages with numbers but nothing htmldate could read as a date (versions, addresses, icons).
UNDATED_PAGES = [
    "<h1>Install</h1><p>Requires version 2.31.0 or later.</p>",
    "<h1>Proxies</h1><pre>proxies = {'http': 'http://10.10.1.1:3128'}</pre>",
    "<h1>Net</h1><p>net = 192.168.1.0/24</p>",
    '<h1>Icons</h1><svg><path d="M12 2.36-2.19 5.5-3.54 9-3.54a2.5 2.5 0 0 1 5 0"/></svg>',
    '<h1>Docs</h1><div class="footer">&copy; Copyright 2019, Kenneth Reitz.</div>',
    '<h1>Docs</h1><a href="https://blog.example/2019/08/intro">an older post</a>',
    "<h1>History</h1><p>In 1999 the project began; 42 people have worked on it since.</p>",
]


@pytest.mark.parametrize("html, url", DATED_PAGES)
def test_pages_where_htmldate_finds_a_date_keep_it(html: str, url: str) -> None:
    tree = _tree(html)
    found = _htmldate(tree, url)
    assert found is not None
    assert may_hold_date(tree, url)
    assert extract_metadata(tree, url, parse_structured(tree, url)).published == found


@pytest.mark.parametrize("html", UNDATED_PAGES)
def test_pages_without_anything_date_like_skip_htmldate(html: str) -> None:
    tree = _tree(html)
    assert not may_hold_date(tree, URL)
    assert _htmldate(tree, URL) is None
    assert extract_metadata(tree, URL, parse_structured(tree, URL)).published is None


@pytest.mark.parametrize("site", sorted(p.name for p in SITES.iterdir() if (p / "public").is_dir()))
def test_skipped_pages_of_real_sites_have_no_htmldate_date(site: str) -> None:
    checked = skipped = 0
    for page in sorted((SITES / site / "public").rglob("*.html")):
        tree = parse_html(page.read_bytes()).tree
        if tree is None:
            continue
        for url in (URL, None):
            checked += 1
            if not may_hold_date(tree, url):
                skipped += 1
                assert _htmldate(tree, url) is None, page
    assert checked and skipped, "the pre-check skipped no page of a documentation site"


@pytest.mark.parametrize("line, dated", [
    # Dates: a day with a month's name, a full numeric date, a year with a month, ISO forms.
    ("7 kwietnia 2021", True),
    ("14 février 2019", True),
    ("5. März 2020", True),
    ("March 5th, 2020", True),
    ("Publikacja: 04.05.2021", True),
    ("By Amelie Marie Feb 14, 2020 5 min read", True),
    ("24.01.2022 11:38 Kategorie: News", True),
    ("12/31/2020", True),
    ("Stand 5.1.20", True),
    ("12.03.21, 14:00", True),
    ("2020-01-05", True),
    ("2021-03-04T10:00:00+01:00", True),
    ("2020/03/05", True),
    ("2020. 5. 3.", True),
    ("2020-W05", True),
    ("20200105", True),
    ("1/2020", True),
    ("2020 Mar 5", True),
    # Not dates: words and numbers that are no day, month and year together.
    ("Hafenstadt im Wandel", False),
    ("5 min read", False),
    ("15 – 30 Min", False),
    ("15-30 Min", False),
    ("Platz 2020 der Rangliste", False),
    ("1990–2020", False),
    ("1990 - 2020", False),
    ("2019 and 2020", False),
    ("Population 2020: 5 million", False),
    ("50 Filme 2021", False),
    ("Euro 2020 on TV", False),
    ("Season 2020 of 38", False),
    ("2020 5 3", False),
    ("12.99.20", False),
    ("1.2.3.45", False),
    ("ISBN 978-3-16-148410-0", False),
    ("Preis 1.299,00 €", False),
    ("© 2020", False),
])
def test_a_line_shows_a_date(line: str, dated: bool) -> None:
    """``shows_date`` tells a date line (any language's month name, numeric dates, ISO forms)
    from a line of words and numbers that are no date: a range, two years, a count before a
    year, a run of numbers."""
    from crawler.extraction.date_cues import shows_date

    assert shows_date(line) is dated
