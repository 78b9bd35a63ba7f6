"""Invisible text: format characters no reader sees (zero-width spaces, joiners, soft hyphens,
a byte-order mark) do not survive in a page's title and authors, and the content's text reads
the zero-width space as a boundary between words and the word joiner as part of its word; the
visible title of a container whose ``aria-label`` names it, marked ``aria-hidden`` because the
label already announces it, stays, while other ``aria-hidden`` text still goes."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed, page_around

URL = "https://docs.example/guide/setup"
STORY = "".join(f"<p>The server runs the backup job every night and keeps the archives for a "
                f"month before it deletes them, paragraph {i}.</p>" for i in range(5))


def page(h1: str, author: str = "", main: str = STORY) -> str:
    """A documentation page whose heading is ``h1`` (markup), with an author meta tag."""
    meta = f"<meta name='author' content='{author}'>" if author else ""
    return (f"<html><head><title>Setup | Docs</title>{meta}</head><body><header><a href='/'>"
            f"Docs</a></header><main><h1>{h1}</h1>{main}</main><footer>Impressum</footer>"
            f"</body></html>")


METADATA_CASES = [
    # (name, heading markup, author meta, title, author)
    ("a heading anchor holding a zero-width space leaves no trace in the title",
     "Setup <a class='header-anchor' href='#setup' aria-label='Permalink'>\u200b</a>", "",
     "Setup", None),
    ("a zero-width space between two words of a title is a word boundary",
     "Setup\u200bguide", "", "Setup guide", None),
    ("soft hyphens, word joiners and a byte-order mark join their word",
     "\ufeffBack\u00adup set\u2060up", "", "Backup setup", None),
    ("zero-width joiners and spaces in an author's name go",
     "Setup", "Jane\u200d Doe\u200b", "Setup", "Jane Doe"),
]


@pytest.mark.parametrize("name,h1,author,title,byline", METADATA_CASES,
                         ids=[c[0] for c in METADATA_CASES])
def test_invisible_characters_leave_metadata(name: str, h1: str, author: str, title: str,
                                             byline: str | None) -> None:
    result = extract(page(h1, author), URL)
    assert result.title == title, name
    assert result.author == byline, name


TEXT_CASES = [
    # (name, main html, must stay, must go)
    ("a word joiner and a byte-order mark inside a word leave the word whole",
     "<p>An extra\u2060ordinarily\ufeff quiet disk keeps the backups.</p>" + STORY,
     ["extraordinarily quiet", "paragraph 4"], ["\u2060", "\ufeff"]),
    ("a zero-width space alone between two words separates them",
     "<p>The job copies\u200beach archive to the disk.</p>" + STORY,
     ["copies each archive", "paragraph 4"], ["\u200b", "copieseach"]),
    ("a zero-width space beside a space adds no second space",
     "<p>The job copies \u200b each archive to the disk.</p>" + STORY,
     ["copies each archive", "paragraph 4"], ["\u200b", "copies  each"]),
]


@pytest.mark.parametrize("name,main,stay,go", TEXT_CASES, ids=[c[0] for c in TEXT_CASES])
def test_invisible_characters_in_content_text(name: str, main: str, stay: list[str],
                                              go: list[str]) -> None:
    result = extract(page("Setup", main=main), URL)
    assert_kept_and_removed(result.content_text, name, stay, go)
    assert_kept_and_removed(result.content_markdown, name, stay, go)


ASIDE_TITLE = ("<p class='aside-title' aria-hidden='true'><svg viewBox='0 0 1 1'><path d='M0 0'/>"
               "</svg>Before you start</p>")
HIDDEN_CASES = [
    # (name, main html, must stay, must go)
    ("an admonition's title repeating its aria-label stays",
     STORY + f"<div aria-label='Before you start' class='note' role='note'>{ASIDE_TITLE}<div><p>Check "
     "that the disk is formatted before the first backup runs.</p></div></div>",
     ["Before you start", "Check that the disk", "paragraph 4"], []),
    ("aria-hidden text other than the label still goes",
     STORY + "<div aria-label='Before you start' class='note' role='note'><p aria-hidden='true'>Icon tip"
     "</p><div><p>Check that the disk is formatted before the first backup runs.</p></div>"
     "</div>",
     ["Check that the disk", "paragraph 4"], ["Icon tip"]),
    ("aria-hidden text naming an ancestor further up still goes",
     f"<section aria-label='Before you start'>{STORY}<div>{ASIDE_TITLE}</div></section>",
     ["paragraph 4"], ["Before you start"]),
]


@pytest.mark.parametrize("name,main,stay,go", HIDDEN_CASES, ids=[c[0] for c in HIDDEN_CASES])
def test_aria_hidden_title_of_a_labelled_container(name: str, main: str, stay: list[str],
                                                   go: list[str]) -> None:
    result = extract(page_around(main, title="Setup", heading="Setup"), URL)
    assert_kept_and_removed(result.content_text, name, stay, go)
