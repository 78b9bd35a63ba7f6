"""Month names of many languages, read from ``site_rules/dates.yaml`` and checked when loaded.

A date shown to the reader ("5 March 2020", "März 5, 2020", "5 décembre 2020") names its month
in the page's language. The names are data (the Unicode CLDR's month names of each language,
wide and abbreviated), not a table of one language in code. A name meaning different months in
different languages (Polish ``listopad`` is November, Croatian ``listopad`` October) is read in
the page's declared language when that language has it, else as the month most languages
listing it mean by it; a name that leaves a tie is not read as a month at all.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MonthNames", "month_names_from_data"]

MONTHS_IN_A_YEAR = 12
_NAME = re.compile(r"[^\W\d_]+")
_LANGUAGE = re.compile(r"[a-z]{2,3}")


@dataclass(frozen=True)
class MonthNames:
    """Month numbers by lower-case name, per language and for a page of unknown language."""

    by_language: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """Each language's names and the month (1-12) each one means there."""
    common: Mapping[str, int] = field(default_factory=dict)
    """Every name with the month most languages listing it mean by it (ties left out)."""

    def month(self, name: str, language: str | None = None) -> int | None:
        """The month (1-12) a name means on a page in ``language`` (a BCP 47 tag or None)."""
        key = name.lower()
        if language:
            own = self.by_language.get(language.split("-")[0].split("_")[0].lower())
            if own is not None and key in own:
                return own[key]
        return self.common.get(key)


def month_names_from_data(data: Any, errors: list[str], source: str = "dates.yaml") -> MonthNames:
    """The month names of ``month_names`` in a parsed dates file (language code -> the twelve
    months' names, months apart by ``|``), each language checked: a language code, twelve
    months, each name a lower-case word, no name meaning two months in one language. A language
    failing a check is reported in ``errors`` and left out."""
    if not isinstance(data, Mapping):
        errors.append(f"{source}: month_names is not a mapping of languages to month names")
        return MonthNames()
    by_language: dict[str, dict[str, int]] = {}
    for language, months in data.items():
        names, problem = _language_months(str(language), months)
        if problem:
            errors.append(f"{source}: month_names {problem}")
            continue
        by_language[str(language)] = names
    return MonthNames(by_language=by_language, common=_common(by_language.values()))


def _language_months(language: str, months: Any) -> tuple[dict[str, int], str | None]:
    """One language's names and the month each means, or what is wrong with them."""
    if not _LANGUAGE.fullmatch(language):
        return {}, f"has {language!r}, which is not a language code"
    groups = months.split("|") if isinstance(months, str) else []
    if len(groups) != MONTHS_IN_A_YEAR:
        return {}, f"{language} does not name twelve months apart by '|'"
    seen: dict[str, int] = {}
    for number, group in enumerate(groups, 1):
        names = group.split()
        if not names:
            return {}, f"{language} has no name for month {number}"
        for name in names:
            if not _NAME.fullmatch(name) or name != name.lower():
                return {}, f"{language} month {number} has {name!r}, which is not a lower-case word"
            if seen.setdefault(name, number) != number:
                return {}, f"{language} names two months {name!r}"
    return seen, None


def _common(languages: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Each name with the month most languages mean by it; names whose vote ties are left out."""
    votes: dict[str, Counter[int]] = defaultdict(Counter)
    for own in languages:
        for name, number in own.items():
            votes[name][number] += 1
    common = {}
    for name, counter in votes.items():
        ranked = counter.most_common(2)
        if len(ranked) == 1 or ranked[0][1] > ranked[1][1]:
            common[name] = ranked[0][0]
    return common
