"""The pit console's reads: every table of a pit in a fixed handful of queries."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import Count, Sum
from django.utils import timezone

from casino.models import Pit
from tablegame.models import DeckChange, Round, Shoe, Table, VigorishMarker
from tablegame.models.rounds import ACTIVE_ROUND_STATES


def floor_overview(pit: Pit) -> list[dict[str, Any]]:
    """One row per table: status, shoe, round, markers, deck change, what needs a supervisor."""
    now = timezone.now()
    tables = list(Table.objects.filter(pit=pit).prefetch_related("rules_history"))
    shoes = {s.table_id: s for s in Shoe.objects.filter(table__pit=pit).exclude(state="finished")}
    rounds: dict[int, Round] = {}
    for r in Round.objects.filter(table__pit=pit, state__in=ACTIVE_ROUND_STATES).order_by("pk"):
        rounds[r.table_id] = r
    markers = {
        row["table"]: row
        for row in VigorishMarker.objects.filter(table__pit=pit, status="open")
        .values("table")
        .annotate(count=Count("pk"), total=Sum("amount"))
    }
    decks = {d.table_id: d for d in DeckChange.objects.filter(table__pit=pit)}
    rows = []
    for table in tables:
        shoe, game = shoes.get(table.pk), rounds.get(table.pk)
        owed = markers.get(table.pk, {"count": 0, "total": Decimal(0)})
        schedule = decks.get(table.pk)
        needs = _supervisor_needed(shoe)
        alerts = []
        if schedule and schedule.is_due(now):
            alerts.append("Decks due for change (24 hours)")
        if shoe and shoe.cut_card_round:
            alerts.append(f"Cut card out in round {shoe.cut_card_round}: last hand, then reshuffle")
        if owed["count"]:
            alerts.append(f"{owed['count']} vigorish marker(s) open")
        rows.append(
            {
                "table": table,
                "rules": table.rules,
                "shoe": shoe,
                "round": game,
                "markers": owed["count"],
                "markers_total": owed["total"] or Decimal(0),
                "deck_change": schedule,
                "needs": needs,
                "alerts": alerts,
            }
        )
    return rows


def _supervisor_needed(shoe: Shoe | None) -> str | None:
    """The verification a floorperson must give at this table, if any."""
    if shoe is None:
        return None
    if shoe.state == Shoe.State.INSPECTED:
        return "verify_inspection"
    if shoe.state == Shoe.State.SHUFFLED and "feather" in shoe.shuffle:
        return None if shoe.shuffle_verified_by_id else "verify_shuffle"
    return None


def pits_on_floor() -> list[Pit]:
    """The pits a supervisor watches: every pit on the floor."""
    return list(Pit.objects.select_related("casino"))
