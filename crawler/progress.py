"""Progress of a long command: a tqdm bar when stderr is a terminal, a plain line otherwise.

A person at a terminal sees a bar redrawn in place; a log file, a pipe or a cron mail gets one
line every ``interval`` seconds and a last line when the work ends, never a stream of carriage
returns. Commands wrap their loop in :class:`Progress` (or :func:`track` an iterable) and
print their own results after it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import TextIO, TypeVar

from tqdm import tqdm

#: Seconds between two plain progress lines (a terminal's bar is redrawn as tqdm sees fit).
PLAIN_INTERVAL = 10.0

T = TypeVar("T")


class Progress:
    """Counts units of work done out of ``total`` (None when unknown) and shows it on ``stream``."""

    def __init__(self, total: int | None, description: str, *, unit: str = "pages",
                 stream: TextIO | None = None, interval: float = PLAIN_INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.description = description
        self.unit = unit
        self.done = 0
        self._stream = stream if stream is not None else sys.stderr
        self._interval = interval
        self._clock = clock
        self._started = clock()
        self._last_line = self._started
        self._bar: tqdm | None = None
        if _is_terminal(self._stream):
            columns, rows = _terminal_size(self._stream)
            sized = columns > 0 and rows > 0  # a terminal that says 0 x 0: assume 80 x 24
            self._bar = tqdm(total=total, desc=description, unit=f" {unit}", file=self._stream,
                             dynamic_ncols=sized, ncols=None if sized else 80,
                             nrows=None if sized else 24, leave=True)

    def update(self, count: int = 1) -> None:
        """Record ``count`` more units done."""
        self.done += count
        if self._bar is not None:
            self._bar.update(count)
            return
        now = self._clock()
        if now - self._last_line >= self._interval:
            self._last_line = now
            self._write_line()

    def close(self) -> None:
        """End the display: close the bar, or write the last plain line."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        else:
            self._write_line(final=True)

    def line(self, final: bool = False) -> str:
        """The plain progress line: done of total, share, rate and elapsed time."""
        elapsed = max(self._clock() - self._started, 1e-9)
        count = f"{self.done}/{self.total}" if self.total is not None else str(self.done)
        share = f" ({100 * self.done / self.total:.0f}%)" if self.total else ""
        state = "done" if final else "progress"
        return (f"{self.description}: {state} {count} {self.unit}{share}, "
                f"{self.done / elapsed:.1f} {self.unit}/s, {elapsed:.1f} s")

    def _write_line(self, final: bool = False) -> None:
        self._stream.write(self.line(final) + "\n")
        self._stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


def track(items: Iterable[T], description: str, *, total: int | None = None,
          unit: str = "pages", stream: TextIO | None = None) -> Iterator[T]:
    """Yield ``items`` while showing their progress (``total`` defaults to ``len(items)``)."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    with Progress(total, description, unit=unit, stream=stream) as progress:
        for item in items:
            yield item
            progress.update()


def _is_terminal(stream: TextIO) -> bool:
    """True when ``stream`` is an interactive terminal."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _terminal_size(stream: TextIO) -> tuple[int, int]:
    """Columns and rows of the terminal behind ``stream`` ((0, 0) when it does not say)."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return 0, 0
    return size.columns, size.lines
