"""Benchmark: our extractor and trafilatura over a ground-truthed corpus, side by side, one run.

Prints corpus precision / recall / F1 (4-token shingles, mean page P and R, F1 of the means),
mean page F1, share of pages with F1 < 0.5, the same per page type, title / author / date
accuracy, and the speed of each extractor in one process: pages/s, the ratio ours / trafilatura,
per-page p50 / p95 milliseconds and the process's peak RSS. HTML is decoded outside the timed
calls; trafilatura is timed with its default ``extract()`` (its metadata is read outside the
timing), while our timing includes metadata, structured data, rendering and quality.

Both extractors run on each page in turn (the order alternating from page to page and from
repeat to repeat), so load from other processes falls on both alike; each call is timed in CPU
seconds of this process, which waiting for a shared CPU does not inflate. ``--repeat N`` runs the
corpus N times and prints medians (quality figures come from the first pass: they do not change).

    python benchmarks/extraction.py [CORPUS_DIR] [--limit N] [--repeat N] [--only ours|trafilatura]
        [--disable-stage STAGE ...] [--threshold NAME=VALUE ...]

CORPUS_DIR defaults to ``../shared/corpora/extraction-dev`` relative to the repository root.
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from crawler.extraction.evaluation import page_scores  # noqa: E402

def _norm(value: Any) -> str:
    """Whitespace-normalised, case-folded metadata value."""
    return " ".join(str(value or "").split()).casefold()


def summarise(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Corpus figures of a list of scored pages."""
    ps = [r["p"] for r in rows if r["p"] is not None]
    rs = [r["r"] for r in rows if r["r"] is not None]
    precision = statistics.fmean(ps) if ps else 0.0
    recall = statistics.fmean(rs) if rs else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    f1s = [r["f1"] for r in rows]
    return {"pages": len(rows), "f1": f1, "precision": precision, "recall": recall,
            "mean_page_f1": statistics.fmean(f1s) if f1s else 0.0,
            "below_half": sum(1 for f in f1s if f < 0.5) / len(f1s) if f1s else 0.0}


def ours(html: str, url: str, disabled_stages: frozenset[str] = frozenset(),
         thresholds: Any = None) -> dict[str, Any]:
    """Our extractor's body and metadata (stages switched off and thresholds changed if asked)."""
    from crawler.extraction import THRESHOLDS, extract

    result = extract(html, url, disabled_stages=disabled_stages,
                     thresholds=thresholds or THRESHOLDS)
    return {"body": result.content_text, "title": result.title, "author": result.author,
            "date": result.published}


def trafilatura_extractor(html: str, url: str) -> dict[str, Any]:
    """trafilatura 2.x ``extract()`` with default settings (the timed call)."""
    import trafilatura

    return {"body": trafilatura.extract(html, url=url) or ""}


def trafilatura_metadata(html: str, url: str) -> dict[str, Any]:
    """trafilatura's metadata of a page (computed outside the timed call)."""
    import trafilatura

    meta = trafilatura.extract_metadata(html, default_url=url)
    if meta is None:
        return {}
    return {"title": meta.title, "author": meta.author, "date": meta.date}


Extractor = Callable[[str, str], dict[str, Any]]


def run(extractors: list[tuple[str, Extractor, Extractor | None]], pages: list[dict[str, Any]],
        truth: dict[str, dict[str, Any]], repeats: int = 1) -> list[dict[str, Any]]:
    """Run the extractors page by page, alternating which goes first, ``repeats`` times; score
    the first pass and time every call (each extractor's metadata helper, if any, untimed)."""
    for _, func, _ in extractors:
        func(pages[0]["html"], pages[0]["url"])  # warm-up: imports and caches, untimed
    seconds = {name: [[0.0] * len(pages) for _ in range(repeats)] for name, _, _ in extractors}
    outputs: dict[str, list[dict[str, Any]]] = {name: [] for name, _, _ in extractors}
    for repeat in range(repeats):
        for index, page in enumerate(pages):
            order = extractors if (index + repeat) % 2 == 0 else extractors[::-1]
            for name, func, _ in order:
                started = time.process_time()
                try:
                    out = func(page["html"], page["url"])
                except Exception as exc:  # noqa: BLE001 - an exception counts as empty output
                    print(f"{name}: {page['id']} failed: {exc}", file=sys.stderr)
                    out = {"body": ""}
                seconds[name][repeat][index] = time.process_time() - started
                if repeat == 0:
                    outputs[name].append(out)
    results = []
    for name, _, untimed_metadata in extractors:
        result = _scored(name, outputs[name], pages, truth, untimed_metadata)
        passes = [len(pages) / sum(spent) if sum(spent) else 0.0 for spent in seconds[name]]
        per_page = sorted(1000 * statistics.median(spent[i] for spent in seconds[name])
                          for i in range(len(pages)))
        result.update(pages_per_s=statistics.median(passes), passes=passes,
                      p50_ms=_quantile(per_page, 0.50), p95_ms=_quantile(per_page, 0.95))
        results.append(result)
    return results


def _quantile(ordered: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted values lie (nearest rank)."""
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def _scored(name: str, outputs: list[dict[str, Any]], pages: list[dict[str, Any]],
            truth: dict[str, dict[str, Any]],
            untimed_metadata: Extractor | None) -> dict[str, Any]:
    """Body scores and metadata accuracy of one extractor's outputs."""
    scored = []
    meta_hits: dict[str, list[int]] = defaultdict(list)
    for page, out in zip(pages, outputs):
        if untimed_metadata is not None:
            try:
                out.update(untimed_metadata(page["html"], page["url"]))
            except Exception:  # noqa: BLE001 - metadata is optional here
                pass
        gt = truth[page["id"]]
        p, r, f1 = page_scores(out.get("body") or "", gt.get("body") or "")
        scored.append({"id": page["id"], "type": gt.get("page_type") or "?", "p": p, "r": r,
                       "f1": f1})
        for field in ("title", "author", "date"):
            if gt.get(field):
                predicted = out.get(field) or ""
                if field == "date":
                    predicted = str(predicted)[:len(str(gt[field]))]
                meta_hits[field].append(int(_norm(predicted) == _norm(gt[field])))
    return {"name": name, "scored": scored,
            "meta": {k: (sum(v) / len(v), len(v)) for k, v in meta_hits.items()}}


def load(corpus: Path, limit: int | None) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """Pages (HTML decoded up front, outside timing) and ground truth by id."""
    truth = {}
    with open(corpus / "ground-truth.jsonl", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            truth[row["id"]] = row
    pages = []
    for page_id, row in truth.items():
        raw = gzip.open(corpus / "html" / f"{page_id}.html.gz").read()
        pages.append({"id": page_id, "url": row.get("url") or "",
                      "html": raw.decode("utf-8", errors="replace")})
        if limit and len(pages) >= limit:
            break
    return pages, truth


def report(results: list[dict[str, Any]]) -> None:
    """Print the side-by-side tables."""
    names = [r["name"] for r in results]
    print(f"{'group':<26}{'pages':>6}  " + "  ".join(
        f"{n[:12]:>12} F1 / P / R / meanF1 / <0.5" for n in names))
    types = sorted({s["type"] for s in results[0]["scored"]})
    for group in ["ALL"] + types:
        cells = []
        count = 0
        for res in results:
            rows = [s for s in res["scored"] if group == "ALL" or s["type"] == group]
            count = len(rows)
            m = summarise(rows)
            cells.append(f"{m['f1']:.3f} / {m['precision']:.3f} / {m['recall']:.3f} / "
                         f"{m['mean_page_f1']:.3f} / {m['below_half']:5.1%}")
        print(f"{group:<26}{count:>6}  " + "    ".join(f"{c:>40}" for c in cells))
    print()
    for res in results:
        meta = ", ".join(f"{k} {v[0]:.1%} (n={v[1]})" for k, v in sorted(res["meta"].items()))
        print(f"{res['name']:<12} metadata exact: {meta}")
    print()
    repeats = len(results[0]["passes"])
    print(f"speed, one process, CPU time, median of {repeats} pass(es) over "
          f"{len(results[0]['scored'])} pages:")
    for res in results:
        passes = " / ".join(f"{pps:.1f}" for pps in res["passes"])
        print(f"{res['name']:<12} {res['pages_per_s']:7.1f} pages/s (passes {passes})   "
              f"per page p50 {res['p50_ms']:.1f} ms, p95 {res['p95_ms']:.1f} ms")
    if len(results) == 2:
        ratios = [a / b if b else 0.0 for a, b in zip(results[0]["passes"], results[1]["passes"])]
        print(f"ratio {results[0]['name']} / {results[1]['name']}: "
              f"{statistics.median(ratios):.2f} (passes "
              f"{' / '.join(f'{r:.2f}' for r in ratios)})")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of the process (both extractors and the decoded corpus): {peak:.0f} MiB")


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run both extractors, print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=str(ROOT.parent / "shared" / "corpora" /
                                                         "extraction-dev"))
    parser.add_argument("--limit", type=int, default=None, help="only the first N pages")
    parser.add_argument("--repeat", type=int, default=1, help="time N passes, print medians")
    parser.add_argument("--only", choices=["ours", "trafilatura"], default=None)
    parser.add_argument("--json", default=None, help="write per-page scores here")
    parser.add_argument("--disable-stage", action="append", default=[], metavar="STAGE",
                        help="switch a stage of the choice off (repeatable)")
    parser.add_argument("--threshold", action="append", default=[], metavar="NAME=VALUE",
                        help="run with one threshold changed (repeatable)")
    args = parser.parse_args(argv)
    extractor = _configured(parser, args.disable_stage, args.threshold)
    corpus = Path(args.corpus)
    if args.repeat < 1:
        parser.error("--repeat wants a positive number of passes")
    if not (corpus / "ground-truth.jsonl").is_file():
        parser.error(f"{corpus} has no ground-truth.jsonl")
    pages, truth = load(corpus, args.limit)
    extractors: list[tuple[str, Extractor, Extractor | None]] = []
    if args.only in (None, "ours"):
        extractors.append(("ours", extractor, None))
    if args.only in (None, "trafilatura"):
        extractors.append(("trafilatura", trafilatura_extractor, trafilatura_metadata))
    results = run(extractors, pages, truth, args.repeat)
    report(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


def _configured(parser: argparse.ArgumentParser, disabled: list[str],
                assignments: list[str]) -> Callable[[str, str], dict[str, Any]]:
    """``ours`` with the asked stages off and thresholds changed (a bad name is a usage error)."""
    from dataclasses import replace

    from crawler.extraction import STAGE_NAMES, THRESHOLDS

    unknown = sorted(set(disabled) - set(STAGE_NAMES))
    if unknown:
        parser.error(f"no such stage: {', '.join(unknown)} (stages: {', '.join(STAGE_NAMES)})")
    changes: dict[str, float] = {}
    for assignment in assignments:
        name, _, value = assignment.partition("=")
        current = THRESHOLDS.as_dict().get(name)
        if current is None or not value:
            parser.error(f"--threshold wants NAME=VALUE with a name of Thresholds, got "
                         f"{assignment!r}")
        try:
            changes[name] = type(current)(value)
        except ValueError:
            parser.error(f"--threshold {name} wants a {type(current).__name__}, got {value!r}")
    thresholds = replace(THRESHOLDS, **changes)
    return lambda html, url: ours(html, url, frozenset(disabled), thresholds)


if __name__ == "__main__":
    raise SystemExit(main())
