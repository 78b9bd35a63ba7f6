"""A page's memory is freed as soon as its extraction returns: extraction leaves no reference
cycles for the garbage collector (a cycle through one element keeps the whole tree alive)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from crawler.extraction import extract

SITES = Path(__file__).parent / "sites"
PAGES = [SITES / "sphinx-alabaster-requests-injected" / "public" / "user" / "quickstart.html",
         SITES / "mkdocs-material-starlette-injected" / "public" / "routing" / "index.html"]


@pytest.mark.parametrize("page", PAGES, ids=[p.parent.name for p in PAGES])
def test_extraction_leaves_no_reference_cycles(page: Path) -> None:
    html = page.read_text(encoding="utf-8")
    extract(html, "https://docs.example.com/page.html")  # imports and caches done
    # Garbage of earlier tests can free more garbage (a dead crawler's signal weakrefs): collect
    # until nothing is left, so only the measured extraction's own cycles are counted.
    while gc.collect():
        pass
    gc.disable()
    try:
        result = extract(html, "https://docs.example.com/page.html")
        unreachable = gc.collect()
    finally:
        gc.enable()
    assert result.content_text
    assert unreachable == 0
