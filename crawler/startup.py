"""Stop a crawl before its first request when its configuration is wrong: one sentence in the
log, the reason in the stats, no traceback, exit code 2 (``startup_error``).

Components read their settings through :func:`read_bool` and :func:`read_number`, which name the
setting in the sentence when a value is unusable. A component with an ``open_spider`` hook calls
:func:`stop_if_misconfigured` there; one without (a middleware, an extension) raises
``refuse_when_opened(crawler, problem)`` from ``from_crawler``, which stops the crawl the same way
once the spider opens.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, TypeVar

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import CloseSpider, NotConfigured
from scrapy.settings import BaseSettings
from scrapy.statscollectors import StatsCollector

from crawler.exit_codes import STARTUP_ERROR

logger = logging.getLogger(__name__)

T = TypeVar("T")

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


class SettingError(ValueError):
    """A setting has a value its component cannot use; the message is the sentence to log."""


def stop_if_misconfigured(stats: StatsCollector, problem: str | None) -> None:
    """Raise CloseSpider (after logging ``problem``) when there is a problem; else do nothing."""
    if not problem:
        return
    if stats.get_value("crawl/startup_error") != problem:  # two readers of one setting: one line
        logger.error("Cannot start the crawl: %s", problem)
        stats.set_value("crawl/startup_error", problem)
    raise CloseSpider(STARTUP_ERROR)


class _RefuseWhenOpened:
    """spider_opened receiver that stops the crawl with a component's problem."""

    def __init__(self, crawler: Crawler, problem: str) -> None:
        self.crawler = crawler
        self.problem = problem

    def __call__(self, spider: Spider) -> None:
        assert self.crawler.stats is not None
        stop_if_misconfigured(self.crawler.stats, self.problem)


def refuse_when_opened(crawler: Crawler, problem: str) -> NotConfigured:
    """For a component without an ``open_spider`` hook: stop the crawl with ``problem`` as soon
    as the spider opens. Returns the (silent) NotConfigured for ``from_crawler`` to raise."""
    crawler.signals.connect(_RefuseWhenOpened(crawler, problem), signal=signals.spider_opened,
                            weak=False)
    return NotConfigured()


def read_or_refuse(crawler: Crawler, read: Callable[[BaseSettings], T]) -> T:
    """For a component without an ``open_spider`` hook: its settings as ``read`` returns them;
    when one is unusable, the component is left out and the crawl stops once the spider opens
    (see :func:`refuse_when_opened`)."""
    try:
        return read(crawler.settings)
    except SettingError as exc:
        raise refuse_when_opened(crawler, str(exc)) from None


def read_switch(crawler: Crawler, name: str) -> bool:
    """A component's on/off setting, read as :func:`read_or_refuse` reads settings."""
    return read_or_refuse(crawler, lambda settings: read_bool(settings, name))


def parse_truth(value: Any) -> bool | None:
    """True or False for the words a setting or a spider argument may use (1/0, true/false,
    yes/no, on/off, any case); None for anything else."""
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return None


def read_bool(settings: BaseSettings, name: str) -> bool:
    """A true/false setting; SettingError naming it when the value is neither. Its default is
    the one in ``crawler/settings.py``, never one given here."""
    value: Any = settings.get(name)
    if isinstance(value, bool):
        return value
    truth = parse_truth(value)
    if truth is not None:
        return truth
    if str(value).strip() == "":
        return False
    raise SettingError(f"{name} must be true or false, got {value!r}")


def read_number(settings: BaseSettings, name: str, *, whole: bool = False,
                minimum: float | None = None, maximum: float | None = None) -> Any:
    """A numeric setting (an int when ``whole``) within [minimum, maximum]; SettingError naming
    the setting and the accepted range otherwise. Its default is the one in
    ``crawler/settings.py``, never one given here."""
    value: Any = settings.get(name)
    kind = "a whole number" if whole else "a number"
    if minimum is not None and maximum is not None:
        accepted = f"{kind} from {minimum:g} to {maximum:g}"
    elif minimum is not None:
        accepted = f"{kind} of at least {minimum:g}"
    else:
        accepted = kind
    try:
        number = int(str(value).strip()) if whole and not isinstance(value, int) else (
            int(value) if whole else float(value))
    except (TypeError, ValueError):
        raise SettingError(f"{name} must be {accepted}, got {value!r}") from None
    if isinstance(value, bool) or number != number or (
            minimum is not None and number < minimum) or (
            maximum is not None and number > maximum):
        raise SettingError(f"{name} must be {accepted}, got {value!r}")
    return number
