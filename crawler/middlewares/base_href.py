"""Drop a ``<base href>`` no URL parser reads (``http://[::1``) from an HTML response.

Scrapy resolves a page's URLs against its base, read by w3lib, which raises ValueError on a
base it cannot parse; and every selector made of the response reads it. So such a page made
the meta refresh middleware raise, and the page was lost (``could not be fetched: Invalid IPv6
URL``) without a reading of its text. Browsers resolve such a page's URLs against its own
address; so does the crawl: the base's ``href`` is renamed ``data-unreadable-href`` in the
response (after decompression, before anything reads the page), counted
(``links/base_unreadable``) with one INFO line. ``BASE_HREF_CHECK = False`` turns it off.
"""

from __future__ import annotations

import logging
import re

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Response
from scrapy.utils.response import get_base_url

from crawler.startup import read_switch

logger = logging.getLogger(__name__)

#: A ``<base>`` start tag, and the ``href`` attribute names in one.
_BASE_TAG = re.compile(rb"<base\b[^>]*>", re.IGNORECASE)
_HREF = re.compile(rb"(\s)href(?=\s*=|[\s/>])", re.IGNORECASE)
#: Bytes of a body searched for ``<base`` before its base is read (Scrapy reads the base in
#: the first 4096 characters of the text).
SCANNED = 65536
#: ``<base>`` tags looked at (the first one with an href decides; each unreadable one renamed
#: lets the next be read).
MAX_BASE_TAGS = 20


class UnreadableBaseMiddleware:
    """Downloader middleware: an HTML response whose base cannot be read loses it."""

    def __init__(self, crawler: Crawler) -> None:
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> UnreadableBaseMiddleware:
        """Build; NotConfigured when BASE_HREF_CHECK is off."""
        if not read_switch(crawler, "BASE_HREF_CHECK"):
            raise NotConfigured("BASE_HREF_CHECK is off")
        return cls(crawler)

    def process_response(self, request: Request, response: Response,
                         spider: Spider | None = None) -> Response:
        """The response, without the ``href`` of each leading ``<base>`` no parser reads."""
        if not isinstance(response, HtmlResponse) or b"<base" not in response.body[:SCANNED].lower():
            return response
        fixed = response
        for _ in range(MAX_BASE_TAGS):
            try:
                get_base_url(fixed)
                break
            except ValueError:
                body = _without_first_base_href(fixed.body)
                if body is None:
                    return response  # not found in the bytes (a wide charset): left as it was
                fixed = fixed.replace(body=body)
        else:
            return response
        if fixed is not response:
            self.stats.inc_value("links/base_unreadable")
            logger.info("%s has a <base href> no URL parser reads: left out, its links resolve "
                        "against the page's own URL, as browsers resolve them", response.url)
        return fixed


def _without_first_base_href(body: bytes) -> bytes | None:
    """``body`` with the href of its first ``<base>`` that has one renamed; None when none."""
    for tag in _BASE_TAG.finditer(body):
        renamed, count = _HREF.subn(rb"\1data-unreadable-href", tag.group())
        if count:
            return body[:tag.start()] + renamed + body[tag.end():]
    return None
