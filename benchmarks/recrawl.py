"""What a re-crawl of an unchanged site costs, against the first crawl and ``refresh=all``.

Generates a linked site of N pages (``tests/linked_site.py``: real cross-page boilerplate, a
robots.txt and a sitemap), serves it from a separate process on 127.0.0.1 with ``ETag`` and
``Last-Modified`` validators (answering ``304 Not Modified`` as nginx does), and runs, in one
run, for each repetition into a fresh database:

1. ``first``: the first crawl (every page new);
2. ``second``: the same command again on the unchanged site;
3. ``refresh=all``: the same command with ``-a refresh=all``.

For each it prints the page bytes the server sent (bodies, 304s count as 0), the responses, the
pages extracted (``extraction/method/*`` stats), the summary counts, the wall time of the whole
``scrapy crawl`` process (start-up and the close-time boilerplate step included) and its CPU
time (the crawl process and its extraction workers, sampled from /proc as
``benchmarks/crawl.py`` does; on a shared machine this varies much less than wall time), with medians and ratios against ``first`` in the same run.

    python benchmarks/recrawl.py [--pages 1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from benchmarks.crawl import run  # noqa: E402
from tests.linked_site import build_linked_site  # noqa: E402

SERVER = '''
import hashlib, os, sys, threading
from email.utils import formatdate, parsedate_to_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT, LOG = sys.argv[1], sys.argv[2]
lock = threading.Lock()

class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        file = os.path.join(ROOT, path.lstrip("/"))
        if os.path.isdir(file):
            file = os.path.join(file, "index.html")
        if not os.path.isfile(file):
            return self.answer(404, b"not found", "text/plain")
        body = open(file, "rb").read()
        if file.endswith((".xml", ".txt")):
            origin = "http://%s:%d" % self.server.server_address
            body = body.replace(b"__ORIGIN__", origin.encode())
        mtime = int(os.stat(file).st_mtime)
        etag = '"%x-%x"' % (mtime, len(body))
        modified = formatdate(mtime, usegmt=True)
        match = self.headers.get("If-None-Match")
        since = self.headers.get("If-Modified-Since")
        if (match is not None and etag in match) or (
                match is None and since and parsedate_to_datetime(since).timestamp() >= mtime):
            return self.answer(304, b"", None, etag, modified)
        kind = "text/html" if file.endswith(".html") else "application/xml" \\
            if file.endswith(".xml") else "text/plain"
        self.answer(200, body, kind, etag, modified)

    def answer(self, status, body, kind, etag=None, modified=None):
        self.send_response(status)
        if kind:
            self.send_header("Content-Type", kind)
        if etag:
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", modified)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        with lock, open(LOG, "a") as log:
            log.write("%d %d %s\\n" % (status, len(body), self.path))

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
'''

RUNS = ("first", "second", "refresh=all")


def served(log: Path, offset: int) -> tuple[int, int, int, int]:
    """(body bytes, responses, 200s, 304s) the server logged after line ``offset``."""
    lines = log.read_text().splitlines()[offset:] if log.exists() else []
    statuses = [int(line.split()[0]) for line in lines]
    return (sum(int(line.split()[1]) for line in lines), len(lines), statuses.count(200),
            statuses.count(304))


def crawl(start: str, db: Path, extra: list[str]) -> tuple[dict, float, float, float]:
    """One ``scrapy crawl domain`` process; its final stats, wall time and the CPU seconds of
    the crawl process and of its extraction workers (read from /proc while it runs)."""
    command = [sys.executable, "-m", "scrapy", "crawl", "domain", "-a", f"start={start}",
               "-a", "render=never", *extra, "-s", f"SQLITE_PATH={db}",
               "-s", "AUTOTHROTTLE_ENABLED=false", "-s", "CONCURRENT_REQUESTS=16",
               "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=16", "-s", "FEEDS={}"]
    started = time.perf_counter()
    stats, _, (main_cpu, workers_cpu) = run(command)
    wall = time.perf_counter() - started
    if stats.get("finish_reason") != "finished":
        raise SystemExit(f"crawl did not finish: {stats.get('finish_reason')}")
    return stats, wall, main_cpu, workers_cpu


def main() -> int:
    """Build the site, run the crawls, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="recrawl-bench-"))
    build_linked_site(workdir / "site", args.pages)
    log = workdir / "server.log"
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(workdir / "site"), str(log)],
                              stdout=subprocess.PIPE, text=True)
    start = f"http://127.0.0.1:{int(server.stdout.readline())}/"
    results: dict[str, list[dict[str, float]]] = {name: [] for name in RUNS}
    try:
        for rep in range(args.repeat):
            db = workdir / f"crawl-{rep}.db"
            for name in RUNS:
                offset = len(log.read_text().splitlines()) if log.exists() else 0
                extra = ["-a", "refresh=all"] if name == "refresh=all" else []
                stats, wall, main_cpu, workers_cpu = crawl(start, db, extra)
                cpu = main_cpu + workers_cpu
                body, responses, ok, not_modified = served(log, offset)
                figures = {
                    "bytes": body, "responses": responses, "ok": ok, "not_modified": not_modified,
                    "extracted": sum(v for k, v in stats.items()
                                     if k.startswith("extraction/method/")),
                    "wall": wall, "cpu": cpu,
                    **{k: stats.get(f"summary/{k}", 0)
                       for k in ("new", "changed", "unchanged", "gone")},
                }
                results[name].append(figures)
                print(f"  run {rep + 1} {name:12s}: {body / 2**20:6.2f} MiB in {responses} "
                      f"responses ({ok} x 200, {not_modified} x 304), "
                      f"{figures['extracted']} extracted, {wall:5.1f} s wall, CPU {main_cpu:5.1f} s "
                      f"(crawl process) + {workers_cpu:5.1f} s (workers); new "
                      f"{figures['new']}, changed {figures['changed']}, unchanged "
                      f"{figures['unchanged']}, gone {figures['gone']}", flush=True)
    finally:
        server.terminate()
        server.wait()

    def median(name: str, key: str) -> float:
        return statistics.median(r[key] for r in results[name])

    print(f"\n{args.pages}-page site, median of {args.repeat} (ratios against the first crawl "
          "of the same run):\n")
    print("| crawl | bytes downloaded | responses (200 / 304) | pages extracted | "
          "wall time | CPU time |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name in RUNS:
        ratio = {key: median(name, key) / (median("first", key) or 1)
                 for key in ("bytes", "extracted", "wall", "cpu")}
        print(f"| {name} | {median(name, 'bytes') / 2**20:.2f} MiB ({ratio['bytes']:.2f}) | "
              f"{median(name, 'ok'):.0f} / {median(name, 'not_modified'):.0f} | "
              f"{median(name, 'extracted'):.0f} ({ratio['extracted']:.2f}) | "
              f"{median(name, 'wall'):.1f} s ({ratio['wall']:.2f}) | "
              f"{median(name, 'cpu'):.1f} s ({ratio['cpu']:.2f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
