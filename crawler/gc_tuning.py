"""Garbage collection for long-running crawl processes.

Each older collection rescans every module object loaded at start-up; freezing those objects
(they live as long as the process) makes those collections cheaper. The young generation stays
collected every 700 allocations by default: a response and its parsed tree sit in reference
cycles, and collecting them every 20000 allocations instead raised the peak RSS of a 600-page
crawl from 0.53 to 0.84 GiB (bare spider: 204 to 270 MiB).
"""

from __future__ import annotations

import gc
import logging

logger = logging.getLogger(__name__)

#: Net allocations between young-generation collections (CPython's default).
YOUNG_THRESHOLD = 700


def relax_garbage_collection(young_threshold: int = YOUNG_THRESHOLD) -> None:
    """Freeze the objects alive now and collect the young generation every ``young_threshold``
    allocations (0 or less: leave the collector as it is)."""
    if young_threshold <= 0:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(young_threshold, *gc.get_threshold()[1:])
    logger.debug("Garbage collection: %d start-up objects frozen, young threshold %d",
                 gc.get_freeze_count(), young_threshold)
