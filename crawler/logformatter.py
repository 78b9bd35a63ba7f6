"""Log lines about items that name the page, not its whole record.

Scrapy's default formatter writes the repr of every scraped or dropped item, which for a page is
its full HTML and text: a dropped page filled the log with kilobytes. Here a scraped page is one
DEBUG line with its URL, a dropped page one line with its URL and the reason, and an item that
failed in a pipeline one line with its URL (the traceback follows as usual).
"""

from __future__ import annotations

from typing import Any

from scrapy import Spider
from scrapy.http import Response
from scrapy.logformatter import LogFormatter, LogFormatterResult
from twisted.python.failure import Failure


def page_url(item: Any) -> str:
    """The URL of a page item (or of a dict with one); the type's name otherwise."""
    url = getattr(item, "url", None)
    if url is None and isinstance(item, dict):
        url = item.get("url")
    return str(url) if url else type(item).__name__


class PageLogFormatter(LogFormatter):
    """``Dropped page https://...: quality 0.31 below 0.50 (...)`` instead of the item repr."""

    def scraped(self, item: Any, response: Response | Failure | None,
                spider: Spider) -> LogFormatterResult:
        """One DEBUG line per stored page."""
        result = super().scraped(item, response, spider)
        return {**result, "msg": "Scraped page %(url)s", "args": {"url": page_url(item)}}

    def dropped(self, item: Any, exception: BaseException, response: Response | Failure | None,
                spider: Spider) -> LogFormatterResult:
        """One line (at the level Scrapy chose) with the page's URL and why it was dropped."""
        result = super().dropped(item, exception, response, spider)
        url = page_url(item)
        reason = str(exception).removesuffix(f": {url}") or type(exception).__name__
        return {**result, "msg": "Dropped page %(url)s: %(reason)s",
                "args": {"url": url, "reason": reason}}

    def item_error(self, item: Any, exception: BaseException, response: Response | Failure | None,
                   spider: Spider) -> LogFormatterResult:
        """One line naming the page whose processing failed."""
        result = super().item_error(item, exception, response, spider)
        return {**result, "msg": "Error processing page %(url)s", "args": {"url": page_url(item)}}
