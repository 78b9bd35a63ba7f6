"""Relax garbage collection in the crawl process once the engine has started (see gc_tuning);
the stats say so (``gc/young_threshold``, ``gc/frozen_objects``)."""

from __future__ import annotations

import gc
import logging

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from crawler.gc_tuning import relax_garbage_collection
from crawler.startup import read_number, read_or_refuse

logger = logging.getLogger(__name__)


class GarbageCollectionTuning:
    """On ``engine_started``, when every component is loaded: freeze the start-up objects and
    collect the young generation every ``GC_YOUNG_THRESHOLD`` allocations."""

    def __init__(self, crawler: Crawler, young_threshold: int) -> None:
        self.stats = crawler.stats
        self.young_threshold = young_threshold

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> GarbageCollectionTuning:
        """Read ``GC_YOUNG_THRESHOLD`` (0 leaves Python's collector as it is)."""
        young_threshold = read_or_refuse(crawler, lambda settings: read_number(
            settings, "GC_YOUNG_THRESHOLD", whole=True, minimum=0))
        if young_threshold <= 0:
            raise NotConfigured
        extension = cls(crawler, young_threshold)
        crawler.signals.connect(extension.engine_started, signal=signals.engine_started)
        return extension

    def engine_started(self) -> None:
        """Tune the collector now that start-up is over."""
        relax_garbage_collection(self.young_threshold)
        self.stats.set_value("gc/young_threshold", gc.get_threshold()[0])
        self.stats.set_value("gc/frozen_objects", gc.get_freeze_count())
