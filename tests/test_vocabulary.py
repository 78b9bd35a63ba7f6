"""The one HTML vocabulary: sound groups, hidden elements and hiding selectors read by structure,
and every reader using it (no private copy of a tag list)."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from crawler.extraction import vocabulary
from crawler.extraction.frameworks import hiding_selector, load_rules


def test_the_groups_are_sound() -> None:
    assert vocabulary.vocabulary_problems() == []


@pytest.mark.parametrize("markup, hidden", [
    ('<div hidden>x</div>', True),
    ('<div aria-hidden="true">x</div>', True),
    ('<div style="color: red; DISPLAY : none">x</div>', True),
    ('<div style="visibility:hidden">x</div>', True),
    ('<div aria-hidden="false">x</div>', False),
    ('<div style="display: block">x</div>', False),
    ('<div class="hidden-print">x</div>', False),
])
def test_hidden_elements(markup: str, hidden: bool) -> None:
    assert vocabulary.is_hidden(lxml_html.fragment_fromstring(markup)) is hidden


@pytest.mark.parametrize("selector, hides", [
    ("[hidden]", True),
    ('[aria-hidden="true"]', True),
    ("[aria-hidden='true']", True),
    ('[style*="display:none"]', True),
    ('[style*="display: none"]', True),
    ('[style*="visibility:hidden"]', True),
    ('div[hidden]', True),
    ('[aria-hidden="false"]', False),
    ('[style*="color"]', False),
    ('.hidden', False),
    ('nav', False),
    ('[data-hidden]', False),
    ('div > [hidden]', False),  # combinators: not read as a hiding test
])
def test_hiding_selectors_are_read_by_structure(selector: str, hides: bool) -> None:
    assert hiding_selector(selector) is hides


def test_the_shipped_rules_name_their_hiding_selectors() -> None:
    """The hiding selectors of cleaning.yaml are found (what makes collapsed panels stay), and
    no other selector is taken for one (what keeps the rest removed)."""
    cleaning = load_rules().cleaning
    assert {'[hidden]', '[aria-hidden="true"]', '[style*="display:none"]'} \
        <= cleaning.hiding_selectors
    assert not {"nav", "aside", ".sr-only", ".visually-hidden"} & cleaning.hiding_selectors


@pytest.mark.parametrize("purpose, must_hold, must_not_hold", [
    ("NOT_TEXT_TAGS", {"script", "style", "button", "iframe", "head"}, {"p", "pre", "a"}),
    ("STRIPPED_TAGS", {"script", "style", "button"}, {"head", "title", "iframe", "p"}),
    ("DROPPED_TAGS", {"script", "video", "dialog", "input"}, {"p", "img", "table"}),
    ("SANITIZER_DROPPED_TAGS", {"script", "video"}, {"input", "img", "br"}),
    ("METADATA_SKIPPED_TAGS", {"script", "code", "pre"}, {"p", "time"}),
    ("BLOCK_TAGS", {"p", "div", "h2", "li"}, {"span", "a", "td"}),
    ("DEEP_BLOCK_TAGS", {"p", "td"}, {"span"}),
    ("PAGE_TEXT_BREAK_TAGS", {"p", "br", "td"}, {"span", "a"}),
])
def test_purpose_sets(purpose: str, must_hold: set[str], must_not_hold: set[str]) -> None:
    names = getattr(vocabulary, purpose)
    assert must_hold <= names
    assert not must_not_hold & names
