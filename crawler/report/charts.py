"""Inline SVG charts for the crawl report (no script, no network: text and rectangles).

Every label passes through :func:`html.escape`; sizes are in CSS pixels.
"""

from __future__ import annotations

from html import escape

#: Bars drawn in a horizontal bar chart; the rest are summed into one "other" bar.
MAX_BARS = 12


def histogram(counts: list[int], *, width: int = 420, height: int = 180,
              label: str = "quality score") -> str:
    """Vertical bars of ``counts`` over equal bins of [0, 1], with the count above each bar."""
    bins = len(counts)
    top = max(counts) if counts and max(counts) else 1
    left, bottom, chart_h = 28, 30, height - 50
    bar_w = (width - left - 8) / max(bins, 1)
    parts = [f'<svg role="img" aria-label="{escape(label)} histogram" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}">',
             f'<line class="axis" x1="{left}" y1="{height - bottom}" x2="{width - 4}" '
             f'y2="{height - bottom}"/>']
    for i, count in enumerate(counts):
        h = chart_h * count / top
        x = left + i * bar_w
        y = height - bottom - h
        parts.append(f'<rect class="bar" data-bin="{i}" data-count="{count}" x="{x + 1:.1f}" '
                     f'y="{y:.1f}" width="{bar_w - 2:.1f}" height="{h:.1f}">'
                     f'<title>{i / bins:.1f}–{(i + 1) / bins:.1f}: {count}</title></rect>')
        parts.append(f'<text x="{x + bar_w / 2:.1f}" y="{y - 3:.1f}" '
                     f'text-anchor="middle">{count}</text>')
        parts.append(f'<text x="{x + bar_w / 2:.1f}" y="{height - bottom + 13}" '
                     f'text-anchor="middle">{i / bins:.1f}</text>')
    parts.append(f'<text x="{width / 2:.0f}" y="{height - 3}" text-anchor="middle">'
                 f'{escape(label)}</text></svg>')
    return "".join(parts)


def bar_chart(counts: dict[str, int], *, width: int = 420, label: str = "") -> str:
    """Horizontal bars, largest first; beyond :data:`MAX_BARS` the rest become one bar."""
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if len(items) > MAX_BARS:
        rest = sum(v for _, v in items[MAX_BARS - 1:])
        items = items[:MAX_BARS - 1] + [(f"other ({len(items) - MAX_BARS + 1})", rest)]
    row_h, label_w = 20, 150
    height = row_h * len(items) + 6
    top = max((v for _, v in items), default=0) or 1
    bar_space = width - label_w - 60
    parts = [f'<svg role="img" aria-label="{escape(label)}" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}">']
    for i, (name, value) in enumerate(items):
        y = i * row_h + 3
        w = bar_space * value / top
        shown = name if len(name) <= 24 else name[:23] + "…"
        parts.append(f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end">'
                     f'<title>{escape(name)}</title>{escape(shown)}</text>')
        parts.append(f'<rect class="bar" data-label="{escape(name)}" data-count="{value}" '
                     f'x="{label_w}" y="{y}" width="{max(w, 1):.1f}" height="{row_h - 6}"/>')
        parts.append(f'<text x="{label_w + w + 4:.1f}" y="{y + 12}">{value}</text>')
    parts.append("</svg>")
    return "".join(parts)
