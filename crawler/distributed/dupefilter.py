"""scrapy-redis dupefilter keyed by the crawler's own request fingerprinter (canonical URLs)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy_redis import defaults
from scrapy_redis.connection import get_redis_from_settings
from scrapy_redis.dupefilter import RFPDupeFilter

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class CanonicalRedisDupeFilter(RFPDupeFilter):
    """RFPDupeFilter whose fingerprints come from ``REQUEST_FINGERPRINTER_CLASS``.

    scrapy-redis 0.9.1 hashes ``w3lib.canonicalize_url`` itself, ignoring the crawler's
    fingerprinter; this subclass uses the crawler's, so the shared frontier dedups exactly like a
    single-process crawl (tracking parameters, fragments, query order).
    """

    logger = logger

    def __init__(self, server: Any, key: str, debug: bool = False, *,
                 crawler: Crawler | None = None) -> None:
        super().__init__(server, key, debug=debug)
        self.crawler = crawler

    @classmethod
    def from_spider(cls, spider: Spider) -> CanonicalRedisDupeFilter:
        """Called by scrapy-redis's scheduler when it opens: one key per spider name."""
        settings = spider.settings
        pattern = settings.get("SCHEDULER_DUPEFILTER_KEY") or defaults.SCHEDULER_DUPEFILTER_KEY
        return cls(get_redis_from_settings(settings), key=pattern % {"spider": spider.name},
                   debug=settings.getbool("DUPEFILTER_DEBUG"), crawler=spider.crawler)

    def request_fingerprint(self, request: Request) -> str:
        """Hex fingerprint from the crawler's fingerprinter (scrapy-redis's own as a fallback)."""
        if self.crawler is None:
            return super().request_fingerprint(request)
        return self.crawler.request_fingerprinter.fingerprint(request).hex()

    def log(self, request: Request, spider: Spider) -> None:
        """Count the filtered request as Scrapy's own dupefilter does, then log it."""
        if self.crawler is not None and self.crawler.stats is not None:
            self.crawler.stats.inc_value("dupefilter/filtered")
        super().log(request, spider)
