"""Chunks of a page's markdown: cut at headings, then by size, with the heading path; every
word of the page in exactly one chunk and no chunk over the limit."""

from __future__ import annotations

import pytest

from crawler.chunking import chunk_markdown, heading_title

GUIDE = """# Guide

Intro words here.

## Install

Run the installer.

### From source

```sh
# not a heading: a comment in code
make install
```

## Use

Call it.
"""


@pytest.mark.parametrize(("markdown", "limit", "expected"), [
    # (heading path, text) of each chunk
    (GUIDE, 100, [
        (("Guide",), "# Guide\n\nIntro words here."),
        (("Guide", "Install"), "## Install\n\nRun the installer."),
        (("Guide", "Install", "From source"),
         "### From source\n\n```sh\n# not a heading: a comment in code\nmake install\n```"),
        (("Guide", "Use"), "## Use\n\nCall it."),
    ]),
    # a heading with nothing under it starts the next section's text
    ("# Title\n\n## Part\n\nBody text.", 100, [
        (("Title", "Part"), "# Title\n\n## Part\n\nBody text."),
    ]),
    # a last heading with nothing under it is kept
    ("Lead.\n\n## End", 100, [((), "Lead."), (("End",), "## End")]),
    # no heading at all: one chunk with an empty path
    ("Just a paragraph.\n\nAnd another.", 100, [((), "Just a paragraph.\n\nAnd another.")]),
    # blocks packed up to the limit, the heading kept with the first block cut to fit
    ("## A\n\none two three\n\nfour five six seven", 4, [
        (("A",), "## A\n\none two"),
        (("A",), "three"),
        (("A",), "four five six seven"),
    ]),
    # a long line is cut between words
    ("w1 w2 w3 w4 w5", 2, [((), "w1 w2"), ((), "w3 w4"), ((), "w5")]),
    # decoration and links leave the heading's words
    ("## **Bold** [Link](http://x) `code`\n\ntext", 10, [
        (("Bold Link code",), "## **Bold** [Link](http://x) `code`\n\ntext"),
    ]),
    # a fence of four backticks holding three is one block; the heading after it counts
    ("````md\n```\n# inside\n```\n````\n\n# After\n\nx", 50, [
        ((), "````md\n```\n# inside\n```\n````"),
        (("After",), "# After\n\nx"),
    ]),
    ("", 10, []),
])
def test_chunks_follow_headings_and_the_limit(markdown: str, limit: int,
                                              expected: list[tuple[tuple[str, ...], str]]) -> None:
    chunks = chunk_markdown(markdown, limit)
    assert [(c.heading_path, c.text) for c in chunks] == expected
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert all(0 < c.words <= limit for c in chunks)
    assert " ".join(c.text for c in chunks).split() == markdown.split()  # nothing lost or added


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError):
        chunk_markdown("x", 0)


@pytest.mark.parametrize(("raw", "title"), [
    ("Install *now*", "Install now"), ("[API](https://x/api) reference", "API reference"),
    ("  spaced   out ", "spaced out"),
])
def test_heading_titles_lose_their_decoration(raw: str, title: str) -> None:
    assert heading_title(raw) == title
