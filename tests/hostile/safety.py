"""The safety rules every output of the crawler is checked against: HTML (``content_html``, and
``content_markdown`` once a CommonMark renderer has turned it into HTML) may hold no executable,
embedded or interactive element, no event handler, no URL of an unsafe scheme, no hiding style."""

from __future__ import annotations

import re

import lxml.html

#: Element names that must never survive into extracted HTML.
UNSAFE_TAGS = {"script", "iframe", "frame", "frameset", "object", "embed", "applet", "form",
               "input", "button", "textarea", "select", "style", "link", "meta", "base",
               "svg", "math", "noscript", "isindex"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "data", "srcset", "background", "poster",
                  "xlink:href", "codebase", "cite", "longdesc", "lowsrc", "dynsrc"}
UNSAFE_SCHEME = re.compile(r"^(javascript|vbscript|data):", re.I)
HIDING_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0"
                          r"|left\s*:\s*-\d|expression\s*\(|url\s*\(", re.I)


def unsafe_parts(html: str) -> list[str]:
    """Everything unsafe in a fragment of extracted HTML, described (empty when safe)."""
    if not html.strip():
        return []
    found = []
    for element in lxml.html.fragment_fromstring(html, create_parent="div").iter():
        if not isinstance(element.tag, str):
            continue
        if element.tag.lower() in UNSAFE_TAGS:
            found.append(f"<{element.tag}>")
        for name, value in element.attrib.items():
            lowered = name.lower()
            cleaned = re.sub(r"[\x00-\x20]", "", value)
            if lowered.startswith("on"):
                found.append(f"{lowered}= on <{element.tag}>")
            elif lowered in URL_ATTRIBUTES and any(UNSAFE_SCHEME.match(part.strip())
                                                   for part in [cleaned, *cleaned.split(",")]):
                found.append(f"{lowered}={value!r}")
            elif lowered == "style" and HIDING_STYLE.search(value):
                found.append(f"style={value!r}")
            elif lowered == "hidden":
                found.append(f"hidden on <{element.tag}>")
    return found
