"""Case-insensitive class/id name patterns of the rules, searched fast on ASCII names.

Every element's class and id values are searched with several long alternations of names
(``site_rules/cleaning.yaml``). Python's regex engine tries every alternative at every position
of a case-insensitive pattern, while a case-sensitive one first skips to a character that can
start a match: searching the lower-cased value with the pattern compiled case-sensitively is
three to four times cheaper (measured on the class and id values of the development corpus).
Both give the same answer when the value is ASCII and the pattern is ASCII without capitals or
flag groups (case folding of ASCII is plain lower-casing); other values, and other patterns, are
searched with the case-insensitive pattern alone. A hit is always returned by the
case-insensitive pattern, so what it reports (the name as the page spells it) does not change;
a rule asking only whether a name matches (:meth:`NamePattern.found`) takes the lower-cased
search's answer either way.
"""

from __future__ import annotations

import re

_NON_FLAG_GROUP = re.compile(r"\(\?(?![:=!<])")
"""A group opening ``(?`` that sets or clears flags (``(?-i:...)``, ``(?i)``)."""


class NamePattern:
    """A compiled case-insensitive pattern with a fast negative test for ASCII text."""

    __slots__ = ("regex", "_lowered")

    def __init__(self, source: str) -> None:
        self.regex: re.Pattern[str] = re.compile(source, re.I)
        self._lowered: re.Pattern[str] | None = None
        if source.isascii() and not any(c.isupper() for c in source) \
                and not _NON_FLAG_GROUP.search(source):
            self._lowered = re.compile(source)

    @property
    def pattern(self) -> str:
        """The pattern's source text."""
        return self.regex.pattern

    def search(self, text: str) -> re.Match[str] | None:
        """The first match in ``text``, as ``re.search`` with ``re.IGNORECASE`` gives it."""
        lowered = self._lowered
        if lowered is not None and text.isascii() and lowered.search(text.lower()) is None:
            return None
        return self.regex.search(text)

    def found(self, text: str) -> bool:
        """Whether the pattern matches somewhere in ``text`` (``search`` finds a match). On
        ASCII text the lower-cased search answers alone, also when it finds one: the rules that
        only ask whether a name matches (most of them) need no second search for the match the
        page spells."""
        lowered = self._lowered
        if lowered is not None and text.isascii():
            return lowered.search(text.lower()) is not None
        return self.regex.search(text) is not None

    def __repr__(self) -> str:
        return f"NamePattern({self.regex.pattern!r})"
