"""What a crawl's log says: a progress line every LOGSTATS_INTERVAL seconds (pages stored,
pages/s, queue, errors), one line per dropped page (URL and reason, never the page's record),
and no uninformative third-party warnings."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from crawler.quiet_logs import QUIET_WARNINGS, QuietFilter, quiet_third_party_warnings, restore
from tests.conftest import run_crawl

PROGRESS = re.compile(r"Progress: (\d+) pages stored \((\d+\.\d) pages/s\), (\d+|\?) queued, "
                      r"(\d+) errors, (\d+) responses")


def test_a_crawl_logs_progress_and_one_line_per_dropped_page(serve_site, tmp_path: Path) -> None:
    server = serve_site("hugo-book")
    crawl = run_crawl(server.url("/"), tmp_path, spider_args={"render": "never"},
                      settings={"LOGSTATS_INTERVAL": "0.2", "QUALITY_GATE_POLICY": "drop",
                                "QUALITY_GATE_MIN_SCORE": "0.6", "EXTRACTION_EXECUTOR": "thread"})
    assert crawl.returncode == 0, crawl.log[-3000:]
    lines = [PROGRESS.search(line) for line in crawl.log.splitlines()]
    progress = [match for match in lines if match]
    assert len(progress) >= 2
    stored = [int(match.group(1)) for match in progress]
    assert stored == sorted(stored) and stored[-1] <= crawl.stats["pages/stored"]
    assert "Crawled " not in crawl.log or " pages (at " not in crawl.log  # Scrapy's line is gone

    dropped = re.findall(r"Dropped page (\S+): (quality [0-9.]+ below 0\.60 .*)", crawl.log)
    assert len(dropped) == crawl.stats["quality/dropped"] > 0
    stored_urls = {row["url"] for row in crawl.rows("url")}
    assert all(url.startswith(server.url("/")) and url not in stored_urls for url, _ in dropped)
    # no page record in the log (the field names appear once, in the feed's settings)
    assert not re.search(r"'content_(html|text|markdown)': '|content_html=|PageItem\(", crawl.log)
    assert "discarding data" not in crawl.log


@pytest.mark.parametrize(("logger_name", "message", "shown"), [
    ("trafilatura.core", "discarding data: None", False),
    ("trafilatura.core", "discarding data: https://x.example/", False),
    ("trafilatura.core", "parsed tree length: 0, wrong data type or not valid HTML", True),
    ("scrapy.spidermiddlewares.metacopy",
     "DomainSpider yielded a request containing internal meta keys that were likely copied", False),
    ("scrapy.core.scraper", "discarding data: None", True),  # another logger keeps its lines
    ("scrapy.core.downloader.handlers.http11", "Got data loss in http://x.example/. If you want "
     "to process broken responses set the setting DOWNLOAD_FAIL_ON_DATALOSS = False", False),
    ("scrapy.core.downloader.handlers.http11", "Cancelling download of http://x.example/: "
     "expected response size (99) larger than download max size (9).", True),
    ("scrapy-playwright", "Closing page due to failed request: <GET http://x.example/> "
     "exc_type=<class 'playwright._impl._errors.Error'>", False),
    ("scrapy-playwright", "Launching browser chromium", True),
])
def test_only_the_known_uninformative_warnings_are_quiet(logger_name: str, message: str,
                                                         shown: bool,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    # filters a command run earlier in this process attached stay out of the way meanwhile
    earlier = [(logging.getLogger(w.logger), f) for w in QUIET_WARNINGS
               for f in logging.getLogger(w.logger).filters if isinstance(f, QuietFilter)]
    restore(earlier)
    dropped: list[str] = []
    attached = quiet_third_party_warnings(dropped.append)
    try:
        with caplog.at_level(logging.WARNING):
            logging.getLogger(logger_name).warning(message)
    finally:
        restore(attached)
    assert (message in caplog.text) is shown
    assert len(dropped) == (0 if shown else 1)
    assert all(name in {w.name for w in QUIET_WARNINGS} for name in dropped)
    with caplog.at_level(logging.WARNING):
        logging.getLogger(logger_name).warning(message)
    assert message in caplog.text  # restored: nothing stays filtered
    for target, quiet in earlier:
        target.addFilter(quiet)
