"""Benchmark of ``python -m crawler extract`` on hostile input: peak RSS and wall time.

Usage: python benchmarks/extract_limits.py [--repeat 3] [--timeout 30]

Runs ``extract`` in child processes on: a plain article (the reference), a 1 GiB gzip bomb as a
file, as a URL with ``Content-Encoding: gzip`` and as a gzip body without encoding, a URL
streaming forever, and a URL trickling one byte every 50 ms forever (against ``--timeout``,
default the crawl's DOWNLOAD_TIMEOUT of 30 s). Pages are served from 127.0.0.1 by the same
server as ``tests/test_cli_bad_input.py``. Prints, per case, the median wall time and peak RSS
(``ru_maxrss`` of the child, read with ``wait4``), the ratio against the reference in the same
run, the exit code and the first line of standard error.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_cli_bad_input import Handler, gzip_bomb  # noqa: E402


def run_child(args: list[str]) -> tuple[float, int, int, str]:
    """Wall seconds, peak RSS (KiB), exit code and first stderr line of one ``extract`` run."""
    with tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "crawler", "extract", *args], cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        first = (err.read().decode(errors="replace").strip().splitlines() or [""])[0]
    return elapsed, usage.ru_maxrss, process.returncode, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=None,
                        help="extract --timeout for the trickle case (default: the crawl's)")
    options = parser.parse_args()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    with tempfile.TemporaryDirectory() as work:
        bomb = Path(work) / "bomb.html.gz"
        bomb.write_bytes(gzip_bomb())
        trickle = [f"{base}/trickle"] + (["--timeout", str(options.timeout)]
                                         if options.timeout is not None else [])
        cases = [("reference: plain article URL", [f"{base}/page"]),
                 ("gzip bomb file (1 GiB)", [str(bomb)]),
                 ("gzip bomb URL, Content-Encoding", [f"{base}/bomb"]),
                 ("gzip bomb URL, gzip body", [f"{base}/bomb-file"]),
                 ("endless URL", [f"{base}/endless"]),
                 ("trickling URL", trickle)]
        results = {name: [run_child(args) for _ in range(options.repeat)] for name, args in cases}
    httpd.shutdown()
    reference = results[cases[0][0]]
    ref_time = statistics.median(r[0] for r in reference)
    ref_rss = statistics.median(r[1] for r in reference)
    print(f"{'case':34s} {'wall s':>7s} {'x ref':>6s} {'peak RSS MiB':>12s} {'x ref':>6s} "
          f"{'exit':>4s}  message")
    for name, runs in results.items():
        wall = statistics.median(r[0] for r in runs)
        rss = statistics.median(r[1] for r in runs)
        print(f"{name:34s} {wall:7.2f} {wall / ref_time:6.2f} {rss / 1024:12.1f} "
              f"{rss / ref_rss:6.2f} {runs[0][2]:4d}  {runs[0][3][:110]}")


if __name__ == "__main__":
    main()
