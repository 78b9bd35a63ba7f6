"""The words metadata reads around names and dates, read from ``site_rules/metadata.yaml`` and
checked when loaded.

A byline says who wrote a page in the page's language ("By Jane Doe", "von Max Muster", "par
Marie Curie"); a job title follows a name ("Jane Doe, Senior Editor"); a date is labelled as an
update ("Updated March 5, 2020", "aktualisiert am 5. März 2020"). These words are data, a list
per language, not a table of one language in code: every kind of cue holds words of several
languages, and the patterns metadata searches with are built here from all of them, so a page
in any listed language is read the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MetadataCues", "metadata_cues_from_data", "CUE_KINDS", "MIN_LANGUAGES"]

#: Each kind of cue the file holds and what it is, as the README's table says.
CUE_KINDS: dict[str, str] = {
    "byline_lead_ins": "words ahead of an author's name in a byline and in running text ('by')",
    "byline_block_lead_ins": "words ahead of a name at a byline's start only ('von', 'par')",
    "author_box_lead_ins": "words ahead of a name in an author's own box only ('about')",
    "author_labels": "a label naming the author field ('author', followed by a colon or a name)",
    "name_joiners": "the word joining the last two names of a list ('and')",
    "name_particles": "lower-case words inside a person's name ('van', 'de')",
    "placeholder_names": "what a template writes where no name is known ('admin', 'anonymous')",
    "role_words": "job titles ending a name in a visible byline ('editor', 'writer')",
    "title_words": "job titles and credentials that may close a name given whole ('team', 'phd')",
    "role_lead_words": "words opening a job title after a name ('senior', 'former')",
    "affiliation_words": "the word between a job title and its employer ('at')",
    "speech_verbs": "verbs that follow a name in running text ('says', 'wrote')",
    "date_labels": "labels of a date after a name ('published', 'updated', 'last updated')",
    "modified_cues": "labels telling that a shown date is an update ('updated', 'revised')",
    "weekday_names": "the names of the days of the week, wide and abbreviated",
    "date_prepositions": "the word ahead of a day or a date ('on')",
}

#: How many languages every kind of cue holds at least: a cue of one language only reads the
#: pages of that one.
MIN_LANGUAGES = 2

#: A cue: lower-case words of letters (an apostrophe inside a word, as in "l'auteur"), apart by
#: single spaces.
_PHRASE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*(?: [^\W\d_]+(?:['’][^\W\d_]+)*)*")
_LANGUAGE = re.compile(r"[a-z]{2,3}")


def _alternation(phrases: Iterable[str], cased: bool = False) -> str:
    """A regular expression alternation of phrases, longest first (so "written by" is tried
    before "by"), a run of spaces matching between words; with ``cased``, each phrase in lower
    case, with a capital first letter and in capitals (the case forms a byline is written in,
    for a search that is otherwise case-sensitive)."""
    forms: set[str] = set()
    for phrase in phrases:
        forms.add(phrase)
        if cased:
            forms.update({phrase[:1].upper() + phrase[1:], phrase.upper()})
    ordered = sorted(forms, key=lambda p: (-len(p), p))
    return "|".join(r"\s+".join(re.escape(word) for word in p.split()) for p in ordered) or "(?!)"


@dataclass(frozen=True)
class MetadataCues:
    """The cues of each kind (every language together) and the patterns metadata searches with,
    built from them once when the rules load."""

    words: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Each kind's phrases, of all languages (see :data:`CUE_KINDS`)."""
    byline_prefix: re.Pattern[str] = re.compile("(?!)")
    """A lead-in or label opening a byline string ("By", "Author:"), with the spaces after it."""
    author_split: re.Pattern[str] = re.compile("(?!)")
    """What separates the names of a list ("A, B and C", "A & B", "A; B")."""
    role_word: re.Pattern[str] = re.compile("(?!)")
    """A job title, credential or date label: a byline fragment holding one is no name."""
    name_lead: re.Pattern[str] = re.compile("(?!)")
    """The lead-in ahead of a name in an author element's text ("Text by", "Author:")."""
    name_stop: re.Pattern[str] = re.compile("(?!)")
    """Where a name in a byline ends: a weekday, a month before a number, a date label, a
    digit, a separator."""
    month_tail: re.Pattern[str] = re.compile("(?!)")
    """A month name ending a byline's text (a date cut after its month, "Jane Doe December"),
    with the spaces before it: no name unless one word stands before it, a given name before a
    surname ("Giampiero Maggio")."""
    role_stop: re.Pattern[str] = re.compile("(?!)")
    """Where a name in a visible byline ends: a job title, an employer, a verb after it."""
    by_text: re.Pattern[str] = re.compile("(?!)")
    """"By NAME" in the visible text (group 1: the names), see :func:`_by_text`."""
    modified_cue: re.Pattern[str] = re.compile("(?!)")
    """A label ending the text before a date that makes it an update."""

    not_names: frozenset[str] = frozenset()
    """Byline texts that name nobody: a placeholder, a lead-in or a label alone (built once:
    every name a page's bylines give is checked against it)."""

    def of(self, kind: str) -> frozenset[str]:
        """The phrases of one kind of cue, of all languages."""
        return self.words.get(kind, frozenset())


def _by_text(words: Mapping[str, frozenset[str]]) -> re.Pattern[str]:
    """"By NAME" within one block, or a lead-in that is its block's first words and the names in
    the next block (a byline laid out in two boxes); never a lead-in ending a block after other
    words, as a table's "Finished by" column heading before a cell of the next column. The
    search is case-sensitive (a name is capitalised), the lead-ins in their usual case forms."""
    leads = _alternation(words.get("byline_lead_ins", ()), cased=True)
    labels = _alternation((p for p in words.get("author_labels", ())), cased=True)
    lead = f"(?:{leads}|(?:{labels}):)"
    particles = _alternation(words.get("name_particles", ()))
    name = r"(?:[A-Z][\w'’.-]*\.?)(?:\s+(?:[A-Z][\w'’.-]*|" + particles + r")){0,3}"
    join = _alternation(words.get("name_joiners", ()))
    return re.compile(r"(?:(?:^|[\s|•·\u2063])" + lead + r"\s+|(?:^|\u2063)\s*" + lead
                      + r"[\s\u2063]+)(" + name + r"(?:(?:,\s*(?:(?:" + join + r")\s+)?|\s+(?:"
                      + join + r")\s+|\s*&\s*)" + name + r"){0,4})")


def _with_patterns(words: Mapping[str, frozenset[str]], month_words: Iterable[str]) -> MetadataCues:
    """The cues with the patterns built from them (``month_words``: the month names of the cues'
    languages, which end a name when a number follows)."""
    def alt(*kinds: str) -> str:
        return _alternation(p for k in kinds for p in words.get(k, ()))
    join = alt("name_joiners")
    months = _alternation(month_words)
    flags = re.IGNORECASE
    return MetadataCues(
        words=words,
        not_names=frozenset().union(*(words.get(kind, ()) for kind in (
            "placeholder_names", "byline_lead_ins", "byline_block_lead_ins", "author_labels"))),
        byline_prefix=re.compile(rf"^\s*(?:{alt('byline_lead_ins', 'byline_block_lead_ins', 'author_labels')})\s*:?\s+", flags),
        author_split=re.compile(rf"\s*(?:,\s*(?:{join})\s+|,\s*&\s*|\s+(?:{join})\s+|\s*&\s*"
                                r"|\s*,\s*|\s*;\s*|\s*\|\s*)\s*"),
        role_word=re.compile(rf"\b(?:{alt('role_words', 'title_words', 'date_labels')})\b",
                             flags),
        name_lead=re.compile(rf"^.{{0,24}}?\b(?:{alt('byline_lead_ins', 'byline_block_lead_ins', 'author_box_lead_ins')})"
                             rf"\s*:?\s+|^\s*(?:{alt('author_labels')})\s*:?\s*", flags),
        name_stop=re.compile(
            rf"\s*(?:\b(?:(?:{alt('date_prepositions')})\s+)?(?:{alt('weekday_names')})\b"
            rf"|\b(?:{months})\.?(?=\s*\d)"
            rf"|\b(?:{alt('date_labels')})\b"
            r"|(?<![^\W_])\d|[»«|•·])", flags),
        role_stop=re.compile(
            rf"\s*(?:\b(?:{alt('role_lead_words')})\s+\w+"
            rf"|(?-i:(?<=[a-z])(?=[A-Z][a-z]+ (?:{alt('affiliation_words')}) ))"
            rf"|\b(?:{alt('role_words', 'speech_verbs')})\b)", flags),
        month_tail=re.compile(rf"\s*\b(?:{months})\.?\s*$", flags),
        by_text=_by_text(words),
        modified_cue=re.compile(rf"(?:{alt('modified_cues')})[^.\n]{{0,25}}$", flags),
    )


def metadata_cues_from_data(data: Any, errors: list[str], month_names: Mapping[str, Iterable[str]],
                            source: str = "metadata.yaml") -> MetadataCues:
    """The cues of a parsed metadata file (kind -> language code -> phrases apart by ``|``),
    each checked: a known kind, a language code, each phrase lower-case words of letters, no
    phrase twice in a language, at least :data:`MIN_LANGUAGES` languages a kind. A bad phrase
    is reported in ``errors`` and left out; a kind of too few languages is reported and kept.
    ``month_names``: each language's month names (``dates.yaml``); those of the languages the
    cues are written in end a name in a byline when a number follows them."""
    if not isinstance(data, Mapping):
        errors.append(f"{source} is not a mapping of cue kinds to languages")
        return _with_patterns({}, ())
    words: dict[str, frozenset[str]] = {}
    languages_seen: set[str] = set()
    for kind, languages in data.items():
        if kind not in CUE_KINDS:
            errors.append(f"{source}: unknown kind of cue {kind!r} (known: {', '.join(CUE_KINDS)})")
            continue
        if not isinstance(languages, Mapping):
            errors.append(f"{source}: {kind} is not a mapping of languages to phrases")
            continue
        found: set[str] = set()
        for language, phrases in languages.items():
            good = _language_phrases(source, kind, str(language), phrases, errors)
            if good:
                languages_seen.add(str(language))
            found.update(good)
        if len(languages) < MIN_LANGUAGES:
            errors.append(f"{source}: {kind} holds {len(languages)} language, fewer than "
                          f"{MIN_LANGUAGES}: a cue of one language reads only its pages")
        words[kind] = frozenset(found)
    months = {name for language in sorted(languages_seen)
              for name in month_names.get(language, ())}
    return _with_patterns(words, months)


def _language_phrases(source: str, kind: str, language: str, phrases: Any,
                      errors: list[str]) -> list[str]:
    """One language's phrases of one kind, the bad ones reported and left out."""
    if not _LANGUAGE.fullmatch(language):
        errors.append(f"{source}: {kind} has {language!r}, which is not a language code")
        return []
    if not isinstance(phrases, str):
        errors.append(f"{source}: {kind} {language} is not phrases apart by '|'")
        return []
    out: list[str] = []
    for phrase in (p.strip() for p in phrases.split("|")):
        if not _PHRASE.fullmatch(phrase) or phrase != phrase.lower():
            errors.append(f"{source}: {kind} {language} has {phrase!r}, which is not lower-case "
                          f"words of letters apart by single spaces")
        elif phrase in out:
            errors.append(f"{source}: {kind} {language} has {phrase!r} twice")
        else:
            out.append(phrase)
    return out
