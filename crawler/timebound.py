"""Run CPU-bound page work (extraction) off the reactor thread, with a time limit per call.

The reactor keeps downloading while a page is extracted, and a page whose extraction exceeds
the limit is given up (the caller stores it without content) instead of stalling the crawl.
Workers are threads (cheap, but they share one core through the GIL) or processes (one core
each; the function and its arguments must pickle).

A call over the limit must not hold a worker: with process workers the runner replaces its pool
and terminates the old pool's processes, so the calls behind it (and every later one) get a
worker at once; a call that was running beside it on the old pool is started again, once, on the
new pool. A thread cannot be stopped: an over-long call on a thread worker finishes in the
background on one of the runner's own threads (never Twisted's pool, which DNS resolution needs).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import (BrokenExecutor, Executor, Future, ProcessPoolExecutor,
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


def _start_worker(gc_young_threshold: int, crawl_pid: int,
                  warm_up: Callable[[], object] | None) -> None:
    """Set up a worker process: it ends with the crawl and with its parent (the forkserver),
    its collector is relaxed, the uninformative third-party warnings stay out of the crawl's
    output, and ``warm_up`` (imports, loaded rules) is done before its first call."""
    die_with_parent()
    exit_with_process(crawl_pid)
    relax_garbage_collection(gc_young_threshold)
    quiet_third_party_warnings()
    if warm_up is not None:
        warm_up()


def _forget(future: asyncio.Future) -> None:
    """Retrieve the outcome of a call given up on, so that it is not reported."""
    if not future.cancelled():
        future.exception()


class BoundedRunner:
    """A small worker pool whose calls are awaited with a time limit (0 = no limit); worker
    processes collect garbage every ``gc_young_threshold`` allocations (0: Python's default)
    and run ``warm_up`` (a picklable function) when they start, outside any call's limit."""

    def __init__(self, timeout: float, workers: int = 2, name: str = "bounded",
                 kind: str = "thread", gc_young_threshold: int = YOUNG_THRESHOLD,
                 warm_up: Callable[[], object] | None = None) -> None:
        if timeout < 0:
            raise ValueError("the time limit must be 0 (none) or positive")
        if kind not in EXECUTOR_KINDS:
            raise ValueError(f"the worker kind must be one of {', '.join(EXECUTOR_KINDS)}")
        self.timeout = timeout
        self.kind = kind
        self.workers = max(1, workers)
        self.name = name
        self.gc_young_threshold = gc_young_threshold
        self.warm_up = warm_up
        self._executor = self._new_executor()
        # The start-up calls of the pool in use (process workers): done once it has started.
        self._starting: tuple[Executor, list[Future[int]]] | None = None
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
                                       initargs=(self.gc_young_threshold, os.getpid(),
                                                 self.warm_up))
        return ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix=self.name)

    async def run(self, func: Callable[..., T], *args: object) -> T:
        """Result of ``func(*args)`` computed in a worker; TimeLimitExceeded past the limit.

        A call over the limit gives its slot back at once. With process workers its pool is
        replaced (see the module docstring); with threads, it finishes in the background and
        calls behind it may wait in the pool (within their own limit).
        """
        async with self._slots:
            started_again = False
            while True:
                executor = self._executor
                await self._until_started(executor)
                submitted = executor.submit(func, *args)
                try:
                    return await self._result(submitted)
                except TimeLimitExceeded:
                    if self.kind == "process":
                        self._replace_pool(executor, why="a call ran past the time limit")
                    raise
                except (BrokenExecutor, asyncio.CancelledError) as exc:
                    replaced = executor is not self._executor
                    lost = isinstance(exc, BrokenExecutor) or submitted.cancelled()
                    if replaced and lost and not started_again:
                        started_again = True  # its pool was replaced under it: run it anew
                        continue
                    if isinstance(exc, BrokenExecutor):
                        # A worker process died (a crash in native code, the OOM killer): this
                        # call fails, and the next ones get a fresh pool instead of failing too.
                        self._replace_pool(executor, why="a worker died")
                    raise

    def start(self) -> None:
        """Start the process workers now (and warm them up) instead of at the first call."""
        if self.kind == "process" and (self._starting is None
                                       or self._starting[0] is not self._executor):
            executor = self._executor
            self._starting = (executor, [executor.submit(os.getpid)
                                         for _ in range(self.workers)])

    async def _until_started(self, executor: Executor) -> None:
        """Wait, untimed, until a new process pool's workers have started (and warmed up), so
        the time limit measures the work and not a worker's start-up."""
        self.start()
        if self._starting is not None and self._starting[0] is executor:
            # a pool that breaks while starting fails the call submitted after this
            await asyncio.gather(*(asyncio.wrap_future(f) for f in self._starting[1]),
                                 return_exceptions=True)

    async def _result(self, submitted: Future[T]) -> T:
        """The submitted call's result, waited for within the time limit."""
        future = asyncio.wrap_future(submitted)
        if not self.timeout:
            return await future
        try:
            return await asyncio.wait_for(asyncio.shield(future), self.timeout)
        except asyncio.TimeoutError:
            # Nobody waits for it any more: its late result, or the BrokenProcessPool its
            # terminated worker ends with, is taken here instead of being reported by asyncio
            # as "Future exception was never retrieved".
            future.add_done_callback(_forget)
            raise TimeLimitExceeded(f"no result after {self.timeout:g} s") from None

    def _replace_pool(self, executor: Executor, *, why: str) -> None:
        """Give later calls a fresh pool and end ``executor``'s processes (once per pool)."""
        if self._executor is not executor:
            return
        logger.warning("%s; starting new %s workers", why.capitalize(), self.name)
        self._executor = self._new_executor()
        self.start()
        # The pool offers no way to stop a running call (terminate_workers() is Python 3.14+):
        # end its processes, whose pending calls then fail as BrokenExecutor and run anew.
        processes = list((getattr(executor, "_processes", None) or {}).values())
        for process in processes:
            if process.is_alive():
                process.terminate()
        executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop accepting work; calls still running finish in the background."""
        self._executor.shutdown(wait=False, cancel_futures=True)
