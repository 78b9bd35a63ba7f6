"""Peak memory and wall time of crawls of hostile cases: a page with 200,000 links, a sitemap of
50,000 URLs, session tokens under unknown names, and URLs that grow without changing the page.

Serves the hostile test server on 127.0.0.1 and runs ``scrapy crawl domain`` on each case, from
this project or from another checkout of it (``--project DIR``, to compare a version before a
change in the same run). For each case prints the crawl process's peak RSS (VmHWM, sampled from
/proc while it runs, extraction workers not included), the wall time, the requests the server
received for the case, the rows stored, the longest time the event loop could not run (a
heartbeat extension's ``heartbeat/max_stall_seconds``: while it is blocked no download
progresses) and the crawl's stats on links and sitemap URLs. Each crawl stops after ``--seconds`` (a bounded
crawl must end by itself before that) or when it ends by itself.

Two more cases, not run unless named: ``full``, the crawl of the whole hostile server that
``tests/test_hostile.py`` makes (its settings; the never-answering page costs its attempts of
DOWNLOAD_TIMEOUT, nothing else should wait), and ``malformed``, the extraction time of each
malformed page of the server and of a 6 MB link farm that falls back on trafilatura (median of
``--repeat`` runs, in this process).

    python benchmarks/hostile.py [--project DIR] [--links 200000] [--sitemap-urls 50000]
                                 [--cases links,sitemap,...,full,malformed] [--seconds 120]
                                 [--repeat 3] [--set NAME=VALUE] [--all-stats]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from tests.hostile import pages  # noqa: E402
from tests.hostile.crawl_settings import FULL_CRAWL, FULL_CRAWL_ARGS  # noqa: E402
from tests.hostile.heartbeat import settings_with_heartbeat  # noqa: E402
from tests.hostile.server import DEFAULT_SITEMAP_PATHS, HostileServer  # noqa: E402

#: Stats printed with each case when the crawl has them.
REPORTED_STATS = ("heartbeat/max_stall_seconds", "heartbeat/stalls_over_half_second",
                  "heartbeat/max_busy_seconds",
                  "links/capped_pages", "sitemaps/urls", "sitemaps/urls_read",
                  "sitemaps/urls_waiting_max", "sitemaps/urls_dropped",
                  "sitemaps/urls_not_requested", "trap/pattern_count", "item_scraped_count")


def peak_rss_mib(pid: int) -> float | None:
    """VmHWM of a running process in MiB (None once it has exited)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def run_case(project: Path, server: HostileServer, name: str, start: str, prefix: str,
             seconds: float, sitemaps: bool, settings: list[str],
             spider_args: dict[str, object] | None = None, all_stats: bool = False) -> dict:
    """One crawl of one case: peak RSS, wall time, requests for the case, rows stored (and
    every stat of the crawl with ``all_stats``, for the README's table of cases)."""
    before = len(server.hits(prefix))
    with tempfile.TemporaryDirectory(prefix="hostile-bench-") as tmp:
        db = Path(tmp) / "crawl.db"
        stats_path = Path(tmp) / "stats.json"
        command = [sys.executable, "-m", "scrapy", "crawl", "domain", "-a", f"start={start}",
                   "-a", f"sitemaps={str(sitemaps).lower()}",
                   "-s", f"SQLITE_PATH={db}", "-s", f"CRAWL_STATS_PATH={stats_path}",
                   "-s", "AUTOTHROTTLE_ENABLED=false", "-s", "LOG_LEVEL=WARNING",
                   "-s", f"CLOSESPIDER_TIMEOUT={seconds}", "-s", "DEFAULT_FEED_URI=",
                   "-s", "DOMAIN_DEDUP_ENABLED=false"]
        for argument, value in ({"render": "never"} | (spider_args or {})).items():
            command += ["-a", f"{argument}={value}"]
        for setting, value in settings_with_heartbeat().items():
            command += ["-s", f"{setting}={value}"]
        for setting in settings:
            command += ["-s", setting]
        started = time.monotonic()
        process = subprocess.Popen(command, cwd=project, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        peak = 0.0
        while process.poll() is None:
            sample = peak_rss_mib(process.pid)
            if sample:
                peak = max(peak, sample)
            time.sleep(0.1)
        wall = time.monotonic() - started
        rows = 0
        if db.exists():
            conn = sqlite3.connect(db)
            try:
                rows = conn.execute("SELECT count(*) FROM pages WHERE url LIKE ?",
                                    [f"%{prefix}%"]).fetchone()[0]
            finally:
                conn.close()
        stats = json.loads(stats_path.read_text()) if stats_path.exists() else {}
    return {"case": name, "peak_rss_mib": round(peak), "wall_s": round(wall, 1),
            "requests": len(server.hits(prefix)) - before, "rows": rows,
            "finish_reason": stats.get("finish_reason"), "exit": process.returncode,
            **{stat: stats[stat] for stat in REPORTED_STATS if stat in stats},
            **({"stats": stats} if all_stats else {})}


def time_malformed_extraction(repeat: int) -> list[dict]:
    """Median seconds of extracting each malformed page of the hostile server and a link farm
    (in this process, with this checkout's extraction)."""
    from crawler.extraction import extract

    results = []
    for maker in (pages.unclosed_tags_page, pages.nested_tables_page, pages.null_bytes_page,
                  pages.long_line_page, pages.link_farm_page):
        body = maker()
        html = body.decode("utf-8") if isinstance(body, bytes) else body
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            extract(html, "http://127.0.0.1/malformed")
            times.append(time.perf_counter() - started)
        results.append({"case": f"malformed/{maker.__name__}", "bytes": len(html),
                        "median_s": round(statistics.median(times), 3), "runs": repeat})
    return results


def main() -> None:
    """Run every case once against the chosen project and print one JSON line per case."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--project", type=Path, default=REPO_ROOT)
    parser.add_argument("--links", type=int, default=200_000)
    parser.add_argument("--sitemap-urls", type=int, default=50_000)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--cases", default="links,sitemap,tokens,query-growth,path-growth")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting of every crawl (repeatable)")
    parser.add_argument("--all-stats", action="store_true",
                        help="print every stat of each crawl (under \"stats\")")
    args = parser.parse_args()
    server = HostileServer().start()
    try:
        base = server.base
        cases = {
            "links": (f"{base}/many/links/{args.links}", "/many/", False),
            "sitemap": (f"{base}/ok/1", "/many/", True),
            "tokens": (f"{base}/tsession/", "/tsession/", False),
            "query-growth": (f"{base}/qgrow", "/qgrow", False),
            "path-growth": (f"{base}/pgrow/", "/pgrow/", False),
        }
        for name in args.cases.split(","):
            if name == "malformed":
                for result in time_malformed_extraction(args.repeat):
                    print(json.dumps(result), flush=True)
                continue
            if name == "full":  # the test suite's crawl of the whole server, its own sitemaps
                server.sitemap_paths = list(DEFAULT_SITEMAP_PATHS)
                result = run_case(args.project, server, name, f"{base}/", "/", args.seconds,
                                  True, [f"{k}={v}" for k, v in FULL_CRAWL.items()] + args.set,
                                  FULL_CRAWL_ARGS, args.all_stats)
            else:
                server.sitemap_paths = [f"/many/sitemap/{args.sitemap_urls}.xml"]
                start, prefix, sitemaps = cases[name]
                result = run_case(args.project, server, name, start, prefix, args.seconds,
                                  sitemaps, args.set, all_stats=args.all_stats)
            result["project"] = str(args.project)
            print(json.dumps(result), flush=True)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
