"""Metadata read from what the page says: the same title wherever the page is served, and no
author from a "by NAME" that is code or a licence's capitals."""

from __future__ import annotations

import pytest

from crawler.extraction import extract

STORY = "".join(f"<p>The harbour reopened on Monday after three weeks of repairs, and the first "
                f"boats arrived before noon. Paragraph {i}.</p>" for i in range(5))


def page(title: str, body: str, head: str = "") -> str:
    return f"<html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


URLS = ["https://tidewatchers.example/piers", "https://mirror.example/x/1",
        "https://www.harbourweekly.example/piers"]


@pytest.mark.parametrize("title, body, expected", [
    ("Harbour Weekly \u2014 Piers reopen after the storm", f"<article>{STORY}</article>",
     "Piers reopen after the storm"),
    ("Tidewatchers \u2014 Piers", f"<header><a class='logo' href='/'>Tidewatchers</a></header>"
     f"<article>{STORY}</article>", "Piers"),
    ("Piers | Tidewatchers", f"<header><div class='site-brand'><img alt='Tidewatchers' "
     f"src='/l.png'></div></header><article>{STORY}</article>", "Piers"),
    # no sign of the brand on the page: whatever the title is, it is the same on every URL
    ("Tidewatchers \u2014 Piers", f"<article>{STORY}</article>", None),
])
def test_title_does_not_depend_on_the_url(title: str, body: str, expected: str | None) -> None:
    results = [extract(page(title, body), url) for url in URLS]
    assert len({r.title for r in results}) == 1, [r.title for r in results]
    if expected is not None:
        assert results[0].title == expected
    assert all("Paragraph 4" in r.content_text for r in results)


@pytest.mark.parametrize("name, body, author", [
    ("by NAME in a code block",
     f"<article><h1>Greeting</h1>{STORY}<pre><code>Usage: greet [OPTIONS]\n  Greets NAME by "
     f"NAME.\n  Written by NAME</code></pre></article>", None),
    ("a licence in capitals",
     f"<article><h1>Licence</h1><p>THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND "
     f"CONTRIBUTORS \"AS IS\" AND ANY EXPRESS OR IMPLIED WARRANTIES ARE DISCLAIMED.</p>{STORY}"
     f"</article>", None),
    ("an acronym after by", f"<article><h1>Pages</h1><p>Pages are found by URL. Make a folder "
     f"for each.</p>{STORY}</article>", None),
    ("a real byline", f"<article><h1>Piers reopen</h1><p class='x'>By Jo Harbour</p><p>12 May 2024</p>{STORY}"
     f"</article>", "Jo Harbour"),
    ("a byline in capitals", f"<article><h1>Piers reopen</h1><p>BY JO HARBOUR</p><p>12 May 2024</p>{STORY}"
     f"</article>", "JO HARBOUR"),
])
def test_author_is_not_code_or_licence_text(name: str, body: str, author: str | None) -> None:
    result = extract(page("Piers", body), "https://news.example/piers")
    assert result.author == author
    assert "Paragraph 4" in result.content_text
