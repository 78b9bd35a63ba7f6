"""Pure block fingerprinting: split content into blocks, hash them, find a domain's repeated ones.

No database and no Scrapy here: strings in, hashes and cleaned strings out, so the same code
serves the pipeline, the command line and the tests.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from crawler.dedup.page_text import page_lines

logger = logging.getLogger(__name__)

__all__ = [
    "BlockCounter",
    "RemovedBlockTally",
    "DomainFingerprint",
    "block_key",
    "compute_domain_fingerprint",
    "hash_block",
    "normalise_block",
    "removed_blocks",
    "split_into_blocks",
    "strip_boilerplate",
    "strip_boilerplate_listing",
]

_BLANK_LINE = re.compile(r"(\n\s*\n)")
_WHITESPACE = re.compile(r"\s+")
_MANY_NEWLINES = re.compile(r"\n{3,}")

#: Shortest block (after stripping) that is counted at all; shorter ones are punctuation or noise.
_MIN_SHORT_BLOCK_CHARS = 3

# Volatile tokens: parts of a repeated block that change from page to page (consent IDs, dates,
# counters, hashes, versions). Every token holding a digit becomes "0"; a month name next to such
# a token becomes "month"; digit group separators go first so "48,213" and "9,999" match.
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
          r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_HAS_DIGIT = re.compile(r"\d")
_DIGIT_GROUP = re.compile(r"(?<=\d)[,\u202f\u00a0'](?=\d{3})")
_DIGIT_TOKEN = re.compile(r"(?<![\w.:/+#-])[\w.:/+#-]*?\d[\w.:/+#-]*")
_MONTH_NEAR_NUMBER = re.compile(rf"\b{_MONTH}\b\.?(?=,? 0\b)|(?<=\b0 ){_MONTH}\b")
_AM_PM = re.compile(r"(?<=\b0) ?[ap]\.?m\b\.?")
_WORD = re.compile(r"[^\W\d_]{2,}[.,:;!?]?")
#: Fewest plain words a block must keep for its volatile tokens to be replaced.
_MIN_STABLE_WORDS = 4

# Markdown decoration, removed so that `**Accept**` and `Accept` are one block.
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_ESCAPE = re.compile(r"\\(?=[^\w\s])")
_MD_DECORATION = re.compile(r"(?m)^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)|[*_`~¶]+")

_ALNUM = re.compile(r"[^\W_]")
#: A block that is one markdown heading line (``## Title``): it opens the blocks after it.
_HEADING_BLOCK = re.compile(r"\s{0,3}#{1,6}[ \t]+\S[^\n]*")
#: Share of a block's letters and digits that may stay uncovered by whole-page boilerplate lines.
_UNCOVERED_MAX = 0.15


#: A page's HTML, or a function returning it (called only if needed), or None when unknown.
PageHtml = bytes | str | Callable[[], bytes | str] | None


def split_into_blocks(content: str | None, min_block_chars: int = 50) -> list[str]:
    """Blocks of ``content`` between blank lines, of at least ``min_block_chars`` characters."""
    if not content:
        return []
    return [block for block in _BLANK_LINE.split(content)[::2]
            if len(block.strip()) >= min_block_chars]


def hash_block(block: str) -> str:
    """Whitespace- and case-insensitive identity of a block: SHA-256 cut to 16 hex characters."""
    text = _WHITESPACE.sub(" ", block).strip().lower()
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def normalise_block(block: str) -> str:
    """Block text without markdown decoration, volatile tokens (IDs, dates, counters) replaced."""
    text = _MD_LINK.sub(r"\1", _MD_ESCAPE.sub("", block.lower()))
    text = _WHITESPACE.sub(" ", _MD_DECORATION.sub(" ", text))
    if _HAS_DIGIT.search(text):
        volatile = _DIGIT_TOKEN.sub("0", _DIGIT_GROUP.sub("", text))
        volatile = _WHITESPACE.sub(" ", _AM_PM.sub("", _MONTH_NEAR_NUMBER.sub("month", volatile)))
        if _mostly_words(volatile):
            text = volatile
    return text.strip()


def _mostly_words(text: str) -> bool:
    """True when replacing volatile tokens left a sentence, not a row of numbers or hex codes.

    Without this, two different table rows or code lines made of numbers would look alike.
    """
    tokens = text.split()
    words = sum(1 for token in tokens if _WORD.fullmatch(token))
    volatile = sum(1 for token in tokens if token.strip(".,:;!?()[]|") == "0")
    return words >= _MIN_STABLE_WORDS and words >= volatile


def normalise_lines(lines: Iterable[str]) -> list[str]:
    """:func:`normalise_block` of each line (line by line: most lines skip the digit steps)."""
    return [normalise_block(line) for line in lines]


def block_key(block: str, *, normalise: bool = True) -> str:
    """Hash that decides whether two blocks are the same: of the normalised or the exact text."""
    return hash_block(normalise_block(block) if normalise else block)


@dataclass(frozen=True)
class DomainFingerprint:
    """Hashes of a domain's boilerplate blocks and the figures they were derived from."""

    hashes: frozenset[str]
    pages_analyzed: int
    blocks_total: int
    blocks_boilerplate: int
    min_occurrences: int
    short_hashes: frozenset[str] = field(default_factory=frozenset)
    #: Normalised text lines found on the threshold share of whole pages (not only in content).
    page_lines: frozenset[str] = field(default_factory=frozenset)
    page_lines_min_chars: int = 50


class BlockCounter:
    """Counts, page by page, on how many pages each block occurs, so that pages can be streamed."""

    def __init__(self, *, min_block_chars: int = 50, normalise: bool = True) -> None:
        self.min_block_chars = min_block_chars
        self.normalise = normalise
        self.pages = 0
        self.blocks_total = 0
        self._long: dict[str, int] = {}
        self._short: dict[str, int] = {}
        self._lines: dict[int, int] = {}
        self._line_texts: dict[int, str] = {}

    def add(self, content: str | None) -> None:
        """Count the blocks of one page, each block once however often the page repeats it."""
        self.pages += 1
        long_keys: set[str] = set()
        short_keys: set[str] = set()
        for block in _iter_blocks(content):
            size = len(block.strip())
            if size >= self.min_block_chars:
                self.blocks_total += 1
                long_keys.add(block_key(block, normalise=self.normalise))
            elif size >= _MIN_SHORT_BLOCK_CHARS:
                short_keys.add(block_key(block, normalise=self.normalise))
        for key in long_keys:
            self._long[key] = self._long.get(key, 0) + 1
        for key in short_keys:
            self._short[key] = self._short.get(key, 0) + 1

    def add_page_lines(self, lines: Iterable[str]) -> None:
        """Count the text lines of the same page's whole HTML (once per page, after :meth:`add`)."""
        # Keys are Python's own string hashes: counted within one run only, never stored.
        keys: dict[int, str] = {}
        for text in normalise_lines(lines):
            if len(text) >= _MIN_SHORT_BLOCK_CHARS:
                keys.setdefault(hash(text), text)
        for key, text in keys.items():
            count = self._lines.get(key, 0) + 1
            self._lines[key] = count
            if count == 2:  # keep texts of lines seen twice only: unique lines are most of a page
                self._line_texts[key] = text

    def fingerprint(self, *, threshold_pct: float = 0.7, min_pages: int = 5) -> DomainFingerprint:
        """Blocks that occur on at least ``max(min_pages, int(pages * threshold_pct))`` pages."""
        needed = max(min_pages, int(self.pages * threshold_pct))
        hashes = frozenset(k for k, n in self._long.items() if n >= needed)
        short = frozenset(k for k, n in self._short.items() if n >= needed)
        lines = frozenset(self._line_texts[k] for k, n in self._lines.items()
                          if n >= needed and k in self._line_texts)
        return DomainFingerprint(hashes=hashes, pages_analyzed=self.pages,
                                 blocks_total=self.blocks_total, blocks_boilerplate=len(hashes),
                                 min_occurrences=needed, short_hashes=short, page_lines=lines,
                                 page_lines_min_chars=self.min_block_chars)


#: Characters of a block's text kept for the report (the start of a long block is enough to
#: recognise it).
BLOCK_SAMPLE_CHARS = 600


@dataclass
class RemovedBlock:
    """One boilerplate block of a domain: on how many pages it was removed, and the bytes."""

    text: str
    pages: int = 0
    bytes_removed: int = 0

    def as_dict(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"text": self.text, "pages": self.pages, "bytes_removed": self.bytes_removed}


class RemovedBlockTally:
    """Adds up, across a domain's pages, what each removed block cost (pages, bytes), keyed as
    blocks are compared, so that a banner with a per-page ID is one block."""

    def __init__(self, *, normalise: bool = True) -> None:
        self.normalise = normalise
        self._blocks: dict[str, RemovedBlock] = {}

    def add(self, removed: Iterable[str]) -> None:
        """The blocks removed from one page (each counted once per page)."""
        seen: set[str] = set()
        for block in removed:
            key = block_key(block, normalise=self.normalise)
            entry = self._blocks.get(key)
            if entry is None:
                entry = self._blocks[key] = RemovedBlock(text=block.strip()[:BLOCK_SAMPLE_CHARS])
            entry.bytes_removed += len(block.encode("utf-8"))
            if key not in seen:
                entry.pages += 1
                seen.add(key)

    def __len__(self) -> int:
        return len(self._blocks)

    def top(self, limit: int) -> list[RemovedBlock]:
        """The ``limit`` blocks that removed the most bytes (ties: more pages, then text)."""
        return sorted(self._blocks.values(),
                      key=lambda b: (-b.bytes_removed, -b.pages, b.text))[:limit]


def compute_domain_fingerprint(pages: Iterable[str | None], threshold_pct: float = 0.7,
                               min_pages: int = 5, min_block_chars: int = 50, *,
                               normalise: bool = True) -> DomainFingerprint:
    """Fingerprint of the blocks repeated on at least the threshold share of a domain's pages."""
    counter = BlockCounter(min_block_chars=min_block_chars, normalise=normalise)
    for content in pages:
        counter.add(content)
    return counter.fingerprint(threshold_pct=threshold_pct, min_pages=min_pages)


def strip_boilerplate(content: str | None, hashes: Iterable[str] | DomainFingerprint,
                      min_block_chars: int = 50, *, normalise: bool = True,
                      page_html: PageHtml = None) -> tuple[str, int]:
    """Content without its boilerplate blocks, and the number of UTF-8 bytes removed.

    ``hashes`` is a set of block hashes or a :class:`DomainFingerprint`; with a fingerprint,
    short repeated blocks (a banner's title, its buttons) go too when they touch a removed block,
    and blocks made of whole-page boilerplate lines go unless ``page_html`` shows the text twice
    (once in the template, once in the content, like a tagline quoted on the home page).
    """
    cleaned, removed_bytes, _ = strip_boilerplate_listing(
        content, hashes, min_block_chars, normalise=normalise, page_html=page_html)
    return cleaned, removed_bytes


def strip_boilerplate_listing(content: str | None, hashes: Iterable[str] | DomainFingerprint,
                              min_block_chars: int = 50, *, normalise: bool = True,
                              page_html: PageHtml = None) -> tuple[str, int, list[str]]:
    """:func:`strip_boilerplate`, plus the blocks it removed (for the per-block figures)."""
    cleaned, removed = _strip(content, hashes, min_block_chars, normalise, page_html)
    original = (content or "").encode("utf-8")
    return cleaned, len(original) - len(cleaned.encode("utf-8")), removed


def removed_blocks(content: str | None, hashes: Iterable[str] | DomainFingerprint,
                   min_block_chars: int = 50, *, normalise: bool = True,
                   page_html: PageHtml = None) -> list[str]:
    """The blocks :func:`strip_boilerplate` removes from ``content`` (to explain or measure it)."""
    return _strip(content, hashes, min_block_chars, normalise, page_html)[1]


def _iter_blocks(content: str | None) -> Iterator[str]:
    """Every block of ``content`` between blank lines, short ones included."""
    if content:
        yield from _BLANK_LINE.split(content)[::2]


def _strip(content: str | None, hashes: Iterable[str] | DomainFingerprint, min_block_chars: int,
           normalise: bool, page_html: PageHtml = None) -> tuple[str, list[str]]:
    """Cleaned content and the removed blocks, in order."""
    if not content:
        return "", []
    if isinstance(hashes, DomainFingerprint):
        long_hashes, short_hashes = hashes.hashes, hashes.short_hashes
        page = _PageLines(hashes.page_lines, hashes.page_lines_min_chars, page_html)
    else:
        long_hashes, short_hashes = frozenset(hashes), frozenset()
        page = _PageLines(frozenset(), min_block_chars)
    if not long_hashes and not page.all:
        return content, []
    parts = _BLANK_LINE.split(content)
    blocks = parts[::2]
    # 1 = long boilerplate, 2 = short repeated block (goes only beside a removed block), 0 = keep.
    kinds: list[int] = []
    for block in blocks:
        size = len(block.strip())
        if size >= _MIN_SHORT_BLOCK_CHARS:
            text = normalise_block(block) if normalise or page.all else block
            key = hash_block(text if normalise else block)
        if size >= min_block_chars:
            kinds.append(1 if key in long_hashes or page.covers(text) else 0)
        elif size >= _MIN_SHORT_BLOCK_CHARS and (key in short_hashes or text in page.all):
            kinds.append(2)
        elif size == 0:
            kinds.append(3)  # empty: neutral, joins whatever run it sits in
        else:
            kinds.append(0)
    drop = _keep_headings_of_kept_sections(blocks, _runs_to_drop(kinds))
    if not any(drop):
        return content, []
    kept: list[str] = []
    removed: list[str] = []
    for index, block in enumerate(blocks):
        if drop[index]:
            if block.strip():
                removed.append(block)
            continue
        if kept:
            kept.append(parts[2 * index - 1])
        kept.append(block)
    cleaned = _MANY_NEWLINES.sub("\n\n", "".join(kept))
    return cleaned, removed


class _PageLines:
    """Whole-page boilerplate lines, and whether they make up a content block."""

    def __init__(self, lines: frozenset[str], min_chars: int,
                 page_html: PageHtml = None) -> None:
        self.all = lines
        by_length = sorted(lines, key=len, reverse=True)
        self.long = [line for line in by_length if len(line) >= min_chars]
        self.short = [line for line in by_length if len(line) < min_chars]
        self._page_html = page_html
        self._page_counts: Counter[str] | None = None

    def _repeated_on_page(self, line: str) -> bool:
        """True when this page's HTML holds ``line`` more than once (parsed only when asked)."""
        if self._page_html is None:
            return False
        if self._page_counts is None:
            html = self._page_html() if callable(self._page_html) else self._page_html
            self._page_counts = Counter(normalise_lines(page_lines(html)))
        return self._page_counts[line] > 1

    def covers(self, text: str) -> bool:
        """True when whole-page boilerplate lines make up the (normalised) block text: it equals
        one, or long ones (then short ones) account for nearly all of it."""
        if not self.long:
            return False
        if text in self.all:
            return not self._repeated_on_page(text)
        return self._covered_by_long_lines(text)

    def _covered_by_long_lines(self, text: str) -> bool:
        """Long lines (then short ones) leave at most a small share of the block's letters."""
        rest = text
        for line in self.long:
            if line in rest:
                if self._repeated_on_page(line):
                    return False
                rest = rest.replace(line, " ")
        if rest == text:
            return False
        for line in self.short:
            if line in rest:
                rest = rest.replace(line, " ")
        total = len(_ALNUM.findall(text))
        return total > 0 and len(_ALNUM.findall(rest)) <= _UNCOVERED_MAX * total


def _keep_headings_of_kept_sections(blocks: list[str], drop: list[bool]) -> list[bool]:
    """Keep a heading that opens kept content: it belongs to the section it heads.

    A page's own title is often also in the sidebar of every page, and sits right after a
    boilerplate run (a page-actions bar) or makes up a block of its own; the heading goes only
    when the next non-empty block goes too (a banner's title with its banner) or nothing follows.
    Walked from the end, so a title over a kept subheading's section stays too.
    """
    next_kept: bool | None = None  # whether the next non-empty block stays; None: none follows
    for index in range(len(blocks) - 1, -1, -1):
        block = blocks[index]
        if not block.strip():
            continue
        if drop[index] and next_kept and _HEADING_BLOCK.fullmatch(block.strip()):
            drop[index] = False
        next_kept = not drop[index]
    return drop


def _runs_to_drop(kinds: list[int]) -> list[bool]:
    """Which blocks go: long boilerplate, and short repeated ones in a run holding a long one."""
    drop = [kind == 1 for kind in kinds]
    index = 0
    while index < len(kinds):
        if kinds[index] in (1, 2, 3):
            end = index
            while end < len(kinds) and kinds[end] in (1, 2, 3):
                end += 1
            if any(kinds[i] == 1 for i in range(index, end)):
                for i in range(index, end):
                    drop[i] = True
            index = end
        else:
            index += 1
    return drop
