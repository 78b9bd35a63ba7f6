"""Distributed crawl throughput (1, 2, 4 local workers on one Redis) and Redis memory per seen URL.

    python benchmarks/distributed.py [--pages 2000] [--workers 1,2,4] [--urls 100000]

Needs ``redis-server`` on the PATH (Debian package ``redis-server``). Everything runs locally:
a generated site of ``--pages`` linked pages served on 127.0.0.1, a throw-away redis-server
(``--save ''``), and ``scrapy crawl domain`` worker processes. AutoThrottle is OFF for every run
(it would measure the throttle, not the crawler); CONCURRENT_REQUESTS stays at the project
default. The reference is a plain single-process crawl without Redis, measured in the same run.

Pages/s is counted from the server's access log: pages served divided by the time from the first
to the last page request, so process start-up and the final idle wait are excluded (wall-clock
totals, which include them, are printed beside). Workers share the machine's cores with the
server, Redis and each other: on a machine with fewer cores than workers, more workers cannot
be faster, and the figures say how close the shared frontier gets to the available CPU.

Redis memory per seen URL: 100,000 request fingerprints added to the dupefilter set exactly as
the distributed crawl does (the crawler's fingerprinter, hex, SADD to ``domain:dupefilter``);
the INFO ``used_memory`` delta divided by the number of URLs. The same is measured for queued
requests (serialised by scrapy-redis's priority queue), which only matter while they wait.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scrapy import Request  # noqa: E402
from scrapy_redis.queue import PriorityQueue  # noqa: E402

from crawler.fingerprint import CanonicalRequestFingerprinter  # noqa: E402
from crawler.spiders.domain import DomainSpider  # noqa: E402
from tests.conftest import StaticSiteServer, crawl_command  # noqa: E402
from tests.linked_site import build_linked_site  # noqa: E402
from tests.redis_server import RedisServer, redis_server_binary  # noqa: E402

IDLE_TIMEOUT = 2


class TimedSiteServer(StaticSiteServer):
    """The test suite's static server, also recording when each path was requested."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.times: list[tuple[float, str]] = []

    def record(self, path: str) -> None:
        """Remember the path and the time of the request."""
        super().record(path)
        with self._lock:
            self.times.append((time.monotonic(), path))

    def reset(self) -> None:
        """Forget earlier requests (between runs)."""
        with self._lock:
            self.requests.clear()
            self.times.clear()


@dataclass(frozen=True)
class Run:
    """One measured crawl."""

    label: str
    workers: int
    pages: int
    fetches: int
    crawl_seconds: float
    wall_seconds: float
    per_worker: tuple[int, ...]

    @property
    def pages_per_second(self) -> float:
        """Pages served per second between the first and the last page request."""
        return self.pages / self.crawl_seconds if self.crawl_seconds else 0.0


def is_page(path: str) -> bool:
    """Whether a served path is an HTML page of the generated site."""
    return path.endswith((".html", "/"))


def crawl(server: TimedSiteServer, workdir: Path, workers: int, redis_url: str | None) -> Run:
    """Run ``workers`` crawler processes (one without Redis when redis_url is None)."""
    server.reset()
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    settings = {"AUTOTHROTTLE_ENABLED": "false", "LOG_LEVEL": "WARNING"}
    if redis_url:
        settings.update(REDIS_URL=redis_url, REDIS_IDLE_TIMEOUT=str(IDLE_TIMEOUT))
    started = time.monotonic()
    processes = []
    for n in range(1, workers + 1):
        command = crawl_command(server.url("/"), workdir, spider_args={"render": "never"},
                                settings=settings, feed_name=f"items-{n}.jsonl",
                                db_name=f"shard-{n}.db")
        log = (workdir / f"worker-{n}.log").open("w")
        processes.append(subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT))
    for process in processes:
        if process.wait(timeout=1800) != 0:
            raise RuntimeError(f"a worker failed; see {workdir}")
    wall = time.monotonic() - started
    page_times = [t for t, path in server.times if is_page(path)]
    per_worker = tuple(
        sum(1 for _ in (workdir / f"items-{n}.jsonl").open()) for n in range(1, workers + 1))
    label = f"{workers} worker{'s' if workers > 1 else ''}, Redis" if redis_url else \
        "1 process, no Redis (reference)"
    return Run(label=label, workers=workers, pages=len(set(p for _, p in server.times
                                                            if is_page(p))),
               fetches=len(page_times), crawl_seconds=max(page_times) - min(page_times),
               wall_seconds=wall, per_worker=per_worker)


def redis_memory_per_url(redis: RedisServer, urls: int, origin: str) -> tuple[float, float]:
    """Bytes of Redis memory per seen URL (dupefilter) and per queued request (priority queue)."""
    client = redis.client()
    client.flushall()
    fingerprinter = CanonicalRequestFingerprinter()
    before = client.info("memory")["used_memory"]
    batch = 1000
    for start in range(0, urls, batch):
        fingerprints = [
            fingerprinter.fingerprint(Request(f"{origin}/notes/{n // 100}/page-{n}.html")).hex()
            for n in range(start, min(start + batch, urls))]
        client.sadd("domain:dupefilter", *fingerprints)
    seen = (client.info("memory")["used_memory"] - before) / urls
    assert client.scard("domain:dupefilter") == urls

    spider = DomainSpider(start=origin + "/")
    queue = PriorityQueue(client, spider, "domain:requests")
    queued = urls // 10
    before = client.info("memory")["used_memory"]
    for n in range(queued):
        queue.push(spider._page_request(f"{origin}/notes/{n // 100}/page-{n}.html", depth=3))
    per_request = (client.info("memory")["used_memory"] - before) / queued
    client.flushall()
    return seen, per_request


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--urls", type=int, default=100_000)
    args = parser.parse_args()
    binary = redis_server_binary()
    if binary is None:
        print("redis-server is not installed (Debian package redis-server)", file=sys.stderr)
        return 2
    counts = [int(n) for n in args.workers.split(",")]
    with tempfile.TemporaryDirectory(prefix="bench-distributed-") as tmp:
        tmpdir = Path(tmp)
        build_linked_site(tmpdir / "site", args.pages)
        server = TimedSiteServer(tmpdir / "site")
        threading.Thread(target=server.serve_forever, daemon=True).start()
        redis = RedisServer(tmpdir / "redis", binary).start()
        try:
            print(f"site: {args.pages} generated pages on {server.origin}; "
                  f"{os.cpu_count()} CPUs visible; AutoThrottle off; render=never")
            runs = [crawl(server, tmpdir / "reference", 1, None)]
            for workers in counts:
                redis.client().flushall()
                runs.append(crawl(server, tmpdir / f"workers-{workers}", workers, redis.url))
            reference = runs[0].pages_per_second
            print(f"{'run':34} {'pages':>6} {'fetches':>7} {'crawl s':>8} {'wall s':>7} "
                  f"{'pages/s':>8} {'vs ref':>7}  pages per worker")
            for run in runs:
                print(f"{run.label:34} {run.pages:6d} {run.fetches:7d} {run.crawl_seconds:8.1f} "
                      f"{run.wall_seconds:7.1f} {run.pages_per_second:8.1f} "
                      f"{run.pages_per_second / reference:6.2f}x  {list(run.per_worker)}")
            seen, queued = redis_memory_per_url(redis, args.urls, server.origin)
            print(f"Redis memory: {seen:.1f} bytes per seen URL (dupefilter, {args.urls:,} URLs, "
                  f"{seen * args.urls / 2**20:.1f} MiB); {queued:.0f} bytes per queued request "
                  f"({args.urls // 10:,} requests)")
        finally:
            redis.stop()
            server.shutdown()
            server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
