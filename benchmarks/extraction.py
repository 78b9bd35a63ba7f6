"""Benchmark: our extractor and trafilatura over a ground-truthed corpus, side by side, one run.

Prints corpus precision / recall / F1 (4-token shingles, mean page P and R, F1 of the means),
mean page F1, share of pages with F1 < 0.5, the same per page type, title / author / date
accuracy, and pages/s of each extractor (single process, HTML decoded outside the timed call;
trafilatura is timed with its default ``extract()``, its metadata is read outside the timing,
while our timing includes metadata, structured data, rendering and quality).

    python benchmarks/extraction.py [CORPUS_DIR] [--limit N] [--only ours|trafilatura]
        [--disable-stage STAGE ...] [--threshold NAME=VALUE ...]

CORPUS_DIR defaults to ``../shared/corpora/extraction-dev`` relative to the repository root.
"""

from __future__ import annotations

import argparse
import gzip
import json
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


def run(name: str, func: Callable[[str, str], dict[str, Any]], pages: list[dict[str, Any]],
        truth: dict[str, dict[str, Any]],
        untimed_metadata: Callable[[str, str], dict[str, Any]] | None = None) -> dict[str, Any]:
    """Run one extractor over the pages; score and time it (metadata helper, if any, untimed)."""
    func(pages[0]["html"], pages[0]["url"])  # warm-up: imports and caches, untimed
    spent = 0.0
    scored = []
    meta_hits: dict[str, list[int]] = defaultdict(list)
    for page in pages:
        started = time.perf_counter()
        try:
            out = func(page["html"], page["url"])
        except Exception as exc:  # noqa: BLE001 - an exception counts as empty output
            print(f"{name}: {page['id']} failed: {exc}", file=sys.stderr)
            out = {"body": ""}
        spent += time.perf_counter() - started
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
    return {"name": name, "pages_per_s": len(pages) / spent if spent else 0.0, "scored": scored,
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
        print(f"{res['name']:<12} {res['pages_per_s']:6.1f} pages/s   metadata exact: {meta}")


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run both extractors, print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=str(ROOT.parent / "shared" / "corpora" /
                                                         "extraction-dev"))
    parser.add_argument("--limit", type=int, default=None, help="only the first N pages")
    parser.add_argument("--only", choices=["ours", "trafilatura"], default=None)
    parser.add_argument("--json", default=None, help="write per-page scores here")
    parser.add_argument("--disable-stage", action="append", default=[], metavar="STAGE",
                        help="switch a stage of the choice off (repeatable)")
    parser.add_argument("--threshold", action="append", default=[], metavar="NAME=VALUE",
                        help="run with one threshold changed (repeatable)")
    args = parser.parse_args(argv)
    extractor = _configured(parser, args.disable_stage, args.threshold)
    corpus = Path(args.corpus)
    if not (corpus / "ground-truth.jsonl").is_file():
        parser.error(f"{corpus} has no ground-truth.jsonl")
    pages, truth = load(corpus, args.limit)
    results = []
    if args.only in (None, "ours"):
        results.append(run("ours", extractor, pages, truth))
    if args.only in (None, "trafilatura"):
        results.append(run("trafilatura", trafilatura_extractor, pages, truth,
                           untimed_metadata=trafilatura_metadata))
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
