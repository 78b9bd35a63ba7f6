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


def is_distributed(settings: BaseSettings) -> bool:
    """Whether the crawl is one worker of a distributed crawl (``REDIS_URL`` set, not blank):
    the one test the components that behave differently there share."""
    return bool((settings.get("REDIS_URL") or "").strip())


@dataclass(frozen=True)
class RedisFrontierConfig:
    """Where the shared frontier lives and when an idle worker gives up."""

    url: str
    idle_timeout: float
    idle_poll: float

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> RedisFrontierConfig | None:
        """The configuration, or None when ``REDIS_URL`` is unset (single-process crawl).

        A bad value raises ValueError with one sentence naming the setting.
        """
        if not is_distributed(settings):
            return None
        url = settings.get("REDIS_URL").strip()
        if urlsplit(url).scheme not in REDIS_SCHEMES:
            raise ValueError(f"REDIS_URL={redacted(url)!r}: expected redis://HOST:PORT/DB "
                             "(or rediss:// or unix://)")
        return cls(url=url,
                   idle_timeout=_seconds(settings, "REDIS_IDLE_TIMEOUT", 30.0, minimum=0.0),
                   idle_poll=_seconds(settings, "REDIS_IDLE_POLL", 0.5, minimum=0.01))


def _seconds(settings: BaseSettings, name: str, default: float, *, minimum: float) -> float:
    """A duration setting in seconds, at least ``minimum``."""
    raw = settings.get(name, default)
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={raw!r}: expected a number of seconds") from None
    if not value >= minimum:
        raise ValueError(f"{name}={raw!r}: must be at least {minimum:g} seconds")
    return value


def redacted(url: str) -> str:
    """The URL without its password, for logs and messages."""
    if "@" not in url:
        return url
    scheme, _, rest = url.partition("://")
    return f"{scheme}://***@{rest.rpartition('@')[2]}"
