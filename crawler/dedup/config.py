"""Dedup parameters as one validated, frozen value shared by the pipeline and the command line."""

from __future__ import annotations

import logging
from dataclasses import dataclass

logger = logging.getLogger(__name__)

#: (low, high) bounds of each parameter, inclusive.
THRESHOLD_PCT_RANGE = (0.1, 1.0)
MIN_PAGES_RANGE = (2, 100)
MIN_BLOCK_CHARS_RANGE = (10, 500)
REANALYSE_PCT_RANGE = (0.0, 1.0)


class DedupConfigError(ValueError):
    """A dedup parameter is out of range or of the wrong type; the message is one sentence."""


@dataclass(frozen=True)
class DedupConfig:
    """How a domain's boilerplate is found: share of pages, page floor, shortest block counted.

    ``normalise`` compares blocks with IDs, dates and counters replaced; ``whole_page`` also
    counts the text lines of each stored page's full HTML. ``reanalyse_pct``: after a
    re-crawl, the share of the pages analysed last time that must be new, changed or gone before
    the domain is analysed again (below it, only those pages are cleaned with the stored
    fingerprint; see :func:`crawler.dedup.store.refresh_domain`).
    """

    threshold_pct: float = 0.7
    min_pages: int = 5
    min_block_chars: int = 50
    normalise: bool = True
    whole_page: bool = True
    reanalyse_pct: float = 0.05

    def __post_init__(self) -> None:
        """Reject values outside the documented ranges, naming the setting and its range."""
        _check_range("threshold_pct", self.threshold_pct, THRESHOLD_PCT_RANGE)
        _check_range("min_pages", self.min_pages, MIN_PAGES_RANGE, integer=True)
        _check_range("min_block_chars", self.min_block_chars, MIN_BLOCK_CHARS_RANGE, integer=True)
        _check_range("reanalyse_pct", self.reanalyse_pct, REANALYSE_PCT_RANGE)

    @classmethod
    def from_values(cls, *, threshold_pct: object, min_pages: object, min_block_chars: object,
                    normalise: object = True, whole_page: object = True,
                    reanalyse_pct: object = 0.05,
                    names: dict[str, str] | None = None) -> DedupConfig:
        """Build from loosely typed values (settings, strings), naming the bad one by ``names``."""
        names = names or {}
        return cls(
            threshold_pct=_coerce(threshold_pct, float, names.get("threshold_pct", "threshold_pct"),
                                  THRESHOLD_PCT_RANGE),
            min_pages=_coerce(min_pages, int, names.get("min_pages", "min_pages"), MIN_PAGES_RANGE),
            min_block_chars=_coerce(min_block_chars, int,
                                    names.get("min_block_chars", "min_block_chars"),
                                    MIN_BLOCK_CHARS_RANGE),
            normalise=bool(normalise),
            whole_page=bool(whole_page),
            reanalyse_pct=_coerce(reanalyse_pct, float, names.get("reanalyse_pct", "reanalyse_pct"),
                                  REANALYSE_PCT_RANGE),
        )


def _coerce(value: object, kind: type, name: str, bounds: tuple[float, float]) -> int | float:
    """``value`` as ``kind`` within ``bounds``, or a DedupConfigError naming ``name``."""
    try:
        if isinstance(value, bool):
            raise ValueError
        if kind is int:
            number = float(value)  # type: ignore[arg-type]
            if not number.is_integer():
                raise ValueError
            result: int | float = int(number)
        else:
            result = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        low, high = bounds
        raise DedupConfigError(
            f"{name} must be {'an integer' if kind is int else 'a number'} from {low} to {high}, "
            f"got {value!r}.") from None
    _check_range(name, result, bounds, integer=kind is int, shown=value)
    return result


def _check_range(name: str, value: float, bounds: tuple[float, float], *,
                 integer: bool = False, shown: object = None) -> None:
    """Raise DedupConfigError unless ``low <= value <= high``, quoting ``shown`` if given."""
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
            or not low <= value <= high or (integer and not float(value).is_integer()):
        raise DedupConfigError(
            f"{name} must be {'an integer' if integer else 'a number'} from {low} to {high}, "
            f"got {shown if shown is not None else value!r}.")
