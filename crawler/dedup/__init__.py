"""Cross-page boilerplate removal: blocks on most of a domain's pages are dropped from its content.

The pure functions live in :mod:`crawler.dedup.blocks`; :mod:`crawler.dedup.store` applies them
to a crawl database.
"""

from __future__ import annotations

from crawler.dedup import blocks
from crawler.dedup.blocks import (
    BlockCounter,
    DomainFingerprint,
    block_key,
    compute_domain_fingerprint,
    hash_block,
    normalise_block,
    removed_blocks,
    split_into_blocks,
    strip_boilerplate,
)

__all__ = blocks.__all__
