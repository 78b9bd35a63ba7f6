"""The bounded runner: results from thread or process workers, and a time limit per call."""

from __future__ import annotations

import asyncio
import time

import pytest

from crawler.timebound import EXECUTOR_KINDS, BoundedRunner, TimeLimitExceeded


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
