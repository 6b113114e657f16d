"""A wager's edge over a shoe, as a small inline SVG drawn on the server (no script, no library):
the line of the exact edge round by round, the zero line (below it the wager is the player's),
and the rounds below zero as dots."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH = 360
HEIGHT = 56
PAD = 4


def edge_line(points: Sequence[tuple[int, Fraction]], *, title: str, rounds: int) -> SafeString:
    """``points``: (round, edge) in round order; ``rounds``: the x axis runs 1 to that."""
    if not points:
        return mark_safe(f'<span class="muted">{escape(title)}: not priced yet</span>')
    values = [float(edge) for _, edge in points]
    low, high = min(0.0, *values), max(0.0, *values)
    span = (high - low) or 1.0
    last = max(rounds, points[-1][0], 2)

    def x(round_number: int) -> float:
        return PAD + (round_number - 1) / (last - 1) * (WIDTH - 2 * PAD)

    def y(value: float) -> float:
        return PAD + (high - value) / span * (HEIGHT - 2 * PAD)

    line = " ".join(f"{x(r):.1f},{y(v):.1f}" for (r, _), v in zip(points, values, strict=True))
    below = "".join(
        f'<circle cx="{x(r):.1f}" cy="{y(v):.1f}" r="2.5" class="theirs"/>'
        for (r, _), v in zip(points, values, strict=True)
        if v < 0
    )
    zero = y(0.0)
    return mark_safe(
        f'<svg class="edge-line" role="img" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
        f'height="{HEIGHT}" aria-label="{escape(title)}"><title>{escape(title)}</title>'
        f'<line x1="{PAD}" y1="{zero:.1f}" x2="{WIDTH - PAD}" y2="{zero:.1f}" class="zero"/>'
        f'<polyline points="{line}" class="edge"/>{below}</svg>'
    )
