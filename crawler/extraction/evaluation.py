"""Scoring an extracted text against a ground-truth text: the body metric of the benchmarks and
the gold tests (4-token shingles, as the corpus scorer and the article-extraction benchmark)."""

from __future__ import annotations

import re
from collections import Counter

_TOKEN = re.compile(r"\w+")

SHINGLE_TOKENS = 4
"""Tokens per shingle: the corpus scorer's default, so figures match it."""


def shingles(text: str, n: int = SHINGLE_TOKENS) -> Counter:
    """Multiset of n-token shingles (a text shorter than n tokens is one shorter shingle)."""
    tokens = _TOKEN.findall(text or "")
    if not tokens:
        return Counter()
    if len(tokens) < n:
        return Counter([tuple(tokens)])
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def page_scores(pred: str, truth: str) -> tuple[float | None, float | None, float]:
    """Page precision (None when the prediction is empty), recall (None when truth is empty), F1."""
    p, t = shingles(pred), shingles(truth)
    tp = sum((p & t).values())
    fp, fn = sum(p.values()) - tp, sum(t.values()) - tp
    precision = tp / (tp + fp) if (tp + fp) else None
    recall = tp / (tp + fn) if (tp + fn) else None
    if not p and not t:
        return precision, recall, 1.0
    if not p or not t:
        return precision, recall, 0.0
    pr = precision or 0.0
    rc = recall if recall is not None else 1.0
    return precision, recall, (2 * pr * rc / (pr + rc) if pr + rc else 0.0)
