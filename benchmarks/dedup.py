"""Benchmark of domain dedup: what it removes per test site, and wrongly; time and memory at scale.

Usage: python benchmarks/dedup.py SITES_DIR [--work DIR] [--sites a,b] [--skip-large]
       [--large-pages N] [--large-runs N]

SITES_DIR holds one folder per site (``public/`` + ``truth.jsonl``). Each site's HTML files are
extracted once with the project's extractor, and once with trafilatura's default ``extract()``
as a leakier reference, into databases under ``--work`` (kept between runs); dedup then runs
on each in three variants: exact blocks (the baseline), volatile tokens normalised, normalised
plus the whole-page lines (the default). Figures printed per site and variant:
share of content bytes removed, boilerplate snippets (>= 20 characters) left in the cleaned
content of truth pages (before -> after), main-text bytes wrongly removed, word F1 against the
truth main text, and dedup time. A synthetic "volatile" variant of each site (its pages with a
banner carrying a per-page consent ID, date and counter) shows what normalisation catches.
The large part generates a database of N pages of one domain and runs dedup in a child process,
reporting time and peak RSS.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
import resource
import statistics
import subprocess
import sys
import time
import uuid
from collections import Counter
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crawler.dedup.blocks import removed_blocks  # noqa: E402
from crawler.dedup.config import DedupConfig  # noqa: E402
from crawler.dedup.store import dedup_domain, load_fingerprint  # noqa: E402
from crawler.storage import compress_html, decompress_html, open_database, upsert_page  # noqa: E402

logger = logging.getLogger(__name__)

_WORD = re.compile(r"\w+")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_NOISE = re.compile(r"\\(?=[^\w\s])|[*_`#>¶]+")
_WS = re.compile(r"\s+")
SNIPPET_MIN_CHARS = 20

#: Variants compared: the issue's baseline (exact blocks of the extracted content), volatile
#: tokens normalised, and normalised plus the whole-page pass (the default).
CONFIGS = {
    "exact": DedupConfig(normalise=False, whole_page=False),
    "norm": DedupConfig(normalise=True, whole_page=False),
    "norm+page": DedupConfig(normalise=True, whole_page=True),
}


def plain(text: str) -> str:
    """Lowercased text without markdown decoration, whitespace collapsed, for containment checks."""
    text = _MD_LINK.sub(r"\1", text or "")
    return _WS.sub(" ", _MD_NOISE.sub(" ", text)).strip().lower()


def word_f1(candidate: str, truth: str) -> float:
    """Word-token F1 of ``candidate`` against ``truth``."""
    cand = Counter(_WORD.findall(plain(candidate)))
    gold = Counter(_WORD.findall(plain(truth)))
    overlap = sum((cand & gold).values())
    if not overlap:
        return 0.0
    precision, recall = overlap / sum(cand.values()), overlap / sum(gold.values())
    return 2 * precision * recall / (precision + recall)


def site_url(path: Path, public: Path) -> str:
    """URL a static server on 127.0.0.1 gives ``path`` (``dir/index.html`` -> ``dir/``)."""
    rel = path.relative_to(public).as_posix()
    if rel == "index.html":
        rel = ""
    elif rel.endswith("/index.html"):
        rel = rel[: -len("index.html")]
    return f"http://127.0.0.1/{rel}"


def extract_markdown(raw: bytes, url: str, extractor: str) -> str:
    """Markdown of one page from the project's extractor, or from trafilatura's default
    ``extract()`` (a reference that keeps more boilerplate, as a weaker extractor would)."""
    if extractor == "trafilatura":
        import trafilatura

        html = raw.decode("utf-8", errors="replace")
        return trafilatura.extract(html, url=url, output_format="markdown") or ""
    from crawler.extraction import extract

    return extract(raw, url).content_markdown


def build_site_db(site: Path, db_path: Path, extractor: str = "project") -> float:
    """Extract every HTML page of ``site`` into ``db_path`` (domain = site name); seconds spent."""
    started = time.perf_counter()
    db = open_database(db_path)
    public = site / "public"
    for html_file in sorted(public.rglob("*.html")):
        raw = html_file.read_bytes()
        url = site_url(html_file, public)
        row = {"url": url, "domain": site.name, "status": 200, "content_type": "text/html",
               "content_markdown": extract_markdown(raw, url, extractor)}
        upsert_page(db, row, raw)
    db.conn.close()
    return time.perf_counter() - started


def truth_rows(site: Path) -> dict[str, dict]:
    """Truth rows of ``site`` keyed by the URL their page has in the site database."""
    rows = {}
    for line in (site / "truth.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            rows["http://127.0.0.1" + row["path"]] = row
    return rows


def measure(db_path: Path, domain: str, truth: dict[str, dict], config: DedupConfig,
            runs: int = 3) -> dict:
    """Dedup ``domain`` (median time of ``runs``); score its cleaned content against ``truth``."""
    db = open_database(db_path)
    times = []
    for _ in range(runs):
        result = dedup_domain(db, domain, config)
        times.append(result.seconds)
    fingerprint = load_fingerprint(db, domain)
    left_before = left_after = wrong_bytes = 0
    f1_before, f1_after = [], []
    rows = db.conn.execute("SELECT url, content_markdown, cleaned_content, raw_html FROM pages "
                           "WHERE domain = ?", [domain]).fetchall()
    for url, content, cleaned, raw in rows:
        row = truth.get(url)
        if row is None:
            continue
        known = row.get("boilerplate_snippets", []) + row.get("injected_snippets", [])
        snippets = {plain(s) for s in known if len(s) >= SNIPPET_MIN_CHARS}
        before, after, main = plain(content), plain(cleaned), plain(row["main_text"])
        left_before += sum(s in before and s not in main for s in snippets)
        left_after += sum(s in after and s not in main for s in snippets)
        for block in removed_blocks(content, fingerprint, config.min_block_chars,
                                    normalise=config.normalise,
                                    page_html=partial(decompress_html, raw) if raw else None):
            if plain(block) and plain(block) in main:
                wrong_bytes += len(block.encode("utf-8"))
        f1_before.append(word_f1(content, row["main_text"]))
        f1_after.append(word_f1(cleaned, row["main_text"]))
    db.conn.close()
    return {
        "pages": result.fingerprint.pages_analyzed,
        "boilerplate_blocks": result.fingerprint.blocks_boilerplate,
        "removed_share": result.removed_share,
        "snippets_left_before": left_before,
        "snippets_left_after": left_after,
        "wrong_bytes": wrong_bytes,
        "f1_before": statistics.mean(f1_before) if f1_before else 0.0,
        "f1_after": statistics.mean(f1_after) if f1_after else 0.0,
        "seconds": statistics.median(times),
    }


def make_volatile_variant(src: Path, dst: Path, domain: str) -> dict[str, dict]:
    """Copy of a site database, each page opened by a banner with per-page tokens; its truth."""
    dst.unlink(missing_ok=True)
    db = open_database(dst)
    source = open_database(src)
    rng = random.Random(4)
    snippets = ["we and our partners use cookies to personalise content",
                "new release available", "developers subscribed to the digest"]
    truth = {}
    for index, (url, content) in enumerate(source.conn.execute(
            "SELECT url, content_markdown FROM pages WHERE domain = ? ORDER BY url", [domain])):
        banner = (
            f"We and our partners use cookies to personalise content. Consent ID "
            f"{uuid.UUID(int=rng.getrandbits(128))}, stored {rng.randint(1, 28)} March 2026 "
            f"at {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}.\n\n"
            f"**New release available** – build {rng.getrandbits(40):010x} published "
            f"2026-03-{rng.randint(1, 28):02d}, see what changed since version 2.{index}.\n\n"
            f"Join {rng.randint(40000, 49999):,} developers subscribed to the digest "
            f"({rng.randint(3, 90)} new issues this month)."
        )
        row = {"url": url, "domain": domain, "status": 200, "content_type": "text/html",
               "content_markdown": f"{banner}\n\n{content or ''}"}
        upsert_page(db, row, b"")
        if content:
            truth[url] = {"main_text": content, "boilerplate_snippets": snippets}
    db.conn.close()
    source.conn.close()
    return truth


def print_row(label: str, m: dict) -> None:
    """One table row of figures."""
    print(f"{label:44s} {m['pages']:5d} {m['boilerplate_blocks']:5d} "
          f"{100 * m['removed_share']:7.1f}% "
          f"{m['snippets_left_before']:5d} -> {m['snippets_left_after']:<4d} {m['wrong_bytes']:7d} "
          f"{m['f1_before']:.3f} -> {m['f1_after']:.3f} {1000 * m['seconds']:8.1f}")


def run_sites(sites_dir: Path, work: Path, names: list[str] | None) -> None:
    """Per-site figures for each variant and both extractors, plus the volatile variants."""
    sites = sorted(p for p in sites_dir.iterdir() if (p / "truth.jsonl").exists())
    if names:
        sites = [p for p in sites if p.name in names]
    for extractor in ("project", "trafilatura"):
        print(f"\ncontent extracted by the {extractor} extractor")
        print(f"{'site [variant]':44s} pages  bp.b  removed  snippets left  wrong.B  "
              f"F1 before -> after   ms")
        for site in sites:
            suffix = "" if extractor == "project" else f"-{extractor}"
            db_path = work / f"{site.name}{suffix}.db"
            if not db_path.exists():
                seconds = build_site_db(site, db_path, extractor)
                logger.info("extracted %s in %.1fs", site.name, seconds)
            truth = truth_rows(site)
            for label, config in CONFIGS.items():
                print_row(f"{site.name} [{label}]", measure(db_path, site.name, truth, config))
    print("\nvolatile variants (content of each page opened by a banner, a release note and a "
          "counter carrying per-page tokens)")
    for site in sites:
        variant = work / f"{site.name}-volatile.db"
        truth = make_volatile_variant(work / f"{site.name}.db", variant, site.name)
        for label in ("exact", "norm"):
            print_row(f"{site.name}+volatile [{label}]",
                      measure(variant, site.name, truth, CONFIGS[label], runs=1))


def generate_large_db(path: Path, pages: int) -> int:
    """One domain of ``pages`` generated pages (own text, banner with tokens); content bytes."""
    for stale in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        stale.unlink(missing_ok=True)
    db = open_database(path)
    rng = random.Random(50_000)
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocabulary = ["".join(rng.choices(letters, k=rng.randint(3, 9))) for _ in range(5000)]
    nav = "".join(f"<li><a href='/s/{n}'>Section {n}</a></li>" for n in range(20))
    total = 0
    batch = []
    for index in range(pages):
        own = "\n\n".join(" ".join(rng.choices(vocabulary, k=60)) for _ in range(8))
        consent = uuid.UUID(int=rng.getrandbits(128))
        banner = (f"We use cookies to improve your experience. Consent {consent} "
                  f"recorded on 2026-03-{rng.randint(1, 28):02d}.")
        footer = ("Copyright Example Corp. All rights reserved. Terms of service and privacy "
                  "policy apply.")
        content = f"# Page {index}\n\n{banner}\n\n{own}\n\n{footer}"
        html = (f"<html><head><title>Page {index}</title></head><body><nav>{nav}</nav>"
                f"<div class='consent'><p>{banner}</p></div><main><h1>Page {index}</h1>"
                + "".join(f"<p>{p}</p>" for p in own.split("\n\n"))
                + f"</main><footer><p>{footer}</p></footer></body></html>")
        total += len(content.encode("utf-8"))
        batch.append((f"https://large.example/p/{index:06d}", "large.example", content,
                      compress_html(html.encode("utf-8"))))
        if len(batch) == 1000:
            _insert(db, batch)
            batch = []
    if batch:
        _insert(db, batch)
    db.conn.close()
    return total


def _insert(db, batch: list[tuple]) -> None:
    """Insert generated rows in one transaction."""
    with db.conn:
        db.conn.executemany(
            "INSERT INTO pages (url, domain, content_markdown, raw_html) VALUES (?, ?, ?, ?)",
            batch)


def _child_dedup(db_path: str) -> None:
    """Child process: dedup the large domain and print seconds and peak RSS as JSON."""
    db = open_database(db_path)
    result = dedup_domain(db, "large.example", DedupConfig())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"seconds": result.seconds, "cpu_seconds": usage.ru_utime + usage.ru_stime,
                      "max_rss_mb": usage.ru_maxrss / 1024,
                      "removed_share": result.removed_share,
                      "boilerplate_blocks": result.fingerprint.blocks_boilerplate}))


def _child_baseline() -> None:
    """Child process: peak RSS of the interpreter with the same imports and nothing analysed."""
    db = open_database(":memory:")
    db.conn.close()
    print(json.dumps({"max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def run_large(work: Path, pages: int, runs: int) -> None:
    """Time and peak RSS of dedup on a generated database of ``pages`` pages (child processes)."""
    db_path = work / f"large-{pages}.db"
    started = time.perf_counter()
    content_bytes = generate_large_db(db_path, pages)
    print(f"\ngenerated {pages} pages ({content_bytes / 1e6:.0f} MB of content) in "
          f"{time.perf_counter() - started:.1f}s")
    figures = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, __file__, "--child-dedup", str(db_path)],
                             capture_output=True, text=True, check=True).stdout
        figures.append(json.loads(out.strip().splitlines()[-1]))
    base = json.loads(subprocess.run([sys.executable, __file__, "--child-baseline"],
                                     capture_output=True, text=True, check=True).stdout)
    wall = [f["seconds"] for f in figures]
    cpu = [f["cpu_seconds"] for f in figures]
    rss = statistics.median(f["max_rss_mb"] for f in figures)
    print(f"dedup of {pages} pages: wall median {statistics.median(wall):.1f}s "
          f"(runs {', '.join(format(x, '.1f') for x in wall)}), CPU median "
          f"{statistics.median(cpu):.1f}s; peak RSS median {rss:.0f} MB "
          f"(bare interpreter with the same imports: {base['max_rss_mb']:.0f} MB)")
    print(f"  {100 * figures[0]['removed_share']:.1f}% of bytes removed, "
          f"{figures[0]['boilerplate_blocks']} boilerplate blocks")


def main(argv: list[str] | None = None) -> int:
    """Parse arguments and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites_dir", nargs="?", type=Path)
    parser.add_argument("--work", type=Path, default=Path("output/bench-dedup"))
    parser.add_argument("--sites", help="comma-separated site names (default: all)")
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--large-pages", type=int, default=50_000)
    parser.add_argument("--large-runs", type=int, default=3,
                        help="dedup runs on the large database")
    parser.add_argument("--child-dedup", help=argparse.SUPPRESS)
    parser.add_argument("--child-baseline", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_dedup:
        _child_dedup(args.child_dedup)
        return 0
    if args.child_baseline:
        _child_baseline()
        return 0
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args.work.mkdir(parents=True, exist_ok=True)
    if args.sites_dir:
        run_sites(args.sites_dir, args.work, args.sites.split(",") if args.sites else None)
    if not args.skip_large:
        run_large(args.work, args.large_pages, args.large_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
