"""The crawl report's HTML: overview, crawls, domains, boilerplate and the page table.

Everything from the database is escaped here (:func:`html.escape`) or, for the page table,
handed to the report's script as JSON that it inserts as text. Style and script are inlined
from ``assets/``: the file needs no network and no other file except the page views.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from html import escape
from importlib.resources import files
from typing import Any

from crawler import __version__
from crawler.report import charts
from crawler.report.collect import INDEX_COLUMNS, DomainFigures, ReportData

#: Report-wide policy: no connection, no remote image, font or frame; the script may load only
#: the page-view files beside the report.
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'unsafe-inline' 'self' file:; "
                           "style-src 'unsafe-inline'; img-src data:; frame-src 'self'")

#: Boilerplate blocks shown per domain (the stored ones, most bytes removed first).
TOP_BLOCKS_SHOWN = 10


def _asset(name: str) -> str:
    return files("crawler.report").joinpath("assets", name).read_text(encoding="utf-8")


def _e(value: Any) -> str:
    """Escaped text of a value; an em dash for nothing."""
    if value is None or value == "":
        return "—"
    return escape(str(value))


def _num(value: int | float | None, digits: int | None = None) -> str:
    if value is None:
        return "—"
    return f"{value:,.{digits}f}" if digits is not None else f"{value:,}"


def _card(label: str, value: str, stat: str) -> str:
    return (f'<div class="card"><div class="n" data-stat="{stat}">{value}</div>'
            f'<div class="l">{escape(label)}</div></div>')


def _reasons(counts: Counter[str] | dict[str, int]) -> str:
    """``reason: n`` items, largest first."""
    if not counts:
        return '<span class="muted">none</span>'
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f'<span data-reason="{escape(k)}">{escape(k)}: {v:,}</span>'
                     for k, v in items)


def _duration(start: str | None, end: str | None) -> str:
    try:
        seconds = (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except (TypeError, ValueError):
        return "—"
    minutes, sec = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m {sec:02d}s" if hours else f"{minutes}m {sec:02d}s"


def overview_section(data: ReportData) -> str:
    """Headline figures and the charts."""
    skipped, failed = data.reasons("skipped"), data.reasons("errors")
    crawled = bool(data.crawls)
    cards = [
        _card("pages found", _num(data.found) if crawled else "—", "pages-found"),
        _card("pages stored", _num(data.pages), "pages-stored"),
        _card("pages rendered", _num(data.rendered), "pages-rendered"),
        _card("pages flagged (low quality)", _num(data.flagged), "pages-flagged"),
        _card("skipped", _num(sum(skipped.values())) if crawled else "—", "skipped"),
        _card("failed", _num(sum(failed.values())) if crawled else "—", "failed"),
        _card("domains", _num(len([d for d in data.domains.values() if d.stored])), "domains"),
        _card("words", _num(data.words), "words"),
        _card("crawls recorded", _num(len(data.crawls)), "crawls"),
    ]
    started = min((c.started_at for c in data.crawls if c.started_at), default=None)
    finished = max((c.finished_at for c in data.crawls if c.finished_at), default=None)
    span = (f'<p>Pages fetched from <b data-stat="first-fetched">{_e(data.first_fetched)}</b> to '
            f'<b data-stat="last-fetched">{_e(data.last_fetched)}</b>')
    if started or finished:
        span += (f'; crawls ran from <b>{_e(started)}</b> to <b>{_e(finished)}</b> '
                 f'({_duration(started, finished)})')
    span += ".</p>"
    note = "" if crawled else (
        '<p class="muted">This database holds no crawl records (it was written before crawls '
        'were recorded, or by a merge): pages found, skipped and failed are unknown.</p>')
    quality_note = (f'<p class="muted">{data.no_quality:,} pages without a score.</p>'
                    if data.no_quality else "")
    chart_html = "".join([
        f'<div class="chart" id="chart-quality"><h3>Quality score</h3>'
        f'{charts.histogram(data.quality_histogram)}{quality_note}</div>',
        f'<div class="chart" id="chart-types"><h3>Pages per page type</h3>'
        f'{charts.bar_chart(dict(data.page_types), label="pages per page type")}</div>',
        f'<div class="chart" id="chart-frameworks"><h3>Pages per framework</h3>'
        f'{charts.bar_chart(dict(data.frameworks), label="pages per framework")}</div>',
        f'<div class="chart" id="chart-methods"><h3>Pages per extraction method</h3>'
        f'{charts.bar_chart(dict(data.methods), label="pages per method")}</div>',
    ])
    if skipped:
        chart_html += (f'<div class="chart" id="chart-skipped"><h3>Skipped, by reason</h3>'
                       f'{charts.bar_chart(dict(skipped), label="skipped by reason")}</div>')
    if failed:
        chart_html += (f'<div class="chart" id="chart-failed"><h3>Failed, by reason</h3>'
                       f'{charts.bar_chart(dict(failed), label="failed by reason")}</div>')
    return (f'<section id="at-a-glance"><h2>The crawl at a glance</h2>'
            f'<div class="cards">{"".join(cards)}</div>{span}{note}'
            f'<div class="charts">{chart_html}</div></section>')


def crawls_section(data: ReportData) -> str:
    """One row per recorded crawl, with every ``summary/*`` figure and all stats on demand."""
    if not data.crawls:
        return ""
    rows = []
    for crawl in data.crawls:
        summary = {k.split("/", 1)[1]: v for k, v in crawl.stats.items()
                   if k.startswith("summary/")}
        summary_html = "<br>".join(f"{escape(k)}: {_e(v)}" for k, v in sorted(summary.items()))
        all_stats = "".join(f"<tr><th>{escape(k)}</th><td>{_e(v)}</td></tr>"
                            for k, v in sorted(crawl.stats.items()))
        rows.append(
            f'<tr data-crawl="{crawl.id}"><td class="num">{crawl.id}</td>'
            f'<td>{"<br>".join(escape(u) for u in crawl.start_urls) or "—"}</td>'
            f'<td>{_e(crawl.started_at)}</td><td>{_e(crawl.finished_at)}</td>'
            f'<td>{_duration(crawl.started_at, crawl.finished_at)}</td>'
            f'<td data-field="reason">{_e(crawl.close_reason)}</td>'
            f'<td class="num" data-field="found">{_num(crawl.count("summary/pages_found"))}</td>'
            f'<td class="num" data-field="stored">{_num(crawl.count("summary/pages_stored"))}</td>'
            f'<td class="num">{_num(crawl.count("summary/pages_rendered"))}</td>'
            f'<td>{_reasons(crawl.by_reason("skipped"))}</td>'
            f'<td>{_reasons(crawl.by_reason("errors"))}</td>'
            f'<td class="summary">{summary_html}<details><summary>all stats</summary>'
            f'<table class="kv">{all_stats}</table></details></td></tr>')
    return ('<section id="crawls"><h2>Crawls</h2><table><thead><tr><th class="num">#</th>'
            '<th>start</th><th>started</th><th>finished</th><th>took</th><th>close reason</th>'
            '<th class="num">found</th><th class="num">stored</th><th class="num">rendered</th>'
            '<th>skipped</th><th>failed</th><th>summary</th></tr></thead><tbody>'
            + "".join(rows) + "</tbody></table></section>")


def _domain_row(d: DomainFigures) -> str:
    crawled = d.crawls > 0
    return (f'<tr data-domain="{escape(d.domain)}"><td>{_e(d.domain)}</td>'
            f'<td class="num" data-field="found">{_num(d.found) if crawled else "—"}</td>'
            f'<td class="num" data-field="stored">{_num(d.stored)}</td>'
            f'<td class="num">{_num(d.rendered)}</td><td class="num">{_num(d.flagged)}</td>'
            f'<td class="num">{_num(d.quality_mean, 2)}</td><td class="num">{_num(d.words)}</td>'
            f'<td data-field="skipped">{_reasons(d.skipped) if crawled else "—"}</td>'
            f'<td data-field="failed">{_reasons(d.errors) if crawled else "—"}</td>'
            f'<td>{_e(d.first_fetched)}<br>{_e(d.last_fetched)}</td></tr>')


def domains_section(data: ReportData) -> str:
    """Per domain: stored pages from `pages`, found/skipped/failed from the crawls started there."""
    rows = "".join(_domain_row(d) for d in sorted(data.domains.values(), key=lambda d: d.domain))
    return ('<section id="domains"><h2>Per domain</h2><p class="muted">Found, skipped and failed '
            'come from the recorded crawls that started on the domain.</p><table><thead><tr>'
            '<th>domain</th><th class="num">found</th><th class="num">stored</th>'
            '<th class="num">rendered</th><th class="num">flagged</th>'
            '<th class="num">mean quality</th><th class="num">words</th><th>skipped</th>'
            '<th>failed</th><th>fetched (first / last)</th></tr></thead><tbody>'
            f"{rows}</tbody></table></section>")


def boilerplate_section(data: ReportData) -> str:
    """Per domain: the dedup figures and the text of the top boilerplate blocks."""
    if not data.boilerplate:
        return ('<section id="boilerplate"><h2>Domain boilerplate</h2><p class="muted">No '
                'boilerplate analysis stored (run the dedup command).</p></section>')
    parts = ['<section id="boilerplate"><h2>Domain boilerplate</h2>']
    for row in data.boilerplate:
        total = row.get("bytes_total") or 0
        removed = row.get("bytes_removed") or 0
        share = f"{100 * removed / total:.1f}%" if total else "—"
        parts.append(
            f'<h3 data-domain="{escape(str(row["domain"]))}">{_e(row["domain"])}</h3>'
            f'<p><span data-field="pages">{_num(row.get("pages_analyzed"))}</span> pages '
            f'analysed, <span data-field="blocks">{_num(row.get("blocks_boilerplate"))}</span> '
            f'boilerplate blocks of {_num(row.get("blocks_total"))} counted; '
            f'<span data-field="bytes-removed">{_num(removed)}</span> bytes removed ({share} of '
            f'the content, {_num(row.get("bytes_removed_avg"), 0)} per page) from '
            f'{_num(row.get("pages_changed"))} pages. Threshold {_e(row.get("threshold_pct"))} '
            f'of the pages, at least {_e(row.get("min_pages"))}; updated '
            f'{_e(row.get("updated_at"))}.</p>')
        blocks = row.get("top_blocks") or []
        if not blocks:
            parts.append('<p class="muted">No block is on enough pages to be boilerplate.</p>'
                         if not row.get("blocks_boilerplate") or row.get("stored_blocks") else
                         '<p class="muted">No block texts stored for this domain (analysed '
                         'by an older version: run the dedup command again).</p>')
            continue
        body = "".join(
            f'<tr class="block"><td><pre class="block-text">{escape(str(b.get("text", "")))}'
            f'</pre></td><td class="num" data-field="pages">{_num(b.get("pages"))}</td>'
            f'<td class="num">{_num(b.get("bytes_removed"))}</td></tr>'
            for b in blocks[:TOP_BLOCKS_SHOWN])
        parts.append('<table><thead><tr><th>block (most bytes removed first)</th>'
                     '<th class="num">on pages</th><th class="num">bytes removed</th></tr>'
                     f'</thead><tbody>{body}</tbody></table>')
    parts.append("</section>")
    return "".join(parts)


PAGES_SECTION = """<section id="pages"><h2>Pages</h2>
<div class="filters">
 <input type="search" id="filter-text" placeholder="filter by URL or title" aria-label="filter">
 <label>domain <select id="filter-domain" data-state="domain"><option value="">all</option></select></label>
 <label>type <select id="filter-type" data-state="type"><option value="">all</option></select></label>
 <label>flagged <select id="filter-flagged"><option value="">all</option><option value="yes">flagged</option><option value="no">not flagged</option></select></label>
 <span id="pages-count" class="muted"></span>
</div>
<table id="pages-table"><thead><tr>
 <th data-key="url">URL</th><th data-key="title">title</th><th data-key="page_type">type</th>
 <th data-key="word_count" class="num">words</th><th data-key="quality_score" class="num">quality</th>
 <th data-key="quality_flagged">flagged</th><th data-key="method">method</th>
</tr></thead><tbody></tbody></table>
<div class="pager"><button id="pager-prev" type="button">previous</button><span id="pager-pos"></span><button id="pager-next" type="button">next</button></div>
</section>"""

PAGE_VIEW = """<div id="page-view" hidden><a class="back" href="#pages">&larr; all pages</a>
<section><h2 id="page-title"></h2><div id="page-body"></div></section></div>"""


def render_report(data: ReportData, index_json: str) -> str:
    """The whole report page. ``index_json`` is the page table as safe JSON text."""
    generated = datetime.now(UTC).isoformat(timespec="seconds")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="crawler-extract {escape(__version__)}">
<title>Crawl report: {escape(data.database)}</title>
<style>{_asset("report.css")}</style></head>
<body><header><h1>Crawl report</h1><nav><a href="#at-a-glance">At a glance</a><a href="#crawls">Crawls</a><a href="#domains">Domains</a><a href="#boilerplate">Boilerplate</a><a href="#pages">Pages</a></nav>
<span class="db">{escape(data.database)} · generated {generated}</span></header>
<main><div id="overview">
{overview_section(data)}
{crawls_section(data)}
{domains_section(data)}
{boilerplate_section(data)}
{PAGES_SECTION}
</div>
{PAGE_VIEW}
</main>
<script type="application/json" id="page-index">{index_json}</script>
<script>{_asset("report.js")}</script>
</body></html>
"""


def index_payload(rows: list[list[Any]], files_href: str, chunk_size: int) -> dict[str, Any]:
    """The page table and where the page views are, as the report's script reads them."""
    return {"columns": list(INDEX_COLUMNS), "rows": rows, "files": files_href,
            "chunk_size": chunk_size}
