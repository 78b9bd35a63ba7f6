"""Run CPU-bound page work (extraction) off the reactor thread, with a time limit per call.

The reactor keeps downloading while a page is extracted, and a page whose extraction exceeds
the limit is given up (the caller stores it without content) instead of stalling the crawl.
Workers are threads (cheap, but they share one core through the GIL) or processes (one core
each; the function and its arguments must pickle). A running call cannot be stopped: an
over-long call finishes in the background on one of the runner's own workers (never Twisted's
pool, which DNS resolution needs).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TypeVar

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: Kinds of worker a runner can use.
EXECUTOR_KINDS = ("thread", "process")


class TimeLimitExceeded(Exception):
    """The call did not finish within its time limit."""


class BoundedRunner:
    """A small worker pool whose calls are awaited with a time limit (0 = no limit)."""

    def __init__(self, timeout: float, workers: int = 2, name: str = "bounded",
                 kind: str = "thread") -> None:
        if timeout < 0:
            raise ValueError("the time limit must be 0 (none) or positive")
        if kind not in EXECUTOR_KINDS:
            raise ValueError(f"the worker kind must be one of {', '.join(EXECUTOR_KINDS)}")
        self.timeout = timeout
        self._executor: Executor
        if kind == "process":
            # forkserver: workers fork from a clean server process, not from the reactor's.
            self._executor = ProcessPoolExecutor(
                max_workers=max(1, workers), mp_context=multiprocessing.get_context("forkserver"))
        else:
            self._executor = ThreadPoolExecutor(max_workers=max(1, workers),
                                                thread_name_prefix=name)
        # Calls wait here (untimed) for a free worker, so the limit measures the work itself.
        self._slots = asyncio.Semaphore(max(1, workers))

    async def run(self, func: Callable[..., T], *args: object) -> T:
        """Result of ``func(*args)`` computed in a worker; TimeLimitExceeded past the limit.

        A call over the limit gives its slot back at once: its thread finishes in the
        background, and calls behind it may then wait in the pool (within their own limit).
        """
        async with self._slots:
            future = asyncio.wrap_future(self._executor.submit(func, *args))
            if not self.timeout:
                return await future
            try:
                return await asyncio.wait_for(asyncio.shield(future), self.timeout)
            except asyncio.TimeoutError:
                raise TimeLimitExceeded(f"no result after {self.timeout:g} s") from None

    def close(self) -> None:
        """Stop accepting work; calls still running finish in the background."""
        self._executor.shutdown(wait=False, cancel_futures=True)
