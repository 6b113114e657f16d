"""The settlement's hooks: each Royal 9 wager feeds the meters, and a meter won starts again from
its reseed or reset (004 §13(i)-(j)).

Settlement (``tablegame.actions.rounds.settle_round``) calls :func:`contribute` before it settles
(the engine pays an award from the meters as they stand after the round's contributions) and
:func:`reseed_won` after. Both run in the settling action's transaction, holding the table's lock;
a must-hit meter shared by several tables is locked after the table (lock order: table, then
meter; nothing takes them the other way), so linked tables settling at once take their turns on the
meter, and two hits can never share one hit value. Each win is queued (``MustHitWin``) and paid in
the order won (``tablegame.progressives.actions.pay_must_hit_win``).

Every contribution, win, reset and parameter change is a line of the ledger
(``ProgressiveEntry``) and an event in the table's chain of the record. A Royal 9 meter won
starts again from its reseed in :func:`reseed_won`; a must-hit meter hit starts again from its
reset, with a new hidden hit value (``draw``), in :func:`_reset_must_hit`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import ROUND_DOWN, Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from baccarat.profiles import RulesSubmission
from baccarat.royal9 import Royal9Award, must_hit_advance
from baccarat.settlement import Settlement
from baccarat.wagertypes import WagerType
from tablegame import events
from tablegame.actions.common import record
from tablegame.broadcast import announce_meter
from tablegame.models import Round, Table
from tablegame.progressives.draw import (
    commitment,
    configuration,
    configuration_of,
    draw_hit_value,
    draw_winner,
)
from tablegame.progressives.models import (
    MustHitProgressive,
    MustHitWin,
    ProgressiveEntry,
    ProgressiveMeter,
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
Entry = ProgressiveEntry.Kind


def _share(wagered: Decimal, rate: Decimal) -> Decimal:
    return (wagered * rate).quantize(CENT, rounding=ROUND_DOWN)


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
    after, hit = must_hit_advance(before, wagered, configuration_of(meter), meter.hit_value)
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
    seat = draw_winner(participants)
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
    meter.hit_value, meter.hit_nonce = draw_hit_value(configuration_of(meter))
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
