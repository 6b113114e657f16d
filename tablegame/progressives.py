"""The progressive controller: Royal 9 meters and must-hit meters at settlement (004 §13(i)-(j)).

Settlement (``tablegame.actions.rounds.settle_round``) calls :func:`contribute` before it settles
(the engine pays an award from the meters as they stand after the round's contributions) and
:func:`reseed_won` after. Both run in the settling action's transaction, holding the table's lock;
a must-hit meter shared by several tables is locked after the table (lock order: table, then
meter; nothing takes them the other way), so linked tables settling at once take their turns on the
meter, and two hits can never share one hit value. Each win is queued (``MustHitWin``) and paid in
the order won (``tablegame.actions.progressives.pay_must_hit_win``).

Every contribution, win, reset and parameter change is a line of the ledger
(``ProgressiveEntry``) and an event in the table's chain of the record. The hit value of a
must-hit meter is drawn at each reset with the operating system's cryptographic source
(``secrets``), uniformly to the cent in (reset, maximum]; only a SHA-256 commitment of it (with a
random nonce) is recorded until it is won, when the win's event reveals both.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal
from typing import Any

from django.db import transaction
from django.db.models import Count, F, QuerySet, Sum
from django.utils import timezone

from baccarat.profiles import RulesSubmission
from baccarat.royal9 import (
    MUST_HIT_CONFIGURATIONS,
    MustHit,
    Royal9Award,
    must_hit_advance,
    must_hit_point,
    must_hit_winner,
)
from baccarat.settlement import Settlement
from baccarat.wagertypes import WagerType
from tablegame import events
from tablegame.actions.common import record
from tablegame.broadcast import announce_meter
from tablegame.errors import ActionError
from tablegame.models import (
    MustHitProgressive,
    MustHitWin,
    ProgressiveEntry,
    ProgressiveMeter,
    Round,
    Table,
)
from tablegame.work import work

CENT = Decimal("0.01")
#: The fields of a meter that a contribution changes, and those that a win changes.
METER_CONTRIBUTED = ("amount", "live", "updated_at")
METER_RESEEDED = (
    "amount",
    "hits",
    "updated_at",
    "reseed",
    "contribution",
    "next_reseed",
    "next_contribution",
)
ROYAL9_METERS = ("star", "spade", "heart")
Entry = ProgressiveEntry.Kind

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

#: The draw: the operating system's cryptographic source (tests may put a fixed one here).
RANDOM = secrets.SystemRandom()


def commitment(hit_value: Decimal, nonce: str) -> str:
    """What the reset records of a hidden hit value: SHA-256 of ``"<value>:<nonce>"``."""
    return hashlib.sha256(f"{hit_value}:{nonce}".encode()).hexdigest()


def draw_hit_value(config: MustHit) -> tuple[Decimal, str]:
    """A new hidden hit value in (reset, maximum], and the nonce that seals it."""
    return must_hit_point(config, RANDOM), secrets.token_hex(16)


def configuration(number: int) -> MustHit:
    """Must-hit configuration 1, 2 or 3 of 004 §13(j) Table 1."""
    try:
        return MUST_HIT_CONFIGURATIONS[number]
    except KeyError:
        raise ActionError(
            f"Must-hit configuration {number} does not exist: choose 1, 2 or 3 (004 §13(j))."
        ) from None


def _config_of(meter: MustHitProgressive) -> MustHit:
    return MustHit(meter.reset, meter.maximum, meter.increment_rate)


def _share(wagered: Decimal, rate: Decimal) -> Decimal:
    return (wagered * rate).quantize(CENT, rounding=ROUND_DOWN)


# --- At settlement -------------------------------------------------------------------------------


def contribute(table: Table, game: Round, rules: RulesSubmission) -> list[ProgressiveMeter]:
    """The round's Royal 9 wagers feed the table's Royal 9 meters and its must-hit meter, which
    may hit: its winner is drawn among the round's Royal 9 seats. Returns the Royal 9 meters,
    locked, as they stand now (what the engine pays from)."""
    if rules.royal9 is None:  # no Royal 9 wager at this table: nothing to read or lock
        return []
    staked = [(w.seat, w.amount) for w in game.wagers.all() if w.type == WagerType.ROYAL9.value]
    meters = list(ProgressiveMeter.objects.select_for_update().filter(table=table).order_by("pk"))
    # The meters as they will stand when the command writes: its answer reads them from here.
    work().keep(table, "meters", sorted(meters, key=lambda m: m.name))
    wagered = sum((amount for _seat, amount in staked), Decimal(0))
    if not wagered:
        return meters
    now = timezone.now()
    entries: list[ProgressiveEntry] = []
    changes: list[events.MeterChange] = []
    for meter in meters:
        before = meter.amount
        meter.amount = before + _share(wagered, meter.contribution)
        meter.live, meter.updated_at = True, now
        entries.append(_entry(Entry.CONTRIBUTION, table, game, before, meter.amount, royal9=meter))
        entries[-1].wagered = wagered
        changes.append(events.MeterChange(meter.name, meter.amount - before, meter.amount))
        # Written with the command's record, as the meter stands then: a win reseeds it first
        # (``reseed_won``), and the one UPDATE takes both, as the database's guard wants a win.
        work().save(meter, METER_CONTRIBUTED)
    won = _feed_must_hit(table, game, wagered, sorted({s for s, _a in staked}), entries, changes)
    work().add_all(entries)
    record(
        table,
        None,
        events.ProgressiveContributed(round=game.number, wagered=wagered, meters=tuple(changes)),
    )
    for payload in won:
        record(table, None, payload)
    return meters


def _entry(
    kind: str,
    table: Table | None,
    game: Round | None,
    before: Decimal,
    after: Decimal,
    **rest: Any,
) -> ProgressiveEntry:
    return ProgressiveEntry(
        kind=kind, table=table, round=game, before=before, after=after, at=timezone.now(), **rest
    )


def _feed_must_hit(
    table: Table,
    game: Round,
    wagered: Decimal,
    participants: Sequence[int],
    entries: list[ProgressiveEntry],
    changes: list[events.MeterChange],
) -> list[events.TablePayload]:
    """The must-hit meter the table feeds, if any, takes its share; returns the events of a hit.

    Race: linked tables settling at once; the meter's row lock (after each table's own) makes
    them take turns, so each sees the amount the one before left."""
    meter = (
        MustHitProgressive.objects.select_for_update(of=("self",))
        .filter(links__table=table)
        .first()
    )
    if meter is None:
        return []
    before = meter.amount
    after, hit = must_hit_advance(before, wagered, _config_of(meter), meter.hit_value)
    entries.append(_entry(Entry.CONTRIBUTION, table, game, before, after, must_hit=meter))
    entries[-1].wagered = wagered
    changes.append(events.MeterChange(meter.name, after - before, after))
    meter.amount, meter.live, meter.updated_at = after, True, timezone.now()
    meter_id, name = meter.pk, meter.name
    # Every linked table's screens: the amount, or read it again after a hit (its win, its reset).
    transaction.on_commit(lambda: announce_meter(meter_id, name, after, read=hit))
    if not hit:
        work().save(meter, METER_CONTRIBUTED)  # with the command's record
        return []
    seat = must_hit_winner(participants, RANDOM)
    waiting = MustHitWin.objects.filter(meter=meter, status=MustHitWin.Status.PENDING).count()
    won = MustHitWin.objects.create(
        meter=meter,
        number=meter.hits + 1,
        table=table,
        round=game,
        seat=seat,
        participants=list(participants),
        amount=after,
    )
    entries.append(_entry(Entry.HIT, table, game, after, after, must_hit=meter, seat=seat))
    revealed = meter.hit_nonce
    reset = _reset_must_hit(meter, table, game, entries)
    return [
        events.MustHitWon(
            round=game.number,
            meter=meter.name,
            number=won.number,
            seat=seat,
            participants=tuple(participants),
            amount=after,
            nonce=revealed,
            waiting=waiting,
        ),
        reset,
    ]


def _reset_must_hit(
    meter: MustHitProgressive,
    table: Table | None,
    game: Round | None,
    entries: list[ProgressiveEntry],
) -> events.ProgressiveReset:
    """Won: back to its reset, with any configuration waiting for this moment, and a new hidden
    hit value. One UPDATE, as the database's guard wants a win: ``hits`` + 1, amount = reset."""
    before = meter.amount
    if meter.next_configuration is not None:
        config = configuration(meter.next_configuration)
        meter.configuration, meter.next_configuration = meter.next_configuration, None
        meter.reset, meter.maximum, meter.increment_rate = (
            config.reset,
            config.maximum,
            config.increment_rate,
        )
        entries.append(
            _entry(
                Entry.PARAMETERS,
                table,
                game,
                before,
                before,
                must_hit=meter,
                note=f"configuration {meter.configuration} from this reset",
            )
        )
    meter.hit_value, meter.hit_nonce = draw_hit_value(_config_of(meter))
    meter.amount, meter.hits = meter.reset, meter.hits + 1
    work().save_now(meter)
    entries.append(_entry(Entry.RESET, table, game, before, meter.amount, must_hit=meter))
    return events.ProgressiveReset(
        meter=meter.name,
        amount=meter.amount,
        round=game.number if game else None,
        commitment=commitment(meter.hit_value, meter.hit_nonce),
    )


def reseed_won(
    table: Table,
    game: Round,
    meters: Iterable[ProgressiveMeter],
    result: Settlement,
    rules: RulesSubmission,
) -> None:
    """A Royal 9 meter paid in full starts again from its reseed (the new one, if a change was
    waiting for this win)."""
    if rules.royal9 is None:
        return
    by_name = {m.name: m for m in meters}
    entries: list[ProgressiveEntry] = []
    for won in result.wagers:
        name = Royal9Award(won.award).meter if won.award else None
        meter = by_name.get(name) if name else None
        if meter is None:
            continue
        before = meter.amount
        entries.append(_entry(Entry.HIT, table, game, before, before, royal9=meter, seat=won.seat))
        if meter.next_reseed is not None and meter.next_contribution is not None:
            meter.reseed, meter.contribution = meter.next_reseed, meter.next_contribution
            meter.next_reseed = meter.next_contribution = None
            entries.append(
                _entry(
                    Entry.PARAMETERS,
                    table,
                    game,
                    before,
                    before,
                    royal9=meter,
                    note=f"reseed {meter.reseed}, contribution {meter.contribution}",
                )
            )
        meter.amount, meter.hits, meter.updated_at = meter.reseed, meter.hits + 1, timezone.now()
        work().save(meter, METER_RESEEDED)  # merged with its contribution: one UPDATE
        entries.append(_entry(Entry.RESET, table, game, before, meter.amount, royal9=meter))
        record(
            table,
            None,
            events.ProgressiveHit(
                round=game.number, seat=won.seat, meter=meter.name, paid=won.payout
            ),
        )
        record(
            table,
            None,
            events.ProgressiveReset(meter=meter.name, amount=meter.amount, round=game.number),
        )
    work().add_all(entries)


# --- Reading: screens, the console, accounting ---------------------------------------------


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
