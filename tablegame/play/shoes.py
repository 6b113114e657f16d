"""A shoe's commands as functions of the state in play: decks received, inspected, verified,
spread, washed, shuffled, cut, burned, respread when idle, ended; the deck change rescheduled
(000 §3-5, 002 (a), (d), (e), 004 §3-5).
"""

from __future__ import annotations

import datetime
import zoneinfo
from collections.abc import Mapping, Sequence
from typing import Any

from baccarat.cards import Card, CardError
from baccarat.composition import Composition
from baccarat.errors import RulesError
from baccarat.profiles import DeckChange as DeckRule
from baccarat.shoe import (
    DECKS_LAST,
    Cut,
    ShuffleStep,
    batch_for_shoe,
    burn,
    check_cut,
    check_decks,
    check_shuffle,
)
from casino.models import Event
from tablegame import events
from tablegame.errors import ActionError, MistypedCard
from tablegame.models import Shoe, Table
from tablegame.models.shoes import fresh_counts
from tablegame.play import changes as c
from tablegame.play.changes import Changes
from tablegame.play.command import Command, check_text, supervisor_reason
from tablegame.play.parts import cut_offer_order_of
from tablegame.play.rounds import take
from tablegame.play.rows import DeckChangeRow, ShoeRow
from tablegame.play.seats import refuse_open_markers
from tablegame.play.state import InPlay

State = Shoe.State


def _shoe(state: InPlay) -> ShoeRow:
    if state.shoe is None:
        raise ActionError("There is no shoe at the table: receive decks first.")
    return state.shoe


def _expect(shoe: ShoeRow, *states: str) -> None:
    if shoe.state not in states:
        wanted = " or ".join(State(s).label.lower() for s in states)
        raise ActionError(f"The shoe is {shoe.state_label.lower()}; this needs it {wanted}.")


def _decks_in_use(
    schedule: DeckChangeRow, decks: int | None, shuffler: bool | None
) -> tuple[int | None, bool | None]:
    """The decks a reshuffle deals: those in use (as many, in the same shuffler); what the dealer
    said of them is checked against them."""
    if schedule.decks is None:  # received before the table kept the count: as the dealer says
        return decks, shuffler
    if decks is not None and decks != schedule.decks:
        raise ActionError(
            f"The decks in use are {schedule.decks}: a reshuffle keeps them ({decks} were given). "
            "Bring new decks to change the count."
        )
    if shuffler is not None and shuffler != schedule.automatic_shuffler:
        where = "in the automatic shuffler" if schedule.automatic_shuffler else "in a manual shoe"
        raise ActionError(f"The decks in use are dealt {where}: a reshuffle keeps them so.")
    return schedule.decks, schedule.automatic_shuffler


def receive_decks(
    state: InPlay,
    command: Command,
    *,
    decks: int | None = None,
    automatic_shuffler: bool | None = None,
    preinspected: bool = False,
    back_colour: str = "",
    new_decks: bool = True,
) -> Changes:
    """Decks arrive at the table for a new shoe (000 §3-4).

    ``new_decks=False`` reshuffles the decks of the last shoe, where the rules allow (mini tables,
    within 24 hours); big tables take new decks after every shoe (004 §3(b)). A reshuffle keeps
    the decks in use: as many, in the same shuffler (``decks`` and ``automatic_shuffler`` may be
    left out, and are refused when they differ).
    """
    table = state.table
    if table.status != Table.Status.OPEN:
        raise ActionError(f"{table.name} is closed: open it first.")
    if state.shoe is not None:
        raise ActionError("The table already has a shoe; end it before the next one.")
    rules = state.rules
    back_colour = check_text(back_colour, field="back colour", limit=20)
    schedule = state.deck_change
    if not new_decks:
        if rules.deck_change is DeckRule.EVERY_SHOE:
            raise ActionError("New decks are required after every shoe at this table.")
        if schedule is None or schedule.is_due(command.at):
            raise ActionError("The decks must be changed (every 24 hours): bring new decks.")
        decks, automatic_shuffler = _decks_in_use(schedule, decks, automatic_shuffler)
    if decks is None:
        raise ActionError("Say how many decks were received.")
    shuffler = bool(automatic_shuffler)
    try:
        check_decks(rules, decks, automatic_shuffler=shuffler)
    except RulesError as error:
        raise ActionError(str(error)) from None
    number = state.shoes_dealt + 1
    batched = shuffler and rules.shuffler_batches
    if batched:  # one batch deals this shoe while the other waits in the shuffler (000 §3(b))
        back_colour = back_colour or f"batch {batch_for_shoe(number) + 1}"
    in_shoe = decks // 2 if batched else decks
    ready = State.SHUFFLED if preinspected else (State.RECEIVED if new_decks else State.WASHED)
    assert table.id is not None
    done = c.insert(
        ShoeRow(
            table_id=table.id,
            number=number,
            decks=in_shoe,
            automatic_shuffler=shuffler,
            batch=batch_for_shoe(number) if batched else None,
            back_colour=back_colour,
            preinspected=preinspected,
            state=ready,
            remaining=fresh_counts(in_shoe),
            received_at=command.at,
        )
    )
    if new_decks:
        every_shoe = rules.deck_change is DeckRule.EVERY_SHOE
        values: dict[str, Any] = {
            "every_shoe": every_shoe,
            "changed_at": command.at,
            "due_at": None if every_shoe else command.at + DECKS_LAST,
            "decks": decks,
            "automatic_shuffler": shuffler,
        }
        if schedule is None:
            done += c.insert(DeckChangeRow(table_id=table.id, **values))
        else:
            done += c.update(schedule, **values)[1]
    return (
        done
        + c.event(
            command.actor_id,
            events.DecksReceived(
                shoe=number,
                decks=decks,
                automatic_shuffler=shuffler,
                preinspected=preinspected,
                new_decks=new_decks,
                back_colour=back_colour,
            ),
        )
        + Changes(read_again=True)
    )


def _step(
    state: InPlay,
    command: Command,
    frm: str,
    to: str,
    event: type[events.ShoeStep],
    **fields: Any,
) -> Changes:
    """One step of readying the decks: refuse it out of order, else advance and record it."""
    shoe = _shoe(state)
    _expect(shoe, frm)
    _, done = c.update(shoe, state=to, **fields)
    return done + c.event(command.actor_id, event(shoe=shoe.number))


def inspect_decks(state: InPlay, command: Command) -> Changes:
    """The dealer inspected the decks for defects (000 §4(a))."""
    return _step(
        state, command, State.RECEIVED, State.INSPECTED, events.DecksInspected,
        inspected_by_id=command.actor_id,
    )  # fmt: skip


def verify_inspection(state: InPlay, command: Command) -> Changes:
    """The floorperson verifies the dealer's inspection (000 §4(a))."""
    shoe = state.shoe
    if shoe and shoe.inspected_by_id == command.actor_id:
        raise ActionError("The inspection is verified by someone other than the inspector.")
    return _step(
        state, command, State.INSPECTED, State.VERIFIED, events.InspectionVerified,
        verified_by_id=command.actor_id,
    )  # fmt: skip


def spread_decks(state: InPlay, command: Command) -> Changes:
    """Cards spread face up by deck, suit and sequence for the first player (000 §4(b), (d))."""
    return _step(state, command, State.VERIFIED, State.SPREAD, events.DecksSpread)


def wash_decks(state: InPlay, command: Command) -> Changes:
    """Turned face down, washed and stacked; batches stacked apart with a shuffler (000 §4(c))."""
    return _step(state, command, State.SPREAD, State.WASHED, events.DecksWashed)


def shuffle_decks(
    state: InPlay, command: Command, *, steps: Sequence[str] = (), machine: bool = False
) -> Changes:
    """Shuffle by hand (plug, riffle, turn, strip, cut) or in the automatic shuffler (000 §5)."""
    shoe = _shoe(state)
    _expect(shoe, State.WASHED)
    if machine:
        if not shoe.automatic_shuffler:
            raise ActionError("This shoe was not received for the automatic shuffler.")
        done = ["machine"]
    else:
        try:
            parsed = [ShuffleStep(s) for s in steps]
        except ValueError:
            known = ", ".join(s.value for s in ShuffleStep)
            raise ActionError(f"Shuffle steps are: {known}.") from None
        try:
            check_shuffle(state.rules.shuffle, parsed)
        except RulesError as error:
            raise ActionError(str(error)) from None
        done = [s.value for s in parsed]
    _, changed = c.update(shoe, state=State.SHUFFLED, shuffle=done)
    return changed + c.event(command.actor_id, events.Shuffled(shoe=shoe.number, steps=tuple(done)))


def shuffled_by(state: InPlay, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Before a shuffle's verification: who shuffled the shoe's cards, as the record says (its
    last shuffle; one statement)."""
    shoe = state.shoe
    found = None
    if shoe is not None:
        found = (
            Event.objects.filter(
                chain_id=state.table.chain_id, **events.Shuffled.lookup(shoe=shoe.number)
            )
            .order_by("-sequence")
            .values_list("actor_id", flat=True)
            .first()
        )
    return {"shuffler_id": found}


def verify_shuffle(state: InPlay, command: Command, *, shuffler_id: int | None = None) -> Changes:
    """The floorperson verifies the feathered stack shows no uneven distribution (000 §5(a));
    ``shuffler_id``: who shuffled (``shuffled_by``)."""
    shoe = _shoe(state)
    _expect(shoe, State.SHUFFLED)
    if ShuffleStep.FEATHER.value not in shoe.shuffle:
        raise ActionError("Only a feathered manual shuffle waits for verification.")
    if shoe.shuffle_verified_by_id is not None:
        raise ActionError("The shuffle was already verified.")
    if shuffler_id == command.actor_id:
        raise ActionError("The shuffle is verified by someone other than the one who shuffled.")
    _, done = c.update(shoe, shuffle_verified_by_id=command.actor_id)
    return done + c.event(command.actor_id, events.ShuffleVerified(shoe=shoe.number))


def respread_idle_shoe(
    state: InPlay, command: Command, *, face_up: bool = False, reason: str = ""
) -> Changes:
    """No gaming activity: the cards come out and are spread again (000 §5(g), 002 (e)(8));
    a supervisor who orders it says why (``reason``, recorded).

    By hand, the same decks are spread (face down unless a player asks), then washed, shuffled,
    cut and burned anew. With a shuffler, this batch goes into it and the other batch comes out
    shuffled, ready for the cut.
    """
    reason = supervisor_reason(command, reason, "the cards are spread again")
    shoe = _shoe(state)
    _expect(shoe, State.IN_PLAY)
    if state.in_play:
        raise ActionError("A round is in play: the table is not idle.")
    refuse_open_markers(state, "the reshuffle")
    done = c.update(shoe, state=State.FINISHED, finished_at=command.at)[1]
    batched = shoe.batch is not None
    fresh = ShoeRow(
        table_id=shoe.table_id,
        number=shoe.number + 1,
        decks=shoe.decks,
        automatic_shuffler=shoe.automatic_shuffler,
        batch=None if shoe.batch is None else 1 - shoe.batch,
        back_colour="" if batched else shoe.back_colour,
        state=State.SHUFFLED if shoe.automatic_shuffler else State.SPREAD,
        shuffle=["machine"] if shoe.automatic_shuffler else [],
        remaining=fresh_counts(shoe.decks),
        received_at=command.at,
    )
    done += c.insert(fresh)
    return (
        done
        + c.event(
            command.actor_id,
            events.IdleRespread(
                shoe=shoe.number, next_shoe=fresh.number, face_up=face_up, reason=reason
            ),
        )
        + Changes(read_again=True)
    )


def cut_cards(
    state: InPlay,
    command: Command,
    *,
    seat: int | None,
    position: int,
    cover_from_back: int,
    declined: Sequence[int] = (),
) -> Changes:
    """The cut, offered in the legal order; ``seat=None`` when the dealer cuts (000 §5(b)-(d))."""
    shoe = _shoe(state)
    _expect(shoe, State.SHUFFLED)
    rules = state.rules
    if ShuffleStep.FEATHER.value in shoe.shuffle and shoe.shuffle_verified_by_id is None:
        raise ActionError("The floorperson verifies the feathered shuffle before the cut.")
    try:
        order = cut_offer_order_of(state)
    except RulesError as error:
        raise ActionError(str(error)) from None
    if seat is not None and seat not in order:
        raise ActionError(f"Seat {seat} is not offered the cut.")
    before = order[: order.index(seat)] if seat is not None else order
    skipped = [s for s in before if s not in declined]
    if skipped:
        raise ActionError(f"Offer the cut to seat {skipped[0]} first.")
    try:
        check_cut(rules, Composition.of_decks(shoe.decks).total, Cut(position, cover_from_back))
    except RulesError as error:
        raise ActionError(str(error)) from None
    _, done = c.update(
        shoe,
        state=State.CUT,
        cut_by_seat=seat,
        cut_declined=list(declined),
        cut_position=position,
        cover_from_back=cover_from_back,
    )
    return done + c.event(
        command.actor_id,
        events.Cut(
            shoe=shoe.number,
            seat=seat,
            declined=tuple(declined),
            position=position,
            cover_from_back=cover_from_back,
        ),
    )


def order_recut(state: InPlay, command: Command, *, reason: str) -> Changes:
    """A floorperson orders the cards recut before play (000 §5(e)), saying why (recorded)."""
    shoe = _shoe(state)
    _expect(shoe, State.CUT)
    reason = check_text(reason, field="reason", limit=200)
    if not reason:
        raise ActionError("Say why the cards are recut.")
    _, done = c.update(shoe, state=State.SHUFFLED, recuts=shoe.recuts + 1)
    return done + c.event(command.actor_id, events.RecutOrdered(shoe=shoe.number, reason=reason))


def burn_cards(state: InPlay, command: Command, *, first_card: str) -> Changes:
    """Expose the first card and burn as many more, face down, as its face value (000 §5(f))."""
    shoe = _shoe(state)
    _expect(shoe, State.CUT)
    try:
        card = Card.parse(first_card)
    except CardError as error:
        raise MistypedCard(str(error)) from None
    counted = take(shoe, card)
    face_down = burn(card)
    _, done = c.update(
        shoe,
        state=State.IN_PLAY,
        remaining=counted.remaining,
        first_card=str(card),
        burned=face_down,
        started_at=command.at,
    )
    return done + c.event(
        command.actor_id,
        events.Burned(shoe=shoe.number, first_card=str(card), face_down=face_down),
    )


def set_deck_schedule(
    state: InPlay, command: Command, *, due_at: datetime.datetime | None, reason: str
) -> Changes:
    """A supervisor sets when the decks in use must next be changed (``None``: now), saying why:
    sooner than the 24 hours of 000 §3(c), or back up to them, never later."""
    table = state.table
    reason = check_text(reason, field="reason", limit=200)
    if not reason:
        raise ActionError("Say why the deck change is rescheduled.")
    if state.rules.deck_change is DeckRule.EVERY_SHOE:
        raise ActionError(
            f"{table.name} takes new decks after every shoe: there is no time to set for the "
            "change."
        )
    schedule = state.deck_change
    if schedule is None:
        raise ActionError(
            f"No decks have been opened at {table.name} yet: their change falls due 24 hours after."
        )
    now = command.at
    when = now if due_at is None else due_at
    latest = schedule.changed_at + DECKS_LAST
    zone = zoneinfo.ZoneInfo(state.casino.time_zone)
    if when > latest:
        raise ActionError(
            "The decks are changed at least once every 24 hours: these are due by "
            f"{latest.astimezone(zone):%b %d, %H:%M %Z} at the latest."
        )
    if when < now - datetime.timedelta(minutes=1):
        raise ActionError(
            "That time has passed: give a later one, or none to call the decks due now."
        )
    before = schedule.due_at
    _, done = c.update(schedule, due_at=when, every_shoe=False)
    return done + c.event(
        command.actor_id,
        events.DeckScheduleSet(
            every_shoe=False,
            due_at=when.isoformat(),
            before=before.isoformat() if before else None,
            reason=reason,
        ),
    )


def end_shoe(state: InPlay, command: Command) -> Changes:
    """The shoe is done; marked vigorish must be collected or documented first (000 §12(d))."""
    shoe = _shoe(state)
    if state.in_play:
        raise ActionError("Finish or void the round in play first.")
    refuse_open_markers(state, "the reshuffle")
    _, done = c.update(shoe, state=State.FINISHED, finished_at=command.at)
    return (
        done
        + c.event(command.actor_id, events.ShoeEnded(shoe=shoe.number))
        + Changes(read_again=True)
    )
