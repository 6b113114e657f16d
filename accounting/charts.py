"""Charts drawn on the server as inline SVG: horizontal bars, each bar labelled with its value.

No script and no library: the figures are the report's own, so the chart and the table beside it
cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH = 440
LABEL = 130
VALUE = 80
BAR = 16
GAP = 6


@dataclass(frozen=True)
class Bar:
    label: str
    value: Decimal
    second: Decimal | None = None
    """A second value drawn under the first (theoretical beside actual)."""
    flagged: bool = False


def bars(
    items: Sequence[Bar], *, unit: str = "$", title: str, legend: tuple[str, str] | None = None
) -> SafeString:
    """Horizontal bars from a zero line; negative values go left of it."""
    if not items:
        return mark_safe(f'<p class="muted">{escape(title)}: nothing to draw.</p>')
    values = [b.value for b in items] + [b.second for b in items if b.second is not None]
    low: Decimal = min([Decimal(0), *values])
    high: Decimal = max([Decimal(0), *values])
    span = (high - low) or Decimal(1)
    room = WIDTH - LABEL - VALUE
    zero = LABEL + float((0 - low) / span) * room
    per_row = BAR * (2 if legend else 1) + GAP
    height = len(items) * per_row + (22 if legend else 4)
    parts = [
        f'<svg class="chart" role="img" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" '
        f'height="{height}" aria-label="{escape(title)}"><title>{escape(title)}</title>',
        f'<line x1="{zero:.1f}" y1="0" x2="{zero:.1f}" y2="{height - (20 if legend else 0)}" '
        'class="axis"/>',
    ]
    for i, b in enumerate(items):
        y = i * per_row
        parts.append(
            f'<text x="{LABEL - 6}" y="{y + BAR - 4}" text-anchor="end" class="label">'
            f"{escape(b.label[:18])}</text>"
        )
        rows = [(b.value, "bar flagged" if b.flagged else "bar")]
        if b.second is not None:
            rows.append((b.second, "bar second"))
        for j, (value, cls) in enumerate(rows):
            x = LABEL + float((min(value, Decimal(0)) - low) / span) * room
            w = max(float(abs(value) / span) * room, 1.0)
            top = y + j * BAR
            parts.append(
                f'<rect x="{x:.1f}" y="{top}" width="{w:.1f}" height="{BAR - 2}" class="{cls}"/>'
            )
            parts.append(
                f'<text x="{WIDTH - 2}" y="{top + BAR - 4}" text-anchor="end" class="value">'
                f"{escape(_show(value, unit))}</text>"
            )
    if legend:
        y = height - 8
        parts.append(
            f'<rect x="{LABEL}" y="{y - 9}" width="10" height="10" class="bar"/>'
            f'<text x="{LABEL + 14}" y="{y}" class="label">{escape(legend[0])}</text>'
            f'<rect x="{LABEL + 110}" y="{y - 9}" width="10" height="10" class="bar second"/>'
            f'<text x="{LABEL + 124}" y="{y}" class="label">{escape(legend[1])}</text>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above is escaped


def _show(value: Decimal, unit: str) -> str:
    if unit == "%":
        return f"{value}%"
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value):,.0f}"
