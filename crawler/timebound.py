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
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import (BrokenExecutor, Executor, ProcessPoolExecutor,
                                ThreadPoolExecutor)
from typing import TypeVar

from crawler.gc_tuning import YOUNG_THRESHOLD, relax_garbage_collection
from crawler.quiet_logs import quiet_third_party_warnings
from crawler.worker_guard import die_with_parent, exit_with_process

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: Kinds of worker a runner can use.
EXECUTOR_KINDS = ("thread", "process")


class TimeLimitExceeded(Exception):
    """The call did not finish within its time limit."""


def _start_worker(gc_young_threshold: int, crawl_pid: int) -> None:
    """Set up a worker process: it ends with the crawl and with its parent (the forkserver),
    its collector is relaxed, and the uninformative third-party warnings stay out of the
    crawl's output."""
    die_with_parent()
    exit_with_process(crawl_pid)
    relax_garbage_collection(gc_young_threshold)
    quiet_third_party_warnings()


class BoundedRunner:
    """A small worker pool whose calls are awaited with a time limit (0 = no limit); worker
    processes collect garbage every ``gc_young_threshold`` allocations (0: Python's default)."""

    def __init__(self, timeout: float, workers: int = 2, name: str = "bounded",
                 kind: str = "thread", gc_young_threshold: int = YOUNG_THRESHOLD) -> None:
        if timeout < 0:
            raise ValueError("the time limit must be 0 (none) or positive")
        if kind not in EXECUTOR_KINDS:
            raise ValueError(f"the worker kind must be one of {', '.join(EXECUTOR_KINDS)}")
        self.timeout = timeout
        self.kind = kind
        self.workers = max(1, workers)
        self.name = name
        self.gc_young_threshold = gc_young_threshold
        self._executor = self._new_executor()
        # Calls wait here (untimed) for a free worker, so the limit measures the work itself.
        self._slots = asyncio.Semaphore(max(1, workers))

    def _new_executor(self) -> Executor:
        if self.kind == "process":
            # forkserver: workers fork from a clean server process, not from the reactor's.
            # Workers exit when the crawl ends, even by kill -9 (worker_guard); the server and
            # the resource tracker then exit as their pipes close: no orphans.
            context = multiprocessing.get_context("forkserver")
            return ProcessPoolExecutor(max_workers=self.workers, mp_context=context,
                                       initializer=_start_worker,
                                       initargs=(self.gc_young_threshold, os.getpid()))
        return ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix=self.name)

    async def run(self, func: Callable[..., T], *args: object) -> T:
        """Result of ``func(*args)`` computed in a worker; TimeLimitExceeded past the limit.

        A call over the limit gives its slot back at once: its thread finishes in the
        background, and calls behind it may then wait in the pool (within their own limit).
        """
        async with self._slots:
            executor = self._executor
            try:
                future = asyncio.wrap_future(executor.submit(func, *args))
                if not self.timeout:
                    return await future
                try:
                    return await asyncio.wait_for(asyncio.shield(future), self.timeout)
                except asyncio.TimeoutError:
                    raise TimeLimitExceeded(f"no result after {self.timeout:g} s") from None
            except BrokenExecutor:
                # A worker process died (a crash in native code, the OOM killer): this call
                # fails, and the next ones get a fresh pool instead of failing too.
                if self._executor is executor:
                    logger.error("A %s worker died; starting new workers", self.name)
                    executor.shutdown(wait=False, cancel_futures=True)
                    self._executor = self._new_executor()
                raise

    def close(self) -> None:
        """Stop accepting work; calls still running finish in the background."""
        self._executor.shutdown(wait=False, cancel_futures=True)
