"""Regression gate: a small gold set drawn from the dev corpus must keep its F1 floor."""

from __future__ import annotations

import gzip
import json
import statistics
from pathlib import Path

import pytest

from crawler.extraction.evaluation import page_scores
from crawler.extraction import extract

GOLD = Path(__file__).parent / "fixtures" / "extraction" / "gold"
ROWS = [json.loads(line) for line in (GOLD / "ground-truth.jsonl").read_text().splitlines()]
PAGE_FLOOR = 0.7
MEAN_FLOOR = 0.85


def _run(row: dict):
    return extract(gzip.decompress((GOLD / f"{row['id']}.html.gz").read_bytes()), row["url"])


@pytest.fixture(scope="module")
def results() -> dict:
    return {row["id"]: _run(row) for row in ROWS}


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['id']}-{r['page_type']}" for r in ROWS])
def test_page_keeps_its_floor(row: dict, results: dict) -> None:
    f1 = page_scores(results[row["id"]].content_text, row["body"])[2]
    assert f1 >= PAGE_FLOOR, f"{row['url']}: F1 {f1:.3f}"


def test_gold_mean_f1(results: dict) -> None:
    scores = [page_scores(results[r["id"]].content_text, r["body"])[2] for r in ROWS]
    assert statistics.fmean(scores) >= MEAN_FLOOR
    assert len({r["page_type"] for r in ROWS}) >= 6


def test_titles_found(results: dict) -> None:
    hits = sum(1 for r in ROWS if r["title"] and (results[r["id"]].title or "").strip() == r["title"])
    assert hits >= len(ROWS) // 2
