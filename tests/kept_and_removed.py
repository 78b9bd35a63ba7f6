"""What every cleaning-rule table test shares: the page its cases stand in, and the check that
what must stay stayed and what must go went."""

from __future__ import annotations

import sys

from crawler.extraction import extract


def assert_kept_and_removed(text: str, case: str, stay: list[str], go: list[str]) -> None:
    """Fail naming the case and the first snippet lost (``stay``) or kept (``go``) in ``text``."""
    for snippet in stay:
        assert snippet in text, f"{case}: lost {snippet!r}"
    for snippet in go:
        assert snippet not in text, f"{case}: kept {snippet!r}"


def page_around(main: str, *, title: str, heading: str, home: str = "Start",
                article: bool = False) -> str:
    """A page whose ``<main>`` holds the case's HTML under its ``<h1>``, between a header
    linking home and a footer (inside an ``<article>`` when ``article``): the chrome every
    rule table sets its cases in."""
    body = f"<h1>{heading}</h1>{main}"
    if article:
        body = f"<article>{body}</article>"
    return (f"<html><head><title>{title}</title></head><body><header><a href='/'>{home}</a>"
            f"</header><main>{body}</main><footer>Impressum</footer></body></html>")


def cleaning_steps(html: str, module: str = "clean.py") -> tuple[int, str]:
    """Lines of a cleaning module (``module``: the file's name, the cleaning's own by default)
    run while extracting ``html`` (a count of the work that, unlike a duration, no machine's load
    changes), and the extracted text."""
    steps = 0

    def line(frame: object, event: str, arg: object) -> object:
        nonlocal steps
        steps += event == "line"
        return line

    def call(frame, event: str, arg: object) -> object:
        return line if frame.f_code.co_filename.endswith(module) else None

    sys.settrace(call)
    try:
        text = extract(html, "https://site.example/").content_text
    finally:
        sys.settrace(None)
    return steps, text
