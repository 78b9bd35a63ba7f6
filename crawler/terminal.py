"""Text from crawled pages made safe to print on a terminal.

Titles, authors and descriptions are stored as the page gave them (plain text, never HTML to
render). A terminal, though, obeys control characters: an escape sequence in a title could
clear the screen, retitle the window or hide what follows. Commands print page fields through
:func:`terminal_text`, which shows every control character as a visible escape instead.
"""

from __future__ import annotations

import re

#: C0 and C1 control characters (ESC, BEL, carriage return, ...) and DEL; a newline or tab is
#: kept only where the caller allows it.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_LINE_BREAKS = re.compile(r"[\t\n]")


def terminal_text(text: str | None, *, multiline: bool = False) -> str:
    """``text`` with control characters shown as ``\\xNN`` (newlines and tabs too unless
    ``multiline``)."""
    if not text:
        return ""
    visible = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    if not multiline:
        visible = _LINE_BREAKS.sub(" ", visible)
    return visible
