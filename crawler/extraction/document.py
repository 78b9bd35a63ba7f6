"""Decode page bytes and parse them once into an lxml.html tree (robust to huge and malformed input)."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import lxml.html
from lxml import etree

from crawler.decoding import decode_page
from crawler.extraction.vocabulary import DEEP_BLOCK_TAGS, FLOW_HOLDERS, VOID_TAGS

logger = logging.getLogger(__name__)

MAX_HTML_BYTES = 6_000_000
"""Pages larger than this are truncated before parsing (the main content is almost always early),
after what extraction removes anyway is dropped (the text of scripts, style sheets, SVG drawings
and templates, comments, ``data:`` URLs in attributes): a page whose head inlines 6 MB of script,
or whose header holds a 7 MB image as a ``data:`` URL, keeps its article. No page of the development corpora
is that large (the largest is 4.97 MB), so none changes."""
#: Where a page holds what extraction drops anyway: the start tag of an element whose text is
#: code or never shown (script, style sheet, SVG drawing, template), a comment, a ``data:`` URL
#: in an attribute (an image inlined as base64); and the type of a script that is data the
#: extraction reads (JSON-LD), which is kept.
_CODE_START = re.compile(r"<(script|style|svg|template)\b([^<>]*)>|(<!--)|=\s*([\"'])data:",
                         re.IGNORECASE)
_LD_JSON = re.compile(r"ld\+json", re.IGNORECASE)
#: White space: a ``data:`` URL holds none (an ``="data:`` in prose is followed by some before
#: its next quote, and stays).
_SPACE = re.compile(r"\s")

_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_CONTROL_BYTES = bytes(range(0x09)) + b"\x0b\x0c" + bytes(range(0x0e, 0x20))
"""The characters of ``_CONTROL`` as bytes (UTF-8 encodes them, and only them, as these)."""
_TITLE_START = re.compile(r"<title\b[^>]*>", re.IGNORECASE)
_TITLE_END = re.compile(r"</title\s*>", re.IGNORECASE)

MAX_DEPTH = 200
"""Elements nested deeper than this are unwrapped into their ancestor at this depth (only on
pages deeper than libxml2's default limit of 255, which would otherwise drop the deep text); the
tree walks of the extraction stay well inside Python's recursion limit."""

MAX_ATTRIBUTES = 1000
"""Attributes kept per element: libxml2 checks each new attribute against the element's others,
so one element with 150,000 attributes (1.4 MB) takes minutes to parse; real elements have a
handful. The rest of such an element's attributes are dropped before parsing."""
#: A start tag long enough to hold MAX_ATTRIBUTES attributes (the cheap test before counting);
#: the tag name is matched possessively: backtracking into it re-read every shorter tag.
_LONG_TAG = re.compile(r"<([A-Za-z][^\s/>]*+)([^<>]{%d,})>" % (3 * MAX_ATTRIBUTES))
_ATTRIBUTE = re.compile(r"""\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?""")
#: A ``<`` followed by more characters before the next ``<`` than the shortest such tag holds
#: (3 per attribute: a space, a name, a value).
_LONG_STRETCH = re.compile(r"<[^<]{%d}" % (3 * MAX_ATTRIBUTES + 1))

MAX_MARKUP_DEPTH = 1000
"""On a page nested deeper than libxml2 parses at all (2048 with ``huge_tree``: it stops there
and drops the rest of the page, the article after the deep block included), start and end tags
deeper than this are removed from the markup before parsing: their text stays, in order."""
_ANY_TAG = re.compile(r"<(/?)([A-Za-z][^\s/>]*)[^<>]*?(/?)>")


@dataclass
class Document:
    """One parsed page: the tree, the decoded text length and how it was decoded."""

    tree: lxml.html.HtmlElement | None
    encoding: str
    html_length: int
    truncated: bool = False
    error: str | None = None
    markup: bytes = b""
    """The bytes the tree was parsed from (after the guards above changed the page)."""
    deep: bool = False
    """Whether the page was nested deeper than libxml2's default limit (parsed with
    ``huge_tree`` and its deepest elements unwrapped)."""

    def parse_again(self) -> lxml.html.HtmlElement:
        """A second tree of the page, the same as :attr:`tree` was when parsed: the same bytes
        parsed and mended the same way, without decoding or logging again. The extraction
        changes the first tree in place; the few pages that need it untouched afterwards (the
        trafilatura fallback) parse it again, which costs less than copying every page's tree
        and freeing the copy."""
        if self.tree is None:
            raise ValueError("the page was not parsed")
        root, _ = _parse(self.markup, huge_tree=self.deep)
        if self.deep:
            flatten_deep_nesting(root, MAX_DEPTH)
        adopt_content_after_html_end(root)
        return root


def _html_parser(*, huge_tree: bool) -> lxml.html.HTMLParser:
    """An HTML parser whose elements are all plain ``HtmlElement``s.

    lxml.html's default lookup calls back into Python for every element proxy it creates (to
    give forms and inputs their own classes, which extraction never uses); a lookup done in C
    makes walking a tree markedly cheaper. Nor does it index the ``id`` attributes in a table
    of the document (nothing reads the page through XPath's ``id()``, the one reader of that
    table; the tree is the same): building it cost a few per cent of the parse.
    """
    parser = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True,
                                  remove_blank_text=False, huge_tree=huge_tree,
                                  collect_ids=False)
    parser.set_element_class_lookup(etree.ElementDefaultClassLookup(
        element=lxml.html.HtmlElement, comment=lxml.html.HtmlComment,
        pi=lxml.html.HtmlProcessingInstruction, entity=lxml.html.HtmlEntity))
    return parser


def limit_attributes(text: str, limit: int = MAX_ATTRIBUTES) -> tuple[str, int]:
    """The markup with no element carrying more than ``limit`` attributes (the first kept), and
    how many elements were cut. Linear in the page size; a page without such an element is
    returned as it is.

    A tag long enough to hold that many attributes lies between one ``<`` and the next, so only
    the stretches of the page at least that long (long text, scripts, such a tag) are searched,
    found by one pattern that scans the page without making a string of every stretch."""
    pieces: list[str] = []
    last = cut = 0
    for stretch in _LONG_STRETCH.finditer(text):
        start = stretch.start()
        end = text.find("<", stretch.end())
        match = _LONG_TAG.match(text, start, len(text) if end < 0 else end)
        if match is None:
            continue
        attributes = _ATTRIBUTE.findall(match.group(2))
        if len(attributes) <= limit:
            continue
        cut += 1
        pieces.append(f"{text[last:start]}<{match.group(1)}{''.join(attributes[:limit])}>")
        last = match.end()
    if not cut:
        return text, 0
    pieces.append(text[last:])
    return "".join(pieces), cut


def flatten_markup(text: str, limit: int = MAX_MARKUP_DEPTH) -> str:
    """The markup without the start and end tags nested deeper than ``limit`` (counted from the
    tags themselves; void elements and self-closed tags do not nest). Only for pages too deep
    to parse: it does not know HTML's implied end tags."""
    depth = 0
    excess = 0
    pieces: list[str] = []
    last = 0
    for match in _ANY_TAG.finditer(text):
        closing, name, self_closed = match.group(1), match.group(2).lower(), match.group(3)
        if name in VOID_TAGS or self_closed:
            continue
        drop = False
        if closing:
            if excess:
                excess -= 1
                drop = True
            elif depth:
                depth -= 1
        elif depth >= limit:
            excess += 1
            drop = True
        else:
            depth += 1
        if drop:
            pieces.append(text[last:match.start()])
            pieces.append(" ")
            last = match.end()
    pieces.append(text[last:])
    return "".join(pieces)


def drop_code_text(text: str) -> str:
    """``text`` without what its scripts (JSON-LD apart), style sheets, SVG drawings and
    templates hold between their tags, its comments hold, and its ``data:`` URLs in attributes
    hold after ``data:``; an element or comment left open keeps its text. One pass: each end
    is found by a plain search from its start, never by a pattern that could backtrack over
    the page."""
    lower = text.lower()
    pieces: list[str] = []
    last = position = 0
    while (start := _CODE_START.search(text, position)) is not None:
        name, comment, quote = start.group(1), start.group(3), start.group(4)
        if name is not None:
            end = lower.find("</" + name.lower(), start.end())
            drop = name.lower() != "script" or not _LD_JSON.search(start.group(2))
        else:
            end = text.find("-->" if comment else quote, start.end())
            drop = bool(comment) or _SPACE.search(text, start.end(), max(end, 0)) is None
        if end < 0:
            break
        if drop:
            pieces.append(text[last:start.end()])
            last = end
        position = end
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


def parse_html(data: bytes | str) -> Document:
    """Decode and parse a page once; an unusable page gives a Document whose tree is None."""
    try:
        text, encoding = decode_page(data)
    except Exception as exc:  # noqa: BLE001 - never raise on bad input
        return Document(tree=None, encoding="", html_length=0, error=f"decode: {exc}")
    truncated = False
    if len(text) > MAX_HTML_BYTES:
        text = drop_code_text(text)
    if len(text) > MAX_HTML_BYTES:
        text, truncated = text[:MAX_HTML_BYTES], True
    text = _XML_DECL.sub("", text, count=1)
    # The page is encoded for the parser once: the bytes that show it holds no control
    # character are parsed, unless the markup is then changed.
    data: bytes | None = _utf8(text)
    if _has_control_characters(data):
        text, data = _CONTROL.sub("", text), None
    markup, cut = limit_attributes(_close_unclosed_title(text))
    if markup is not text:
        text, data = markup, None
    if cut:
        logger.info("page has %d element(s) with more than %d attributes: the rest of their "
                    "attributes are not parsed", cut, MAX_ATTRIBUTES)
    if not text.strip():
        return Document(tree=None, encoding=encoding, html_length=0, error="empty")
    if data is None:
        data = _utf8(text)
    try:
        root, too_deep = _parse(data, huge_tree=False)
        if too_deep:
            root, beyond_huge_limit = _parse(data, huge_tree=True)
            if beyond_huge_limit:
                logger.info("page nested deeper than 2048 elements: tags below depth %d are "
                            "removed before parsing (their text is kept)", MAX_MARKUP_DEPTH)
                data = _utf8(flatten_markup(text))
                root, _ = _parse(data, huge_tree=True)
            unwrapped = flatten_deep_nesting(root, MAX_DEPTH)
            logger.debug("page nested deeper than 255 elements: %d elements below depth %d "
                         "unwrapped", unwrapped, MAX_DEPTH)
    except (etree.ParserError, ValueError, etree.XMLSyntaxError) as exc:
        return Document(tree=None, encoding=encoding, html_length=len(text), error=f"parse: {exc}")
    adopted = adopt_content_after_html_end(root)
    if adopted:
        logger.debug("page goes on after </html>: %d elements moved into the body", adopted)
    return Document(tree=root, encoding=encoding, html_length=len(text), truncated=truncated,
                    markup=data, deep=too_deep)


def _utf8(text: str) -> bytes:
    """The page as the parser reads it: UTF-8, lone surrogates passed through."""
    try:
        return text.encode("utf-8", "surrogatepass")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace")


def _has_control_characters(data: bytes) -> bool:
    """Whether the encoded page holds a character of ``_CONTROL`` (deleting bytes from the
    encoded text is several times cheaper than searching the text with the pattern, and most
    pages hold none)."""
    return len(data.translate(None, _CONTROL_BYTES)) != len(data)


def _parse(data: bytes, *, huge_tree: bool) -> tuple[lxml.html.HtmlElement, bool]:
    """Parse the encoded page; also say whether libxml2 stopped at its nesting-depth limit."""
    parser = _html_parser(huge_tree=huge_tree)
    root = lxml.html.document_fromstring(data, parser=parser)
    too_deep = any("Excessive depth" in error.message for error in parser.error_log)
    return root, too_deep


def adopt_content_after_html_end(root: etree._Element) -> int:
    """Move what libxml2 parses into a second ``<html>`` after an early ``</body></html>`` into
    the page's body (its head into the head), as browsers show it: otherwise the article after
    a stray end tag is lost. The number of elements moved."""
    head, body = root.find("head"), root.find("body")
    if body is None:
        return 0
    moved = 0
    for stray in root.itersiblings():
        if stray.tag != "html":
            continue
        for part in list(stray):
            if not isinstance(part.tag, str):
                continue
            target = head if part.tag == "head" and head is not None else body
            for child in list(part) if part.tag in ("head", "body") else [part]:
                target.append(child)
                moved += 1
    return moved


def _close_unclosed_title(text: str) -> str:
    """Close a ``<title>`` that is never closed at its first tag: otherwise the whole page after
    it is title text and the body is empty."""
    start = _TITLE_START.search(text)
    if start is None or _TITLE_END.search(text, start.end()) is not None:
        return text
    first_tag = text.find("<", start.end())
    if first_tag < 0:
        return text
    return text[:first_tag] + "</title>" + text[first_tag:]


def flatten_deep_nesting(root: etree._Element, limit: int) -> int:
    """Unwrap every element nested deeper than ``limit`` into its ancestor at that depth (text,
    tails and order kept; the content of each block element a paragraph of its own); the number
    unwrapped.

    Each ancestor at the limit gets the text of its whole subtree in one pass, as unwrapping
    its descendants one by one would leave it; unwrapping them one by one moved the siblings
    after each (20,000 list items under one deep list took 4 s, growing with their square)."""
    unwrapped = 0
    depth = 0
    at_limit: list[etree._Element] = []
    walk = etree.iterwalk(root, events=("start", "end"))
    for event, element in walk:
        if event == "start":
            depth += 1
            if depth == limit and len(element):
                at_limit.append(element)
                walk.skip_subtree()  # read once, by _flatten_into; its "end" still comes
        else:
            depth -= 1
    for ancestor in at_limit:
        unwrapped += _flatten_into(ancestor)
    return unwrapped


def _flatten_into(ancestor: etree._Element) -> int:
    """Unwrap every element under ``ancestor`` (see :func:`flatten_deep_nesting`); comments
    and processing instructions stay, in their place among the text. The number unwrapped.

    Under a block ancestor, the text between two block boundaries becomes a ``<p>`` (inside an
    item or a cell when the ancestor is a list or a table part, :data:`FLOW_HOLDERS`): as text
    with line breaks, which the output reads as spaces, the paragraphs of a page nested past
    the limit ran into one, and under a list or a table, whose text is read only in its items
    and cells, the deep content was lost. Under an inline ancestor the blocks are lines of its
    text, as before."""
    unwrapped = 0
    runs: list[list[str | etree._Element]] = [[ancestor.text or ""]]
    stack: list[tuple[etree._Element, bool]] = [(child, False) for child in reversed(ancestor)]
    while stack:
        node, closing = stack.pop()
        block = node.tag in DEEP_BLOCK_TAGS
        if closing:
            if block:
                runs.append([])
            runs[-1].append(node.tail or "")
        elif isinstance(node.tag, str):
            unwrapped += 1
            if block:
                runs.append([])
            runs[-1].append(node.text or "")
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node))
        else:
            runs[-1].append(node)
            runs[-1].append(node.tail or "")
    del ancestor[:]
    ancestor.text = None
    if ancestor.tag in DEEP_BLOCK_TAGS or ancestor.tag in FLOW_HOLDERS:
        holder = ancestor
        for tag in FLOW_HOLDERS.get(ancestor.tag, ()):
            holder = etree.SubElement(holder, tag)
        for run in runs:
            if any(not isinstance(piece, str) or piece.strip() for piece in run):
                _fill(etree.SubElement(holder, "p"), run)
    else:
        _fill(ancestor, [piece for run in runs for piece in ["\n", *run]][1:])
    return unwrapped


def _fill(parent: etree._Element, run: list[str | etree._Element]) -> None:
    """Give ``parent`` the pieces of a run as its content: text, and comments or processing
    instructions with the text after each as their tail."""
    texts: list[str] = []
    last: etree._Element | None = None
    for piece in run:
        if isinstance(piece, str):
            texts.append(piece)
            continue
        if last is None:
            parent.text = "".join(texts)
        else:
            last.tail = "".join(texts)
        texts = []
        parent.append(piece)
        last = piece
    if last is None:
        parent.text = "".join(texts)
    else:
        last.tail = "".join(texts)

