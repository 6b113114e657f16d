"""The table's own commands as functions of the state in play: open and close it, its limits, the
big table's curator and California's player-dealer position (000 §2-3, 004 §7, §14, 001).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from baccarat.seating import california_action_order, curator_offer_order
from baccarat.wagertypes import WagerType
from tablegame import events
from tablegame.errors import ActionError
from tablegame.models import Round, Table
from tablegame.models.tables import default_limits
from tablegame.play import changes as c
from tablegame.play.changes import Changes
from tablegame.play.command import Command, check_text, supervisor_reason
from tablegame.play.rows import LimitRow, MeterRow, RulesRow, SeatRow, TableRow
from tablegame.play.seats import refuse_open_markers
from tablegame.play.state import InPlay

ROYAL9_METERS = ("star", "spade", "heart")


def open_table(state: InPlay, command: Command) -> Changes:
    """Open the table for gaming: its seats, limits and Rules Submission on file, and a big
    table's Royal 9 meters."""
    table = state.table
    if table.status == Table.Status.OPEN:
        raise ActionError(f"{table.name} is already open.")
    assert table.id is not None
    rules = state.rules
    numbers = {s.number for s in state.seats}
    done = c.insert(
        *(
            SeatRow(table_id=table.id, number=n)
            for n in range(1, table.seat_count + 1)
            if n not in numbers
        )
    )
    if state.rules_now is None and state.rules_next_at is None:  # nothing ever filed
        done += c.insert(
            RulesRow(
                table_id=table.id,
                profile=table.profile,
                effective_at=command.at,
                filed_by_id=command.actor_id,
                filed_at=command.at,
            )
        )
    limited = {lim.wager_type for lim in state.limits}
    done += c.insert(
        *(
            LimitRow(table_id=table.id, wager_type=wager.value, minimum=low, maximum=high)
            for wager, (low, high) in default_limits(rules).items()
            if wager.value not in limited
        )
    )
    if rules.royal9 is not None:
        metered = {m.name for m in state.meters}
        for name in ROYAL9_METERS:
            if name in metered:
                continue
            meter = rules.royal9.progressive(name)
            done += c.insert(
                MeterRow(
                    table_id=table.id,
                    name=name,
                    amount=meter.reseed,
                    reseed=meter.reseed,
                    contribution=meter.contribution,
                    updated_at=command.at,
                )
            )
    done += c.update(table, status=Table.Status.OPEN, status_changed_at=command.at)[1]
    return done + c.event(command.actor_id, events.TableOpened(profile=rules.name))


def close_table(state: InPlay, command: Command) -> Changes:
    """Close the table: no round in play, no shoe left, no vigorish marker left open."""
    table = state.table
    if table.status == Table.Status.CLOSED:
        raise ActionError(f"{table.name} is already closed.")
    if state.in_play:
        raise ActionError("Finish or void the round in play before closing the table.")
    if state.shoe is not None:
        raise ActionError("End the shoe before closing the table.")
    refuse_open_markers(state, "closing the table")
    _, done = c.update(table, status=Table.Status.CLOSED, status_changed_at=command.at)
    return done + c.event(command.actor_id, events.TableClosed())


def set_limit(
    state: InPlay,
    command: Command,
    *,
    wager: str,
    minimum: Decimal,
    maximum: Decimal,
    reason: str = "",
) -> Changes:
    """Set the minimum and maximum of one wager at the table (``reason``: why, recorded)."""
    reason = check_text(reason, field="reason", limit=200)
    try:
        kind = WagerType(wager)
    except ValueError:
        raise ActionError(f"'{wager}' is not a wager.") from None
    if not state.rules.offers(kind):
        raise ActionError(f"{state.table.name} does not offer the {kind.label} wager.")
    if minimum <= 0 or maximum < minimum:
        raise ActionError("The minimum must be above zero and the maximum at least the minimum.")
    low, high = Decimal(str(minimum)), Decimal(str(maximum))
    existing = state.limit(kind.value)
    if existing is None:
        assert state.table.id is not None
        done = c.insert(
            LimitRow(table_id=state.table.id, wager_type=kind.value, minimum=low, maximum=high)
        )
    else:
        done = c.update(existing, minimum=low, maximum=high)[1]
    return done + c.event(
        command.actor_id,
        events.LimitSet(wager=kind, minimum=low, maximum=high, reason=reason),
    )


def _between_rounds(state: InPlay, what: str) -> None:
    game = state.in_play
    if game and game.state != Round.State.BETTING:
        raise ActionError(f"{what} changes hands only between rounds.")


def check_offer(order: list[int], seat: int | None, declined: Sequence[int], what: str) -> None:
    """Every seat offered before the one that accepted declined; nobody accepted: all declined."""
    if seat is not None and seat not in order:
        raise ActionError(f"Seat {seat} is not offered {what}.")
    before = order[: order.index(seat)] if seat is not None else order
    skipped = [s for s in before if s not in declined]
    if skipped:
        raise ActionError(f"Offer {what} to seat {skipped[0]} first.")


def take_shoe(
    state: InPlay, command: Command, *, seat: int | None, declined: Sequence[int] = ()
) -> Changes:
    """Big table: a player accepts the shoe as curator, or the dealer takes it (004 §7, §14).

    The shoe is offered in order (seat 1 first, or from the right of the last curator); every seat
    offered before the one that accepts must have declined. ``seat=None``: the dealer is curator.
    """
    table = state.table
    if not state.rules.has_curator:
        raise ActionError(f"{table.name} is dealt by the house dealer; there is no curator.")
    _between_rounds(state, "The shoe")
    previous = table.curator_seat or table.previous_curator_seat
    order = curator_offer_order(list(state.occupied), previous=previous)
    check_offer(order, seat, declined, "the shoe")
    _, done = c.update(table, curator_seat=seat if seat is not None else 0)
    return done + c.event(
        command.actor_id, events.CuratorTaken(seat=seat, declined=tuple(declined))
    )


def pass_shoe(
    state: InPlay, command: Command, *, ordered: bool = False, reason: str = ""
) -> Changes:
    """The curator passes the shoe, by choice or on the order of the dealer or a floorperson
    (``reason``: why it was ordered, recorded)."""
    table = state.table
    reason = supervisor_reason(command, reason, "the curator must pass") if ordered else ""
    if table.curator_seat is None:
        raise ActionError("Nobody holds the shoe.")
    _between_rounds(state, "The shoe")
    done = c.event(
        command.actor_id,
        events.ShoePassed(seat=table.curator_seat, ordered=ordered, reason=reason),
    )
    return done + c.update(table, previous_curator_seat=table.curator_seat, curator_seat=None)[1]


def take_player_dealer(
    state: InPlay,
    command: Command,
    *,
    seat: int,
    declined: Sequence[int] = (),
    reason: str = "",
) -> Changes:
    """California: a player takes the player-dealer position, offered clockwise (001); or a
    supervisor moves it to a seated player, saying why (``reason``, recorded)."""
    table = state.table
    if not state.rules.player_dealer:
        raise ActionError(f"{table.name} has no player-dealer position.")
    if state.in_play:
        raise ActionError("The player-dealer position changes only between rounds.")
    seats = list(state.occupied)
    reason = check_text(reason, field="reason", limit=200)
    if reason:
        return _move_player_dealer(table, command, seat=seat, seats=seats, reason=reason)
    last = table.player_dealer_seat or table.previous_player_dealer_seat
    if last is None:
        order = [seat] if seat in seats else []  # the first position is offered to anyone seated
    else:
        order = california_action_order(last, seats)
        if table.player_dealer_seat is None and last in seats:
            order.append(last)  # offered continuously around the table: back to the last one
    check_offer(order, seat, declined, "the player-dealer position")
    _, done = c.update(table, player_dealer_seat=seat, player_dealer_hands=0)
    return done + c.event(
        command.actor_id, events.PlayerDealerTaken(seat=seat, declined=tuple(declined))
    )


def _move_player_dealer(
    table: TableRow, command: Command, *, seat: int, seats: list[int], reason: str
) -> Changes:
    """A supervisor moves the player-dealer position out of its turn (a player leaves the game,
    a dispute), to a seated player."""
    command.require("authority:move_player_dealer")
    if seat not in seats:
        raise ActionError(f"Nobody sits at seat {seat}: the position goes to a seated player.")
    if seat == table.player_dealer_seat:
        raise ActionError(f"Seat {seat} holds the player-dealer position already.")
    previous = table.player_dealer_seat
    _, done = c.update(
        table,
        player_dealer_seat=seat,
        player_dealer_hands=0,
        previous_player_dealer_seat=previous
        if previous is not None
        else table.previous_player_dealer_seat,
    )
    return done + c.event(
        command.actor_id, events.PlayerDealerTaken(seat=seat, declined=(), reason=reason)
    )
