"""The settlement's progressives as functions: each Royal 9 wager feeds the meters, and a meter won
starts again from its reseed or reset (004 §13(i)-(j)).

The table's Royal 9 meters are its own rows, in its state in play (only commands holding the
table's lock change them). A must-hit meter is shared by the tables linked to it: a settlement that
feeds one locks it after the table (``lock_must_hit``: lock order table, then meter; nothing takes
them the other way), so linked tables settling at once take their turns on it and two hits can
never share one hit value. Every contribution, win, reset and parameter change is a line of the
ledger (``EntryRow``) and an event in the table's chain; a must-hit win is queued
(``MustHitWinRow``) and paid in the order won (``tablegame.progressives.actions``).
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal
from functools import cache
from typing import Any

from django.db import connection

from baccarat.royal9 import STAR_OPTIONS, MustHit, Royal9Award, must_hit_advance
from baccarat.settlement import Settlement
from baccarat.wagertypes import WagerType
from fastpath import rows
from tablegame import events
from tablegame.broadcast import announce_meter
from tablegame.errors import ActionError
from tablegame.play import changes as c
from tablegame.play.changes import Changes
from tablegame.play.command import Command
from tablegame.play.rows import EntryRow, MeterRow, MustHitRow, MustHitWinRow, RoundRow, made
from tablegame.play.state import InPlay
from tablegame.progressives import draw
from tablegame.progressives.models import MustHitProgressive, MustHitWin, ProgressiveEntry

CENT = Decimal("0.01")
Entry = ProgressiveEntry.Kind


@dataclass(frozen=True)
class MustHitLocked:
    """The must-hit meter a settlement feeds, locked, and how many of its wins wait payment."""

    meter: MustHitRow
    waiting: int


def lock_must_hit(state: InPlay) -> MustHitLocked | None:
    """Before a settlement at a table that feeds a must-hit meter with a Royal 9 wager staked:
    the meter's row, locked until the command ends (one statement), with its wins waiting."""
    if state.must_hit_id is None or not any(w.type == WagerType.ROYAL9.value for w in state.wagers):
        return None
    with rows.cursor() as cursor:
        cursor.execute(_lock_statement(), [state.must_hit_id])
        found = cursor.fetchone()
    if found is None:
        return None
    meter = made(MustHitRow, list(found[:-1]))
    assert meter is not None
    return MustHitLocked(meter, int(found[-1]))


@cache
def _lock_statement() -> str:
    c_, t = rows.column, rows.table
    locking = " FOR UPDATE OF m" if connection.vendor == "postgresql" else ""
    return (
        f"SELECT {rows.columns('m', MustHitProgressive)}, "
        f"(SELECT count(*) FROM {t(MustHitWin)} w WHERE w.{c_(MustHitWin, 'meter')} = m.id "
        f"AND w.{c_(MustHitWin, 'status')} = 'pending') "
        f"FROM {t(MustHitProgressive)} m WHERE m.id = %s{locking}"
    )


def _share(wagered: Decimal, rate: Decimal) -> Decimal:
    return (wagered * rate).quantize(CENT, rounding=ROUND_DOWN)


def contribute(
    state: InPlay, game: RoundRow, must_hit: MustHitLocked | None, at: datetime.datetime
) -> tuple[tuple[MeterRow, ...], Changes]:
    """The round's Royal 9 wagers feed the table's Royal 9 meters and its must-hit meter, which
    may hit (its winner drawn among the round's Royal 9 seats): the Royal 9 meters as they
    stand after (what the engine pays from), and the changes."""
    if state.round_submission.royal9 is None:
        return (), c.NONE
    staked = [(w.seat, w.amount) for w in state.wagers if w.type == WagerType.ROYAL9.value]
    meters = tuple(sorted(state.meters, key=lambda m: m.id or 0))  # as set up: Star first
    wagered = sum((amount for _seat, amount in staked), Decimal(0))
    if not wagered:
        return meters, c.NONE
    done = c.NONE
    entries: list[EntryRow] = []
    told: list[events.MeterChange] = []
    fed: list[MeterRow] = []
    for meter in meters:
        after, changed = c.update(
            meter, amount=meter.amount + _share(wagered, meter.contribution), live=True,
            updated_at=at,
        )  # fmt: skip
        done += changed
        fed.append(after)
        entry = _entry(Entry.CONTRIBUTION, game, meter.amount, after.amount, at, wagered=wagered)
        entries.append(dataclasses.replace(entry, royal9_id=meter.id))
        told.append(events.MeterChange(meter.name, after.amount - meter.amount, after.amount))
    won: list[events.TablePayload] = []
    if must_hit is not None:
        participants = sorted({seat for seat, _ in staked})
        fed_must_hit, won = _feed_must_hit(game, must_hit, wagered, participants, entries, told, at)
        done += fed_must_hit
    done += c.insert(*entries)
    done += c.event(
        None,
        events.ProgressiveContributed(round=game.number, wagered=wagered, meters=tuple(told)),
    )
    for payload in won:
        done += c.event(None, payload)
    return tuple(fed), done


def _entry(
    kind: str,
    game: RoundRow | None,
    before: Decimal,
    after: Decimal,
    at: datetime.datetime,
    **rest: Any,
) -> EntryRow:
    return EntryRow(
        kind=kind,
        table_id=game.table_id if game else None,
        round_id=game.id if game else None,
        before=before,
        after=after,
        at=at,
        **rest,
    )


def _feed_must_hit(
    game: RoundRow,
    locked: MustHitLocked,
    wagered: Decimal,
    participants: Sequence[int],
    entries: list[EntryRow],
    told: list[events.MeterChange],
    at: datetime.datetime,
) -> tuple[Changes, list[events.TablePayload]]:
    """The must-hit meter takes its share; the changes, and the events of a hit."""
    meter = locked.meter
    before = meter.amount
    config = _configuration(meter)
    after, hit = must_hit_advance(before, wagered, config, meter.hit_value)
    entries.append(
        _entry(Entry.CONTRIBUTION, game, before, after, at, wagered=wagered, must_hit_id=meter.id)
    )
    told.append(events.MeterChange(meter.name, after - before, after))
    meter_id, name = meter.id or 0, meter.name
    # Every linked table's screens: the amount, or read it again after a hit (its win, its reset).
    notice = Changes(after_commit=(lambda: announce_meter(meter_id, name, after, read=hit),))
    if not hit:
        return notice + c.update(meter, amount=after, live=True, updated_at=at)[1], []
    seat = draw.draw_winner(participants)
    assert game.id is not None and meter.id is not None
    won = MustHitWinRow(
        meter_id=meter.id,
        number=meter.hits + 1,
        table_id=game.table_id,
        round_id=game.id,
        seat=seat,
        participants=list(participants),
        amount=after,
        won_at=at,
    )
    entries.append(_entry(Entry.HIT, game, after, after, at, must_hit_id=meter.id, seat=seat))
    revealed = meter.hit_nonce
    reset_changes, reset = reset_must_hit(
        dataclasses.replace(meter, amount=after, live=True, updated_at=at), game, entries, at
    )
    return notice + c.insert(won) + reset_changes, [
        events.MustHitWon(
            round=game.number,
            meter=meter.name,
            number=won.number,
            seat=seat,
            participants=tuple(participants),
            amount=after,
            nonce=revealed,
            waiting=locked.waiting,
        ),
        reset,
    ]


def _configuration(meter: MustHitRow) -> MustHit:
    return MustHit(meter.reset, meter.maximum, meter.increment_rate)


def reset_must_hit(
    meter: MustHitRow, game: RoundRow | None, entries: list[EntryRow], at: datetime.datetime
) -> tuple[Changes, events.ProgressiveReset]:
    """Won: back to its reset, with any configuration waiting for this moment, and a new hidden
    hit value; one UPDATE, as the database's guard wants a win (``hits`` + 1, amount = reset)."""
    before = meter.amount
    values: dict[str, Any] = {}
    if meter.next_configuration is not None:
        config = draw.configuration(meter.next_configuration)
        values = {
            "configuration": meter.next_configuration,
            "next_configuration": None,
            "reset": config.reset,
            "maximum": config.maximum,
            "increment_rate": config.increment_rate,
        }
        note = f"configuration {meter.next_configuration} from this reset"
        entries.append(
            _entry(Entry.PARAMETERS, game, before, before, at, must_hit_id=meter.id, note=note)
        )
    configured = dataclasses.replace(meter, **values)
    hit_value, nonce = draw.draw_hit_value(_configuration(configured))
    reset, changed = c.update(
        meter,
        **values,
        hit_value=hit_value,
        hit_nonce=nonce,
        amount=configured.reset,
        hits=meter.hits + 1,
        live=meter.live,
        updated_at=meter.updated_at,
    )
    entries.append(_entry(Entry.RESET, game, before, reset.amount, at, must_hit_id=meter.id))
    return changed, events.ProgressiveReset(
        meter=meter.name,
        amount=reset.amount,
        round=game.number if game else None,
        commitment=draw.commitment(hit_value, nonce),
    )


def reseed_won(
    state: InPlay,
    game: RoundRow,
    meters: Sequence[MeterRow],
    result: Settlement,
    at: datetime.datetime,
) -> Changes:
    """A Royal 9 meter paid in full starts again from its reseed (the new one, if a change was
    waiting for this win)."""
    if state.round_submission.royal9 is None:
        return c.NONE
    by_name = {m.name: m for m in meters}
    entries: list[EntryRow] = []
    done = c.NONE
    for won in result.wagers:
        name = Royal9Award(won.award).meter if won.award else None
        meter = by_name.get(name) if name else None
        if meter is None:
            continue
        before = meter.amount
        entries.append(
            _entry(Entry.HIT, game, before, before, at, royal9_id=meter.id, seat=won.seat)
        )
        values: dict[str, Any] = {}
        if meter.next_reseed is not None and meter.next_contribution is not None:
            values = {
                "reseed": meter.next_reseed,
                "contribution": meter.next_contribution,
                "next_reseed": None,
                "next_contribution": None,
            }
            note = f"reseed {meter.next_reseed}, contribution {meter.next_contribution}"
            entries.append(
                _entry(Entry.PARAMETERS, game, before, before, at, royal9_id=meter.id, note=note)
            )
        reseed = values.get("reseed", meter.reseed)
        after, changed = c.update(
            meter, **values, amount=reseed, hits=meter.hits + 1, updated_at=at
        )
        by_name[meter.name] = after
        done += changed
        entries.append(_entry(Entry.RESET, game, before, after.amount, at, royal9_id=meter.id))
        done += c.event(
            None,
            events.ProgressiveHit(
                round=game.number, seat=won.seat, meter=meter.name, paid=won.payout
            ),
        )
        done += c.event(
            None,
            events.ProgressiveReset(meter=meter.name, amount=after.amount, round=game.number),
        )
    return done + c.insert(*entries)


def set_star_option(state: InPlay, command: Command, *, option: int) -> Changes:
    """The Star progressive's option (004 §13(i)): 1 reseeds at $25,000, 2 at $50,000, both 6 %.
    On a live meter it takes effect when the Star is next won."""
    progressive = STAR_OPTIONS.get(option)
    if progressive is None:
        raise ActionError("The Star progressive has options 1 and 2 (004 §13(i)).")
    meter = next((m for m in state.meters if m.name == "star"), None)
    table = state.table
    if meter is None:
        raise ActionError(
            f"{table.name} has no Royal 9 meters: it does not offer the Royal 9 wager."
        )
    if state.in_play is not None:
        raise ActionError(f"{table.name} has a round in play: finish it first.")
    if meter.live:
        values: dict[str, Any] = {
            "next_reseed": progressive.reseed,
            "next_contribution": progressive.contribution,
        }
        effective = "next_reset"
    else:
        values = {
            "reseed": progressive.reseed,
            "contribution": progressive.contribution,
            "next_reseed": None,
            "next_contribution": None,
            "amount": progressive.reseed,
        }
        effective = "now"
    after, done = c.update(meter, **values, updated_at=command.at)
    done += c.insert(
        EntryRow(
            royal9_id=meter.id,
            kind=Entry.PARAMETERS,
            table_id=table.id,
            before=meter.amount,
            after=after.amount,
            actor_id=command.actor_id,
            note=f"Star option {option}, {effective.replace('_', ' ')}",
            at=command.at,
        )
    )
    parameters = {
        "option": str(option),
        "reseed": str(progressive.reseed),
        "contribution": str(progressive.contribution),
    }
    return done + c.event(
        command.actor_id,
        events.ProgressiveParameters(meter="star", parameters=parameters, effective=effective),
    )
