"""The exception of a response the crawl cannot use.

A server that answers a page request with a body nothing can be made of (empty, binary served as
HTML, an undecodable content coding) or with a redirect that goes nowhere (a loop, a chain too
long, a target that is no web URL, an internal address) has answered, but with no page. The
component that finds it counts and logs it, and raises :class:`UnusableResponse`: for any page
that is the end of it, and for a start URL it is a failed start, so a crawl whose every start
URL got such an answer ends as ``start_failed`` (exit code 6) instead of finishing with nothing.
"""

from __future__ import annotations

from scrapy.exceptions import IgnoreRequest


class UnusableResponse(IgnoreRequest):
    """The server answered, but with nothing a page can be made of (already counted and
    logged by the component raising it)."""


class EndlessRedirect(UnusableResponse):
    """A redirect chain that reaches no answer: a loop, or more redirects than
    ``REDIRECT_MAX_TIMES``. A robots.txt so answered is unavailable (RFC 9309 2.3.1.2), not
    unreadable."""
