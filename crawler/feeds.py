"""Add-on: one JSONL feed per crawl in ``output/`` unless the user named feeds (``-o``, ``-O``,
``FEEDS``, Scrapyd's ``items_dir``).

A project-level ``FEEDS`` would be merged with ``-o/-O`` (dict settings merge across priorities),
so the default is added here, only when no feed is configured.
"""

from __future__ import annotations

import logging

from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)


class DefaultFeed:
    """Sets ``FEEDS`` to ``{DEFAULT_FEED_URI: jsonlines}`` when it is empty."""

    def update_settings(self, settings: BaseSettings) -> None:
        """Add the default feed if no feed is configured and DEFAULT_FEED_URI is not empty."""
        uri = settings.get("DEFAULT_FEED_URI")
        if not uri or settings.getdict("FEEDS"):
            return
        settings.set("FEEDS", {uri: {"format": "jsonlines", "encoding": "utf8"}},
                     priority="addon")
