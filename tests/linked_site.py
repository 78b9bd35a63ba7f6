"""A generated static site of N linked pages (with robots.txt and a sitemap) for crawl-scale tests.

Every page carries the same header, navigation and footer, plus a note about the stations at the end
of its article, so the domain boilerplate analysis has real cross-page repetition to find; the rest
of each article is unique text drawn from a seeded generator, so sites are reproducible.
"""

from __future__ import annotations

import random
from pathlib import Path

ORIGIN_PLACEHOLDER = "__ORIGIN__"

WORDS = (
    "river harbour lantern orchard granite meadow copper valley ember signal thunder quarry "
    "willow beacon compass marble glacier timber falcon prairie canyon summit cedar voyage "
    "anchor meridian crystal horizon pebble saffron tundra juniper basalt monsoon lagoon "
    "cobalt fjord heather oasis plateau reef sierra tidal vesper walnut zephyr amber birch"
).split()

HEADER = ("Field Notes Quarterly is an independent journal about landscapes, weather and the "
          "people who measure them, published every season since the first survey.")
STATION_NOTE = ("Each station in this journal was visited twice a year by volunteers of the "
                "coastal observation network, who recorded wind, tide and temperature by hand.")
FOOTER = ("Copyright Field Notes Quarterly. Text is available under a Creative Commons "
          "licence; contact the editors for reprints and corrections.")


def page_path(index: int) -> str:
    """URL path of page ``index`` (0 is the home page)."""
    return "/" if index == 0 else f"/notes/{index // 100}/page-{index}.html"


def _file_for(root: Path, index: int) -> Path:
    return root / "index.html" if index == 0 else root / page_path(index).lstrip("/")


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(9, 16))]
    return " ".join(words).capitalize() + "."


def _links(index: int, pages: int) -> list[int]:
    """A few forward links and one long jump, so the site is connected but not a chain."""
    targets = {(index + step) % pages for step in (1, 2, 3)}
    targets.add((index * 7 + 11) % pages)
    targets.discard(index)
    return sorted(targets)


def _page_html(index: int, pages: int, rng: random.Random) -> str:
    title = f"Survey {index}: {rng.choice(WORDS).title()} {rng.choice(WORDS).title()}"
    paragraphs = "\n".join(
        f"<p>{' '.join(_sentence(rng) for _ in range(4))}</p>" for _ in range(3))
    links = "\n".join(f'<li><a href="{page_path(t)}">Survey {t}</a></li>'
                      for t in _links(index, pages))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="description" content="Field survey number {index}."></head>
<body>
<header><p>{HEADER}</p>
<nav><a href="/">Home</a> <a href="{page_path(1)}">First survey</a></nav></header>
<main><article>
<h1>{title}</h1>
{paragraphs}
<p>{STATION_NOTE}</p>
</article>
<ul class="next">{links}</ul>
</main>
<footer><p>{FOOTER}</p></footer>
</body></html>
"""


def build_linked_site(root: Path, pages: int, *, seed: int = 7) -> list[str]:
    """Write ``pages`` HTML pages, robots.txt and sitemap.xml under ``root``; return the paths."""
    rng = random.Random(seed)
    paths = []
    for index in range(pages):
        target = _file_for(root, index)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_page_html(index, pages, rng), encoding="utf-8")
        paths.append(page_path(index))
    (root / "robots.txt").write_text(
        f"User-agent: *\nAllow: /\nSitemap: {ORIGIN_PLACEHOLDER}/sitemap.xml\n", encoding="utf-8")
    entries = "\n".join(f"<url><loc>{ORIGIN_PLACEHOLDER}{p}</loc></url>" for p in paths)
    (root / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{entries}\n</urlset>\n',
        encoding="utf-8")
    return paths
