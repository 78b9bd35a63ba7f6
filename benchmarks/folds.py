"""Benchmark: ours and trafilatura on both development corpora, split into folds by site.

Each page's site (the registrable domain of its URL, approximated as the last two host labels,
three for ``co.uk``-style suffixes; a Wayback Machine URL counts as the site it archives) is
hashed to one of ``--folds`` folds, so every page of a site lands in the same fold. Rules are
developed while looking at the ``--dev-folds`` only; the other folds are held out, and a change
stays only if it helps them too.

Both extractors run in the same run, on the same pages, in the same worker processes. Scoring is
the corpus scorer's own (``score_extraction.py`` beside the corpora): body F1 of shingles on the
body corpus, snippet precision / recall / F1, share of pages passing and leaked must-not-have
snippets on both. Printed per fold, for the development and held-out folds together, and (on
the body corpus) per page type.

    python benchmarks/folds.py [--jobs 2] [--folds 4] [--dev-folds 0,1] [--json out.json]
    python benchmarks/folds.py --reference-cache /tmp/traf.json   # reuse trafilatura's output

``--reference-cache`` stores trafilatura's predictions in a file and reads them back on later
runs (trafilatura does not change between runs of ours); report figures from a run without it.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.util
import json
import re
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable, Iterator
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared"
BODY_CORPUS = SHARED / "corpora" / "extraction-dev"
SNIPPET_CORPUS = SHARED / "corpora" / "snippets-dev"
SCORER = SHARED / "tools" / "score_extraction.py"
SITES = SHARED / "sites"

SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "edu", "or", "ne", "gv"})
"""Second-level labels under a two-letter country code that make a registrable suffix of their
own (``bbc.co.uk``, ``abc.net.au``), so the site is the last three labels."""

EXTRACTORS = ("ours", "trafilatura")
_WORD = re.compile(r"\w+")


def site_of(url: str | None, fallback: str) -> str:
    """The registrable domain of a page URL (the archived one for a Wayback Machine capture)."""
    url = url or ""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if host == "web.archive.org":
        inner = parts.path.split("/", 3)[3] if parts.path.count("/") >= 3 else ""
        if "://" not in inner:
            inner = "http://" + inner
        return site_of(inner, fallback)
    if not host:
        return fallback
    labels = [label for label in host.split(".") if label]
    if labels and labels[0] == "www":
        labels = labels[1:]
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in SECOND_LEVEL:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


def fold_of(site: str, folds: int) -> int:
    """A deterministic fold number of a site (the same on every machine and run)."""
    return int(hashlib.sha256(site.encode("utf-8")).hexdigest()[:8], 16) % folds


@dataclass(frozen=True)
class Page:
    """One corpus page to extract: where its HTML is, its URL, and its fold."""

    corpus: str
    page_id: str
    url: str
    site: str
    fold: int


def load_scorer(path: Path) -> ModuleType:
    """The corpus scorer, imported from its file (it is a standalone script)."""
    spec = importlib.util.spec_from_file_location("score_extraction", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot import the scorer {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def corpus_pages(corpus: Path, name: str, folds: int, limit: int | None) -> list[Page]:
    """The pages of one corpus with their sites and folds."""
    pages = []
    with open(corpus / "ground-truth.jsonl", encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            row = json.loads(line)
            site = site_of(row.get("url"), fallback="?" + row["id"])
            pages.append(Page(str(corpus), row["id"], row.get("url") or "", site,
                              fold_of(site, folds)))
            if limit and len(pages) >= limit:
                break
    return pages


def _read_html(page: Page) -> str:
    with gzip.open(Path(page.corpus) / "html" / f"{page.page_id}.html.gz", "rb") as handle:
        return handle.read().decode("utf-8", errors="replace")


def _run_ours(html: str, url: str) -> dict[str, Any]:
    from crawler.extraction import extract

    result = extract(html, url)
    return {"body": result.content_text, "title": result.title, "author": result.author,
            "date": result.published}


def _run_trafilatura(html: str, url: str) -> dict[str, Any]:
    import trafilatura

    return {"body": trafilatura.extract(html, url=url) or ""}


RUNNERS = {"ours": _run_ours, "trafilatura": _run_trafilatura}


def extract_page(task: tuple[Page, tuple[str, ...]]) -> dict[str, Any]:
    """Run the asked extractors on one page; their outputs and call times (HTML read untimed)."""
    page, names = task
    html = _read_html(page)
    out: dict[str, Any] = {"corpus": page.corpus, "id": page.page_id}
    for name in names:
        started = time.perf_counter()
        try:
            prediction = RUNNERS[name](html, page.url)
        except Exception as exc:  # noqa: BLE001 - an exception counts as empty output
            print(f"{name}: {page.page_id} failed: {exc}", file=sys.stderr)
            prediction = {"body": ""}
        prediction["seconds"] = time.perf_counter() - started
        out[name] = prediction
    return out


ABLATIONS: dict[str, tuple[str, str, Any]] = {
    "comments": ("crawler.extraction.comments", "find_comment_sections", lambda *a, **k: []),
    "code-chrome": ("crawler.extraction.clean", "_drop_code_chrome", lambda *a, **k: None),
    "repeat-shapes": ("crawler.extraction.clean", "_same_shape_branches", lambda *a, **k: False),
    "unclosed-chrome": ("crawler.extraction.clean", "_close_swallowing_chrome",
                        lambda *a, **k: None),
    "script-links": ("crawler.extraction.clean", "_unwrap_script_links", lambda *a, **k: None),
    "heading-guard": ("crawler.extraction.clean", "_emptied_heading", lambda *a, **k: None),
    "story-tail": ("crawler.extraction", "trim_story_tail", lambda *a, **k: 0),
    "media-caption": ("crawler.extraction", "drop_media_captions", lambda *a, **k: 0),
    "caption-row": ("crawler.extraction.media_captions", "_card_beside", lambda *a, **k: True),
    "caption-wrapper": ("crawler.extraction.media_captions", "_outer_wrapper",
                        lambda media: media),
    "caption-sibling": ("crawler.extraction.media_captions", "caption_lines",
                        lambda *a, **k: []),
    "link-button": ("crawler.extraction", "drop_link_buttons", lambda *a, **k: 0),
    "share-widget": ("crawler.extraction", "drop_share_widgets", lambda *a, **k: 0),
    "story-aside": ("crawler.extraction", "drop_story_asides", lambda *a, **k: 0),
    "story-head": ("crawler.extraction", "drop_story_head", lambda *a, **k: 0),
    "lead-date": ("crawler.extraction.story_head", "lead_date_lines", lambda *a, **k: []),
    "declared-lead": ("crawler.extraction", "add_declared_lead", lambda *a, **k: False),
    "head-lead": ("crawler.extraction.story_lead", "find_head_lead", lambda *a, **k: None),
    "discussion-posts": ("crawler.extraction.clean", "discussion_posts", lambda *a, **k: None),
    "teaser-list": ("crawler.extraction", "drop_teaser_lists", lambda *a, **k: 0),
    "aside-label": ("crawler.extraction.story_asides", "aside_labels", lambda *a, **k: []),
    "form-box": ("crawler.extraction.clean", "_form_boxes", lambda *a, **k: []),
    "declared-aside": ("crawler.extraction.clean", "_declared_asides", lambda *a, **k: []),
    "print-hidden": ("crawler.extraction.clean", "_print_hidden_blocks", lambda *a, **k: []),
    "orphan-label": ("crawler.extraction.clean", "labels_before", lambda *a, **k: []),
    "script-button": ("crawler.extraction.link_buttons", "_script_button", lambda *a, **k: False),
    "teaser-tag": ("crawler.extraction.teaser_lists", "per_card_groups", lambda *a, **k: []),
    "teaser-box": ("crawler.extraction.teaser_lists", "row_boxes", lambda *a, **k: {}),
    "teaser-card": ("crawler.extraction.teaser_lists", "find_lone_cards", lambda *a, **k: []),
    "tail-label": ("crawler.extraction", "trim_tail_labels", lambda *a, **k: 0),
    "tail-note": ("crawler.extraction", "trim_tail_notes", lambda *a, **k: 0),
    "article-beside-list": ("crawler.extraction.metadata", "_article_beside_list",
                            lambda *a, **k: False),
    "declared-description": ("crawler.extraction.clean", "_holds_declared_description",
                             lambda *a, **k: False),
    "declared-faq": ("crawler.extraction", "find_declared_faq", lambda *a, **k: None),
    "trailing-heading": ("crawler.extraction.clean", "trailing_headings",
                         lambda *a, **k: []),
    "faq-questions": ("crawler.extraction", "keep_declared_questions", lambda *a, **k: 0),
    "price-line": ("crawler.extraction", "drop_price_lines", lambda *a, **k: 0),
    "card-rail": ("crawler.extraction", "drop_card_rails", lambda *a, **k: 0),
    "page-agree": ("crawler.extraction.stages", "agreement_extra_good",
                   lambda page: page.thresholds.container_extra_good),
}
"""Rules that ``--without NAME`` switches off (in the worker processes only) to measure what
each earns: the function that applies the rule is replaced by one that finds nothing."""


def switch_off(names: tuple[str, ...]) -> None:
    """Switch the named rules off in this process (a benchmark's ablation, never the product)."""
    for name in names:
        module_name, attribute, replacement = ABLATIONS[name]
        setattr(importlib.import_module(module_name), attribute, replacement)


def _warm_up(without: tuple[str, ...] = ()) -> None:
    """Import both extractors once per worker, outside any timed call; switch rules off."""
    switch_off(without)
    _run_ours("<html><body><p>warm up</p></body></html>", "https://example.org/")
    _run_trafilatura("<html><body><p>warm up</p></body></html>", "https://example.org/")


def run_pages(pages: list[Page], names: tuple[str, ...], jobs: int,
              without: tuple[str, ...] = ()) -> Iterator[dict[str, Any]]:
    """Outputs of every page, in ``jobs`` worker processes (in this process for 1)."""
    tasks = [(page, names) for page in pages]
    if jobs <= 1:
        _warm_up(without)
        yield from map(extract_page, tasks)
        return
    with ProcessPoolExecutor(max_workers=jobs, initializer=_warm_up,
                             initargs=(without,)) as pool:
        yield from pool.map(extract_page, tasks, chunksize=4)


def scored_pages(scorer: ModuleType, corpus: Path, preds: dict[str, dict[str, Any]],
                 folds_by_id: dict[str, int]) -> list[dict[str, Any]]:
    """The scorer's per-page scores of one extractor on one corpus, with their folds."""
    truth = [row for row in scorer.load_ground_truth(corpus) if row["id"] in folds_by_id]
    pages = scorer.score(truth, preds, n_boot=0)["pages"]
    for page in pages:
        page["fold"] = folds_by_id[page["id"]]
    return pages


def figures(scorer: ModuleType, pages: list[dict[str, Any]]) -> dict[str, Any]:
    """Body and snippet figures of a group of scored pages."""
    out: dict[str, Any] = {"pages": len(pages)}
    body = [p for p in pages if p["has_body"]]
    if body:
        out.update(scorer.aggregate(body))
        out["below_half"] = sum(p["f1"] < 0.5 for p in body) / len(body)
        out["below_half_n"] = sum(p["f1"] < 0.5 for p in body)
        out["mean_page_f1"] = statistics.fmean(p["f1"] for p in body)
    counts = [p["snippet_counts"] for p in pages if p["snippet_counts"] is not None]
    if counts:
        out.update(scorer.snippet_aggregate(counts))
    return out


def groups(pages: list[dict[str, Any]], dev_folds: set[int], folds: int,
           by_type: bool) -> Iterable[tuple[str, list[dict[str, Any]]]]:
    """The groups a table prints: all pages, development and held-out folds, each fold, and
    (for a corpus with page types) each page type within the held-out and development folds."""
    yield "ALL", pages
    yield "dev folds", [p for p in pages if p["fold"] in dev_folds]
    yield "held-out folds", [p for p in pages if p["fold"] not in dev_folds]
    for fold in range(folds):
        tag = "dev" if fold in dev_folds else "held"
        yield f"fold {fold} ({tag})", [p for p in pages if p["fold"] == fold]
    if by_type:
        types = sorted({p["page_type"] or "?" for p in pages})
        for kind in types:
            yield f"{kind}", [p for p in pages if (p["page_type"] or "?") == kind]
        for kind in types:
            for label, keep in (("held", lambda f: f not in dev_folds),
                                ("dev", lambda f: f in dev_folds)):
                yield f"{kind} {label}", [p for p in pages
                                          if (p["page_type"] or "?") == kind and keep(p["fold"])]


def _body_cell(m: dict[str, Any]) -> str:
    return (f"{m.get('f1', 0):>14.3f} {m.get('below_half', 0):5.1%}"
            f" {m.get('snippet_f1', 0):8.3f} {m.get('snippet_fp', 0):4d}")


def _snippet_cell(m: dict[str, Any]) -> str:
    return (f"{m.get('snippet_precision', 0):.3f} {m.get('snippet_recall', 0):.3f} "
            f"{m.get('snippet_f1', 0):.3f} {m.get('snippet_pass', 0):5.1%} "
            f"{m.get('snippet_fp', 0):5d}")


TABLES = {
    "extraction-dev": ("  {:>11} F1  <0.5   snipF1 leak", _body_cell, 33, True),
    "snippets-dev": ("  {:>11}  P     R     F1    pass  leaked", _snippet_cell, 42, False),
}
"""Per corpus: the column header of one extractor, its cell, the cell width, and whether the
table is broken down by page type. The body corpus shows body F1, pages below F1 0.5, snippet F1
and leaked snippets; the snippet corpus snippet precision / recall / F1, pages passing and
leaked snippets."""


def print_table(scorer: ModuleType, corpus: str, scored: dict[str, list[dict[str, Any]]],
                dev_folds: set[int], folds: int) -> None:
    """One corpus's figures of each extractor, per group (all, dev / held-out, folds, types)."""
    header, cell, width, by_type = TABLES[corpus]
    names = list(scored)
    print(f"{'group':<24}{'pages':>6}" + "".join(header.format(n[:11]) for n in names))
    rows = {n: dict(groups(scored[n], dev_folds, folds, by_type=by_type)) for n in names}
    for label in rows[names[0]]:
        count = len(rows[names[0]][label])
        cells = [cell(figures(scorer, rows[n][label])) if rows[n][label] else "-"
                 for n in names]
        print(f"{label:<24}{count:>6}" + "".join(f"  {c:>{width}}" for c in cells))


MIN_BOILERPLATE_CHARS = 20
"""Boilerplate snippets of the shared sites shorter than this (a nav label such as "Next") may
legitimately be in the content; longer ones must not be."""
_EMPTY_MD_HEADING = re.compile(r"^#{1,6}[ \t]*$", re.M)
_FENCED_CODE = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", re.M | re.S)
"""A fenced code block: a line of only ``#`` inside it (a comment marker in a YAML or shell
listing) is code, not an empty heading."""
_EMPTY_HTML_HEADING = re.compile(r"<h[1-6][^>]*>\s*</h[1-6]>", re.I)


def _bag_f1(truth: str, pred: str) -> float:
    """F1 of lower-cased word tokens (multisets): the shared sites' main-text measure."""
    t = Counter(_WORD.findall(truth.lower()))
    p = Counter(_WORD.findall(pred.lower()))
    overlap = sum((t & p).values())
    if not t and not p:
        return 1.0
    if not overlap:
        return 0.0
    precision, recall = overlap / sum(p.values()), overlap / sum(t.values())
    return 2 * precision * recall / (precision + recall)


def site_page(task: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """Both extractors on one page of a shared site: main-text F1, leaked boilerplate snippets
    and (ours) empty headings."""
    site_dir, row = task
    html = (Path(site_dir) / "public" / row["file"]).read_bytes().decode("utf-8", "replace")
    url = "http://127.0.0.1:8000" + row["path"]
    from crawler.extraction import extract

    result = extract(html, url)
    reference = _run_trafilatura(html, url)["body"]
    snippets = [s for s in row.get("boilerplate_snippets") or []
                + row.get("injected_snippets", []) if len(s) >= MIN_BOILERPLATE_CHARS]
    empty = len(_EMPTY_MD_HEADING.findall(_FENCED_CODE.sub("", result.content_markdown))) \
        + len(_EMPTY_HTML_HEADING.findall(result.content_html))
    return {"site": Path(site_dir).name, "path": row["path"],
            "ours": _bag_f1(row["main_text"], result.content_text),
            "trafilatura": _bag_f1(row["main_text"], reference),
            "ours_leaked": sum(s.lower() in result.content_text.lower() for s in snippets),
            "trafilatura_leaked": sum(s.lower() in reference.lower() for s in snippets),
            "empty_headings": empty}


def print_sites(sites_dir: Path, jobs: int) -> None:
    """Per shared site: mean main-text F1 of both, leaked boilerplate, empty headings (ours)."""
    tasks = []
    for truth in sorted(sites_dir.glob("*/truth.jsonl")):
        with open(truth, encoding="utf-8") as handle:
            tasks += [(str(truth.parent), json.loads(line)) for line in handle if line.strip()]
    if jobs <= 1:
        rows = list(map(site_page, tasks))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            rows = list(pool.map(site_page, tasks, chunksize=4))
    print(f"\n== shared sites: {len(rows)} pages")
    print(f"{'site':<38}{'pages':>6}{'ours F1':>9}{'min':>7}{'traf F1':>9}"
          f"{'leaked':>8}{'traf':>6}{'empty h':>9}")
    for site in sorted({r["site"] for r in rows}):
        group = [r for r in rows if r["site"] == site]
        print(f"{site:<38}{len(group):>6}{statistics.fmean(r['ours'] for r in group):>9.3f}"
              f"{min(r['ours'] for r in group):>7.3f}"
              f"{statistics.fmean(r['trafilatura'] for r in group):>9.3f}"
              f"{sum(r['ours_leaked'] for r in group):>8d}"
              f"{sum(r['trafilatura_leaked'] for r in group):>6d}"
              f"{sum(r['empty_headings'] > 0 for r in group):>9d}")


def main(argv: list[str] | None = None) -> int:
    """Run both extractors over both corpora, score them per fold, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--body-corpus", type=Path, default=BODY_CORPUS)
    parser.add_argument("--snippet-corpus", type=Path, default=SNIPPET_CORPUS)
    parser.add_argument("--scorer", type=Path, default=SCORER)
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--dev-folds", default="0,1",
                        help="comma-separated folds rules are developed on (others held out)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None, help="only the first N pages of each")
    parser.add_argument("--only", choices=EXTRACTORS, default=None)
    parser.add_argument("--reference-cache", type=Path, default=None,
                        help="read trafilatura's outputs from this file, or write them there")
    parser.add_argument("--json", type=Path, default=None, help="write every page's scores here")
    parser.add_argument("--predictions", type=Path, default=None,
                        help="write our extracted text of every page run here (JSON lines)")
    parser.add_argument("--sites", type=Path, default=SITES,
                        help="shared sites to check too (main-text F1, boilerplate, empty headings)")
    parser.add_argument("--sites-only", action="store_true", help="only the shared sites")
    parser.add_argument("--without", action="append", default=[], choices=sorted(ABLATIONS),
                        help="switch a rule off (ablation); repeat for several")
    parser.add_argument("--ids", type=Path, default=None,
                        help="run ours only on these pages (lines 'corpus<TAB>id'); the others "
                             "are taken from --rest-from")
    parser.add_argument("--rest-from", type=Path, default=None,
                        help="an earlier run's --json: our scores of the pages not in --ids")
    args = parser.parse_args(argv)
    if args.sites_only:
        print_sites(args.sites, args.jobs)
        return 0
    dev_folds = {int(f) for f in args.dev_folds.split(",") if f.strip()}
    if args.folds < 2 or not dev_folds or not dev_folds < set(range(args.folds)):
        parser.error("--dev-folds must name some, not all, of the folds")
    scorer = load_scorer(args.scorer)
    corpora = {"extraction-dev": args.body_corpus, "snippets-dev": args.snippet_corpus}
    pages = {name: corpus_pages(path, name, args.folds, args.limit)
             for name, path in corpora.items()}
    names = (args.only,) if args.only else EXTRACTORS
    cached: dict[str, dict[str, Any]] = {}
    if args.reference_cache and args.reference_cache.is_file() and "trafilatura" in names:
        cached = json.loads(args.reference_cache.read_text(encoding="utf-8"))
        names = tuple(n for n in names if n != "trafilatura")
    everything = [p for ps in pages.values() for p in ps]
    wanted = None
    if args.ids is not None:
        wanted = {tuple(line.split("\t")) for line in
                  args.ids.read_text(encoding="utf-8").split("\n") if line.strip()}
        if args.rest_from is None or "trafilatura" in names:
            parser.error("--ids needs --rest-from, and --reference-cache or --only ours")
    to_run = [p for p in everything if wanted is None
              or (Path(p.corpus).name, p.page_id) in wanted]
    outputs: dict[str, dict[tuple[str, str], dict[str, Any]]] = {n: {} for n in EXTRACTORS}
    started = time.perf_counter()
    for done, out in enumerate(run_pages(to_run, names, args.jobs, tuple(args.without)), 1):
        for name in names:
            outputs[name][(out["corpus"], out["id"])] = out[name]
        if done % 200 == 0:
            print(f"  {done}/{len(everything)} pages, {time.perf_counter() - started:.0f} s",
                  file=sys.stderr)
    if cached:
        # Keyed by the corpus folder's name, not its path: a checkout elsewhere reads it too.
        corpus_by_name = {Path(p.corpus).name: p.corpus for p in everything}
        for key, value in cached.items():
            corpus_name, page_id = key.split("\t")
            if corpus_name in corpus_by_name:
                outputs["trafilatura"][(corpus_by_name[corpus_name], page_id)] = value
        missing = [p for p in everything
                   if (p.corpus, p.page_id) not in outputs["trafilatura"]]
        if missing:
            parser.error(f"--reference-cache {args.reference_cache} holds no trafilatura output "
                         f"for {len(missing)} of the {len(everything)} pages (a cache of other "
                         f"corpora or pages): delete it to run trafilatura again")
    elif args.reference_cache and "trafilatura" in names:
        args.reference_cache.write_text(json.dumps(
            {f"{Path(c).name}\t{i}": v for (c, i), v in outputs["trafilatura"].items()}),
            encoding="utf-8")
    shown = [n for n in EXTRACTORS if outputs[n]]
    report: dict[str, Any] = {}
    for corpus_name, path in corpora.items():
        folds_by_id = {p.page_id: p.fold for p in pages[corpus_name]}
        scored = {}
        for name in shown:
            preds = {i: v for (c, i), v in outputs[name].items() if c == str(path)}
            scored[name] = scored_pages(scorer, path, preds, folds_by_id)
            if name == "ours" and wanted is not None:
                earlier = {p["id"]: p for p in json.loads(args.rest_from.read_text(
                    encoding="utf-8"))[corpus_name]["ours"]}
                scored[name] = [p if (corpus_name, p["id"]) in wanted else earlier[p["id"]]
                                for p in scored[name]]
        report[corpus_name] = scored
        sites = {p.site for p in pages[corpus_name]}
        per_fold = [sum(1 for p in pages[corpus_name] if p.fold == f) for f in range(args.folds)]
        print(f"\n== {corpus_name}: {len(pages[corpus_name])} pages, {len(sites)} sites, "
              f"pages per fold {per_fold}, development folds {sorted(dev_folds)}")
        print_table(scorer, corpus_name, scored, dev_folds, args.folds)
    print()
    for name in shown:
        seconds = [v["seconds"] for v in outputs[name].values()]
        print(f"{name:<12} median {statistics.median(seconds) * 1000:6.1f} ms/page, "
              f"{len(seconds) / sum(seconds):6.1f} pages/s (sum of call times, {args.jobs} jobs"
              f"{', from the cache' if name == 'trafilatura' and cached else ''})")
    if args.sites and args.sites.is_dir() and args.limit is None:
        print_sites(args.sites, args.jobs)
    if args.json:
        args.json.write_text(json.dumps({c: {n: [{k: v for k, v in p.items()
                                                   if k not in ("snippets", "meta")}
            for p in s] for n, s in scored.items()} for c, scored in report.items()}),
            encoding="utf-8")
    if args.predictions:
        with open(args.predictions, "w", encoding="utf-8") as handle:
            for (corpus, page_id), value in outputs["ours"].items():
                handle.write(json.dumps({"corpus": Path(corpus).name, "id": page_id,
                                         "body": value.get("body", "")}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
