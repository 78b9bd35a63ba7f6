"""The crawl's own signals (sent with ``crawler.signals.send_catch_log``)."""

from __future__ import annotations

#: A page's main text was already stored under another URL of its domain. Arguments: ``url``
#: (the duplicate, canonical) and ``first_url`` (where that content was stored first).
page_duplicate = object()
