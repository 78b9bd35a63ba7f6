"""Output forms of the chosen content element: sanitised HTML (nh3), Markdown and block-aware text."""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import nh3
from lxml import etree
from lxml.html import HtmlElement

from crawler.extraction.tree_text import INVISIBLE_JOINERS, text_content
from crawler.extraction.vocabulary import (BLOCK_TAGS, DROPPED_TAGS,
                                           SANITIZER_DROPPED_TAGS, is_hidden)

logger = logging.getLogger(__name__)

__all__ = ["RenderedContent", "render_content", "sanitize_html", "safe_url",
           "ALLOWED_TAGS", "ALLOWED_ATTRIBUTES"]

#: Structural tags kept in ``content_html``; everything else is unwrapped (text kept) or dropped.
ALLOWED_TAGS = frozenset({
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "div", "span", "section", "article",
    "ul", "ol", "li", "dl", "dt", "dd",
    "table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td", "colgroup", "col",
    "pre", "code", "kbd", "samp", "var", "blockquote", "q", "cite",
    "figure", "figcaption", "img", "picture", "a",
    "em", "strong", "i", "b", "u", "s", "del", "ins", "mark", "small", "sub", "sup", "abbr",
    "time", "details", "summary", "address",
})
#: Attributes kept, per tag (``rel`` on links is set by the sanitiser itself).
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title"},
    "abbr": {"title"},
    "*": {"title"},
}
_URL_SCHEMES = frozenset({"http", "https", "mailto"})
_URL_ATTRIBUTES = frozenset({"href", "src", "cite", "action", "formaction", "poster", "background"})

_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_INLINE_CODE = frozenset({"code", "kbd", "samp", "tt", "var"})
_EMPHASIS = {"em": "*", "i": "*", "cite": "*", "strong": "**", "b": "**", "del": "~~", "s": "~~"}
_WS = re.compile(r"[ \t\n\r\f\v\u00a0\u200b]+")
_SPACES = re.compile(r"[ \t\u00a0]+")
_LANG_CLASS = re.compile(r"(?:^|\s)(?:language|lang|highlight|brush|sourceCode)[-:]?\s*([A-Za-z0-9_+#.-]+)")
_ROWS = etree.XPath("./tr | ./thead/tr | ./tbody/tr | ./tfoot/tr")
#: Characters of text that Markdown would read as markup. ``<`` is always escaped, so that no
#: text of the page becomes raw HTML or an autolink in a renderer, even when it is assembled
#: from several text nodes; ``&`` only where it would start a character reference.
_MD_SPECIAL = re.compile(r"[\\`*\[\]<&]")
_MD_ESCAPE = re.compile(r"([\\`*\[\]<])")
_MD_SYNTAX = frozenset("\\`*_[]!<>~&#|")
"""Characters the Markdown renderer writes as syntax (escapes, code, emphasis, links, images);
emphasis never moves them (``_outside_punctuation``)."""
_CHARACTER_REFERENCE = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
_BACKTICK_RUNS = re.compile(r"`+")
_PERMALINK = re.compile(r"^[\s\u200b]*[¶#§🔗]?[\s\u200b]*$")
_LISTING_TABLE = re.compile(r"highlight|codehilite|listing|code-table", re.IGNORECASE)
_LINE_NUMBERS = re.compile(r"lineno|linenumber|line-number|gutter", re.IGNORECASE)
_PRE_SPECIAL_TAGS = ("br", "div", "p", *sorted(DROPPED_TAGS), etree.Comment,
                     etree.ProcessingInstruction)
_PRE_HIDDEN_PART = etree.XPath("boolean(descendant::*/@hidden | descendant::*/@aria-hidden[.='true']"
                               " | descendant::*/@style)")
_PRE_CLASSES = etree.XPath("descendant::*/@class", smart_strings=False)
_MAYBE_HIDDEN = etree.XPath(
    "(descendant::*/@hidden | descendant::*/@aria-hidden[.='true']"
    " | descendant::*/@style[contains(., 'none') or contains(., 'hidden')])/..")
"""Descendants that may be hidden (``is_hidden`` decides), found through their attributes:
testing attribute values on the attribute axis is several times cheaper than testing every
element for them."""
_EMPTY_INLINE = frozenset({"a", "span", "strong", "em", "b", "i", "u", "s", "small", "mark",
                           "sub", "sup", "font", "label"})
_EMPTY_TAGS = _EMPTY_INLINE | frozenset({
    "p", "div", "section", "article", "li", "ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4",
    "h5", "h6", "figure", "figcaption", "blockquote", "caption", "table", "thead", "tbody",
    "tfoot", "tr"})
"""Elements removed from ``content_html`` when they show nothing (``_is_empty``): an empty
paragraph, heading, list item, row or table, a link around nothing (its icon dropped as never
content). A cell stays (it keeps its column), and so do images, line breaks and rules."""
_LIST_NUMBER = re.compile(r"-?[0-9]{1,9}")
"""A number an ordered list starts at or a cell spans, as ``int`` reads it: ASCII digits, at most
nine (CommonMark's limit for a list number). ``str.isdigit`` also takes ``²`` and strings of
thousands of digits, on which ``int`` raised and the page's extraction failed."""
_PLAIN_ABSOLUTE = re.compile(r"https?://[^\s\x00-\x1f\x7f\\]+$", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x1f\x7f\s]+")


MAX_NESTING = 19
"""Levels of Markdown block nesting written: a blockquote opens one (``>``), a list two (the list
and its item, as markdown-it counts them); a quote or a list that would pass it is written as
the blocks of the one around it. Each level prefixes or indents every line inside it, so 190
nested quotes around 20,000 paragraphs (165 kB) made 15 MB of Markdown in 5.6 s; and
markdown-it's CommonMark preset (``maxNesting`` 20) drops whatever sits at level 20: quotes were
written up to 20 deep and lists up to 20 (40 levels), so from 10 nested lists on a reader's
Markdown showed empty bullets, one stray ``-`` for each wrapping item, and none of the text
inside. The text form nests as the Markdown does."""
QUOTE_LEVELS = 1
"""Nesting levels a blockquote opens (see ``MAX_NESTING``)."""
LIST_LEVELS = 2
"""Nesting levels a list opens: the list and its item (see ``MAX_NESTING``)."""
MAX_PADDING_CELLS = 65_536
"""Empty cells a Markdown table may be padded with (each row written as wide as the widest):
past it the table is written as blocks, its cells one after another. A row of thousands of
cells over thousands of rows of two made the Markdown grow with their product (80 kB of HTML
gave 12 MB of Markdown; 1 MB would give 2 GB). The limit is the one markdown-it sets on the
empty cells it fills short rows with, for the same reason."""


@dataclass(frozen=True)
class RenderedContent:
    """The three output forms of one content element."""

    html: str
    markdown: str
    text: str


def safe_url(value: str | None, base_url: str) -> str | None:
    """``value`` made absolute against ``base_url`` when it is an http(s) or mailto URL, else None."""
    if not value:
        return None
    value = value.strip()
    if _PLAIN_ABSOLUTE.match(value):
        return value  # already absolute http(s) without whitespace or control characters
    probe = _CONTROL.sub("", value).lower()
    if not probe or probe.startswith(("javascript:", "vbscript:", "data:")):
        return None
    try:
        absolute = urljoin(base_url, value) if base_url else value
        scheme = urlsplit(absolute).scheme.lower()
    except ValueError:
        return None
    if scheme not in _URL_SCHEMES:
        return None
    return absolute


class _UrlResolver:
    """``safe_url`` against one base URL, memoised for the links of one page."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.cache: dict[str, str | None] = {}

    def __call__(self, value: str | None) -> str | None:
        if not value:
            return None
        try:
            return self.cache[value]
        except KeyError:
            result = self.cache[value] = safe_url(value, self.base_url)
            return result


def sanitize_html(html: str, base_url: str, resolve: _UrlResolver | None = None) -> str:
    """Allow-list sanitising with nh3: structural tags only, safe absolute URLs, ``rel=nofollow``."""
    resolve = resolve or _UrlResolver(base_url)

    def attribute_filter(tag: str, attr: str, value: str) -> str | None:
        if attr in _URL_ATTRIBUTES:
            return resolve(value)
        return value

    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        clean_content_tags=set(SANITIZER_DROPPED_TAGS),
        attributes={k: set(v) for k, v in ALLOWED_ATTRIBUTES.items()},
        attribute_filter=attribute_filter,
        url_schemes=set(_URL_SCHEMES),
        link_rel="nofollow",
        strip_comments=True,
    )


def _skip(el) -> bool:
    """Whether an element contributes nothing to the output (comments, scripts, hidden elements)."""
    tag = el.tag
    if not isinstance(tag, str):
        return True
    if tag in DROPPED_TAGS:
        return True
    attrib = el.attrib
    if not attrib:
        return False
    return is_hidden(el)


def _shown_tag(el) -> str | None:
    """The lower-case tag of an element that contributes to the output, None when it does not
    (``_skip`` and ``_tag`` in one call: the renderer asks both of every child it meets)."""
    tag = el.tag
    if tag.__class__ is not str or tag in DROPPED_TAGS:
        return None
    if el.attrib and is_hidden(el):
        return None
    if "}" in tag:
        tag = tag.rsplit("}", 1)[1]
    return tag if tag.islower() else tag.lower()


def _pre_needs_walk(el: HtmlElement) -> bool:
    """Whether a <pre> holds anything its text walk treats specially (line breaks, blocks, line
    numbers, hidden or dropped parts); most highlighted code holds only spans, and its text is
    then read in one call."""
    for _ in el.iterdescendants(*_PRE_SPECIAL_TAGS):
        return True
    return _PRE_HIDDEN_PART(el) or bool(_LINE_NUMBERS.search("\n".join(_PRE_CLASSES(el))))


def _tag(el) -> str:
    """Lower-case local tag name (the HTML parser already lower-cases; namespaced tags are rare)."""
    tag = el.tag
    if "}" in tag:
        tag = tag.rsplit("}", 1)[1]
    return tag if tag.islower() else tag.lower()


def _code_language(pre: HtmlElement) -> str:
    """The language of a code block from ``language-*``-style classes on it, its code child or parents."""
    nodes = [pre]
    code = pre.find("code")
    if code is not None:
        nodes.insert(0, code)
    parent = pre.getparent()
    for _ in range(2):
        if parent is None:
            break
        nodes.append(parent)
        parent = parent.getparent()
    for node in nodes:
        if node.get("data-lang"):
            return node.get("data-lang").strip()
        m = _LANG_CLASS.search(node.get("class") or "")
        if m and m.group(1).lower() not in ("default", "none", "plaintext", "text", "nohighlight", "notranslate"):
            return m.group(1)
    return ""


Pair = tuple[str, str]
Blocks = tuple[list[str], list[str]]


def _single_spaced(text: str) -> str:
    """Runs of spaces, tabs and no-break spaces as one space (text without any such run, most
    of it, is returned as it is without a regex pass)."""
    if "  " in text or "\t" in text or "\xa0" in text:
        return _SPACES.sub(" ", text)
    return text


def _collapsed(text: str) -> str:
    """Text with each run of white space (``_WS``, the zero-width space among it) as one space
    and the invisible joiners (word joiners, a byte-order mark) removed. Text that is all printable
    characters without two spaces in a row, a third of the text between tags, holds no such
    run (every character of ``_WS`` but the space is unprintable) and is returned as it is
    without a regex pass."""
    if text.isprintable() and "  " not in text:
        return text
    return _WS.sub(" ", INVISIBLE_JOINERS.sub("", text))


def _paragraph(buf: list[str], line_break: str) -> str:
    """Pending inline pieces as one paragraph (``line_break`` joins its lines; empty when the
    pieces hold only white space)."""
    text = "".join(buf)
    if "\n" in text:
        lines = [_single_spaced(line).strip() for line in text.split("\n")]
        return line_break.join(line for line in lines if line)
    return _single_spaced(text).strip()


def _flush(md_buf: list[str], tx_buf: list[str], md_out: list[str], tx_out: list[str]) -> None:
    """Turn the pending inline pieces of both forms into one paragraph block each (Markdown's
    lines joined by a hard break, the text's by a newline); the buffers are emptied. The two
    buffers always hold the same number of pieces: every piece has both forms."""
    para = _paragraph(md_buf, "  \n")
    if para:
        md_out.append(para)
    para = _paragraph(tx_buf, "\n")
    if para:
        tx_out.append(para)
    md_buf.clear()
    tx_buf.clear()


def _flat(blocks: list[str]) -> str:
    """Blocks flattened onto one line."""
    return " ".join(b.replace("  \n", " ").replace("\n", " ") for b in blocks).strip()


class _Renderer:
    """One walk over the element tree producing Markdown and plain text side by side."""

    def __init__(self, base_url: str, resolve: _UrlResolver | None = None) -> None:
        self.base_url = base_url
        self.resolve = resolve or _UrlResolver(base_url)
        self.nesting = 0  # Markdown nesting levels around the element (quotes, lists)
        self.one_line = 0  # one-line contexts around the element (a link's text, a heading,
        # a table cell: a heading inside one is written in bold)

    # ---- blocks
    def blocks(self, el: HtmlElement) -> Blocks:
        """The blocks of a container's content (text, inline children and block children mixed)."""
        if not len(el):
            # No child (a third of the elements met): the text alone is one paragraph. Text
            # through ``_collapsed`` holds no line break, tab, no-break space or run of
            # spaces, and escaping adds none, so flushing it would only strip it.
            text = el.text
            if not text:
                return [], []
            text = _collapsed(text)
            md = _escape(text).strip()
            tx = text.strip()
            return ([md] if md else []), ([tx] if tx else [])
        md_out: list[str] = []
        tx_out: list[str] = []
        md_buf: list[str] = []
        tx_buf: list[str] = []
        if el.text:
            text = _collapsed(el.text)
            md_buf.append(_escape(text))
            tx_buf.append(text)
        for child in el:
            tag = _shown_tag(child)
            if tag is not None:
                if tag in BLOCK_TAGS:
                    if md_buf:
                        _flush(md_buf, tx_buf, md_out, tx_out)
                    md, tx = self.block(child, tag)
                    md_out.extend(md)
                    tx_out.extend(tx)
                else:
                    md_piece, tx_piece = self.inline(child, tag)
                    md_buf.append(md_piece)
                    tx_buf.append(tx_piece)
            tail = child.tail
            if tail:
                text = _collapsed(tail)
                md_buf.append(_escape(text))
                tx_buf.append(text)
        if md_buf:
            _flush(md_buf, tx_buf, md_out, tx_out)
        return md_out, tx_out

    def block(self, el: HtmlElement, tag: str | None = None) -> Blocks:
        """The blocks of one block-level element (``tag``: its lower-case tag, when known)."""
        if tag is None:
            tag = _tag(el)
        if tag in _HEADINGS:
            md, tx = self._inline_text(el)
            if md.startswith("**") and md.endswith("**") and md.count("**") == 2 and len(md) > 4:
                md = md[2:-2]  # a heading wholly in bold is just a heading
            if self.one_line and md:
                # Inside a link's text (a card's title), a heading or a table cell, a heading's
                # ``#`` would be shown as it is: CommonMark reads no block there, so the heading
                # stands out in bold instead (as it is when part of it is bold already).
                return [md if "**" in md else f"**{md}**"], ([tx] if tx else [])
            return ([("#" * _HEADINGS[tag] + " " + md)] if md else []), ([tx] if tx else [])
        if tag in ("ul", "ol", "menu"):
            return self._nested(el, LIST_LEVELS,
                                lambda inner: self._list(inner, ordered=tag == "ol"))
        if tag == "pre":
            return self._pre(el)
        if tag == "table":
            return self._table(el)
        if tag == "blockquote":
            return self._nested(el, QUOTE_LEVELS, self._quote)
        if tag == "hr":
            return ["---"], []
        if tag == "dt":
            md, tx = self._inline_text(el)
            return ([f"**{md}**"] if md else []), ([tx] if tx else [])
        return self.blocks(el)

    def _nested(self, el: HtmlElement, levels: int,
                render: Callable[[HtmlElement], Blocks]) -> Blocks:
        """``render(el)`` inside ``levels`` more Markdown nesting levels (a list or a quote);
        an element that would pass ``MAX_NESTING`` is written as its blocks instead, which join
        the list item or the quote around it."""
        if self.nesting + levels > MAX_NESTING:
            return self.blocks(el)
        self.nesting += levels
        try:
            return render(el)
        finally:
            self.nesting -= levels

    def _quote(self, el: HtmlElement) -> Blocks:
        """A blockquote: its blocks, each line prefixed with ``>``."""
        md_inner, tx_inner = self.blocks(el)
        joined = "\n\n".join(md_inner)
        quoted = ["\n".join(("> " + line) if line else ">" for line in joined.split("\n"))] if joined else []
        return quoted, tx_inner

    def _list(self, el: HtmlElement, ordered: bool) -> Blocks:
        """A (possibly nested) list as one block of item lines."""
        md_lines: list[str] = []
        tx_lines: list[str] = []
        start = el.get("start") or "1"
        number = int(start) if _LIST_NUMBER.fullmatch(start) else 1
        for child in el:
            if _skip(child):
                continue
            if _tag(child) != "li":
                if _tag(child) in BLOCK_TAGS:
                    md, tx = self.block(child)
                    md_lines.extend(md)
                    tx_lines.extend(tx)
                else:
                    md_piece, tx_piece = self.inline(child)
                    for lines, piece in ((md_lines, md_piece), (tx_lines, tx_piece)):
                        piece = _SPACES.sub(" ", piece).strip()
                        if piece:
                            lines.append(piece)
                continue
            marker = f"{number}. " if ordered else "- "
            number += 1
            indent = " " * len(marker)
            for lines, item_blocks in zip((md_lines, tx_lines), self.blocks(child)):
                if not item_blocks:
                    continue
                body = "\n".join(item_blocks).split("\n")
                lines.append(marker + body[0])
                lines.extend((indent + line) if line else "" for line in body[1:])
        return (["\n".join(md_lines)] if md_lines else []), (["\n".join(tx_lines)] if tx_lines else [])

    def _pre(self, el: HtmlElement) -> Blocks:
        """A preformatted block: fenced with its language in Markdown, verbatim lines in text."""
        raw = "".join(self._pre_text(el) if _pre_needs_walk(el) else el.itertext())
        code = raw.strip("\n")
        if not code.strip():
            return [], []
        fence = "```"
        while fence in code:
            fence += "`"
        return [f"{fence}{_code_language(el)}\n{code}\n{fence}"], [code]

    def _pre_text(self, el: HtmlElement) -> list[str]:
        """Raw text of a <pre>, with <br> as line breaks and hidden or dropped parts skipped."""
        out = [el.text or ""]
        for child in el:
            if not _skip(child) and not _LINE_NUMBERS.search(child.get("class") or ""):
                if _tag(child) == "br":
                    out.append("\n")
                else:
                    out.extend(self._pre_text(child))
                    if _tag(child) in ("div", "p") and not "".join(out).endswith("\n"):
                        out.append("\n")
            if child.tail:
                out.append(child.tail)
        return out

    def _table(self, el: HtmlElement) -> Blocks:
        """A table: a GFM pipe table in Markdown, tab-separated rows in text; layout tables as blocks."""
        rows = [r for r in _ROWS(el) if not _skip(r)]
        cells = [[c for c in r if isinstance(c.tag, str) and _tag(c) in ("td", "th") and not _skip(c)]
                 for r in rows]
        widths = [sum(_span(c) for c in row) for row in cells]
        width = max(widths, default=0)
        missing = width * len(widths) - sum(widths)  # the empty cells padding the rows adds
        md_out: list[str] = []
        tx_out: list[str] = []
        listing = any(_LINE_NUMBERS.search(c.get("class") or "") for row in cells for c in row) \
            or bool(_LISTING_TABLE.search(el.get("class") or ""))
        if width <= 1 or listing or missing > MAX_PADDING_CELLS or el.find(".//table") is not None:
            # A layout table (or a code listing with a line-number column, or rows far narrower
            # than the widest): cells are ordinary blocks.
            for row in cells:
                for cell in row:
                    if _LINE_NUMBERS.search(cell.get("class") or ""):
                        continue
                    md, tx = self.blocks(cell)
                    md_out.extend(md)
                    tx_out.extend(tx)
            return md_out, tx_out
        caption = el.find("caption")
        if caption is not None:
            md, tx = self._inline_text(caption)
            if md:
                md_out.append(md)
            if tx:
                tx_out.append(tx)
        md_grid: list[list[str]] = []
        tx_grid: list[list[str]] = []
        for row in cells:
            md_values: list[str] = []
            tx_values: list[str] = []
            for cell in row:
                md_blocks, tx_blocks = self._one_line_blocks(cell)
                md_values.append(_SPACES.sub(" ", " ".join(_cell_block(b) for b in md_blocks))
                                 .strip().replace("|", "\\|"))
                tx_values.append(_SPACES.sub(" ", " ".join(b.replace("\n", " ") for b in tx_blocks)).strip())
                padding = [""] * (_span(cell) - 1)
                md_values.extend(padding)
                tx_values.extend(padding)
            if any(md_values):
                md_grid.append(md_values)
            if any(tx_values):
                tx_grid.append(tx_values)
        if tx_grid:
            tx_out.append("\n".join("\t".join(row) for row in tx_grid))
        if md_grid:
            md_grid = [row + [""] * (width - len(row)) for row in md_grid]
            lines = ["| " + " | ".join(md_grid[0]) + " |", "|" + "|".join(" --- " for _ in range(width)) + "|"]
            lines.extend("| " + " | ".join(row) + " |" for row in md_grid[1:])
            md_out.append("\n".join(lines))
        return md_out, tx_out

    # ---- inline
    def _inline_text(self, el: HtmlElement) -> Pair:
        """An element's content flattened to one inline string."""
        md, tx = self._one_line_blocks(el)
        return _flat(md), _flat(tx)

    def _one_line_blocks(self, el: HtmlElement) -> Blocks:
        """The blocks of an element whose content is written on one line (a heading, a table
        cell; see ``one_line``)."""
        self.one_line += 1
        try:
            return self.blocks(el)
        finally:
            self.one_line -= 1

    def inline(self, el: HtmlElement, tag: str | None = None) -> Pair:
        """One inline element with its content, not its tail (``tag``: its lower-case tag, when
        known)."""
        if tag is None:
            tag = _tag(el)
        if tag == "br":
            return "\n", "\n"
        if tag == "img":
            src = self.resolve(el.get("src"))
            if not src:
                return "", ""
            alt = _escape(_WS.sub(" ", el.get("alt") or "").strip().replace("[", "").replace("]", ""))
            return f"![{alt}]({_md_url(src)})", ""
        if tag in _INLINE_CODE:
            code = _WS.sub(" ", text_content(el))
            if not code.strip():
                return code, code
            return _code_span(code), code
        if len(el):
            link = tag == "a"
            self.one_line += link
            try:
                md_parts, tx_parts = self._inline_parts(el)
            finally:
                self.one_line -= link
            md = "".join(md_parts)
            tx = "".join(tx_parts)
        else:  # text alone (most inline elements): its one piece
            text = el.text
            if text:
                tx = _collapsed(text)
                md = _escape(tx)
            else:
                md = tx = ""
        if tag == "a":
            if _PERMALINK.match(tx) and (el.get("href") or "").startswith("#"):
                return "", ""  # a heading's permalink marker, not content
            href = self.resolve(el.get("href"))
            label = md.strip()
            if not href or not label or href.startswith("#"):
                return md, tx
            lead = " " if md[:1] == " " else ""
            trail = " " if md[-1:] == " " else ""
            return f"{lead}[{label}]({_md_url(href)}){trail}", tx
        mark = _EMPHASIS.get(tag)
        if mark:
            stripped = md.strip()
            if stripped and "\n" not in stripped:
                lead = " " if md[:1] == " " else ""
                trail = " " if md[-1:] == " " else ""
                before = lead or _before(el)  # what stands beside the marks
                after = trail or _after(el)
                head, core, tail = _outside_punctuation(stripped, before, after)
                if not core or (_word_character(head[-1:] or before[-1:]) and _punctuation_mark(core[0])) \
                        or (_word_character(tail[:1] or after[:1]) and _punctuation_mark(core[-1])):
                    # punctuation alone, or a link's brackets touching a word: no mark would be
                    # read as one, so none is written
                    return md, tx
                return f"{lead}{head}{mark}{core}{mark}{tail}{trail}", tx
        return md, tx

    def _inline_parts(self, el: HtmlElement) -> tuple[list[str], list[str]]:
        """The inline pieces of an element's content; nested blocks become line breaks."""
        md_parts: list[str] = []
        tx_parts: list[str] = []
        if el.text:
            text = _collapsed(el.text)
            md_parts.append(_escape(text))
            tx_parts.append(text)
        for child in el:
            tag = _shown_tag(child)
            if tag is not None:
                if tag in BLOCK_TAGS:
                    md, tx = self.block(child, tag)
                    if md:
                        md_parts.append("\n" + "\n".join(md) + "\n")
                    if tx:
                        tx_parts.append("\n" + "\n".join(tx) + "\n")
                else:
                    md_piece, tx_piece = self.inline(child, tag)
                    md_parts.append(md_piece)
                    tx_parts.append(tx_piece)
            if child.tail:
                text = _collapsed(child.tail)
                md_parts.append(_escape(text))
                tx_parts.append(text)
        return md_parts, tx_parts


def _cell_block(block: str) -> str:
    """A Markdown block flattened into a table cell (a fenced code block becomes inline code)."""
    if block.startswith("```"):
        code = " ".join(line.strip() for line in block.split("\n")[1:-1] if line.strip())
        return _code_span(code) if code else ""
    return block.replace("\n", " ")


def _punctuation(char: str) -> bool:
    """Whether CommonMark reads ``char`` as punctuation when it tells whether a ``*`` opens or
    closes emphasis (Unicode punctuation and symbols), leaving out the characters Markdown itself
    writes (escapes, code, links, emphasis), which must stay where they are."""
    return char not in _MD_SYNTAX and _punctuation_mark(char)


def _punctuation_mark(char: str) -> bool:
    """Whether CommonMark reads ``char`` as punctuation beside an emphasis mark."""
    return unicodedata.category(char)[0] in "PS"


def _word_character(text: str) -> bool:
    """Whether ``text`` (one character or none) is neither white space nor punctuation, as
    CommonMark reads it beside an emphasis mark (none: the start or the end of the text)."""
    return text != "" and not (text.isspace() or _punctuation_mark(text))


def _outside_punctuation(text: str, before: str, after: str) -> tuple[str, str, str]:
    """``text``, emphasised between ``before`` and ``after``, as the punctuation written before
    its opening mark, the emphasised rest, and the punctuation written after its closing mark
    (see ``_punctuation``). CommonMark reads a ``**`` between a letter and a punctuation mark as
    no delimiter at all: "**current.**Make", "Showgirl*,*" or "Fortune**®**" were shown with
    their asterisks. Emphasis touching a letter or a digit on a side where it holds punctuation
    gives up its punctuation on both sides ("**Note:** text" stays as it is)."""
    start, end = 0, len(text)
    if not (_word_character(before[-1:]) and _punctuation(text[0])) \
            and not (_word_character(after[:1]) and _punctuation(text[-1])):
        return "", text, ""
    # both sides, so that a pair of brackets or quotes stays together
    while start < len(text) and _punctuation(text[start]):
        start += 1
    while end > start and _punctuation(text[end - 1]):
        if text[end - 1] == ")" and "](" in text:
            break  # a link's or an image's destination closes there
        end -= 1
    return text[:start], text[start:end], text[end:]


_UNKNOWN = "a"
"""What ``_before`` and ``_after`` give when they cannot tell what stands beside: read as a
letter, the cautious reading."""
_EDGE_LEVELS = 4
"""Levels of inline elements ``_before`` and ``_after`` look into for the character beside."""


def _beside(el: HtmlElement | None, first: bool) -> str:
    """The text an element shown next to an emphasis starts (``first``) or ends with, looked
    for at most ``_EDGE_LEVELS`` levels into its first or last children: empty for a line break
    or a block (a line's start or end), ``_UNKNOWN`` when it cannot tell."""
    for _ in range(_EDGE_LEVELS):
        if el is None or el.tag == "br" or el.tag in BLOCK_TAGS:
            return ""
        if first:
            if el.text:
                return el.text
            if not len(el):
                return _UNKNOWN if el.tail is None else el.tail
            el = el[0]
        else:
            if not len(el):
                return el.text or _UNKNOWN
            last = el[-1]
            if last.tail:
                return last.tail
            el = last
    return _UNKNOWN


def _before(el: HtmlElement) -> str:
    """The text right before ``el`` (empty at its parent's start or after a line break or a
    block; see ``_beside``)."""
    previous = el.getprevious()
    if previous is not None:
        return previous.tail or _beside(previous, first=False)
    parent = el.getparent()
    return (parent.text or "") if parent is not None else ""


def _after(el: HtmlElement) -> str:
    """The text right after ``el`` (empty at its parent's end or before a line break or a
    block; see ``_beside``)."""
    if el.tail:
        return el.tail
    return _beside(el.getnext(), first=True)


def _escape(text: str) -> str:
    """Text with Markdown's special characters escaped (see ``_MD_SPECIAL``; two passes, as a
    single pattern with an alternative is three times slower on long text)."""
    if not _MD_SPECIAL.search(text):
        return text
    text = _MD_ESCAPE.sub(r"\\\1", text)
    return _CHARACTER_REFERENCE.sub(r"\\&", text) if "&" in text else text


def _code_span(code: str) -> str:
    """Inline code fenced by one more backtick than its longest run of them, so that no backtick
    inside can close it early (and let what follows be read as Markdown or HTML)."""
    runs = _BACKTICK_RUNS.findall(code)
    tick = "`" * (max(map(len, runs), default=0) + 1)
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{tick}{pad}{code}{pad}{tick}"


def _span(cell: HtmlElement) -> int:
    """A cell's colspan (1 when missing or odd)."""
    value = cell.get("colspan") or "1"
    return min(int(value), 50) if _LIST_NUMBER.fullmatch(value) and int(value) > 0 else 1


def _md_url(url: str) -> str:
    """A URL safe inside Markdown link parentheses."""
    if any(c in url for c in " ()<>"):
        return "<" + url.replace(" ", "%20").replace("<", "%3C").replace(">", "%3E") + ">"
    return url


def _document_text(blocks: list[str]) -> str:
    """Blocks joined by blank lines, without runs of empty lines."""
    return "\n\n".join(b.strip("\n") for b in blocks if b.strip())


def _is_empty(el: HtmlElement) -> bool:
    """Whether an element shows nothing: no text and no child but line breaks (a row: no child
    but cells showing nothing)."""
    if (el.text or "").strip():
        return False
    row = el.tag == "tr"
    for child in el:
        if (child.tail or "").strip():
            return False
        tag = child.tag
        if not isinstance(tag, str):
            continue  # a comment: the sanitiser drops it
        if tag == "br" or (row and tag in ("td", "th") and _is_empty(child)):
            continue
        return False
    return True


def _drop_empty(element: HtmlElement) -> None:
    """Remove the elements of ``element`` that show nothing (``_is_empty``), and then each element
    around one that shows nothing in turn, level by level: a block goes whole, its tail set
    apart by a line break; an inline element is unwrapped, so that the white space between two
    words or a line break it holds stays. Each round tests only the parents of what the last one
    removed, and an element's test reads its own children (a row's, its cells'), so the work is
    linear in the page."""
    found = [el for el in element.iter(*_EMPTY_TAGS) if el is not element and _is_empty(el)]
    while found:
        parents: dict[int, HtmlElement] = {}
        for el in found:
            parent = el.getparent()
            if parent is None:
                continue
            if el.tag in _EMPTY_INLINE:
                el.drop_tag()
            else:
                if el.tail and not el.tail[:1].isspace():
                    el.tail = "\n" + el.tail
                el.drop_tree()
            if parent is not element and parent.tag in _EMPTY_TAGS:
                parents[id(parent)] = parent
        found = [el for el in parents.values() if _is_empty(el)]


def _html_source(element: HtmlElement) -> str:
    """The element serialised, with hidden parts and elements showing nothing removed from a
    copy (the caller's tree is untouched)."""
    hidden = _MAYBE_HIDDEN(element)
    hidden = [h for h in hidden if is_hidden(h)]
    if hidden or any(_is_empty(el) for el in element.iter(*_EMPTY_TAGS) if el is not element):
        from copy import deepcopy
        element = deepcopy(element)
        for h in _MAYBE_HIDDEN(element):
            if is_hidden(h) and h.getparent() is not None:
                h.drop_tree()
        _drop_empty(element)
    return etree.tostring(element, encoding="unicode", method="html", with_tail=False)


def render_content(element: HtmlElement | None, base_url: str) -> RenderedContent:
    """Sanitised HTML, Markdown and plain text of the chosen content element."""
    if element is None or not isinstance(element.tag, str):
        return RenderedContent("", "", "")
    resolve = _UrlResolver(base_url)
    html = sanitize_html(_html_source(element), base_url, resolve).strip()
    md_blocks, tx_blocks = _Renderer(base_url, resolve).block(element) if not _skip(element) else ([], [])
    markdown = _document_text(md_blocks)
    text = _document_text(tx_blocks)
    return RenderedContent(html=html, markdown=markdown, text=text)
