"""The bounded runner: results from thread or process workers, and a time limit per call."""

from __future__ import annotations

import asyncio
import functools
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import BrokenExecutor
from pathlib import Path

import pytest

from crawler.timebound import EXECUTOR_KINDS, BoundedRunner, TimeLimitExceeded
from tests.processes import alive


@pytest.mark.parametrize("kind", EXECUTOR_KINDS)
def test_runner_returns_results_and_gives_up_past_its_limit(kind: str) -> None:
    async def scenario() -> tuple[int, bool, int]:
        runner = BoundedRunner(timeout=1.5, workers=2, kind=kind)
        try:
            first = await runner.run(sum, [1, 2, 3])  # also absorbs a process pool's start-up
            try:
                await runner.run(time.sleep, 4)
            except TimeLimitExceeded:
                gave_up = True
            else:
                gave_up = False
            after = await runner.run(max, [4, 9, 2])  # the other worker is free
        finally:
            runner.close()
        return first, gave_up, after

    assert asyncio.run(scenario()) == (6, True, 9)


@pytest.mark.parametrize(("timeout", "kind", "message"), [
    (-1, "thread", "time limit"),
    (1, "fork", "worker kind"),
])
def test_runner_rejects_bad_configuration(timeout: float, kind: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BoundedRunner(timeout=timeout, kind=kind)


def test_process_runner_recovers_from_a_dead_worker() -> None:
    async def scenario() -> tuple[bool, int]:
        runner = BoundedRunner(timeout=10, workers=1, kind="process")
        try:
            try:
                await runner.run(os._exit, 3)  # the worker process dies mid-call
            except BrokenExecutor:
                died = True
            else:
                died = False
            after = await runner.run(sum, [2, 3])  # served by a new worker
        finally:
            runner.close()
        return died, after

    assert asyncio.run(scenario()) == (True, 5)


def test_a_call_past_its_limit_frees_its_process_worker_at_once() -> None:
    """One worker, stuck on a call that would run a minute: the calls after it are served by a
    new worker process within their own limit (queued behind the stuck call, they would pass
    it), and the stuck process is ended, not left running."""
    async def scenario() -> tuple[bool, list[int], list[int], bool]:
        runner = BoundedRunner(timeout=3, workers=1, kind="process")
        try:
            stuck_pid = await runner.run(os.getpid)  # also absorbs the pool's start-up
            try:
                await runner.run(time.sleep, 60)
            except TimeLimitExceeded:
                gave_up = True
            else:
                gave_up = False
            after = [await runner.run(sum, [1, 2]), await runner.run(sum, [3, 4])]
            served_by = [await runner.run(os.getpid), stuck_pid]
            deadline = time.monotonic() + 10
            while alive(stuck_pid) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            return gave_up, after, served_by, alive(stuck_pid)
        finally:
            runner.close()

    gave_up, after, (new_pid, stuck_pid), stuck_alive = asyncio.run(scenario())
    assert gave_up and after == [3, 7], "the next calls waited for the stuck worker"
    assert new_pid != stuck_pid, "the next calls were not served by a new worker"
    assert not stuck_alive, "the stuck worker process was left running"


def test_a_workers_start_up_does_not_count_against_the_first_calls_limit() -> None:
    """Workers warming up for 2 s (imports, rules) under a 1 s limit: the first calls, on the
    first pool and on the pool that replaces it after a timeout, still get their results."""
    async def scenario() -> tuple[int, bool, int]:
        runner = BoundedRunner(timeout=1, workers=1, kind="process",
                               warm_up=functools.partial(time.sleep, 2))
        try:
            first = await runner.run(sum, [1, 2])
            try:
                await runner.run(time.sleep, 30)
            except TimeLimitExceeded:
                gave_up = True
            else:
                gave_up = False
            return first, gave_up, await runner.run(sum, [3, 4])
        finally:
            runner.close()

    assert asyncio.run(scenario()) == (3, True, 7)


def test_a_call_beside_a_stuck_one_is_run_again_on_the_new_pool() -> None:
    """Two workers: the stuck call's pool is replaced while another call runs on it; that call
    is started again on the new pool and still returns its result."""
    async def scenario() -> tuple[bool, object]:
        runner = BoundedRunner(timeout=4, workers=2, kind="process")
        try:
            await asyncio.gather(runner.run(sum, [1]), runner.run(sum, [2]))  # both workers up

            async def stuck() -> bool:
                try:
                    await runner.run(time.sleep, 60)
                except TimeLimitExceeded:
                    return True
                return False

            async def beside() -> object:
                await asyncio.sleep(2)  # starts before the stuck call's limit, ends after it
                return await runner.run(time.sleep, 2.5)

            return tuple(await asyncio.gather(stuck(), beside()))
        finally:
            runner.close()

    assert asyncio.run(scenario()) == (True, None)


OWNER_SCRIPT = """
import asyncio, os, sys, time
from crawler.timebound import BoundedRunner

async def main():
    runner = BoundedRunner(timeout=10, workers=1, kind="process")
    worker = await runner.run(os.getpid)
    server = await runner.run(os.getppid)
    print(worker, server, flush=True)
    time.sleep(60)

asyncio.run(main())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_process_workers_die_when_their_owner_is_killed() -> None:
    owner = subprocess.Popen([sys.executable, "-c", OWNER_SCRIPT], stdout=subprocess.PIPE,
                             text=True, cwd=Path(__file__).resolve().parent.parent)
    try:
        worker, server = (int(pid) for pid in owner.stdout.readline().split())
        assert alive(worker) and alive(server)
        os.kill(owner.pid, signal.SIGKILL)
        owner.wait()
        deadline = time.monotonic() + 10
        while (alive(worker) or alive(server)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(worker) and not alive(server), "orphaned extraction processes"
    finally:
        owner.kill()


@pytest.mark.parametrize(("young_threshold", "expected"), [
    (20_000, 20_000),
    (5_000, 5_000),
    (0, 700),  # Python's default collector
])
def test_process_workers_collect_garbage_at_the_configured_threshold(
        young_threshold: int, expected: int) -> None:
    import gc

    async def scenario() -> int:
        runner = BoundedRunner(timeout=10, workers=1, kind="process",
                               gc_young_threshold=young_threshold)
        try:
            return (await runner.run(gc.get_threshold))[0]
        finally:
            runner.close()

    assert asyncio.run(scenario()) == expected
