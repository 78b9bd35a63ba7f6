"""The check every cleaning-rule table test makes: what must stay stayed, what must go went."""

from __future__ import annotations


def assert_kept_and_removed(text: str, case: str, stay: list[str], go: list[str]) -> None:
    """Fail naming the case and the first snippet lost (``stay``) or kept (``go``) in ``text``."""
    for snippet in stay:
        assert snippet in text, f"{case}: lost {snippet!r}"
    for snippet in go:
        assert snippet not in text, f"{case}: kept {snippet!r}"
