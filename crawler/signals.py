"""The crawl's own signals (sent with ``crawler.signals.send_catch_log``)."""

from __future__ import annotations

#: A page's main text was already stored under another URL of its domain. Arguments: ``url``
#: (the duplicate, canonical) and ``first_url`` (where that content was stored first).
page_duplicate = object()

#: A start URL was redirected to its site's other name (the bare domain to ``www.``, or back),
#: and the crawl's scope now holds that host too. Arguments: ``host`` (added) and ``start_host``
#: (the start URL's host it stands for).
scope_widened = object()
