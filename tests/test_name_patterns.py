"""NamePattern answers exactly as the case-insensitive regex it stands for."""

from __future__ import annotations

import re

import pytest

from crawler.extraction.frameworks import load_rules
from crawler.extraction.name_patterns import NamePattern

VALUES = ["sidebar", "SideBar-Widget", "main-content", "js-comments", "post__body", "",
          "nav  menu", "K-related",  # Kelvin sign: matches "k" only case-insensitively
          "ſhare", "İtem-list", "ARTICLE_BODY", "x-share-y", "has-comments"]


@pytest.mark.parametrize("source, fast", [
    (r"share|related|(?:^|[-_\s])comments(?:$|[-_\s])", True),
    (r"^ad-|-ad-|sidebar", True),
    (r"authorName|AuthorName", False),  # capitals: the case-insensitive pattern alone
    (r"(?-i:Share)|related", False),  # a flag group: the case-insensitive pattern alone
    (r"\Sbody", False),  # an escape in capitals
    (r"beitrag|größe", False),  # not ASCII
])
def test_same_matches_as_the_case_insensitive_regex(source: str, fast: bool) -> None:
    reference = re.compile(source, re.I)
    pattern = NamePattern(source)
    assert (pattern._lowered is not None) is fast
    assert pattern.pattern == source
    for value in VALUES:
        got, want = pattern.search(value), reference.search(value)
        assert (got is None) == (want is None), value
        assert pattern.found(value) is (want is not None), value
        if want is not None:
            assert got.group(0) == want.group(0) and got.span() == want.span(), value


def test_rule_patterns_use_the_fast_test_and_agree() -> None:
    cleaning = load_rules().cleaning
    patterns = [value for value in vars(cleaning).values() if isinstance(value, NamePattern)]
    fast = {name for name, value in vars(cleaning).items()
            if isinstance(value, NamePattern) and value._lowered is not None}
    assert {"boilerplate_pattern", "content_name_pattern", "readability_negative_pattern",
            "readability_positive_pattern", "comment_section_pattern"} <= fast
    for pattern in patterns:
        reference = re.compile(pattern.pattern, re.I)
        for value in VALUES + ["entry-content", "Article-Body", "Comment-List", "ad-slot"]:
            got, want = pattern.search(value), reference.search(value)
            assert (got is None) == (want is None)
            assert pattern.found(value) is (want is not None)
            if want is not None:
                assert got.group(0) == want.group(0)
