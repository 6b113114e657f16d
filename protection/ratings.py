"""Exact player ratings: each player's session at a table, summed wager by wager.

A rating is read from the follower's ``Wagered`` rows of the session (one query for a gaming
day): rounds played, wagers, the total wagered, the average bet (the total over the rounds
played), the actual result, and the theoretical win, the sum over every wager of its amount
times its exact house edge for the shoe as it was at that round. A wager whose edge is not known
(Royal 9's top awards are meters; a round the follower could not price) leaves the theoretical
win not computed, and the rating says for how many wagers: never a zero in its place.
"""

from __future__ import annotations

import csv
import datetime
import io
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db.models import BigIntegerField, Count, F, Max, Q, QuerySet, Sum
from django.db.models.functions import Cast, Coalesce
from reportlab.lib.pagesizes import A4, landscape  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from baccarat.wagertypes import WagerType
from casino import pdf_text
from protection.alerts import percent
from protection.models import PlayerSession, Wagered

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


@dataclass(frozen=True)
class Rating:
    """One player's session at one table, rated."""

    session: PlayerSession
    table: str
    rounds: int
    wagers: int
    wagered: Decimal
    result: Decimal
    """What the player won (below zero: lost)."""
    theoretical: Decimal | None
    """The house's expected win on the session's wagers, to the cent; None when a wager's edge
    is not known."""
    unpriced: int
    """Wagers whose edge is not known."""
    last_round_at: datetime.datetime | None

    @property
    def average_bet(self) -> Decimal | None:
        if not self.rounds:
            return None
        return (self.wagered / self.rounds).quantize(CENT, ROUND_HALF_UP)

    @property
    def theoretical_text(self) -> str:
        if self.theoretical is not None:
            return dollars(self.theoretical)
        return f"not computed: {self.unpriced} wager{'s' if self.unpriced != 1 else ''} unpriced"

    @property
    def result_text(self) -> str:
        return dollars(self.result)

    @property
    def flagged(self) -> list[str]:
        return [w for w, f in self.session.findings.items() if f.get("flagged")]

    @property
    def flagged_labels(self) -> list[str]:
        """The side wagers the advantage test flagged, in words: "Dragon 7"."""
        return [WagerType(w).label for w in sorted(self.flagged)]


def dollars(amount: Decimal) -> str:
    """Money with its sign in front of the dollar: "$20.00", "\u2212$560.00"."""
    return f"\u2212${-amount}" if amount < 0 else f"${amount}"


def ratings(day: datetime.date) -> list[Rating]:
    """The sessions begun on gaming day ``day``, rated (one query)."""
    return _rated(PlayerSession.objects.filter(gaming_day=day))


def seated(pit_id: int) -> list[Rating]:
    """The players seated now at the pit's tables (their sessions still open), rated, by table
    and seat (one query): the pit console's panel (``protection.console``)."""
    rated = _rated(PlayerSession.objects.filter(table__pit_id=pit_id, left_at__isnull=True))
    return sorted(rated, key=lambda r: (r.table, r.session.seat))


def rating_of(session: PlayerSession) -> Rating:
    """One session, rated (one query)."""
    return _rated(PlayerSession.objects.filter(pk=session.pk))[0]


#: Rounds of one shoe never reach it: a round is counted as shoe x ``ROUND_SPAN`` + its number.
ROUND_SPAN = 2**32


def _rated(sessions: QuerySet[PlayerSession]) -> list[Rating]:
    """``sessions`` with their wagers summed, in one query: rounds played are the distinct
    (shoe, round) pairs, counted as one number each."""
    played = Cast("wagers__shoe", BigIntegerField()) * ROUND_SPAN + F("wagers__round")
    rows = (
        sessions.select_related("table")
        .annotate(
            n_rounds=Count(played, distinct=True),
            n_wagers=Count("wagers"),
            n_unpriced=Count("wagers", filter=Q(wagers__theoretical__isnull=True)),
            wagered=Coalesce(Sum("wagers__amount"), ZERO),
            result=Coalesce(Sum("wagers__result"), ZERO),
            theoretical=Sum("wagers__theoretical"),
            last_at=Max("wagers__settled_at"),
        )
        .order_by("table__name", "seated_at", "pk")
    )
    out = []
    for s in rows:
        theo = None if s.n_unpriced or s.theoretical is None else s.theoretical
        if not s.n_wagers:
            theo = ZERO
        out.append(
            Rating(
                session=s,
                table=s.table.name,
                rounds=s.n_rounds,
                wagers=s.n_wagers,
                wagered=Decimal(s.wagered).quantize(CENT),
                result=Decimal(s.result).quantize(CENT),
                theoretical=None if theo is None else Decimal(theo).quantize(CENT, ROUND_HALF_UP),
                unpriced=s.n_unpriced,
                last_round_at=s.last_at,
            )
        )
    return out


COLUMNS = (
    "Table", "Seat", "Player", "Card", "In", "Out", "Rounds", "Wagers", "Wagered",
    "Average bet", "Result", "Theoretical win", "Flagged",
)  # fmt: skip


def _row(r: Rating, zone: datetime.tzinfo) -> list[str]:
    s = r.session
    return [
        r.table,
        str(s.seat),
        s.player,
        s.card,
        s.seated_at.astimezone(zone).strftime("%H:%M"),
        s.left_at.astimezone(zone).strftime("%H:%M") if s.left_at else "seated",
        str(r.rounds),
        str(r.wagers),
        str(r.wagered),
        "" if r.average_bet is None else str(r.average_bet),
        str(r.result),
        r.theoretical_text if r.theoretical is None else str(r.theoretical),
        ", ".join(r.flagged),
    ]


def ratings_csv(day: datetime.date, rows: list[Rating], zone: datetime.tzinfo) -> str:
    """The day's ratings as CSV, one line a session."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([f"Player ratings, gaming day {day.isoformat()}"])
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow([_safe_cell(cell) for cell in _row(r, zone)])
    return out.getvalue()


def _safe_cell(text: str) -> str:
    """A cell a spreadsheet will not run as a formula (a name typed "=1+1")."""
    return (
        f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") and not _number(text) else text
    )


def _number(text: str) -> bool:
    try:
        Decimal(text)
    except ArithmeticError:
        return False
    return True


def ratings_pdf(day: datetime.date, rows: list[Rating], zone: datetime.tzinfo) -> bytes:
    """The day's ratings as a landscape A4 PDF, names in their own scripts (``pdf_text``)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=landscape(A4))
    page_height = landscape(A4)[1]
    widths = (48, 28, 120, 70, 36, 40, 40, 40, 60, 56, 60, 120, 50)
    margin, line = 30.0, 14.0

    def header(y: float) -> float:
        pdf_text.draw(
            canvas, margin, y, f"Player ratings, gaming day {day.isoformat()}", 13, "bold"
        )
        y -= 2 * line
        x = margin
        for title, w in zip(COLUMNS, widths, strict=True):
            pdf_text.draw(canvas, x, y, title, 8, "bold")
            x += w
        return y - line

    y = header(page_height - margin)
    for r in rows:
        if y < margin:
            canvas.showPage()
            y = header(page_height - margin)
        x = margin
        for cell, w in zip(_row(r, zone), widths, strict=True):
            if cell:
                fitted = pdf_text.fit(cell, w - 4, size=8, smallest=5)
                pdf_text.draw(canvas, x, y, fitted.lines[0] if fitted.lines else "", fitted.size)
            x += w
        y -= line
    if not rows:
        pdf_text.draw(canvas, margin, y, "No player was rated on this gaming day.", 9)
    canvas.save()
    return buffer.getvalue()


@dataclass(frozen=True)
class WagerLine:
    """One wager of a session as its page shows it."""

    wager: Wagered
    label: str
    edge: Fraction | None

    @property
    def edge_text(self) -> str:
        return "not priced" if self.edge is None else percent(self.edge)

    @property
    def theoretical_text(self) -> str:
        theo = self.wager.theoretical
        return "not computed" if theo is None else dollars(theo.quantize(Decimal("0.0001")))


def session_page(session: PlayerSession) -> dict[str, object]:
    """A session's page: its rating and every wager (two queries)."""
    rated = rating_of(session)
    lines = [
        WagerLine(w, WagerType(w.wager).label, Fraction(w.edge) if w.edge else None)
        for w in Wagered.objects.filter(session=session).order_by("shoe", "round", "pk")
    ]
    return {
        "session": session,
        "rating": rated,
        "lines": lines,
        "zone": session.table.pit.casino.zone,
    }
