"""Scrapy's feed export, stopped cleanly when its file cannot be written.

A feed on a full disk (or one that fails on write otherwise) made Scrapy's exporter raise in its
``item_scraped`` handler: a traceback for every page after it, the pages still stored in the
database, the crawl ending ``finished`` with exit code 0 and a feed that silently lacks them.
Here the first failed write is one ERROR line naming the feed and the page, the stat
``errors/feed_storage``, and the crawl stops with ``storage_error`` (exit code 4), as a database
that cannot be written does; the feed file is closed without another word (what it holds ends
before that page, perhaps in the middle of a line).
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import Spider
from scrapy.extensions.feedexport import FeedExporter, FeedSlot
from scrapy.utils.defer import deferred_from_coro

from crawler.exit_codes import STORAGE_ERROR

logger = logging.getLogger(__name__)


class StorageSafeFeedExporter(FeedExporter):
    """FeedExporter whose failed write stops the crawl with ``storage_error``, said once."""

    failed: bool = False

    def item_scraped(self, item: Any, spider: Spider) -> None:
        """Export the item; on a failed write, stop (once) instead of raising for every item."""
        if self.failed:
            return  # the crawl is stopping; the feed is already incomplete
        try:
            super().item_scraped(item, spider)
        except OSError as exc:
            self.failed = True
            self.crawler.stats.inc_value("errors/feed_storage")
            self.crawler.stats.set_value("storage/feed_error", str(exc))
            feeds = ", ".join(str(slot.uri) for slot in self.slots) or "the feed"
            url = getattr(item, "url", None) or (item.get("url") if isinstance(item, dict)
                                                 else None)
            logger.error("Cannot write the feed %s (%s); stopping the crawl. %s and the pages "
                         "after it are not in the feed (the database holds what it stored)",
                         feeds, exc, url or "The page")
            assert self.crawler.engine is not None
            deferred_from_coro(self.crawler.engine.close_spider_async(reason=STORAGE_ERROR))

    async def _close_slot(self, slot: FeedSlot, spider: Spider) -> None:
        """Close as Scrapy does; after a failed write, close the file without a second report."""
        if not self.failed:
            await super()._close_slot(slot, spider)
            return
        try:
            if slot.file is not None:
                self._get_file(slot).close()
        except OSError as exc:  # the unwritten rest of its buffer: already said
            logger.debug("Closing the feed %s failed: %s", slot.uri, exc)
