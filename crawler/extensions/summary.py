"""At close, one log line and ``summary/*`` stats: pages found, stored, rendered, dropped by the
quality gate, blocked by robots.txt, not stored because the database refused them
(``errors/storage``), skipped, errors, how the crawl ended, and against the database's previous
crawls: new, changed, unchanged (304, sitemap lastmod, same bytes, same hash), gone.

With ``JOBDIR`` the counts add up across the runs of the job: each clean close writes them to
``JOBDIR/summary.json``, and the next run of the same job starts from them, so the summary after a
resume describes the whole crawl (the stats of this run alone stay in ``pages/*`` and the like).
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from pathlib import Path
from typing import Any

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.utils.job import job_dir

from crawler.exit_codes import exit_code_for, failure_reason

logger = logging.getLogger(__name__)

#: File in JOBDIR holding the counts of the job's earlier runs.
JOB_SUMMARY_FILE = "summary.json"

#: Summary counts read from one stat each.
COUNTED_STATS = {
    "pages_found": "pages/discovered",
    "pages_stored": "pages/stored",
    "pages_rendered": "pages/rendered",
    "pages_dropped_quality": "quality/dropped",
    "pages_blocked_robots": "robotstxt/forbidden",
    "pages_unstored": "errors/storage",
}


class CrawlSummary:
    """Counts unique page URLs scheduled and sums up the crawl's stats when the spider closes."""

    def __init__(self, crawler: Crawler, stats_path: Path | None = None,
                 jobdir: Path | None = None) -> None:
        self.stats = crawler.stats
        self.stats_path = stats_path
        self.jobdir = jobdir

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlSummary:
        """Connect to the scheduling and closing signals."""
        path = crawler.settings.get("CRAWL_STATS_PATH")
        jobdir = job_dir(crawler.settings)
        extension = cls(crawler, Path(path) if path else None, Path(jobdir) if jobdir else None)
        crawler.signals.connect(extension.request_scheduled, signal=signals.request_scheduled)
        crawler.signals.connect(extension.request_dropped, signal=signals.request_dropped)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    @staticmethod
    def _is_new_page(request: Request) -> bool:
        return request.meta.get("crawl_role") == "page" and not request.dont_filter

    def request_scheduled(self, request: Request, spider: Spider) -> None:
        """A page request reached the scheduler."""
        if self._is_new_page(request):
            self.stats.inc_value("pages/discovered")

    def request_dropped(self, request: Request, spider: Spider) -> None:
        """The scheduler's dupefilter refused it: not a new page after all."""
        if self._is_new_page(request):
            self.stats.inc_value("pages/discovered", -1)

    def _earlier_runs(self) -> Counter[str]:
        """Counts of the job's earlier cleanly closed runs (empty without JOBDIR)."""
        if self.jobdir is None:
            return Counter()
        path = self.jobdir / JOB_SUMMARY_FILE
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return Counter()
        except (OSError, ValueError) as exc:
            logger.warning("Ignored %s: unreadable (%s); the summary counts this run only",
                           path, exc)
            return Counter()
        return Counter({k: v for k, v in saved.items() if isinstance(v, int)})

    def spider_closed(self, spider: Spider, reason: str) -> None:
        """Write ``summary/*`` stats and log the one-line summary."""
        values: dict[str, Any] = self.stats.get_stats()
        skipped = {k.split("/", 1)[1]: v for k, v in values.items()
                   if k.startswith("skipped/") and v}
        errors = {k.split("/", 1)[1]: v for k, v in values.items()
                  if k.startswith("errors/") and v}
        failed = failure_reason(reason, values)
        exit_code = exit_code_for(failed)
        if exit_code:  # the crawl could not do its job: never "errors: none"
            errors[failed or reason] = 1
        counts = Counter({name: values.get(stat, 0) for name, stat in COUNTED_STATS.items()})
        counts["skipped"] = sum(skipped.values())
        counts["errors"] = sum(errors.values())
        counts["new"] = values.get("recrawl/new", 0)
        counts["changed"] = values.get("recrawl/changed", 0)
        counts["unchanged"] = (values.get("recrawl/unchanged", 0)
                               + values.get("recrawl/same_hash", 0))
        counts["gone"] = values.get("recrawl/gone", 0)
        counts["kept"] = values.get("recrawl/kept", 0)  # fetched, not extracted: content kept
        earlier = self._earlier_runs()
        runs = earlier.get("runs", 0) + 1
        counts.update({k: v for k, v in earlier.items() if k != "runs"})
        for name, value in sorted(counts.items()):
            self.stats.set_value(f"summary/{name}", value)
        self.stats.set_value("summary/runs", runs)
        self.stats.set_value("summary/exit_code", exit_code)

        def fmt(found: dict[str, int]) -> str:
            return ", ".join(f"{k}={v}" for k, v in sorted(found.items())) or "none"

        job = f" over {runs} runs of the job" if runs > 1 else ""
        logger.info("Crawl summary (%s, exit code %d)%s: %d pages found, %d stored, %d rendered, "
                    "%d dropped by the quality gate, %d blocked by robots.txt; %d new, %d changed, "
                    "%d unchanged, %d gone; skipped: %s; errors: %s", reason, exit_code, job,
                    counts["pages_found"], counts["pages_stored"], counts["pages_rendered"],
                    counts["pages_dropped_quality"], counts["pages_blocked_robots"],
                    counts["new"], counts["changed"], counts["unchanged"], counts["gone"],
                    fmt(skipped), fmt(errors))
        if self.jobdir is not None:
            self.jobdir.mkdir(parents=True, exist_ok=True)
            (self.jobdir / JOB_SUMMARY_FILE).write_text(
                json.dumps(dict(counts, runs=runs), sort_keys=True), encoding="utf-8")
        if self.stats_path is not None:
            self.stats_path.parent.mkdir(parents=True, exist_ok=True)
            final = dict(self.stats.get_stats(), finish_reason=reason)
            self.stats_path.write_text(json.dumps(final, default=str, indent=1, sort_keys=True))
