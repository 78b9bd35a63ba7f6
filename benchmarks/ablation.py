"""Benchmark: what each stage of the container choice earns, by switching it off.

Every page of both development corpora is extracted once with all stages on, recording which
stages applied (the ``decisions`` of the trace). A stage that did not apply on a page cannot
change it when switched off (stages act only through the choice they return), so each stage is
then switched off (``extract(..., disabled_stages={stage})``) on exactly the pages where it
applied. Printed per stage: on how many pages it applied, on how many the output text changed
when it was off, and the F1 it adds (all on minus switched off; negative = it costs) on the body
corpus per page type, and the snippet F1 it adds on the snippet corpus. Scored with the corpus
scorer (``score_extraction.py`` beside the corpora).

    python benchmarks/ablation.py [--jobs 2] [--limit N] [--json out.json] [--texts base.jsonl]
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared"
CORPORA = {"body": SHARED / "corpora" / "extraction-dev",
           "snippets": SHARED / "corpora" / "snippets-dev"}
SCORER = SHARED / "tools" / "score_extraction.py"


def load_scorer(path: Path = SCORER) -> ModuleType:
    """The corpus scorer, imported from its file (it is a standalone script)."""
    spec = importlib.util.spec_from_file_location("score_extraction", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot import the scorer {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_pages(corpus: str, limit: int | None) -> list[dict[str, Any]]:
    """Ground-truth rows of a corpus, each with its corpus name."""
    rows = []
    with open(CORPORA[corpus] / "ground-truth.jsonl", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                rows.append({**json.loads(line), "corpus": corpus})
            if limit and len(rows) >= limit:
                break
    return rows


def run_page(job: tuple[str, str, str, tuple[str, ...]]) -> tuple[str, str, list[str]]:
    """(id, text, applied stages) of one page with the given stages switched off."""
    from crawler.extraction import extract

    corpus, page_id, url, disabled = job
    data = gzip.decompress((CORPORA[corpus] / "html" / f"{page_id}.html.gz").read_bytes())
    try:
        result = extract(data, url, trace=True, disabled_stages=frozenset(disabled))
    except Exception as exc:  # noqa: BLE001 - one bad page must not stop the run
        print(f"{page_id}: {exc}", file=sys.stderr)
        return page_id, "", []
    applied = [d["stage"] for d in result.decisions or [] if d["applied"]]
    return page_id, result.content_text, applied


def figures(scorer: ModuleType, rows: list[dict[str, Any]], texts: dict[str, str]
            ) -> dict[str, float]:
    """Body F1 per page type (body corpus) and snippet F1 (snippet corpus) of a set of texts."""
    out: dict[str, float] = {}
    by_type: dict[str, list[dict]] = defaultdict(list)
    counts = []
    for row in rows:
        text = texts.get(row["id"], "")
        if row["corpus"] == "body":
            by_type[row["page_type"] or "?"].append(scorer.page_scores(row["body"], text))
        else:
            count = scorer.snippet_counts(row, text)
            if count is not None:
                counts.append(count)
    for kind, scores in sorted(by_type.items()):
        out[f"body/{kind}"] = scorer.aggregate(scores)["f1"]
    if by_type:
        out["body/ALL"] = scorer.aggregate([s for v in by_type.values() for s in v])["f1"]
    if counts:
        out["snippets/F1"] = scorer.snippet_aggregate(counts)["snippet_f1"]
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the baseline and one switched-off run per stage; print the ablation table."""
    from crawler.extraction.stages import STAGE_NAMES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each corpus")
    parser.add_argument("--json", default=None, help="write the table here")
    parser.add_argument("--texts", default=None,
                        help="write each page's text with all stages on here (JSON lines)")
    args = parser.parse_args(argv)
    scorer = load_scorer()
    rows = load_pages("body", args.limit) + load_pages("snippets", args.limit)
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        jobs = [(r["corpus"], r["id"], r.get("url") or "", ()) for r in rows]
        base: dict[str, str] = {}
        applied: dict[str, list[str]] = defaultdict(list)
        for page_id, text, stages in pool.map(run_page, jobs, chunksize=4):
            base[page_id] = text
            for stage in stages:
                applied[stage].append(page_id)
        base_figures = figures(scorer, rows, base)
        if args.texts:
            with open(args.texts, "w", encoding="utf-8") as out:
                for page_id, text in base.items():
                    out.write(json.dumps({"id": page_id, "text": text}, ensure_ascii=False) + "\n")
        table = []
        by_id = {r["id"]: r for r in rows}
        for stage in STAGE_NAMES:
            pages = applied.get(stage, [])
            jobs = [(by_id[i]["corpus"], i, by_id[i].get("url") or "", (stage,)) for i in pages]
            texts = dict(base)
            changed = 0
            for page_id, text, _ in pool.map(run_page, jobs, chunksize=2):
                changed += text != base[page_id]
                texts[page_id] = text
            off = figures(scorer, rows, texts)
            table.append({"stage": stage, "applied": len(pages), "changed": changed,
                          "body_pages": sum(by_id[i]["corpus"] == "body" for i in pages),
                          "snippet_pages": sum(by_id[i]["corpus"] == "snippets" for i in pages),
                          "adds": {k: base_figures[k] - off.get(k, 0.0) for k in base_figures}})
    elapsed = time.perf_counter() - started
    keys = list(base_figures)
    print(f"all stages on: " + ", ".join(f"{k} {v:.4f}" for k, v in base_figures.items()))
    print(f"{'stage':<14}{'applied':>8}{'changed':>8}  " + "  ".join(f"{k:>18}" for k in keys))
    for entry in table:
        print(f"{entry['stage']:<14}{entry['applied']:>8}{entry['changed']:>8}  "
              + "  ".join(f"{entry['adds'][k]:>+18.4f}" for k in keys))
    print(f"({len(rows)} pages, {elapsed:.0f} s, {args.jobs} processes)")
    if args.json:
        Path(args.json).write_text(json.dumps({"base": base_figures, "stages": table}, indent=1),
                                   encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
