"""Output forms of the chosen content element: sanitised HTML (nh3), Markdown and block-aware text."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import nh3
from lxml import etree
from lxml.html import HtmlElement

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
#: Elements removed together with their content (executable, embedded or interactive).
DROPPED_TAGS = frozenset({
    "script", "style", "noscript", "template", "svg", "math", "iframe", "frame", "frameset",
    "object", "embed", "applet", "canvas", "audio", "video", "source", "track", "map",
    "input", "select", "option", "optgroup", "datalist", "textarea", "button",
    "head", "title", "meta", "link", "base", "dialog", "portal", "param",
})
_URL_SCHEMES = frozenset({"http", "https", "mailto"})
_URL_ATTRIBUTES = frozenset({"href", "src", "cite", "action", "formaction", "poster", "background"})

_BLOCK_TAGS = frozenset({
    "p", "div", "section", "article", "main", "aside", "header", "footer", "nav", "body", "html",
    "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "table", "tr",
    "thead", "tbody", "tfoot", "caption", "pre", "blockquote", "figure", "figcaption", "hr",
    "address", "details", "summary", "center", "hgroup", "menu", "fieldset", "picture", "form",
    "legend", "search",
})
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_INLINE_CODE = frozenset({"code", "kbd", "samp", "tt", "var"})
_EMPHASIS = {"em": "*", "i": "*", "cite": "*", "strong": "**", "b": "**", "del": "~~", "s": "~~"}
_WS = re.compile(r"[ \t\n\r\f\v\u00a0\u200b]+")
_SPACES = re.compile(r"[ \t\u00a0]+")
_LANG_CLASS = re.compile(r"(?:^|\s)(?:language|lang|highlight|brush|sourceCode)[-:]?\s*([A-Za-z0-9_+#.-]+)")
_MD_SPECIAL = re.compile(r"[\\`*\[\]]")
_MD_ESCAPE = re.compile(r"([\\`*\[\]])")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_PERMALINK = re.compile(r"^\s*[¶#§🔗]?\s*$")
_PLAIN_ABSOLUTE = re.compile(r"https?://[^\s\x00-\x1f\x7f\\]+$", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x1f\x7f\s]+")


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
        clean_content_tags={"script", "style", "noscript", "template", "svg", "math", "iframe",
                            "object", "embed", "applet", "canvas", "audio", "video", "select",
                            "textarea", "button", "title", "head", "frameset", "dialog"},
        attributes={k: set(v) for k, v in ALLOWED_ATTRIBUTES.items()},
        attribute_filter=attribute_filter,
        url_schemes=set(_URL_SCHEMES),
        link_rel="nofollow",
        strip_comments=True,
    )


def _is_hidden(el: HtmlElement) -> bool:
    """Whether an element is hidden from readers (``hidden``, ``aria-hidden``, inline display:none)."""
    if el.get("hidden") is not None or el.get("aria-hidden") == "true":
        return True
    style = el.get("style")
    return bool(style and _HIDDEN_STYLE.search(style))


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
    return _is_hidden(el)


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


class _Renderer:
    """One walk over the element tree producing Markdown (``markdown=True``) or plain text."""

    def __init__(self, base_url: str, markdown: bool, resolve: _UrlResolver | None = None) -> None:
        self.base_url = base_url
        self.md = markdown
        self.resolve = resolve or _UrlResolver(base_url)

    # ---- blocks
    def blocks(self, el: HtmlElement) -> list[str]:
        """The blocks of a container's content (text, inline children and block children mixed)."""
        out: list[str] = []
        buf: list[str] = []
        if el.text:
            buf.append(self._text(el.text))
        for child in el:
            if not _skip(child):
                if _tag(child) in _BLOCK_TAGS:
                    self._flush(buf, out)
                    out.extend(self.block(child))
                else:
                    buf.append(self.inline(child))
            tail = child.tail
            if tail:
                buf.append(self._text(tail))
        self._flush(buf, out)
        return out

    def _flush(self, buf: list[str], out: list[str]) -> None:
        """Turn the pending inline pieces into a paragraph block."""
        if buf:
            text = "".join(buf)
            if "\n" in text:
                lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
                para = ("  \n" if self.md else "\n").join(line for line in lines if line)
            else:
                para = _SPACES.sub(" ", text).strip()
            if para:
                out.append(para)
            buf.clear()

    def block(self, el: HtmlElement) -> list[str]:
        """The blocks of one block-level element."""
        tag = _tag(el)
        if tag in _HEADINGS:
            text = self._inline_text(el)
            if not text:
                return []
            return [("#" * _HEADINGS[tag] + " " + text) if self.md else text]
        if tag in ("ul", "ol", "menu"):
            return self._list(el, ordered=tag == "ol")
        if tag == "pre":
            return self._pre(el)
        if tag == "table":
            return self._table(el)
        if tag == "blockquote":
            inner = self.blocks(el)
            if not self.md:
                return inner
            joined = "\n\n".join(inner)
            return ["\n".join(("> " + line) if line else ">" for line in joined.split("\n"))] if joined else []
        if tag == "hr":
            return ["---"] if self.md else []
        if tag == "dt" and self.md:
            text = self._inline_text(el)
            return [f"**{text}**"] if text else []
        return self.blocks(el)

    def _list(self, el: HtmlElement, ordered: bool) -> list[str]:
        """A (possibly nested) list as one block of item lines."""
        lines: list[str] = []
        number = int(el.get("start") or 1) if (el.get("start") or "1").lstrip("-").isdigit() else 1
        for child in el:
            if _skip(child):
                continue
            if _tag(child) != "li":
                lines.extend(self.block(child) if _tag(child) in _BLOCK_TAGS else
                             [t for t in [self._inline_text_of(child)] if t])
                continue
            marker = f"{number}. " if ordered else "- "
            number += 1
            item_blocks = self.blocks(child)
            if not item_blocks:
                continue
            indent = " " * len(marker)
            body = "\n".join(item_blocks).split("\n")
            lines.append(marker + body[0])
            lines.extend((indent + line) if line else "" for line in body[1:])
        return ["\n".join(lines)] if lines else []

    def _pre(self, el: HtmlElement) -> list[str]:
        """A preformatted block: fenced with its language in Markdown, verbatim lines in text."""
        code = "".join(self._pre_text(el)).strip("\n")
        if not code.strip():
            return []
        if not self.md:
            return [code]
        fence = "```"
        while fence in code:
            fence += "`"
        return [f"{fence}{_code_language(el)}\n{code}\n{fence}"]

    def _pre_text(self, el: HtmlElement) -> list[str]:
        """Raw text of a <pre>, with <br> as line breaks and hidden or dropped parts skipped."""
        out = [el.text or ""]
        for child in el:
            if not _skip(child):
                if _tag(child) == "br":
                    out.append("\n")
                else:
                    out.extend(self._pre_text(child))
                    if _tag(child) in ("div", "p") and not "".join(out).endswith("\n"):
                        out.append("\n")
            if child.tail:
                out.append(child.tail)
        return out

    def _rows(self, table: HtmlElement) -> list[HtmlElement]:
        """The rows of a table, not those of nested tables."""
        return table.xpath("./tr | ./thead/tr | ./tbody/tr | ./tfoot/tr")

    def _table(self, el: HtmlElement) -> list[str]:
        """A table: a GFM pipe table in Markdown, tab-separated rows in text; layout tables as blocks."""
        rows = [r for r in self._rows(el) if not _skip(r)]
        cells = [[c for c in r if isinstance(c.tag, str) and _tag(c) in ("td", "th") and not _skip(c)]
                 for r in rows]
        width = max((sum(_span(c) for c in row) for row in cells), default=0)
        if width <= 1 or el.xpath(".//table"):
            # A layout table: its cells are ordinary content blocks.
            out: list[str] = []
            for row in cells:
                for cell in row:
                    out.extend(self.blocks(cell))
            return out
        caption = el.find("caption")
        out = []
        if caption is not None:
            text = self._inline_text(caption)
            if text:
                out.append(text)
        grid = []
        for row in cells:
            values = []
            for cell in row:
                values.append(self._cell(cell))
                values.extend([""] * (_span(cell) - 1))
            if any(values):
                grid.append(values)
        if not grid:
            return out
        if not self.md:
            out.append("\n".join("\t".join(v for v in row) for row in grid))
            return out
        grid = [row + [""] * (width - len(row)) for row in grid]
        lines = ["| " + " | ".join(grid[0]) + " |", "|" + "|".join(" --- " for _ in range(width)) + "|"]
        lines.extend("| " + " | ".join(row) + " |" for row in grid[1:])
        out.append("\n".join(lines))
        return out

    def _cell(self, cell: HtmlElement) -> str:
        """One table cell flattened onto a line (pipes escaped in Markdown)."""
        text = " ".join(b.replace("\n", " ") for b in self.blocks(cell))
        text = _SPACES.sub(" ", text).strip()
        return text.replace("|", "\\|") if self.md else text

    # ---- inline
    def _text(self, text: str) -> str:
        """A text node: whitespace collapsed, Markdown-escaped in Markdown mode."""
        text = _WS.sub(" ", text)
        if self.md and _MD_SPECIAL.search(text):
            return _MD_ESCAPE.sub(r"\\\1", text)
        return text

    def _inline_text(self, el: HtmlElement) -> str:
        """An element's content flattened to one inline string."""
        return " ".join(b.replace("  \n", " ").replace("\n", " ") for b in self.blocks(el)).strip()

    def _inline_text_of(self, el: HtmlElement) -> str:
        """A single inline element as text."""
        return _SPACES.sub(" ", self.inline(el)).strip()

    def inline(self, el: HtmlElement) -> str:
        """One inline element with its content (not its tail)."""
        tag = _tag(el)
        if tag == "br":
            return "\n"
        if tag == "img":
            if not self.md:
                return ""
            src = self.resolve(el.get("src"))
            if not src:
                return ""
            alt = _WS.sub(" ", el.get("alt") or "").strip().replace("[", "").replace("]", "")
            return f"![{alt}]({_md_url(src)})"
        if tag in _INLINE_CODE:
            code = _WS.sub(" ", el.text_content())
            if not self.md or not code.strip():
                return code
            tick = "``" if "`" in code else "`"
            pad = " " if code.startswith("`") or code.endswith("`") else ""
            return f"{tick}{pad}{code}{pad}{tick}"
        content = "".join(self._inline_parts(el))
        if tag == "a" and _PERMALINK.match(content) and (el.get("href") or "").startswith("#"):
            return ""  # a heading's permalink marker, not content
        if not self.md:
            return content
        if tag == "a":
            href = self.resolve(el.get("href"))
            label = content.strip()
            if not href or not label or href.startswith("#"):
                return content
            lead = " " if content[:1] == " " else ""
            trail = " " if content[-1:] == " " else ""
            return f"{lead}[{label}]({_md_url(href)}){trail}"
        mark = _EMPHASIS.get(tag)
        if mark and content.strip() and "\n" not in content.strip():
            lead = " " if content[:1] == " " else ""
            trail = " " if content[-1:] == " " else ""
            return f"{lead}{mark}{content.strip()}{mark}{trail}"
        return content

    def _inline_parts(self, el: HtmlElement) -> list[str]:
        """The inline pieces of an element's content; nested blocks become line breaks."""
        parts = [self._text(el.text)] if el.text else []
        for child in el:
            if not _skip(child):
                if _tag(child) in _BLOCK_TAGS:
                    blocks = self.block(child)
                    if blocks:
                        parts.append("\n" + "\n".join(blocks) + "\n")
                else:
                    parts.append(self.inline(child))
            if child.tail:
                parts.append(self._text(child.tail))
        return parts


def _span(cell: HtmlElement) -> int:
    """A cell's colspan (1 when missing or odd)."""
    value = cell.get("colspan") or "1"
    return min(int(value), 50) if value.isdigit() and int(value) > 0 else 1


def _md_url(url: str) -> str:
    """A URL safe inside Markdown link parentheses."""
    if any(c in url for c in " ()<>"):
        return "<" + url.replace(" ", "%20").replace("<", "%3C").replace(">", "%3E") + ">"
    return url


def _document_text(blocks: list[str]) -> str:
    """Blocks joined by blank lines, without runs of empty lines."""
    return "\n\n".join(b.strip("\n") for b in blocks if b.strip())


def _html_source(element: HtmlElement) -> str:
    """The element serialised, with hidden parts removed from a copy (the caller's tree is untouched)."""
    hidden = element.xpath(".//*[@hidden or @aria-hidden='true' or contains(@style, 'none') "
                           "or contains(@style, 'hidden')]")
    hidden = [h for h in hidden if _is_hidden(h)]
    if hidden:
        from copy import deepcopy
        element = deepcopy(element)
        for h in element.xpath(".//*[@hidden or @aria-hidden='true' or contains(@style, 'none') "
                               "or contains(@style, 'hidden')]"):
            if _is_hidden(h) and h.getparent() is not None:
                h.drop_tree()
    return etree.tostring(element, encoding="unicode", method="html", with_tail=False)


def render_content(element: HtmlElement | None, base_url: str) -> RenderedContent:
    """Sanitised HTML, Markdown and plain text of the chosen content element."""
    if element is None or not isinstance(element.tag, str):
        return RenderedContent("", "", "")
    resolve = _UrlResolver(base_url)
    html = sanitize_html(_html_source(element), base_url, resolve).strip()
    root_blocks_md = _Renderer(base_url, markdown=True, resolve=resolve).block(element) if not _skip(element) else []
    root_blocks_txt = _Renderer(base_url, markdown=False).block(element) if not _skip(element) else []
    markdown = _document_text(root_blocks_md)
    text = _document_text(root_blocks_txt)
    return RenderedContent(html=html, markdown=markdown, text=text)
