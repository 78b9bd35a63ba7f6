"""What reading a render's answer back from the browser costs, against the render, same run.

Every render reads the body its server sent back from chromium (``Response.body()``, after
``Request.sizes()``) for the body checks (``crawler/playwright_handler.py``). This serves real
documentation pages from 127.0.0.1, renders them one after another in one reused page of the
project's chromium (``goto`` to the load event, then the DOM as the crawl reads it), and prints
the medians of the render and of the read-back, and their ratio; every page is also rendered
with the DOWNLOAD_MAXSIZE watch the crawl runs on the page's DevTools session
(``crawler/render_body_limit.py``), alternately, and that render's median (in a second page of the same context) is compared too.

    python benchmarks/render_readback.py [--site DIR] [--renders 60]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from playwright.async_api import async_playwright  # noqa: E402

from crawler.render_body_limit import DocumentBodyWatch  # noqa: E402
from crawler.rendering import find_browser, launch_options  # noqa: E402
from crawler.settings import CHROMIUM_PATH  # noqa: E402
from crawler.static_server import serve_folder  # noqa: E402

DEFAULT_SITE = REPO_ROOT / "tests" / "sites" / "sphinx-alabaster-requests-injected" / "public"
#: First renders left out of the medians (the browser warming up).
WARM_UP = 4


async def measure(base: str, paths: list[str], renders: int) -> None:
    """Render the pages in turn, each alternately with and without the size watch, and print
    the medians."""
    render_s, read_s, sizes = [], [], []
    watched_s: list[float] = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(**launch_options(find_browser(CHROMIUM_PATH)))
        context = await browser.new_context()
        # two pages: one never watched (no network events), one watched as the crawl does
        plain, watched_page = await context.new_page(), await context.new_page()
        session = await context.new_cdp_session(watched_page)
        for n in range(2 * (renders + WARM_UP)):
            watch = DocumentBodyWatch(session, 10 << 20) if n % 2 else None
            page = plain if watch is None else watched_page
            start = time.perf_counter()
            if watch is not None:
                await watch.start()
            response = await page.goto(f"{base}/{paths[n // 2 % len(paths)]}", wait_until="load")
            await page.content()
            if watch is not None:
                watch.stop()
            rendered = time.perf_counter()
            await response.request.sizes()
            body = await response.body()
            if n // 2 >= WARM_UP:
                (watched_s if watch is not None else render_s).append(rendered - start)
                if watch is None:
                    read_s.append(time.perf_counter() - rendered)
                    sizes.append(len(body))
        await browser.close()
    render, read = statistics.median(render_s), statistics.median(read_s)
    watched = statistics.median(watched_s)
    print(f"{len(read_s)} renders of {len(paths)} pages (median body "
          f"{statistics.median(sizes) / 1024:.0f} KiB): render {render * 1000:.1f} ms, "
          f"read back {read * 1000:.2f} ms, ratio read back / render {read / render:.3f}; "
          f"render with the DOWNLOAD_MAXSIZE watch {watched * 1000:.1f} ms, ratio watched / "
          f"render {watched / render:.3f}")


def main() -> None:
    """Serve the site, measure, stop."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=DEFAULT_SITE)
    parser.add_argument("--renders", type=int, default=60)
    args = parser.parse_args()
    paths = sorted(str(p.relative_to(args.site)) for p in args.site.rglob("*.html"))
    server = serve_folder(args.site)
    try:
        asyncio.run(measure(f"http://127.0.0.1:{server.server_address[1]}", paths, args.renders))
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
