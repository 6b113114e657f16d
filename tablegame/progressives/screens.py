"""The progressives as screens show them: each meter's amount and parameters (never a hit value),
the must-hit wins waiting to be paid, and a table's strip of meters, Personal King-9s and prizes.

The table's display and tablet read :func:`table_progressives` (``views``); the pit's progressive
page reads the meter views and the wins to pay.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet

from baccarat.royal9 import Royal9Award
from tablegame import events
from tablegame.models import Table
from tablegame.progressives.models import MustHitProgressive, MustHitWin, ProgressiveMeter

#: The awards of Paytable 1 in the text's words (004 §13(i)).
AWARD_LABELS = {
    Royal9Award.PERSONAL_VS_PERSONAL: "Personal King-9 vs. Personal King-9",
    Royal9Award.BANKER_PERSONAL: "Banker Personal King-9",
    Royal9Award.PLAYER_PERSONAL: "Player Personal King-9",
    Royal9Award.OTHER_PERSONAL_VS_IDENTICAL: "Other Personal King-9 vs. Identical King-9",
    Royal9Award.SUITED_VS_SUITED: "Suited Royal 9 vs. Suited Royal 9",
    Royal9Award.ROYAL_VS_ROYAL: "Royal 9 vs. Royal 9",
    Royal9Award.ANY_SUITED: "Any Suited Royal 9",
    Royal9Award.ANY: "Any Royal 9",
}


@dataclass(frozen=True)
class MeterView:
    """A meter as every screen may show it: never its hit value."""

    name: str
    amount: Decimal
    kind: str
    """``royal9`` or ``must_hit``."""
    detail: str
    """Reseed and contribution, or reset, maximum and increment rate."""
    pending_change: str = ""

    def as_data(self) -> dict[str, str]:
        return {
            "name": self.name,
            "amount": str(self.amount),
            "shown": dollars(self.amount),
            "kind": self.kind,
            "detail": self.detail,
            "pending_change": self.pending_change,
        }


def dollars(amount: Decimal) -> str:
    """``$50,000.00``."""
    return f"${amount:,.2f}"


def _percent(rate: Decimal) -> str:
    return f"{(rate * 100).normalize():f} %"


def royal9_view(meter: ProgressiveMeter) -> MeterView:
    pending = ""
    if meter.next_reseed is not None:
        pending = f"reseed {dollars(meter.next_reseed)} from the next win"
    return MeterView(
        name=meter.name.title(),
        amount=meter.amount,
        kind="royal9",
        detail=f"reseed {dollars(meter.reseed)}, {_percent(meter.contribution)} of each wager",
        pending_change=pending,
    )


def must_hit_view(meter: MustHitProgressive) -> MeterView:
    pending = ""
    if meter.next_configuration is not None:
        pending = f"configuration {meter.next_configuration} from the next reset"
    return MeterView(
        name=meter.name,
        amount=meter.amount,
        kind="must_hit",
        detail=(
            f"must hit by {dollars(meter.maximum)}: reset {dollars(meter.reset)}, "
            f"{_percent(meter.increment_rate)} of each wager (configuration {meter.configuration})"
        ),
        pending_change=pending,
    )


def pending_wins(meters: QuerySet[MustHitProgressive] | None = None) -> list[dict[str, Any]]:
    """Must-hit wins not yet paid, oldest first: what every linked screen shows as "pending"."""
    wins = MustHitWin.objects.filter(status=MustHitWin.Status.PENDING)
    if meters is not None:
        wins = wins.filter(meter__in=meters)
    return [
        {
            "id": w.pk,
            "meter": w.meter.name,
            "number": w.number,
            "table": w.table.name,
            "seat": w.seat,
            "amount": str(w.amount),
            "won_at": w.won_at.isoformat(),
        }
        for w in wins.select_related("meter", "table").order_by("won_at", "pk")
    ]


def has_progressives(table: Table) -> bool:
    """Whether the table has a meter to show: Royal 9 meters, or a link to a must-hit meter."""
    return table.meters.exists() or MustHitProgressive.objects.filter(links__table=table).exists()


def royal9_chairs_and_prizes(table: Table) -> tuple[dict[str, str], list[list[str]]]:
    """Each chair's Personal King-9 (``{"1": "K♠ 9♠"}``) and the fixed prizes as lines (label,
    amount) of the table's Royal 9 wager; empty where the table has none."""
    rules = table.rules
    if rules.royal9 is None:
        return {}, []
    personal: dict[str, str] = {}
    for seat in range(1, min(table.seat_count, len(rules.royal9.personal_combinations)) + 1):
        a, b = rules.royal9.personal_combinations[seat - 1]
        personal[str(seat)] = f"{events.card_label(str(a))} {events.card_label(str(b))}"
    lines = [
        [AWARD_LABELS.get(award, award.value), dollars(amount)]
        for award, amount in rules.royal9.fixed_prizes.items()
    ]
    return personal, lines


def table_progressives(table: Table) -> dict[str, Any]:
    """What a table's display and tablet show: its Royal 9 meters, each chair's Personal King-9,
    the fixed prizes, its must-hit meter and the pending wins of that meter."""
    rules = table.rules
    royal9 = [royal9_view(m).as_data() for m in table.meters.order_by("pk")]
    must_hit = MustHitProgressive.objects.filter(links__table=table)
    personal, prize_lines = royal9_chairs_and_prizes(table)
    prizes: dict[str, str] = {}
    if rules.royal9 is not None:
        prizes = {award.value: str(amount) for award, amount in rules.royal9.fixed_prizes.items()}
    return {
        "table": {"id": table.pk, "name": table.name},
        "royal9": royal9,
        "personal": personal,
        "prizes": prizes,
        "prize_lines": prize_lines,
        "must_hit": [must_hit_view(m).as_data() for m in must_hit],
        "pending": pending_wins(must_hit),
    }
