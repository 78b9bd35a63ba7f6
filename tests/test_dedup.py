"""Pure dedup functions: splitting, hashing, fingerprinting, stripping, volatile tokens, config."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crawler.dedup import (
    block_key,
    compute_domain_fingerprint,
    hash_block,
    removed_blocks,
    split_into_blocks,
    strip_boilerplate,
)
from crawler.dedup.config import DedupConfig, DedupConfigError
from crawler.dedup.page_text import page_lines

FIXTURES = Path(__file__).parent / "fixtures" / "dedup"

BANNER = ("We value your privacy. We and our partners use cookies to store and access "
          "information on your device.")
FOOTER = "Copyright Example Corp. All rights reserved. Terms of service and privacy policy apply."


TOPICS = ["routing", "templates", "sessions", "cookies", "uploads", "streaming", "testing",
          "deployment", "logging", "caching", "security", "websockets", "middleware"]


def page(index: int, *blocks: str) -> str:
    """A page with its own paragraph plus the given shared blocks."""
    topic = TOPICS[index % len(TOPICS)]
    own = f"This page explains {topic} in enough words to be a real block of text of its own."
    return "\n\n".join([own, *blocks])


# --- splitting -------------------------------------------------------------------------------

@pytest.mark.parametrize(("content", "min_chars", "expected"), [
    ("a" * 60 + "\n\n" + "b" * 60, 50, ["a" * 60, "b" * 60]),
    ("a" * 60 + "\n  \n\t\n" + "b" * 60, 50, ["a" * 60, "b" * 60]),
    ("short\n\n" + "b" * 60, 50, ["b" * 60]),
    ("   " + "x" * 20 + "   \n\n" + "y" * 60, 30, ["y" * 60]),
    ("", 50, []),
    (None, 50, []),
    ("c" * 80, 50, ["c" * 80]),
    ("line one of a paragraph that goes on\nline two of the same paragraph", 10,
     ["line one of a paragraph that goes on\nline two of the same paragraph"]),
], ids=["blank-line", "blank-line-with-spaces", "short-filtered", "length-after-strip", "empty",
        "none", "one-block", "single-newline-keeps-block"])
def test_split_into_blocks(content: str | None, min_chars: int, expected: list[str]) -> None:
    assert split_into_blocks(content, min_block_chars=min_chars) == expected


def test_split_preserves_block_content_exactly() -> None:
    block = "  Indented **markdown** with `code`\n    and a second line.  " + "z" * 40
    assert split_into_blocks(f"{block}\n\n{'q' * 60}") == [block, "q" * 60]


# --- hashing ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("a", "b", "same"), [
    ("Cookie banner text", "Cookie banner text", True),
    ("Cookie  banner\n\ttext  ", " cookie banner text", True),
    ("COOKIE BANNER TEXT", "cookie banner text", True),
    ("Cookie banner text", "Cookie banner texts", False),
], ids=["deterministic", "whitespace-insensitive", "case-insensitive", "different-text"])
def test_hash_block(a: str, b: str, same: bool) -> None:
    assert (hash_block(a) == hash_block(b)) is same
    assert len(hash_block(a)) == 16 and int(hash_block(a), 16) >= 0


# --- fingerprint -----------------------------------------------------------------------------

@pytest.mark.parametrize(("pages_with_banner", "total", "threshold", "min_pages", "detected"), [
    (10, 10, 0.7, 5, True),     # on every page
    (7, 10, 0.7, 5, True),      # exactly at the threshold
    (6, 10, 0.7, 5, False),     # just below it
    (4, 4, 0.7, 5, False),      # every page, but fewer pages than min_pages
    (5, 5, 0.7, 5, True),       # min_pages reached
    (3, 10, 0.3, 2, True),      # lower threshold
    (2, 10, 0.1, 2, True),      # threshold below min_pages: min_pages decides
    (1, 10, 0.1, 2, False),
])
def test_fingerprint_threshold(pages_with_banner: int, total: int, threshold: float, min_pages: int,
                               detected: bool) -> None:
    pages = [page(i, BANNER) if i < pages_with_banner else page(i) for i in range(total)]
    fp = compute_domain_fingerprint(pages, threshold_pct=threshold, min_pages=min_pages)
    assert (block_key(BANNER) in fp.hashes) is detected
    assert fp.pages_analyzed == total


def test_fingerprint_ignores_unique_blocks_and_counts_stats() -> None:
    pages = [page(i, BANNER, FOOTER) for i in range(8)]
    fp = compute_domain_fingerprint(pages)
    assert fp.hashes == {block_key(BANNER), block_key(FOOTER)}
    assert (fp.pages_analyzed, fp.blocks_total, fp.blocks_boilerplate) == (8, 24, 2)


def test_fingerprint_counts_a_block_once_per_page() -> None:
    pages = [page(0, BANNER, BANNER, BANNER, BANNER, BANNER)] + [page(i) for i in range(1, 6)]
    assert compute_domain_fingerprint(pages).hashes == frozenset()


@pytest.mark.parametrize("pages", [[], ["", None, "   "], ["", "", "", "", "", ""]],
                         ids=["no-pages", "blank-pages", "six-empty"])
def test_fingerprint_of_empty_pages(pages: list[str | None]) -> None:
    fp = compute_domain_fingerprint(pages)
    assert fp.hashes == frozenset() and fp.blocks_total == 0 and fp.pages_analyzed == len(pages)


def test_cookie_banner_on_every_page_is_detected_and_stripped() -> None:
    pages = [f"{BANNER}\n\n{page(i)}" for i in range(12)]
    fp = compute_domain_fingerprint(pages)
    assert fp.blocks_boilerplate == 1
    for i, content in enumerate(pages):
        cleaned, removed = strip_boilerplate(content, fp.hashes)
        assert cleaned == page(i) and "privacy" not in cleaned and removed > 0


# --- stripping -------------------------------------------------------------------------------

def test_strip_removes_and_reports_exact_bytes() -> None:
    intro = "Intro paragraph that is long enough to count as a block, really."
    content = f"{intro}\n\n{BANNER}\n\nEnd é."
    cleaned, removed = strip_boilerplate(content, {hash_block(BANNER)})
    assert cleaned == f"{intro}\n\nEnd é."
    assert removed == len(content.encode()) - len(cleaned.encode()) == len(BANNER.encode()) + 2


@pytest.mark.parametrize("hashes", [set(), {hash_block("another block, not on this page at all")}],
                         ids=["empty-set", "unrelated-hash"])
def test_strip_preserves_content_without_boilerplate(hashes: set[str]) -> None:
    content = f"{page(1)}\n\n\n\n   keep   \n\n{page(2)}\n"
    assert strip_boilerplate(content, hashes) == (content, 0)


def test_strip_collapses_blank_lines_left_behind() -> None:
    content = f"{page(1)}\n\n\n{BANNER}\n\n\n\n{page(2)}"
    cleaned, _ = strip_boilerplate(content, {hash_block(BANNER)})
    assert cleaned == f"{page(1)}\n\n{page(2)}"
    assert "\n\n\n" not in cleaned


@pytest.mark.parametrize(("content", "expected"), [
    (None, ("", 0)),
    ("", ("", 0)),
    (BANNER, ("", len(BANNER.encode()))),
])
def test_strip_edge_cases(content: str | None, expected: tuple[str, int]) -> None:
    assert strip_boilerplate(content, {hash_block(BANNER)}) == expected


def test_strip_takes_short_repeated_blocks_touching_boilerplate() -> None:
    """A banner's title and buttons go with it; the same short text elsewhere stays."""
    banner = f"## Cookie Settings\n\n{BANNER}\n\nAccept All\n\nReject All"
    pages = [f"{banner}\n\n{page(i)}\n\nAccept All" for i in range(10)]
    pages.append(f"Accept All\n\n{page(12)}")
    fp = compute_domain_fingerprint(pages)
    cleaned, _ = strip_boilerplate(pages[0], fp)
    assert cleaned == f"{page(0)}\n\nAccept All"
    assert strip_boilerplate(pages[-1], fp)[0] == pages[-1]
    expected = ["## Cookie Settings", BANNER, "Accept All", "Reject All"]
    assert removed_blocks(pages[0], fp) == expected


ACTIONS = "- [Copy page](/page.html)\n- [View source](/_sources/page.md.txt) of this very page"
LONG_TITLE = "# Planning a Small Vegetable Garden on Paper, First of All"


@pytest.mark.parametrize(("layout", "kept", "gone"), [
    # the page's title (in every page's sidebar too) right after a page-actions bar
    ([ACTIONS, "# Garden Notes", "{own}"], ["# Garden Notes", "{own}"], [ACTIONS]),
    # a title long enough to be a block of its own, on every page
    ([LONG_TITLE, "{own}"], [LONG_TITLE, "{own}"], []),
    # a title over a subheading over the page's own text: both open kept content
    ([ACTIONS, "# Garden Notes", "## Overview", "{own}"],
     ["# Garden Notes", "## Overview", "{own}"], [ACTIONS]),
    # a banner's title goes with its banner
    (["## Cookie Settings", BANNER, "{own}"], ["{own}"], ["## Cookie Settings", BANNER]),
    # a repeated heading over a repeated footer, or closing the content, goes
    (["{own}", "## Legal", FOOTER], ["{own}"], ["## Legal", FOOTER]),
    (["{own}", FOOTER, "## Heading that ends every page of this site"], ["{own}"],
     [FOOTER, "## Heading that ends every page of this site"]),
], ids=["title-after-actions", "long-title", "title-and-subheading", "banner-title",
        "footer-heading", "closing-heading"])
def test_heading_stays_with_the_kept_content_it_opens(layout: list[str], kept: list[str],
                                                      gone: list[str]) -> None:
    """A repeated heading goes only when the block after it goes too (or nothing follows)."""
    pages = ["\n\n".join(page(i) if b == "{own}" else b for b in layout) for i in range(10)]
    fp = compute_domain_fingerprint(pages)
    cleaned, _ = strip_boilerplate(pages[0], fp)
    assert cleaned == "\n\n".join(page(0) if b == "{own}" else b for b in kept)
    assert removed_blocks(pages[0], fp) == gone


def test_paragraph_below_threshold_survives() -> None:
    shared = "A note repeated on a few pages only, about installing the optional extras."
    pages = [page(i, BANNER, shared) if i < 4 else page(i, BANNER) for i in range(10)]
    fp = compute_domain_fingerprint(pages)
    cleaned, _ = strip_boilerplate(pages[0], fp)
    assert shared in cleaned and BANNER not in cleaned


# --- volatile tokens -------------------------------------------------------------------------

VOLATILE = json.loads((FIXTURES / "volatile_cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("a", "b"), VOLATILE["same"])
def test_volatile_tokens_do_not_split_a_block(a: str, b: str) -> None:
    assert block_key(a) == block_key(b)
    assert hash_block(a) != hash_block(b)


@pytest.mark.parametrize(("a", "b"), VOLATILE["different"])
def test_real_differences_still_count(a: str, b: str) -> None:
    assert block_key(a) != block_key(b)


def test_banner_with_per_page_consent_id_is_caught_only_with_normalisation() -> None:
    pages = [page(i, f"{BANNER} Consent ID {i:04d}-{i * 7919:08x}, recorded 2026-03-{i + 1:02d}.")
             for i in range(10)]
    assert compute_domain_fingerprint(pages, normalise=False).hashes == frozenset()
    fp = compute_domain_fingerprint(pages)
    assert fp.blocks_boilerplate == 1
    assert all(strip_boilerplate(p, fp)[0] == page(i) for i, p in enumerate(pages))


# --- config ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("values", "message"), [
    ({"threshold_pct": 0.05}, "threshold_pct must be a number from 0.1 to 1.0, got 0.05."),
    ({"threshold_pct": "lots"}, "threshold_pct must be a number from 0.1 to 1.0, got 'lots'."),
    ({"min_pages": 1}, "min_pages must be an integer from 2 to 100, got 1."),
    ({"min_pages": "2.5"}, "min_pages must be an integer from 2 to 100, got '2.5'."),
    ({"min_block_chars": 501}, "min_block_chars must be an integer from 10 to 500, got 501."),
])
def test_config_rejects_out_of_range_values(values: dict[str, object], message: str) -> None:
    kwargs = {"threshold_pct": 0.7, "min_pages": 5, "min_block_chars": 50, **values}
    with pytest.raises(DedupConfigError) as error:
        DedupConfig.from_values(**kwargs)
    assert str(error.value) == message


def test_config_accepts_strings_from_settings() -> None:
    config = DedupConfig.from_values(threshold_pct="0.5", min_pages="3", min_block_chars="40")
    assert config == DedupConfig(threshold_pct=0.5, min_pages=3, min_block_chars=40)


# --- whole-page lines ------------------------------------------------------------------------

@pytest.mark.parametrize(("html", "expected"), [
    (b"<html><body><div>One <b>bold</b> line</div><p>Two &amp; more</p></body></html>",
     ["One bold line", "Two & more"]),
    ("<body><script>var p = '<p>no</p>';</script><style>p {}</style><p>kept</p><!-- <p>x</p> -->"
     "<noscript>enable JS</noscript><svg><text>icon</text></svg></body>", ["kept"]),
    ("<ul><li>First item</li><li>Second <a href='/x'>link</a></li></ul>tail text",
     ["First item", "Second link", "tail text"]),
    ("<head><title>Title</title></head><body><h1>Heading</h1>\n  spread\n over  lines <br>next"
     "</body>",
     ["Heading", "spread over lines", "next"]),
    (b"", []),
    (None, []),
], ids=["blocks-and-entities", "skipped-elements", "list-items", "head-and-br", "empty", "none"])
def test_page_lines(html: bytes | str | None, expected: list[str]) -> None:
    assert page_lines(html) == expected


# --- per-block figures -----------------------------------------------------------------------

@pytest.mark.parametrize(("pages_removed", "normalise", "expected"), [
    # one banner with a per-page consent ID: one block when normalised, one per ID when exact
    ([[f"{BANNER} Consent 1a2b{n}c."] for n in range(3)], True, [(BANNER, 3)]),
    ([[f"{BANNER} Consent 1a2b{n}c."] for n in range(3)], False,
     [(BANNER, 1), (BANNER, 1), (BANNER, 1)]),
    # a block repeated on one page counts that page once, its bytes twice
    ([[FOOTER, FOOTER], [FOOTER]], True, [(FOOTER, 2)]),
    # two different blocks stay apart, the one that removed more bytes first
    ([[BANNER, FOOTER], [BANNER]], True, [(BANNER, 2), (FOOTER, 1)]),
])
def test_removed_blocks_are_tallied_per_block(pages_removed: list[list[str]], normalise: bool,
                                              expected: list[tuple[str, int]]) -> None:
    from crawler.dedup.blocks import RemovedBlockTally

    tally = RemovedBlockTally(normalise=normalise)
    for removed in pages_removed:
        tally.add(removed)
    top = tally.top(10)
    assert [(b.text[:len(start)], b.pages) for b, (start, _) in zip(top, expected)] == expected
    assert len(top) == len(expected) == len(tally)
    assert sum(b.bytes_removed for b in top) == sum(len(x.encode()) for p in pages_removed
                                                    for x in p)
