"""Typed, validated settings of the distributed (scrapy-redis) mode, read once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

#: URL schemes the redis client accepts.
REDIS_SCHEMES = ("redis", "rediss", "unix")

#: scrapy-redis's default key patterns (``scrapy_redis.defaults``), repeated here so that the
#: command line does not import Scrapy just to name them.
QUEUE_KEY = "%(spider)s:requests"
DUPEFILTER_KEY = "%(spider)s:dupefilter"


@dataclass(frozen=True)
class RedisFrontierConfig:
    """Where the shared frontier lives and when an idle worker gives up."""

    url: str
    queue_key: str
    dupefilter_key: str
    idle_timeout: float
    idle_poll: float

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> RedisFrontierConfig | None:
        """The configuration, or None when ``REDIS_URL`` is unset (single-process crawl)."""
        url = (settings.get("REDIS_URL") or "").strip()
        if not url:
            return None
        if urlsplit(url).scheme not in REDIS_SCHEMES:
            raise ValueError(f"REDIS_URL={url!r}: expected redis://HOST:PORT/DB "
                             "(or rediss:// or unix://)")
        idle_timeout = settings.getfloat("REDIS_IDLE_TIMEOUT", 30.0)
        idle_poll = settings.getfloat("REDIS_IDLE_POLL", 0.5)
        if idle_timeout < 0:
            raise ValueError(f"REDIS_IDLE_TIMEOUT={idle_timeout!r}: must not be negative")
        if idle_poll <= 0:
            raise ValueError(f"REDIS_IDLE_POLL={idle_poll!r}: must be positive")
        return cls(
            url=url,
            queue_key=settings.get("SCHEDULER_QUEUE_KEY") or QUEUE_KEY,
            dupefilter_key=settings.get("SCHEDULER_DUPEFILTER_KEY") or DUPEFILTER_KEY,
            idle_timeout=idle_timeout,
            idle_poll=idle_poll,
        )

    def keys_for(self, spider_name: str) -> tuple[str, str]:
        """The Redis keys of one spider's queue and dupefilter."""
        return (self.queue_key % {"spider": spider_name},
                self.dupefilter_key % {"spider": spider_name})
