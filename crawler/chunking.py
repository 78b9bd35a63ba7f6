"""Split a page's markdown into chunks for retrieval (RAG): at headings, then by size.

Each chunk is one section of the page (the text under a heading, down to the next heading of
any level) with its *heading path*, the titles of the headings it sits under (``("Guide",
"Install", "From source")``), so a retrieved chunk still says where it came from. A section
longer than the limit is cut between blocks (paragraphs, lists, code blocks), and a block
longer than the limit between lines, then between words. A heading with nothing under it
before the next heading starts the next section's text rather than a chunk of its own. Every
word of the page is in exactly one chunk.

Size is counted in *words* (runs of non-space characters), a stand-in for model tokens: English
prose runs at about 1.3 tokens per word with common tokenizers, so choose the limit with
that margin. No chunk is cut inside a fenced code block unless that block alone is too long.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

_ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*(?:#+[ \t]*)?$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_DECORATION = re.compile(r"[*_`]+")


@dataclass(frozen=True)
class Chunk:
    """One piece of a page's markdown: its place among the page's chunks, its heading path,
    its text and its size in words."""

    index: int
    heading_path: tuple[str, ...]
    text: str
    words: int


def word_count(text: str) -> int:
    """Words as the stand-in for tokens: runs of non-space characters."""
    return len(text.split())


def chunk_markdown(markdown: str, max_words: int) -> list[Chunk]:
    """The chunks of ``markdown``, each of at most ``max_words`` words, in page order."""
    if max_words < 1:
        raise ValueError("max_words must be 1 or more")
    chunks: list[Chunk] = []
    for path, blocks in _sections(markdown):
        for text in _pack(blocks, max_words):
            chunks.append(Chunk(len(chunks), path, text, word_count(text)))
    return chunks


def heading_title(text: str) -> str:
    """A heading's words without markdown decoration (links keep their label)."""
    return " ".join(_DECORATION.sub("", _LINK.sub(r"\1", text)).split())


def _sections(markdown: str) -> Iterator[tuple[tuple[str, ...], list[str]]]:
    """(heading path, blocks) of each section. A heading with nothing under it before the next
    heading is carried into that next section's text (its title stays in the path only when
    it is an ancestor); a last such heading is a section of its own."""
    path: list[tuple[int, str]] = []
    blocks: list[str] = []
    has_body = False
    for block, level, title in _blocks(markdown):
        if level:
            if has_body:
                yield tuple(t for _, t in path), blocks
                blocks = []
            while path and path[-1][0] >= level:
                path.pop()
            path.append((level, title))
            blocks.append(block)
            has_body = False
        else:
            blocks.append(block)
            has_body = True
    if blocks:
        yield tuple(t for _, t in path), blocks


def _blocks(markdown: str) -> Iterator[tuple[str, int, str]]:
    """(text, heading level or 0, heading title) of each block: a heading line, or lines up to
    a blank line outside a fenced code block (a code block is one block)."""
    lines: list[str] = []
    fence: str | None = None
    for line in markdown.splitlines():
        opener = _FENCE.match(line)
        if fence is not None:
            lines.append(line)
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence) \
                    and not line.strip()[len(opener.group(1)):].strip():
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            lines.append(line)
            continue
        heading = _ATX_HEADING.match(line)
        if heading:
            if lines:
                yield "\n".join(lines), 0, ""
                lines = []
            yield line.strip(), len(heading.group(1)), heading_title(heading.group(2))
        elif line.strip():
            lines.append(line)
        elif lines:
            yield "\n".join(lines), 0, ""
            lines = []
    if lines:
        yield "\n".join(lines), 0, ""


def _pack(blocks: list[str], max_words: int) -> Iterator[str]:
    """Join a section's blocks into texts of at most ``max_words`` words. A block that does not
    fit starts the next text; one too long for any text is cut between lines, then words. The
    section's heading is never left alone: the block after it is cut to fit beside it."""
    current: list[str] = []
    size = 0
    heading_alone = bool(blocks) and _ATX_HEADING.match(blocks[0]) is not None
    pending = list(blocks)
    while pending:
        block = pending.pop(0)
        words = word_count(block)
        if size + words <= max_words:
            current.append(block)
            size += words
            heading_alone = heading_alone and _ATX_HEADING.match(block) is not None
            continue
        budget = max_words - size
        if current and not (heading_alone and budget > 0):
            yield "\n\n".join(current)
            current, size, heading_alone = [], 0, False
            pending.insert(0, block)
            continue
        head, tail = _cut(block, budget)
        current.append(head)
        yield "\n\n".join(current)
        current, size, heading_alone = [], 0, False
        if tail:
            pending.insert(0, tail)
    if current:
        yield "\n\n".join(current)


def _cut(block: str, budget: int) -> tuple[str, str]:
    """The longest head of ``block`` of at most ``budget`` words (whole lines when the first
    line fits, else words) and the rest."""
    lines = block.split("\n")
    taken = size = 0
    for line in lines:
        if size + word_count(line) > budget:
            break
        size += word_count(line)
        taken += 1
    if taken and any(line.strip() for line in lines[:taken]):
        return "\n".join(lines[:taken]), "\n".join(lines[taken:]).strip("\n")
    first = lines[taken].split()
    head = " ".join(first[:budget])
    rest = " ".join(first[budget:])
    return head, "\n".join(filter(None, [rest, *lines[taken + 1:]]))
