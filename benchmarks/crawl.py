"""Crawl throughput and memory: our ``domain`` crawl against a bare Scrapy spider, same run.

Generates a linked site of N real documentation pages (the bundled test sites' pages, each
given links to others), serves it from a separate process on 127.0.0.1, then alternates:

- ``bare``: a Scrapy spider that only downloads and follows links (no items, no pipelines);
- ``ours``: ``scrapy crawl domain -a render=never`` with extraction and SQLite on, once per
  extraction executor (threads, processes);
- ``--render``: instead, ``scrapy crawl domain -a render=always`` crawls that differ in their
  settings (``--variant LABEL:NAME=VALUE,...``, repeatable; by default the previous release's
  settings, ``render-previous``, against the project's, ``render-ours``), alternated with the
  bare spider, sampling the RSS of the whole process tree (Scrapy, the Playwright driver,
  chromium) as pages are stored and splitting the CPU per page of the processes the crawl
  started by kind (browser, driver, extraction workers); then one long crawl of ``--rss-pages``
  pages (settings ``--rss-variant``) shows whether that RSS stays flat.

Both run with the project's settings (robots.txt, canonical fingerprints, stats file); both run
unthrottled (AutoThrottle off, same concurrency) so the figure is the crawler's
own cost; ``--throttled`` runs them with the project's polite defaults instead. Prints medians
and the ratio ours/bare, and the CPU time per page of the crawl process and of its extraction
workers (which, unlike pages/s, hardly depends on what else the machine is running).

    python benchmarks/crawl.py [--pages 1000] [--repeat 3] [--render [--variant ...]
                               [--rss-pages 1000] [--rss-variant ...]]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
SOURCE_SITES = REPO_ROOT / "tests" / "sites"

BARE_SPIDER = '''
import scrapy
from scrapy.linkextractors import LinkExtractor

class BareSpider(scrapy.Spider):
    """Downloads pages and follows their links; nothing else."""
    name = "bare"

    def __init__(self, start=None, **kwargs):
        super().__init__(**kwargs)
        self.start_urls = [start]
        self.allowed_domains = ["127.0.0.1"]
        self.links = LinkExtractor()

    def parse(self, response):
        for link in self.links.extract_links(response):
            yield scrapy.Request(link.url, callback=self.parse)
'''

SERVER = '''
import sys
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=sys.argv[1]))
print(server.server_address[1], flush=True)
server.serve_forever()
'''


def build_site(root: Path, pages: int) -> None:
    """Write ``pages`` real pages, page i linking to pages 2i+1 and 2i+2 and to its neighbours."""
    templates = [p.read_text(encoding="utf-8", errors="replace")
                 for site in ("sphinx-alabaster-requests-injected",
                              "mkdocs-material-starlette-injected")
                 for p in sorted((SOURCE_SITES / site / "public").rglob("*.html"))]
    href = re.compile(r'href="(?!#)[^"]*"')
    (root / "p").mkdir(parents=True)
    for i in range(pages):
        html = href.sub('href="#"', templates[i % len(templates)])
        links = [j for j in (2 * i + 1, 2 * i + 2, i + 1, i - 1) if 0 <= j < pages]
        nav = "".join(f'<li><a href="/p/{j}.html">Page {j}</a></li>' for j in links)
        html = html.replace("</body>", f"<ul class='bench-links'>{nav}</ul></body>", 1)
        (root / "p" / f"{i}.html").write_text(html, encoding="utf-8")
    (root / "index.html").write_text('<html><body><a href="/p/0.html">start</a></body></html>')


def tree_usage(pid: int) -> tuple[int, dict[int, float]]:
    """Resident memory of a process and all its descendants, in KiB, and the CPU seconds each
    of them has used so far (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    total, cpu, stack = 0, {}, [pid]
    while stack:
        current = stack.pop()
        stack.extend(children.get(current, []))
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            cpu[current] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total, cpu


def process_kind(pid: int) -> str:
    """``browser`` (chromium's processes), ``driver`` (Playwright's node driver) or ``workers``
    (the extraction workers and anything else the crawl started)."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return "workers"
    if b"chromium" in command or b"chrome" in command:
        return "browser"
    return "driver" if b"node" in command or b"playwright" in command else "workers"


def run(command: list[str], feed: Path | None = None
        ) -> tuple[dict, list[tuple[int, int]], tuple[float, float], dict[str, float]]:
    """Run a crawl; return its final stats, (pages stored, process-tree RSS KiB, seconds since
    start) samples taken every half second, and the CPU seconds of the crawl process and of its descendants
    (extraction workers; as last sampled, so slightly low), and that of the descendants by
    kind (``process_kind``)."""
    stats_path = Path(tempfile.mktemp(suffix=".json"))
    command = command + ["-s", f"CRAWL_STATS_PATH={stats_path}", "-s", "LOG_LEVEL=WARNING"]
    samples: list[tuple[int, int, float]] = []
    cpu: dict[int, float] = {}
    kinds: dict[int, str] = {}
    log = tempfile.TemporaryFile(mode="w+")
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=log,
                               text=True)
    while process.poll() is None:
        time.sleep(0.5)
        stored = feed.read_text().count("\n") if feed is not None and feed.exists() else 0
        rss, used = tree_usage(process.pid)
        cpu.update(used)
        for pid in used:
            if pid not in kinds:
                kinds[pid] = process_kind(pid)
        if rss:  # zero once the process has exited
            samples.append((stored, rss, time.monotonic() - started))
    if process.returncode != 0:
        log.seek(0)
        print(log.read()[-5000:], file=sys.stderr)
    log.close()
    main_cpu = cpu.pop(process.pid, 0.0)
    by_kind: dict[str, float] = {}
    for pid, seconds in cpu.items():
        by_kind[kinds.get(pid, "workers")] = by_kind.get(kinds.get(pid, "workers"), 0.0) + seconds
    return ((json.loads(stats_path.read_text()) if stats_path.exists() else {}), samples,
            (main_cpu, sum(cpu.values())), by_kind)


#: render=always crawls compared by ``--render`` (label, extra settings), unless ``--variant``
#: names others: the previous release's settings (``networkidle``, a new browser page for every
#: request, chromium's own number of renderer processes) and the project's.
RENDER_VARIANTS: dict[str, list[str]] = {
    "render-previous": ["-s", "RENDER_WAIT_UNTIL=networkidle", "-s", "RENDER_SETTLE_MAX_MS=0",
                        "-s", "PLAYWRIGHT_MAX_PAGES_PER_CONTEXT=4", "-s", "RENDER_PAGE_REUSE=1",
                        "-s", "RENDER_RENDERER_PROCESSES=0"],
    "render-ours": [],
}


def parse_variant(text: str) -> tuple[str, list[str]]:
    """``LABEL`` or ``LABEL:NAME=VALUE,NAME=VALUE``: a render=always crawl with those settings
    (a value may hold commas, e.g. JSON: only a comma followed by ``NAME=`` separates)."""
    label, _, assignments = text.partition(":")
    extra: list[str] = []
    for assignment in filter(None, re.split(r",(?=[A-Z][A-Z0-9_]*=)", assignments)):
        extra += ["-s", assignment]
    return label, extra


def render_command(start: str, workdir: Path, common: list[str], extra: list[str]) -> list[str]:
    """A render=always crawl of ``start`` writing its database and feed under ``workdir``.

    The site repeats its templates' main text, so alias detection is off: every rendered page
    is stored (and the feed's lines count the pages rendered so far)."""
    workdir.mkdir(parents=True, exist_ok=True)
    return [sys.executable, "-m", "scrapy", "crawl", "domain", "-a", f"start={start}",
            "-a", "render=always", "-a", "sitemaps=false",
            "-s", f"SQLITE_PATH={workdir / 'crawl.db'}", "-O", str(workdir / "items.jsonl"),
            "-s", "DOMAIN_DEDUP_ENABLED=false", "-s", "ALIAS_DUPLICATE_CONTENT=false"
            ] + common + extra


def main() -> int:
    """Build the site, run the crawls, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--render", action="store_true",
                        help="compare render=always crawls (ours, previous settings, bare)")
    parser.add_argument("--variant", action="append", default=[], metavar="LABEL:NAME=VALUE,...",
                        help="a render=always crawl to compare, with extra settings (repeatable; "
                             "replaces the default pair)")
    parser.add_argument("--no-bare", action="store_true", help="skip the bare spider")
    parser.add_argument("--rss-pages", type=int, default=1000,
                        help="pages of the long render=always crawl that samples RSS (0: none)")
    parser.add_argument("--rss-variant", default="render-ours", metavar="LABEL:NAME=VALUE,...",
                        help="the settings of that long crawl")
    parser.add_argument("--executors", default="thread,process",
                        help="EXTRACTION_EXECUTOR values to run ours with (comma-separated)")
    parser.add_argument("--throttled", action="store_true",
                        help="keep the project's AutoThrottle defaults for both spiders")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="crawl-bench-"))
    build_site(workdir / "site", args.pages)
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(workdir / "site")],
                              stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    start = f"http://127.0.0.1:{port}/"
    (workdir / "bare.py").write_text(BARE_SPIDER)
    throttle = [] if args.throttled else ["-s", "AUTOTHROTTLE_ENABLED=false"]
    common = throttle + ["-s", "CONCURRENT_REQUESTS=16", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=16"]
    render_variants = (dict(parse_variant(v) for v in args.variant) if args.variant
                       else RENDER_VARIANTS)
    variants = ([] if args.no_bare else ["bare"]) + (
        [f"ours-{kind}" for kind in args.executors.split(",")] if not args.render
        else list(render_variants))
    results: dict[str, list[tuple[float, float, int, float, float]]] = {
        name: [] for name in variants}
    try:
        for rep in range(args.repeat):
            for name in variants:
                if name == "bare":
                    command = [sys.executable, "-m", "scrapy", "runspider",
                               str(workdir / "bare.py"), "-a", f"start={start}",
                               "-s", "ITEM_PIPELINES={}", "-s", "FEEDS={}"] + common
                elif name in render_variants:
                    command = render_command(start, workdir / f"{name}-{rep}", common,
                                             render_variants[name])
                else:
                    db = workdir / f"{name}-{rep}.db"
                    command = [sys.executable, "-m", "scrapy", "crawl", "domain", "-a",
                               f"start={start}", "-a", "render=never", "-s",
                               f"SQLITE_PATH={db}", "-O", str(workdir / f"{name}-{rep}.jsonl"),
                               "-s", f"EXTRACTION_EXECUTOR={name.split('-', 1)[1]}",
                               "-s", "DOMAIN_DEDUP_ENABLED=false"] + common
                feed = workdir / f"{name}-{rep}" / "items.jsonl"
                stats, samples, (main_cpu, workers_cpu), by_kind = run(
                    command, feed=feed if name in render_variants else None)
                pages = stats.get("response_received_count", 0)
                if name in render_variants:
                    pages = stats.get("pages/rendered", 0)
                elapsed = float(stats.get("elapsed_time_seconds", 0)) or 1e-9
                rss = max((kb for _, kb, _ in samples), default=0) * 1024
                per_page = 1000 / max(pages, 1)
                results[name].append((pages / elapsed, elapsed, rss, main_cpu * per_page,
                                      workers_cpu * per_page))
                print(f"  run {rep + 1} {name:14s} (load {os.getloadavg()[0]:.1f}): {pages} "
                      f"responses in {elapsed:.1f} s = "
                      f"{pages / elapsed:.1f} pages/s, peak RSS {rss / 2**20:.0f} MiB, CPU per "
                      f"page {main_cpu * per_page:.1f} ms (crawl process) + "
                      f"{workers_cpu * per_page:.1f} ms (" + ", ".join(
                          f"{kind} {seconds * per_page:.0f}"
                          for kind, seconds in sorted(by_kind.items())) + ")", flush=True)

        def median(name: str, index: int) -> float:
            return statistics.median(r[index] for r in results[name])

        bare = median("bare", 0) if "bare" in results and args.repeat else 0.0
        print(f"\n{args.pages}-page site, {'throttled' if args.throttled else 'unthrottled'}, "
              f"median of {args.repeat} (peak RSS of the process tree, extraction workers "
              "included):")
        for name in variants if args.repeat else []:
            label = "bare Scrapy spider (no rendering)" if name == "bare" else (
                f"render=always, {name}" if name in render_variants else
                f"ours, extraction+SQLite, {name.split('-', 1)[1]} workers")
            ratio = f"{median(name, 0) / bare:4.2f}" if bare else "  - "
            print(f"  {label:44s} {median(name, 0):7.1f} pages/s  ratio "
                  f"{ratio}  peak RSS {median(name, 2) / 2**20:5.0f} MiB  "
                  f"CPU/page {median(name, 3):5.1f} + {median(name, 4):5.1f} ms")

        if args.render and args.rss_pages:
            site = workdir / "rss-site"
            build_site(site, args.rss_pages)
            rss_server = subprocess.Popen([sys.executable, "-c", SERVER, str(site)],
                                          stdout=subprocess.PIPE, text=True)
            try:
                rss_start = f"http://127.0.0.1:{int(rss_server.stdout.readline())}/"
                feed = workdir / "rss" / "items.jsonl"
                rss_label, rss_extra = parse_variant(args.rss_variant)
                stats, samples, _, _ = run(render_command(rss_start, workdir / "rss", common,
                                                       render_variants.get(rss_label, rss_extra)),
                                        feed=feed)
            finally:
                rss_server.terminate()
            pages = stats.get("pages/rendered", 0)
            elapsed = float(stats.get("elapsed_time_seconds", 0)) or 1e-9
            print(f"\n{args.rss_variant} over {args.rss_pages} pages: {pages} rendered in "
                  f"{elapsed:.0f} s "
                  f"= {pages / elapsed:.1f} pages/s")
            print("  process-tree RSS (Scrapy + extraction workers + Playwright driver + chromium)"
                  " as pages are stored:")
            marks = sorted({min(range(len(samples)), key=lambda k: abs(samples[k][0] - target))
                            for target in [*range(50, pages, 100), pages]} if samples else set())
            for k in marks:
                stored, kib, seconds = samples[k]
                print(f"    {stored:5d} pages at {seconds:5.0f} s: {kib / 1024:6.0f} MiB")
            if samples:
                print(f"  peak {max(s[1] for s in samples) / 1024:.0f} MiB; Scrapy process alone "
                      f"{int(stats.get('memusage/max', 0)) / 2**20:.0f} MiB")
    finally:
        server.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
