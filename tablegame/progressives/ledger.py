"""What accounting reads of the progressives: the house's liability on them now, and over a
period each meter's contributions (from the controller's ledger, ``ProgressiveEntry``) and each
must-hit meter's wins and payments.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, F, Sum

from tablegame.progressives.models import (
    MustHitProgressive,
    MustHitWin,
    ProgressiveEntry,
    ProgressiveMeter,
)

ROYAL9_METERS = ("star", "spade", "heart")
Entry = ProgressiveEntry.Kind


@dataclass(frozen=True)
class LiabilityLine:
    """What the house owes on one meter, or one must-hit win not yet paid."""

    pit: str
    table: str
    """The table of a Royal 9 meter, or where an unpaid win was won; "" for a must-hit meter."""
    name: str
    """ "BB-1 Star", "Stax", "Stax win 2 (BB-1 seat 1)"."""
    kind: str
    """``royal9``, ``must_hit`` or ``unpaid``."""
    amount: Decimal
    """On the meter, or the amount won."""
    reset: Decimal | None
    """The meter's reseed or reset, which the house puts up itself; None for a win."""

    @property
    def owed(self) -> Decimal:
        """The meter's amount above its reset (what the players' wagers put on it), or the whole
        unpaid win."""
        return self.amount - self.reset if self.reset is not None else self.amount


def liability_lines(pit_ids: Iterable[int] | None = None) -> list[LiabilityLine]:
    """Accounting's progressive liability now, line by line (of the pits ``pit_ids``, or all):
    each Royal 9 meter ("BB-1 Star") and each must-hit meter ("Stax") above its reset, and each
    must-hit win not yet paid."""
    royal9 = ProgressiveMeter.objects.select_related("table__pit")
    must_hit = MustHitProgressive.objects.select_related("pit")
    unpaid = MustHitWin.objects.filter(status=MustHitWin.Status.PENDING).select_related(
        "meter__pit", "table"
    )
    if pit_ids is not None:
        pits = list(pit_ids)
        royal9 = royal9.filter(table__pit_id__in=pits)
        must_hit = must_hit.filter(pit_id__in=pits)
        unpaid = unpaid.filter(meter__pit_id__in=pits)
    lines = [
        LiabilityLine(
            m.table.pit.name,
            m.table.name,
            f"{m.table.name} {m.name.title()}",
            "royal9",
            m.amount,
            m.reseed,
        )
        for m in royal9.order_by("table__pit__name", "table__name", "pk")
    ]
    lines += [
        LiabilityLine(m.pit.name, "", m.name, "must_hit", m.amount, m.reset)
        for m in must_hit.order_by("pit__name", "name")
    ]
    lines += [
        LiabilityLine(
            w.meter.pit.name,
            w.table.name,
            f"{w.meter.name} win {w.number} unpaid ({w.table.name} seat {w.seat})",
            "unpaid",
            w.amount,
            None,
        )
        for w in unpaid.order_by("meter__pit__name", "meter__name", "number")
    ]
    return lines


def liability(pit_ids: Iterable[int] | None = None) -> Decimal:
    """What the house owes on its progressives now (of the pits ``pit_ids``, or all): each
    meter's amount above its reset, plus the must-hit wins not yet paid."""
    return sum((line.owed for line in liability_lines(pit_ids)), Decimal(0))


@dataclass(frozen=True)
class Contribution:
    """What one table's rounds of a period put on one meter, from the controller's ledger."""

    table_id: int
    meter: str
    """ "Star", "Spade", "Heart" or the must-hit meter's name."""
    must_hit_id: int | None
    """The must-hit meter; None for a Royal 9 meter (the table's own)."""
    amount: Decimal
    wagered: Decimal
    """The Royal 9 wagers it was taken from."""


ROYAL9_ORDER = {name.title(): n for n, name in enumerate(ROYAL9_METERS)}


def contributions(
    table_ids: Iterable[int], start: datetime.datetime, end: datetime.datetime
) -> list[Contribution]:
    """Each meter's contributions from each table's rounds settled in [``start``, ``end``): the
    ledger's contribution lines, after less before (a must-hit meter stops at its hit value, so
    the round that hits it may put less than its rate on it)."""
    rows = (
        ProgressiveEntry.objects.filter(
            kind=Entry.CONTRIBUTION,
            round__table_id__in=list(table_ids),
            round__settled_at__gte=start,
            round__settled_at__lt=end,
        )
        .order_by()
        .values("round__table_id", "royal9__name", "must_hit_id", "must_hit__name")
        .annotate(amount=Sum(F("after") - F("before")), wagered=Sum("wagered"))
    )
    out = [
        Contribution(
            r["round__table_id"],
            r["must_hit__name"] or str(r["royal9__name"]).title(),
            r["must_hit_id"],
            r["amount"],
            r["wagered"],
        )
        for r in rows
    ]
    return sorted(
        out,
        key=lambda c: (
            c.table_id,
            c.must_hit_id is not None,
            ROYAL9_ORDER.get(c.meter, 0),
            c.meter,
        ),
    )


@dataclass(frozen=True)
class MustHitDay:
    """A must-hit meter over a period: what its tables put on it, what was won and paid."""

    pit: str
    meter: str
    tables: str
    """The tables that feed it now."""
    contributed: Decimal
    won: int
    won_amount: Decimal
    paid: int
    paid_amount: Decimal


def must_hit_days(
    pit_ids: Iterable[int],
    table_ids: Iterable[int],
    start: datetime.datetime,
    end: datetime.datetime,
) -> list[MustHitDay]:
    """Each must-hit meter of the pits ``pit_ids`` over [``start``, ``end``): its contributions
    from the rounds of ``table_ids`` settled then (the ledger), its wins in those rounds, and
    the wins paid then."""
    given: dict[int, Decimal] = {}
    for c in contributions(table_ids, start, end):
        if c.must_hit_id is not None:
            given[c.must_hit_id] = given.get(c.must_hit_id, Decimal(0)) + c.amount
    out = []
    for meter in (
        MustHitProgressive.objects.filter(pit_id__in=list(pit_ids))
        .select_related("pit")
        .order_by("pit__name", "name")
    ):
        won = MustHitWin.objects.filter(
            meter=meter, round__settled_at__gte=start, round__settled_at__lt=end
        ).aggregate(n=Count("pk"), total=Sum("amount"))
        paid = MustHitWin.objects.filter(
            meter=meter, paid_at__gte=start, paid_at__lt=end
        ).aggregate(n=Count("pk"), total=Sum("amount"))
        out.append(
            MustHitDay(
                meter.pit.name,
                meter.name,
                ", ".join(
                    meter.links.order_by("table__name").values_list("table__name", flat=True)
                ),
                given.get(meter.pk, Decimal(0)),
                won["n"],
                won["total"] or Decimal(0),  # no win: nothing won
                paid["n"],
                paid["total"] or Decimal(0),  # no payment: nothing paid
            )
        )
    return out
