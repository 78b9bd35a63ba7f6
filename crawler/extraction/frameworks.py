"""Generator detection from page signatures and site rules loaded from data files in site_rules/."""

from __future__ import annotations

import functools
import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import Any, Iterable, TypeVar
from urllib.parse import urlsplit

import yaml
from lxml import etree
from lxml.cssselect import CSSSelector

from crawler.extraction.metadata_cues import MetadataCues, metadata_cues_from_data
from crawler.extraction.month_names import MonthNames, month_names_from_data
from crawler.extraction.name_patterns import NamePattern
from crawler.extraction.vocabulary import hides, unknown_tags

T = TypeVar("T")

logger = logging.getLogger(__name__)

ENV_RULES_DIR = "SITE_RULES_DIR"


@dataclass(frozen=True)
class ContentSelector:
    """One content selector of a rule; ``multiple`` joins every match instead of needing one."""

    css: str
    multiple: bool = False


@dataclass(frozen=True)
class Rule:
    """A framework or domain rule: how to recognise the site, where the content is, what to drop."""

    name: str
    kind: str
    generator: tuple[re.Pattern[str], ...] = ()
    detect_signatures: tuple[str, ...] = ()
    detect_selectors: tuple[str, ...] = ()
    themes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    domains: tuple[str, ...] = ()
    content: tuple[ContentSelector, ...] = ()
    exclude: tuple[str, ...] = ()
    keep: tuple[str, ...] = ()
    source: str = ""


@dataclass(frozen=True)
class PageChrome:
    """The tags and ARIA roles of the page's chrome (header, footer, navigation, asides) and of
    its frame, the part never taken for content even inside a wrapper (themes wrap whole pages
    in a header or an aside, never in a footer or a navigation)."""

    tags: frozenset[str] = frozenset()
    roles: frozenset[str] = frozenset()
    frame_tags: frozenset[str] = frozenset()
    frame_roles: frozenset[str] = frozenset()


@dataclass(frozen=True)
class CleaningRules:
    """Generic cleaning data: selectors removed everywhere and class/id name patterns."""

    remove: tuple[str, ...] = ()
    ad_selectors: tuple[str, ...] = ()
    boilerplate_pattern: NamePattern | None = None
    keep_pattern: NamePattern | None = None
    state_name_pattern: NamePattern | None = None
    hidden_content_pattern: NamePattern | None = None
    secondary_section_pattern: NamePattern | None = None
    not_content_pattern: NamePattern | None = None
    product_description_pattern: NamePattern | None = None
    content_name_pattern: NamePattern | None = None
    readability_positive_pattern: NamePattern | None = None
    readability_negative_pattern: NamePattern | None = None
    chrome: PageChrome = PageChrome()
    comment_section_pattern: NamePattern | None = None
    declared_aside_pattern: NamePattern | None = None
    print_hidden_pattern: NamePattern | None = None
    price_line_pattern: NamePattern | None = None
    discussion_frameworks: frozenset[str] = frozenset()
    hiding_selectors: frozenset[str] = frozenset()
    """The selectors of ``remove`` and ``ad_selectors`` that match hidden elements only (an
    attribute test that hides: ``[hidden]``, ``[aria-hidden="true"]``, a hiding inline style):
    what they match may be a collapsed panel of the content, which is kept."""


#: What a framework or domain rule file may hold: key -> the YAML type of its value (a single
#: string is accepted where a list is expected).
RULE_SCHEMA: dict[str, type] = {"name": str, "detect": dict, "themes": dict, "domains": list,
                                "content": list, "exclude": list, "keep": list}
#: The detection keys, from the strongest evidence to the weakest: the generator the page declares
#: (its meta generator), what the generator itself writes whatever the theme (its own scripts and
#: static folder, its writer's attributes), then markup a theme chose (class names), which a theme
#: porting another generator's look copies. When several framework rules match a page, the one
#: with the strongest evidence wins; file-name order only breaks a tie within one strength.
DETECT_SCHEMA: dict[str, type] = {"generator": list, "signatures": list, "selectors": list}
#: What cleaning.yaml may hold: selector lists and class/id name patterns (regular expressions).
CLEANING_SELECTOR_KEYS = ("remove", "ad_selectors")
CLEANING_PATTERN_KEYS = ("boilerplate_pattern", "keep_pattern", "state_name_pattern",
                         "hidden_content_pattern", "secondary_section_pattern",
                         "not_content_pattern", "product_description_pattern",
                         "content_name_pattern", "comment_section_pattern",
                         "declared_aside_pattern", "print_hidden_pattern", "price_line_pattern",
                         "readability_positive_pattern", "readability_negative_pattern")
#: Lists of names (framework rule names) in cleaning.yaml.
CLEANING_NAME_KEYS = ("discussion_frameworks",)
CLEANING_SCHEMA: dict[str, type] = {**{k: list for k in CLEANING_SELECTOR_KEYS},
                                    **{k: str for k in CLEANING_PATTERN_KEYS},
                                    **{k: list for k in CLEANING_NAME_KEYS},
                                    "page_chrome": dict, "page_frame": dict}
#: What dates.yaml may hold: the month names of each language.
DATES_SCHEMA: dict[str, type] = {"month_names": dict}
#: What ``page_chrome`` and ``page_frame`` hold: tag names and ARIA roles.
CHROME_SCHEMA: dict[str, type] = {"tags": list, "roles": list}


@dataclass(frozen=True)
class RuleSet:
    """Every rule found in a site_rules folder."""

    frameworks: tuple[Rule, ...] = ()
    domains: tuple[Rule, ...] = ()
    cleaning: CleaningRules = field(default_factory=CleaningRules)
    months: MonthNames = field(default_factory=MonthNames)
    """The month names of ``dates.yaml`` (metadata reads them in the dates a page shows)."""
    cues: MetadataCues = field(default_factory=MetadataCues)
    """The words of ``metadata.yaml`` metadata reads around names and dates (bylines, job
    titles, update labels), of every language listed."""
    errors: tuple[str, ...] = ()
    folder: str = ""

    def problem(self) -> str | None:
        """One sentence naming the first problem of the rules folder (None when it is sound): a
        crawl refuses to start on it rather than extract every page with a rule missing."""
        if not self.errors:
            return None
        more = f" (and {len(self.errors) - 1} more problems)" if len(self.errors) > 1 else ""
        return f"the site rules in {self.folder} are invalid: {self.errors[0]}{more}"


@dataclass
class Detection:
    """Which generator a page comes from, the theme when known, and the evidence."""

    framework: str | None = None
    theme: str | None = None
    evidence: list[str] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)


def default_rules_dir() -> Any:
    """The site_rules folder: $SITE_RULES_DIR, else the checkout's root, else the package data.

    A checkout keeps ``site_rules/`` at the repository root; the Scrapyd egg ships it inside the
    package as ``crawler/site_rules/`` (possibly zipped, hence importlib.resources).
    """
    return _resolve_rules_dir(os.environ.get(ENV_RULES_DIR) or "")


@functools.lru_cache(maxsize=8)
def _resolve_rules_dir(override: str) -> Any:
    """Resolve the rules folder once per override value (a stable object keys the rule cache)."""
    if override:
        return Path(override)
    here = Path(__file__).resolve()
    for folder in (here.parents[2] / "site_rules", here.parents[1] / "site_rules"):
        if folder.is_dir():
            return folder
    try:
        from importlib.resources import files

        packaged = files("crawler") / "site_rules"
        if packaged.is_dir():
            return packaged
    except (ModuleNotFoundError, TypeError, FileNotFoundError):
        logger.debug("no packaged site_rules", exc_info=True)
    return here.parents[2] / "site_rules"


def _iter_yaml(folder: Any) -> Iterable[tuple[str, str]]:
    """(name, text) of every .yaml/.yml/.toml file in a folder (a Path or zipfile.Path)."""
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name)
    except (FileNotFoundError, NotADirectoryError, KeyError):
        return
    for entry in entries:
        if entry.name.endswith((".yaml", ".yml", ".toml")) and entry.is_file():
            yield entry.name, entry.read_text(encoding="utf-8")


_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""PyYAML's safe loader, its C implementation where installed (several times faster)."""


def _parse_file(name: str, text: str) -> dict[str, Any]:
    """Parse one rule file (YAML, or TOML when the name ends in .toml); ValueError when it does
    not hold a mapping of keys."""
    if name.endswith(".toml"):
        import tomllib

        return tomllib.loads(text)
    data = yaml.load(text, Loader=_YAML_LOADER)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError(f"holds a {type(data).__name__}, not a mapping of rule keys")
    return data


def schema_errors(name: str, data: dict[str, Any], schema: dict[str, type]) -> list[str]:
    """What in a parsed rule file does not fit its schema: unknown keys, values of the wrong
    type (a single string stands for a one-item list)."""
    errors = []
    for key, value in data.items():
        expected = schema.get(key)
        if expected is None:
            errors.append(f"{name}: unknown key {key!r} (known: {', '.join(schema)})")
        elif value is not None and not isinstance(value, expected) \
                and not (expected is list and isinstance(value, str)):
            errors.append(f"{name}: {key!r} must be a {_TYPE_NAMES[expected]}, "
                          f"not a {type(value).__name__}")
    return errors


_TYPE_NAMES = {str: "string", list: "list", dict: "mapping"}


def _as_list(value: Any) -> list[Any]:
    """A YAML value as a list (a single string becomes a one-item list)."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def _valid_css(css: str) -> bool:
    """Whether cssselect understands a selector."""
    try:
        CSSSelector(css)
    except Exception:  # noqa: BLE001 - cssselect raises several error types
        return False
    return True


def _build_rule(kind: str, name: str, data: dict[str, Any], errors: list[str]) -> Rule:
    """A Rule from a parsed rule file, dropping (and reporting) invalid selectors."""
    errors.extend(schema_errors(name, data, RULE_SCHEMA))
    detect = data.get("detect") or {}
    if not isinstance(detect, dict):
        detect = {}
    errors.extend(schema_errors(f"{name} detect", detect, DETECT_SCHEMA))
    content: list[ContentSelector] = []
    for item in _as_list(data.get("content")):
        if isinstance(item, dict):
            css, multiple = str(item.get("selector", "")), bool(item.get("multiple", False))
        else:
            css, multiple = str(item), False
        if css and _valid_css(css):
            content.append(ContentSelector(css, multiple))
        elif css:
            errors.append(f"{name}: invalid content selector {css!r}")
    exclude = _checked_selectors(name, "exclude", data, errors)
    keep = _checked_selectors(name, "keep", data, errors)
    detect_selectors = _checked_selectors(name, "detect", {"detect": detect.get("selectors")},
                                          errors)
    detect_signatures = _checked_selectors(name, "signatures",
                                           {"signatures": detect.get("signatures")}, errors)
    shared = sorted(set(detect_signatures) & set(detect_selectors))
    if shared:
        errors.append(f"{name}: detect selector listed under two strengths: {', '.join(shared)}")
    generators = []
    for pattern in map(str, _as_list(detect.get("generator"))):
        try:
            generators.append(re.compile(pattern, re.I))
        except re.error:
            errors.append(f"{name}: invalid generator pattern {pattern!r}")
    themes_data = data.get("themes") if isinstance(data.get("themes"), dict) else {}
    themes = tuple((str(theme), _checked_selectors(name, f"theme {theme}",
                                                   {f"theme {theme}": sels}, errors))
                   for theme, sels in themes_data.items())
    domains = tuple(str(d).lower().lstrip(".") for d in _as_list(data.get("domains")))
    return Rule(name=str(data.get("name") or name), kind=kind, generator=tuple(generators),
                detect_signatures=detect_signatures, detect_selectors=detect_selectors,
                themes=themes, domains=domains,
                content=tuple(content), exclude=exclude, keep=keep, source=name)


def _checked_selectors(name: str, key: str, data: dict[str, Any], errors: list[str]) -> tuple[str, ...]:
    """The valid selectors listed under one key of a rule file (invalid ones are reported)."""
    valid = []
    for css in map(str, _as_list(data.get(key))):
        if _valid_css(css):
            valid.append(css)
        else:
            errors.append(f"{name}: invalid {key} selector {css!r}")
    return tuple(valid)


def _compile_pattern(value: Any) -> NamePattern | None:
    """A case-insensitive name pattern from a folded YAML string (whitespace removed)."""
    if not value:
        return None
    return NamePattern(re.sub(r"\s+", "", str(value)))


def _cleaning_rules(data: dict[str, Any], errors: list[str]) -> CleaningRules:
    """The generic cleaning rules of cleaning.yaml, each value checked (a bad selector or
    pattern is reported and left out)."""
    errors.extend(schema_errors("cleaning.yaml", data, CLEANING_SCHEMA))
    values: dict[str, Any] = {}
    for key in CLEANING_SELECTOR_KEYS:
        values[key] = _checked_selectors("cleaning.yaml", key, data, errors)
    for key in CLEANING_PATTERN_KEYS:
        try:
            values[key] = _compile_pattern(data.get(key))
        except re.error as exc:
            errors.append(f"cleaning.yaml: {key} is not a valid regular expression ({exc})")
    chrome = {key: data.get(key) if isinstance(data.get(key), dict) else {}
              for key in ("page_chrome", "page_frame")}
    for key, names in chrome.items():
        errors.extend(schema_errors(f"cleaning.yaml {key}", names, CHROME_SCHEMA))
    for key, names in chrome.items():
        unknown = unknown_tags(_names(names.get("tags")))
        if unknown:
            errors.append(f"cleaning.yaml: {key} names tags HTML does not have: "
                          f"{', '.join(unknown)}")
    values["chrome"] = PageChrome(
        tags=_names(chrome["page_chrome"].get("tags")),
        roles=_names(chrome["page_chrome"].get("roles")),
        frame_tags=_names(chrome["page_frame"].get("tags")),
        frame_roles=_names(chrome["page_frame"].get("roles")))
    for key in CLEANING_NAME_KEYS:
        values[key] = frozenset(map(str, _as_list(data.get(key))))
    values["hiding_selectors"] = frozenset(
        sel for key in CLEANING_SELECTOR_KEYS for sel in values[key] if hiding_selector(sel))
    return CleaningRules(**values)


def _names(value: Any) -> frozenset[str]:
    """Tag names or roles of a YAML list, lower-case."""
    return frozenset(str(name).strip().lower() for name in _as_list(value))


def _read_optional(folder: Path, name: str, errors: list[str], build: Callable[[Any], T],
                   default: T) -> T:
    """What ``build`` makes of the data of the file ``name`` of a rules folder; ``default``
    when the file is absent, or when reading or building failed (said in ``errors``, on which
    a crawl refuses to start)."""
    try:
        path = folder / name
        if path.is_file():
            return build(_parse_file(name, path.read_text(encoding="utf-8")))
    except Exception as exc:  # noqa: BLE001 - reported; a crawl refuses to start on it
        errors.append(f"{name}: {exc}")
    return default


@functools.lru_cache(maxsize=8)
def _load_rules_cached(folder: Any) -> RuleSet:
    """Load a site_rules folder once per process (keyed by its location)."""
    errors: list[str] = []
    frameworks, domains = [], []
    for kind, bucket in (("framework", frameworks), ("domain", domains)):
        sub = folder / ("frameworks" if kind == "framework" else "domains")
        for name, text in _iter_yaml(sub):
            try:
                data = _parse_file(name, text)
            except Exception as exc:  # noqa: BLE001 - a broken file must not stop extraction
                errors.append(f"{name}: {exc}")
                continue
            bucket.append(_build_rule(kind, name, data, errors))
    cleaning = _read_optional(folder, "cleaning.yaml", errors,
                              lambda data: _cleaning_rules(data, errors), CleaningRules())

    def months_of(data: Any) -> MonthNames:
        errors.extend(schema_errors("dates.yaml", data, DATES_SCHEMA))
        return month_names_from_data(data.get("month_names") or {}, errors)

    months = _read_optional(folder, "dates.yaml", errors, months_of, MonthNames())
    cues = _read_optional(folder, "metadata.yaml", errors,
                          lambda data: metadata_cues_from_data(data, errors, months.by_language),
                          MetadataCues())
    unknown = sorted(cleaning.discussion_frameworks - {rule.name for rule in frameworks})
    if unknown:
        errors.append(f"cleaning.yaml: discussion_frameworks names no framework rule: "
                      f"{', '.join(unknown)}")
    for error in errors:
        logger.warning("site rule problem: %s", error)
    return RuleSet(frameworks=tuple(frameworks), domains=tuple(domains), cleaning=cleaning,
                   months=months, cues=cues, errors=tuple(errors), folder=str(folder))


def load_rules(folder: str | Path | None = None) -> RuleSet:
    """All rules of a site_rules folder (default: $SITE_RULES_DIR or the project's own)."""
    return _load_rules_cached(default_rules_dir() if folder is None else Path(folder))


@functools.lru_cache(maxsize=512)
def css(selector: str) -> CSSSelector:
    """A compiled CSS selector (compiled once per process)."""
    return CSSSelector(selector)


def meta_generators(tree: etree._Element) -> list[str]:
    """The contents of every <meta name="generator">, in page order: a theme built on a site
    generator declares both (Astro, then Starlight), and the first is not always the telling one."""
    found = []
    for meta in tree.iter("meta"):
        if (meta.get("name") or "").lower() == "generator":
            content = (meta.get("content") or "").strip()
            if content:
                found.append(content)
    return found


def _host(url: str) -> str:
    """Lower-case host name of a URL."""
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def _markup_match(tree: etree._Element, rules: RuleSet, attr: str,
                  names: PageNames | None = None) -> tuple[str, str] | None:
    """The first framework rule (in file order) whose detection selectors under ``attr`` match
    the page, with the selector that matched; None when none does (``names``: the page's
    names, listed once for every check of the page)."""
    owners = {s: rule.name for rule in reversed(rules.frameworks) for s in getattr(rule, attr)}
    if not owners:
        return None
    hits = selector_set(tuple(owners)).matches(tree, names)
    if not hits:
        return None
    order = [r.name for r in rules.frameworks]
    matched = sorted({owners[sel] for _, sel in hits}, key=order.index)
    return matched[0], next(sel for _, sel in hits if owners[sel] == matched[0])


def detect_framework(tree: etree._Element, url: str, rules: RuleSet,
                     names: PageNames | None = None) -> Detection:
    """Find the generator from the strongest evidence the page gives (the order of DETECT_SCHEMA:
    meta generator, then the generator's own signatures, then theme markup) and the matching
    rules (``names``: the class names, ids and attribute values of ``tree``, when the caller
    shares them with later steps; both markup checks read the same lists)."""
    if names is None:
        names = PageNames(tree)
    detection = Detection()
    generators = meta_generators(tree)
    for rule in rules.frameworks:
        generator = next((g for g in generators if any(p.search(g) for p in rule.generator)), None)
        if generator is not None:
            detection.framework = rule.name
            detection.evidence.append(f"meta generator {generator!r}")
            break
    for attr, label in (("detect_signatures", "markup signature"), ("detect_selectors", "markup")):
        if detection.framework is not None:
            break
        found = _markup_match(tree, rules, attr, names)
        if found is not None:
            detection.framework = found[0]
            detection.evidence.append(f"{label} {found[1]!r}")
    chosen = next((r for r in rules.frameworks if r.name == detection.framework), None)
    if chosen is not None:
        for theme, selectors in chosen.themes:
            if any(css(s)(tree) for s in selectors):
                detection.theme = theme
                break
    host = _host(url)
    for rule in rules.domains:
        if any(host == d or host.endswith("." + d) for d in rule.domains):
            detection.rules.append(rule)
            detection.evidence.append(f"domain rule {rule.source}")
    if chosen is not None:
        detection.rules.append(chosen)
    return detection


_SIMPLE = re.compile(r"^(?P<tag>[a-zA-Z][\w-]*|\*)?(?P<parts>(?:\.[\w-]+|#[\w-]+|\[[^\]]+\])*)$")
_PART = re.compile(r"\.([\w-]+)|#([\w-]+)|\[\s*([\w:-]+)\s*(?:([~^$*|]?=)\s*[\"']?([^\"'\]]*)[\"']?)?\s*\]")


@dataclass(frozen=True)
class SimpleSelector:
    """A compound CSS selector without combinators (tag, classes, id, attribute tests)."""

    text: str
    tag: str | None
    classes: tuple[str, ...]
    ident: str | None
    attrs: tuple[tuple[str, str | None, str], ...]

    def key(self) -> tuple[str, str]:
        """The index key that any matching element must carry."""
        if self.ident:
            return ("#", self.ident)
        if self.classes:
            return (".", self.classes[0])
        if self.attrs:
            return ("@", self.attrs[0][0])
        return ("t", self.tag or "*")

    def matches(self, el: etree._Element, tokens: frozenset[str]) -> bool:
        """Whether el matches (tokens: its class names)."""
        if self.tag and self.tag != "*" and el.tag != self.tag:
            return False
        if self.ident and el.get("id") != self.ident:
            return False
        if self.classes and not tokens.issuperset(self.classes):
            return False
        for name, op, value in self.attrs:
            actual = el.get(name)
            if actual is None:
                return False
            if op is None:
                continue
            if op == "=" and actual != value:
                return False
            if op == "^=" and not actual.startswith(value):
                return False
            if op == "$=" and not actual.endswith(value):
                return False
            if op == "*=" and value not in actual:
                return False
            if op == "~=" and value not in actual.split():
                return False
            if op == "|=" and not (actual == value or actual.startswith(value + "-")):
                return False
        return True


def parse_simple(selector: str) -> SimpleSelector | None:
    """A SimpleSelector, or None when the selector needs a full CSS engine (combinators...)."""
    match = _SIMPLE.match(selector.strip())
    if not match or not selector.strip():
        return None
    classes, attrs, ident = [], [], None
    for cls, idv, name, op, value in _PART.findall(match.group("parts") or ""):
        if cls:
            classes.append(cls)
        elif idv:
            ident = idv
        elif name:
            attrs.append((name, op or None, value))
    tag = match.group("tag")
    return SimpleSelector(selector, tag.lower() if tag else None, tuple(classes), ident,
                          tuple(attrs))


def hiding_selector(selector: str) -> bool:
    """Whether a selector matches hidden elements only: one of its attribute tests hides
    (read structurally, so ``[style*='display:none']`` and ``[hidden]`` are found however they
    are spelt)."""
    simple = parse_simple(selector)
    return simple is not None and any(hides(name, op, value) for name, op, value in simple.attrs)


class SelectorSet:
    """Many CSS selectors matched in one walk of a tree (indexed by tag, class, id, attribute);
    selectors with combinators fall back to lxml's CSS engine."""

    def __init__(self, selectors: Iterable[str]) -> None:
        self.by: dict[str, dict[str, list[SimpleSelector]]] = {"t": {}, ".": {}, "#": {}, "@": {}}
        self.complex: list[str] = []
        for text in dict.fromkeys(selectors):
            simple = parse_simple(text)
            if simple is None:
                self.complex.append(text)
            else:
                kind, value = simple.key()
                self.by[kind].setdefault(value, []).append(simple)
        self.any_tag = self.by["t"].pop("*", [])
        # An attribute-keyed selector that tests a value can only match when that value occurs
        # in the attribute ([class*="ad-"], [id^="google_ads"]): one regex search rules out most
        # elements. None when some selector only tests that the attribute exists.
        self.attr_values: dict[str, re.Pattern[str] | None] = {}
        # The tags an attribute's selectors all name (``link[href*=...]``, ``script[src*=...]``):
        # an element of another tag (every ``a`` with an href) is passed over before the value
        # is searched. None when one of them names no tag.
        self.attr_tags: dict[str, frozenset[str] | None] = {}
        for name, selectors in self.by["@"].items():
            values = [sel.attrs[0][2] if sel.attrs[0][1] else None for sel in selectors]
            self.attr_values[name] = None if None in values else re.compile(
                "|".join(re.escape(value) for value in values))
            tags = [sel.tag for sel in selectors]
            self.attr_tags[name] = None if None in tags or "*" in tags else frozenset(tags)
        self._values = {name: _attribute_values(name) for name in ("class", "id", *self.by["@"])}
        # The class names and ids each selector with combinators needs on the page (every
        # compound of it matches an element): without them lxml's CSS engine is not run.
        self.complex_names = {text: _required_names(text) for text in self.complex}

    def may_match(self, root: etree._Element) -> bool:
        """Whether some selector without combinators could match under root (root included):
        False means none can; True that the walk of :meth:`matches` must tell."""
        return self._walked_tags(root, PageNames(root)) != frozenset()

    def _walked_tags(self, root: etree._Element, names: PageNames) -> frozenset[str] | None:
        """The tags of the elements under root (root included) that some selector without
        combinators could match, judged from what lxml lists without a Python step per
        element: the tags some selector keys on, the page's class names and ids, and the values
        of the attributes tested. None when any element may (an element of a tag a selector
        keys on, or a class name or id one keys on, is on the page; an attribute tested on
        any tag has a value it tests for); an empty set when none can. Most pages carry no mark
        of any framework, and on most of the rest only elements of a few tags can match (a
        ``link`` or ``script`` naming the generator's folders): the walk of :meth:`matches`
        then visits only those."""
        if self.any_tag or None in self._values.values():
            return None
        if self.by["t"] and next(root.iter(*self.by["t"]), None) is not None:
            return None  # elements of common tags (the cleaning's nav, aside, button...) are there
        tags: set[str] = set()
        if self.by["#"] and not self.by["#"].keys().isdisjoint(names.ids()):
            return None
        if self.by["."] and not self.by["."].keys().isdisjoint(names.classes()):
            return None
        tagged: dict[str, frozenset[str]] = {}
        for name, attr_tags in self.attr_tags.items():
            if attr_tags is not None:
                tagged[name] = attr_tags
            elif self._tested_value(name, names.values(name, self._values[name])):
                return None
        if tagged:  # one pass over the elements of every tag an attribute is tested on
            for el in root.iter(*frozenset().union(*tagged.values())):
                for name, attr_tags in list(tagged.items()):
                    if el.tag in attr_tags and self._tested_value(name, (el.get(name),)):
                        tags.update(attr_tags)
                        del tagged[name]
                if not tagged:
                    break
        return frozenset(tags)

    def _tested_value(self, name: str, values: Iterable[str | None]) -> bool:
        """Whether one of the values of attribute ``name`` holds what a selector tests it for
        (any value, when one tests only that the attribute is there)."""
        pattern = self.attr_values[name]
        return any(v is not None and (pattern is None or pattern.search(v)) for v in values)

    def matches(self, root: etree._Element,
                names: PageNames | None = None) -> list[tuple[etree._Element, str]]:
        """(element, selector) pairs for every match under root (root included), in tree order
        (``names``: root's :class:`PageNames`, when the caller has them)."""
        out: list[tuple[etree._Element, str]] = []
        by_tag, by_class, by_id, by_attr = (self.by[k] for k in ("t", ".", "#", "@"))
        attr_values, attr_tags = self.attr_values, self.attr_tags
        any_tag = self.any_tag
        empty: frozenset[str] = frozenset()
        class_keys = by_class.keys()
        page_names = PageNames(root) if names is None else names
        tags = self._walked_tags(root, page_names)
        walked = root.iter(etree.Element) if tags is None else root.iter(*tags) if tags else ()
        for el in walked:
            tag = el.tag
            pool = by_tag.get(tag) or []
            if any_tag:
                pool = pool + any_tag
            names: list[str] | tuple[()] = ()
            attributes = el.items()  # one call for all of them: cheaper than a lookup per name
            if attributes:
                named = by_value = None  # the pool's order: tag, class, id, other attributes
                for name, value in attributes:
                    if name == "class":
                        if value:
                            names = value.split()
                            if not class_keys.isdisjoint(names):  # most classes key nothing
                                for token in names:  # the page's order: the same pool each run
                                    hit = by_class.get(token)
                                    if hit:
                                        pool = pool + hit
                    elif name == "id" and value:
                        named = by_id.get(value)
                    hit = by_attr.get(name)
                    if hit:
                        tags = attr_tags[name]
                        if tags is not None and tag not in tags:
                            continue
                        values = attr_values[name]
                        if values is None or values.search(value):
                            by_value = hit if by_value is None else by_value + hit
                if named:
                    pool = pool + named
                if by_value:
                    pool = pool + by_value
            if not pool:
                continue
            tokens = frozenset(names) if names else empty
            for sel in pool:
                if sel.matches(el, tokens):
                    out.append((el, sel.text))
                    break
        for text in self.complex:
            if page_names.hold(self.complex_names[text]):
                out.extend((el, text) for el in css(text)(root))
        return out


class PageNames:
    """The class values, ids and tested attribute values under one element (itself included),
    each listed by lxml once, when first asked for: the checks of a selector set share them,
    and so do the framework checks of a page and the other steps that read its class values
    and ids (only valid while the tree's class and id attributes are as they were listed)."""

    def __init__(self, root: etree._Element) -> None:
        self._root = root
        self._values: dict[str, list[str]] = {}
        self._classes: frozenset[str] | None = None

    @property
    def root(self) -> etree._Element:
        """The element whose names are listed."""
        return self._root

    def values(self, name: str, query: etree.XPath | None = None) -> list[str]:
        """The values of attribute ``name``, listed by ``query`` (built for an unprefixed name
        when not given)."""
        values = self._values.get(name)
        if values is None:
            if query is None:
                query = _attribute_values(name)
            values = self._values[name] = query(self._root)
        return values

    def ids(self) -> list[str]:
        """The ids."""
        return self.values("id", _ID_VALUES)

    def class_values(self) -> list[str]:
        """The class attributes' values, as written."""
        return self.values("class", _CLASS_VALUES)

    def classes(self) -> frozenset[str]:
        """The class names (each class value split on white space)."""
        if self._classes is None:
            self._classes = frozenset(" ".join(self.class_values()).split())
        return self._classes

    def hold(self, required: tuple[frozenset[str], frozenset[str]] | None) -> bool:
        """Whether the page has every class name and id of ``required`` (None: nothing is
        known to be required)."""
        if required is None:
            return True
        classes, ids = required
        return (not classes or classes <= self.classes()) \
            and (not ids or ids <= frozenset(self.ids()))


_COMBINATOR = re.compile(r"\s*[>+~]\s*|\s+")
_NOT_PLAIN = re.compile(r"[\[\]:()\"'\\,]")
"""What makes a selector more than compounds of tag, class and id names and combinators."""


def _required_names(selector: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The class names and ids that must be on a page for a selector with combinators to match
    there (each compound of it matches some element), or None when it is not made of tag,
    class and id compounds alone (an attribute test, a pseudo-class, a list)."""
    if _NOT_PLAIN.search(selector):
        return None
    classes: set[str] = set()
    ids: set[str] = set()
    for part in _COMBINATOR.split(selector.strip()):
        simple = parse_simple(part)
        if simple is None:
            return None
        classes.update(simple.classes)
        if simple.ident:
            ids.add(simple.ident)
    return frozenset(classes), frozenset(ids)


_XPATH_NAME = re.compile(r"[A-Za-z_][\w.-]*\Z")


def _attribute_values(name: str) -> etree.XPath | None:
    """An XPath listing the values of attribute ``name`` under an element (itself included) as
    plain strings; None for a name XPath cannot spell (a prefixed name)."""
    if not _XPATH_NAME.match(name):
        return None
    return etree.XPath(f"descendant-or-self::*/@{name}", smart_strings=False)


_CLASS_VALUES = _attribute_values("class")
_ID_VALUES = _attribute_values("id")


@functools.lru_cache(maxsize=64)
def selector_set(selectors: tuple[str, ...]) -> SelectorSet:
    """A SelectorSet built once per process for a tuple of selectors."""
    return SelectorSet(selectors)
