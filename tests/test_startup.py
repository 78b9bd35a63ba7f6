"""The checked setting readers: which words are true/false, and that anything else is refused
with a sentence naming the setting (never a default picked here)."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from crawler.startup import SettingError, parse_truth, read_bool

TRUTH_CASES = [
    ("1", True), ("true", True), (" Yes ", True), ("ON", True),
    ("0", False), ("False", False), ("no", False), ("off", False),
    ("", None), ("maybe", None), ("2", None), ("None", None),
]


@pytest.mark.parametrize(("value", "expected"), TRUTH_CASES)
def test_parse_truth_knows_only_the_documented_words(value: str, expected: bool | None) -> None:
    assert parse_truth(value) is expected


@pytest.mark.parametrize(("value", "expected"), [
    (True, True), (False, False), ("yes", True), ("off", False), ("", False), (1, True),
])
def test_read_bool_reads_words_and_booleans(value: object, expected: bool) -> None:
    assert read_bool(Settings({"SWITCH": value}), "SWITCH") is expected


@pytest.mark.parametrize("value", ["maybe", "2", None, "tru"])
def test_read_bool_refuses_anything_else_naming_the_setting(value: object) -> None:
    with pytest.raises(SettingError, match=r"^SWITCH must be true or false, got "):
        read_bool(Settings({"SWITCH": value}), "SWITCH")
