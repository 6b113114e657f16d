"""The pit console's reads: every table of a pit in a fixed handful of queries."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Count, Prefetch, Q, Sum
from django.utils import timezone

from casino.models import Pit
from pit.console import shown, tile_state
from tablegame.events import player_label
from tablegame.models import (
    DeckChange,
    ProcedureNotice,
    Round,
    Seat,
    Shoe,
    Table,
    TableLimit,
    TableRules,
    VigorishMarker,
)
from tablegame.models.rounds import ACTIVE_ROUND_STATES
from tablegame.selectors import last_sequence_of_tables


def floor_overview(pit: Pit, *, table_id: int | None = None) -> list[dict[str, Any]]:
    """One row per table of the pit (or only ``table_id``'s) for its console tile: the tile's
    state (status, shoe, round, markers, seats: ``pit.console.tile_state``) and which of its
    parts show, the rules, limits, deck change and filings, and the last event's sequence."""
    now = timezone.now()
    filings = TableRules.objects.select_related("notice__acknowledged_by")
    at = Q(table__pit=pit) if table_id is None else Q(table_id=table_id, table__pit=pit)
    found = Table.objects.filter(pit=pit)
    if table_id is not None:
        found = found.filter(pk=table_id)
    tables = list(
        found.annotate(sequence=last_sequence_of_tables()).prefetch_related(
            Prefetch("rules_history", filings)
        )
    )
    shoes = {s.table_id: s for s in Shoe.objects.filter(at).exclude(state="finished")}
    rounds: dict[int, Round] = {}
    for r in Round.objects.filter(at, state__in=ACTIVE_ROUND_STATES).order_by("pk"):
        rounds[r.table_id] = r
    markers: dict[int, tuple[int, Decimal]] = {
        row["table"]: (row["count"], row["total"] or Decimal(0))
        for row in VigorishMarker.objects.filter(at, status="open")
        .values("table")
        .annotate(count=Count("pk"), total=Sum("amount"))
    }
    decks = {d.table_id: d for d in DeckChange.objects.filter(at)}
    limits: dict[int, list[TableLimit]] = {}
    for limit in TableLimit.objects.filter(at).order_by("table", "wager_type"):
        limits.setdefault(limit.table_id, []).append(limit)
    players: dict[int, list[dict[str, Any]]] = {}
    for seat in Seat.objects.filter(at).exclude(player_name="", player_card="").order_by("number"):
        players.setdefault(seat.table_id, []).append(seat.as_data())
    rows = []
    for table in tables:
        shoe, game = shoes.get(table.pk), rounds.get(table.pk)
        count, total = markers.get(table.pk, (0, Decimal(0)))
        schedule = decks.get(table.pk)
        state = tile_state(
            table,
            shoe=shoe,
            game=game,
            markers=count,
            markers_total=total,
            decks_due=bool(schedule and schedule.is_due(now)),
            players=players.get(table.pk, []),
        )
        rows.append(
            {
                "table": table,
                "sequence": table.sequence,
                "rules": table.rules,
                "deck_change": schedule,
                "limits": limits.get(table.pk, []),
                "pending": _filed(table, now),
                "state": state,
                "shown": shown(state),
                "seats": _seat_choices(table, state["players"]),
            }
        )
    return rows


def _seat_choices(table: Table, players: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """Every seat of the table with who sits there, for the console's seating form."""
    who = {p["number"]: player_label(p["player"] or "", p["card"]) for p in players}
    return [(n, f"{n} · {who.get(n, 'empty')}") for n in range(1, table.seat_count + 1)]


def _filed(table: Table, now: datetime.datetime) -> list[dict[str, Any]]:
    """Rules filed for later, and changes in force whose notice surveillance has not yet
    acknowledged, each with its notice (None when the change needs none)."""
    out = []
    for filing in sorted(table.rules_history.all(), key=lambda r: (r.effective_at, r.pk)):
        notice: ProcedureNotice | None = getattr(filing, "notice", None)
        later = filing.effective_at > now
        unread = notice is not None and not notice.is_acknowledged
        if later or (unread and filing.effective_at > now - NOTICE_SHOWN_AFTER):
            filing.effective_at = min(filing.effective_at, LATEST_SHOWN)
            out.append({"rules": filing, "notice": notice, "later": later})
    return out


#: A time stored before filings were bounded (``FURTHEST_AHEAD``) is shown as this, the latest
#: moment that every time zone can still write (9999-12-31 UTC in Macau is the year 10000).
LATEST_SHOWN = datetime.datetime(9999, 12, 30, tzinfo=datetime.UTC)


#: An unacknowledged notice stays on the console this long after its change took effect.
NOTICE_SHOWN_AFTER = datetime.timedelta(days=1)


def pits_on_floor() -> list[Pit]:
    """Every pit on the floor (a console shows them all only when its person asks)."""
    return list(Pit.objects.select_related("casino"))
