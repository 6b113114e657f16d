"""The pit console's reads: every table of a pit in a fixed handful of queries."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Count, Prefetch, Q, Sum
from django.utils import timezone

from casino.models import Pit
from tablegame.models import (
    DeckChange,
    ProcedureNotice,
    Round,
    Seat,
    Shoe,
    Table,
    TableLimit,
    TableRules,
    VigorishForm,
    VigorishFormSeries,
    VigorishMarker,
)
from tablegame.models.rounds import ACTIVE_ROUND_STATES


def floor_overview(pit: Pit) -> list[dict[str, Any]]:
    """One row per table: status, shoe, round, markers, deck change, what needs a supervisor."""
    now = timezone.now()
    filings = TableRules.objects.select_related("notice__acknowledged_by")
    tables = list(
        Table.objects.filter(pit=pit).prefetch_related(Prefetch("rules_history", filings))
    )
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
    limits: dict[int, list[TableLimit]] = {}
    for limit in TableLimit.objects.filter(table__pit=pit).order_by("table", "wager_type"):
        limits.setdefault(limit.table_id, []).append(limit)
    seated: dict[int, list[int]] = {}
    for table_id, number in (
        Seat.objects.filter(table__pit=pit).exclude(player_name="").values_list("table", "number")
    ):
        seated.setdefault(table_id, []).append(number)
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
                "limits": limits.get(table.pk, []),
                "seated": sorted(seated.get(table.pk, [])),
                "pending": _filed(table, now),
                "voidable": game is not None and game.state in VOIDABLE,
                "passable": table.curator_seat is not None
                and (game is None or game.state == Round.State.BETTING),
            }
        )
    return rows


def _filed(table: Table, now: datetime.datetime) -> list[dict[str, Any]]:
    """Rules filed for later, and changes in force whose notice surveillance has not yet
    acknowledged, each with its notice (None when the change needs none)."""
    out = []
    for filing in sorted(table.rules_history.all(), key=lambda r: (r.effective_at, r.pk)):
        notice: ProcedureNotice | None = getattr(filing, "notice", None)
        later = filing.effective_at > now
        unread = notice is not None and not notice.is_acknowledged
        if later or (unread and filing.effective_at > now - NOTICE_SHOWN_AFTER):
            out.append({"rules": filing, "notice": notice, "later": later})
    return out


#: An unacknowledged notice stays on the console this long after its change took effect.
NOTICE_SHOWN_AFTER = datetime.timedelta(days=1)

#: A round may be voided while its outcome is not known: dealt, not yet complete (void_round).
VOIDABLE = (Round.State.DEALING, Round.State.HOUSE_MONEY)


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


def forms_register(pit: Pit) -> dict[str, Any]:
    """The pit's Complimentary Vigorish Forms: the series received and how each number is
    accounted for, the vigorish waiting for a form, and the forms still in the pit's hands or
    forwarded this gaming day."""
    day = pit.casino.gaming_day(timezone.now())
    series = list(
        VigorishFormSeries.objects.filter(pit=pit)
        .select_related("received_by")
        .annotate(
            void=Count("forms", filter=Q(forms__status=VigorishForm.Status.VOID)),
            used=Count("forms"),
        )
    )
    waiting = list(
        VigorishMarker.objects.filter(table__pit=pit, status=VigorishMarker.Status.FORM_REQUESTED)
        .exclude(forms__status__in=_LIVE_FORM_STATES)
        .select_related("table", "resolved_by")
        .order_by("resolved_at")
    )
    forms = list(
        VigorishForm.objects.filter(pit=pit)
        .filter(Q(forwarded_at__isnull=True) | Q(gaming_day=day))
        .select_related(
            "table", "dealer", "pit_boss", "clerk", "prepared_by", "voided_by", "void_pit_boss"
        )
        .order_by("-number")
    )
    return {
        "pit": pit,
        "gaming_day": day,
        "series": series,
        "unused": sum(s.unused for s in series),
        "waiting": waiting,
        "forms": forms,
        "to_forward": [f for f in forms if f.gaming_day == day and f.forwarded_at is None],
    }


_LIVE_FORM_STATES = [s for s in VigorishForm.Status.values if s != VigorishForm.Status.VOID]
