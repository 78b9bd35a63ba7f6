"""Benchmark: what each stage of the container choice and each cleaning rule earns, switched off.

Every page of both development corpora is extracted once with everything on, recording on which
pages each stage applied (the ``decisions`` of the trace) and each rule acted. A rule acted on a
page when the function that applies it returned something other than what its switched-off
replacement returns (``ABLATIONS`` of ``folds.py``), or changed the tree it was given; a stage or
rule that did not act on a page cannot change it when switched off, so each is then switched off
on exactly the pages where it acted, the other pages keep their first output.

Scored like ``folds.py`` (the corpus scorer beside the corpora, the same folds by site, the same
reading of the corpus HTML), and printed as what each earns (everything on minus it switched
off; negative = it costs): on the body corpus body F1 and pages below F1 0.5 on the held-out and
the development folds and per page type, on the snippet corpus snippet F1 and leaked
must-not-have snippets on the held-out and the development folds. A stage or rule pays its way
when the held-out folds of both corpora gain (or hold) with it.

    python benchmarks/ablation.py [--jobs 2] [--limit N] [--only NAME ...] [--json out.json]
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.folds import (ABLATIONS, BODY_CORPUS, SCORER, SNIPPET_CORPUS,  # noqa: E402
                              Page, _read_html, corpus_pages, figures, load_scorer,
                              scored_pages, switch_off)

CORPORA = {"extraction-dev": BODY_CORPUS, "snippets-dev": SNIPPET_CORPUS}

_ACTED: set[str] = set()
"""The rules that acted on the page being extracted (one worker process extracts one page at a
time; emptied before each page)."""


def _tree_signature(value: Any) -> bytes | None:
    """The serialised form of an lxml element (to see a rule change the tree it was given, even
    by only moving elements)."""
    from lxml import etree

    if isinstance(value, etree._Element):
        return etree.tostring(value)
    return None


def _recording(name: str, original: Callable[..., Any],
               replacement: Callable[..., Any]) -> Callable[..., Any]:
    """``original``, noting ``name`` in :data:`_ACTED` whenever the call could differ from the
    switched-off replacement's: another result, or a change to the element it was given."""
    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        before = _tree_signature(args[0]) if args else None
        result = original(*args, **kwargs)
        if result != replacement(*args, **kwargs) or (
                before is not None and _tree_signature(args[0]) != before):
            _ACTED.add(name)
        return result
    return wrapper


def _start_worker(record: bool, without: tuple[str, ...]) -> None:
    """A worker either records which rules act (the run with everything on) or has some off."""
    if record:
        for name, (module_name, attribute, replacement) in ABLATIONS.items():
            module = importlib.import_module(module_name)
            setattr(module, attribute, _recording(name, getattr(module, attribute),
                                                  replacement))
    switch_off(without)


def run_page(task: tuple[Page, frozenset[str]]) -> tuple[str, str, str, list[str]]:
    """(corpus, id, text, stages and rules that acted) of one page, some stages switched off."""
    from crawler.extraction import extract

    page, disabled = task
    _ACTED.clear()
    try:
        result = extract(_read_html(page), page.url, trace=True, disabled_stages=disabled)
    except Exception as exc:  # noqa: BLE001 - one bad page must not stop the run
        print(f"{page.page_id}: {exc}", file=sys.stderr)
        return page.corpus, page.page_id, "", []
    acted = [d["stage"] for d in result.decisions or [] if d["applied"]] + sorted(_ACTED)
    return page.corpus, page.page_id, result.content_text, acted


def run(pages: list[Page], jobs: int, *, record: bool = False, without: tuple[str, ...] = (),
        disabled: frozenset[str] = frozenset()) -> list[tuple[str, str, str, list[str]]]:
    """Outputs of the pages in ``jobs`` worker processes."""
    with ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker,
                             initargs=(record, without)) as pool:
        return list(pool.map(run_page, [(p, disabled) for p in pages], chunksize=2))


def summary(scorer: Any, scored: dict[str, list[dict[str, Any]]]) -> dict[str, float]:
    """The figures an ablation is judged on, per corpus, fold group and (body) page type."""
    out: dict[str, float] = {}
    for corpus, pages in scored.items():
        groups = {"held": [p for p in pages if p["fold"] >= 2],
                  "dev": [p for p in pages if p["fold"] < 2]}
        if corpus == "extraction-dev":
            for kind in sorted({p["page_type"] or "?" for p in pages}):
                groups[kind] = [p for p in pages if (p["page_type"] or "?") == kind]
        for label, group in groups.items():
            m = figures(scorer, group)
            if corpus == "extraction-dev":
                out[f"body F1 {label}"] = m["f1"]
                out[f"<0.5 {label}"] = m["below_half_n"]
            else:
                out[f"snip F1 {label}"] = m["snippet_f1"]
                out[f"leaks {label}"] = m["snippet_fp"]
    return out


def score(scorer: Any, pages: dict[str, list[Page]], texts: dict[tuple[str, str], str],
          base: dict[str, list[dict[str, Any]]] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Per-page scores of ``texts`` on both corpora; with ``base``, only the pages in ``texts``
    are scored again and the others keep their base scores."""
    scored = {}
    for corpus, path in CORPORA.items():
        folds_by_id = {p.page_id: p.fold for p in pages[corpus]
                       if base is None or (str(path), p.page_id) in texts}
        preds = {i: {"body": t} for (c, i), t in texts.items() if c == str(path)}
        fresh = scored_pages(scorer, path, preds, folds_by_id)
        if base is None:
            scored[corpus] = fresh
        else:
            again = {p["id"]: p for p in fresh}
            scored[corpus] = [again.get(p["id"], p) for p in base[corpus]]
    return scored


COLUMNS = ("body F1 held", "body F1 dev", "<0.5 held", "<0.5 dev",
           "snip F1 held", "snip F1 dev", "leaks held", "leaks dev")
"""The main table's columns (what each stage or rule earns); page types follow in a second."""


def print_tables(base: dict[str, float], table: list[dict[str, Any]]) -> None:
    """What each stage and rule earns: by fold group, then body F1 and pages <0.5 per type."""
    print("everything on: " + ", ".join(f"{k} {base[k]:.4f}" if "F1" in k else f"{k} {base[k]:.0f}"
                                        for k in COLUMNS))
    print(f"{'stage / rule':<18}{'acted b/s':>11}{'changed':>9}"
          + "".join(f"{c:>14}" for c in COLUMNS))
    for row in table:
        cells = [f"{row['adds'][c]:>+14.4f}" if "F1" in c else f"{-row['adds'][c]:>+14.0f}"
                 for c in COLUMNS]
        print(f"{row['name']:<18}{row['acted_body']:>5}/{row['acted_snippets']:<5}"
              f"{row['changed']:>9}" + "".join(cells))
    kinds = [k[len("body F1 "):] for k in base if k.startswith("body F1 ")
             and k not in ("body F1 held", "body F1 dev")]
    print("\nbody F1 earned per page type (pages below 0.5 it saves in brackets)")
    print(f"{'stage / rule':<18}" + "".join(f"{k[:13]:>18}" for k in kinds))
    for row in table:
        print(f"{row['name']:<18}" + "".join(
            f"{row['adds']['body F1 ' + k]:>+11.4f} ({-row['adds']['<0.5 ' + k]:+3.0f})"
            for k in kinds))


def main(argv: list[str] | None = None) -> int:
    """Run everything on, then each stage and rule off where it acted; print what each earns."""
    from crawler.extraction.stages import STAGE_NAMES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each corpus")
    parser.add_argument("--only", nargs="*", default=None,
                        choices=sorted(set(STAGE_NAMES) | set(ABLATIONS)),
                        help="ablate only these stages or rules")
    parser.add_argument("--json", default=None, help="write the table here")
    args = parser.parse_args(argv)
    scorer = load_scorer(SCORER)
    pages = {name: corpus_pages(path, name, 4, args.limit) for name, path in CORPORA.items()}
    everything = [p for ps in pages.values() for p in ps]
    by_key = {(p.corpus, p.page_id): p for p in everything}
    started = time.perf_counter()
    texts: dict[tuple[str, str], str] = {}
    acted: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for corpus, page_id, text, names in run(everything, args.jobs, record=True):
        texts[(corpus, page_id)] = text
        for name in names:
            acted[name].append((corpus, page_id))
    base_scored = score(scorer, pages, texts)
    base = summary(scorer, base_scored)
    table = []
    # A stage also named in ABLATIONS is switched off once, as a stage.
    for name in args.only or dict.fromkeys(STAGE_NAMES + tuple(ABLATIONS)):
        keys = acted.get(name, [])
        is_stage = name in STAGE_NAMES
        outputs = run([by_key[k] for k in keys], args.jobs,
                      without=() if is_stage else (name,),
                      disabled=frozenset({name}) if is_stage else frozenset()) if keys else []
        changed = {(c, i): t for c, i, t, _ in outputs if t != texts[(c, i)]}
        off = summary(scorer, score(scorer, pages, changed, base_scored)) if changed else base
        table.append({"name": name, "kind": "stage" if is_stage else "rule",
                      "acted_body": sum(c == str(BODY_CORPUS) for c, _ in keys),
                      "acted_snippets": sum(c == str(SNIPPET_CORPUS) for c, _ in keys),
                      "changed": len(changed),
                      "adds": {k: base[k] - off[k] for k in base}})
        print(f"  {name}: acted on {len(keys)} pages, changed {len(changed)}, "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    print_tables(base, table)
    print(f"({len(everything)} pages, {time.perf_counter() - started:.0f} s, {args.jobs} processes;"
          " '<0.5' and 'leaks' count pages / snippets saved: positive = it pays)")
    if args.json:
        Path(args.json).write_text(json.dumps({"base": base, "table": table}, indent=1),
                                   encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
