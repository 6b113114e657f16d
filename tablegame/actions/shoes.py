"""Shoe actions: decks received, inspected, verified, spread, washed, shuffled, cut, burned, ended.

000 §3-5, 002 (a), (d), (e), 004 §3-5.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.utils import timezone

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
from casino.roles import Actor
from tablegame import events
from tablegame.actions.common import (
    ActionError,
    action,
    check_text,
    lock_table,
    record,
    supervisor_reason,
)
from tablegame.actions.tables import refuse_open_markers
from tablegame.errors import MistypedCard
from tablegame.models import DeckChange, Shoe, Table
from tablegame.models.shoes import fresh_counts
from tablegame.work import work

State = Shoe.State


def _shoe(table: Table) -> Shoe:
    shoe = table.current_shoe()
    if shoe is None:
        raise ActionError("There is no shoe at the table: receive decks first.")
    return shoe


def _expect(shoe: Shoe, *states: str) -> None:
    if shoe.state not in states:
        wanted = " or ".join(State(s).label.lower() for s in states)
        raise ActionError(
            f"The shoe is {shoe.get_state_display().lower()}; this needs it {wanted}."
        )


def _advance(shoe: Shoe, state: str, **fields: Any) -> None:
    shoe.state = state
    for name, value in fields.items():
        setattr(shoe, name, value)
    work().save_now(shoe, ["state", *fields])


def _decks_in_use(
    schedule: DeckChange, decks: int | None, shuffler: bool | None
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


@action
def receive_decks(
    table: Table,
    *,
    decks: int | None = None,
    automatic_shuffler: bool | None = None,
    preinspected: bool = False,
    back_colour: str = "",
    new_decks: bool = True,
    actor: Actor,
) -> Shoe:
    """Decks arrive at the table for a new shoe (000 §3-4).

    ``new_decks=False`` reshuffles the decks of the last shoe, where the rules allow (mini tables,
    within 24 hours); big tables take new decks after every shoe (004 §3(b)). A reshuffle keeps
    the decks in use: as many, in the same shuffler (``decks`` and ``automatic_shuffler`` may be
    left out, and are refused when they differ).
    """
    table = lock_table(table)
    if table.status != Table.Status.OPEN:
        raise ActionError(f"{table} is closed: open it first.")
    if table.current_shoe():
        raise ActionError("The table already has a shoe; end it before the next one.")
    rules = table.rules
    back_colour = check_text(back_colour, field="back colour", limit=20)
    now = timezone.now()
    schedule = DeckChange.objects.filter(table=table).first()
    if not new_decks:
        if rules.deck_change is DeckRule.EVERY_SHOE:
            raise ActionError("New decks are required after every shoe at this table.")
        if schedule is None or schedule.is_due(now):
            raise ActionError("The decks must be changed (every 24 hours): bring new decks.")
        decks, automatic_shuffler = _decks_in_use(schedule, decks, automatic_shuffler)
    if decks is None:
        raise ActionError("Say how many decks were received.")
    automatic_shuffler = bool(automatic_shuffler)
    try:
        check_decks(rules, decks, automatic_shuffler=automatic_shuffler)
    except RulesError as error:
        raise ActionError(str(error)) from None
    number = (table.shoes.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    batched = automatic_shuffler and rules.shuffler_batches
    if batched:  # one batch deals this shoe while the other waits in the shuffler (000 §3(b))
        back_colour = back_colour or f"batch {batch_for_shoe(number) + 1}"
    in_shoe = decks // 2 if batched else decks
    ready = State.SHUFFLED if preinspected else (State.RECEIVED if new_decks else State.WASHED)
    shoe = work().add_now(
        Shoe(
            table=table,
            number=number,
            decks=in_shoe,
            automatic_shuffler=automatic_shuffler,
            batch=batch_for_shoe(number) if batched else None,
            back_colour=back_colour,
            preinspected=preinspected,
            state=ready,
            remaining=fresh_counts(in_shoe),
        )
    )
    if new_decks:
        due = now + DECKS_LAST
        DeckChange.objects.update_or_create(
            table=table,
            defaults={
                "every_shoe": rules.deck_change is DeckRule.EVERY_SHOE,
                "changed_at": now,
                "due_at": None if rules.deck_change is DeckRule.EVERY_SHOE else due,
                "decks": decks,
                "automatic_shuffler": automatic_shuffler,
            },
        )
    record(
        table,
        actor,
        events.DecksReceived(
            shoe=number,
            decks=decks,
            automatic_shuffler=automatic_shuffler,
            preinspected=preinspected,
            new_decks=new_decks,
            back_colour=back_colour,
        ),
    )
    return shoe


def _prepare(
    table: Table, actor: Actor, frm: str, to: str, event: type[events.ShoeStep], **fields: Any
) -> Shoe:
    """One step of readying the decks: refuse it out of order, else advance and record it."""
    table = lock_table(table)
    shoe = _shoe(table)
    _expect(shoe, frm)
    _advance(shoe, to, **fields)
    record(table, actor, event(shoe=shoe.number))
    return shoe


@action
def inspect_decks(table: Table, *, actor: Actor) -> Shoe:
    """The dealer inspected the decks for defects (000 §4(a))."""
    return _prepare(
        table,
        actor,
        State.RECEIVED,
        State.INSPECTED,
        events.DecksInspected,
        inspected_by=actor,
    )


@action
def verify_inspection(table: Table, *, actor: Actor) -> Shoe:
    """The floorperson verifies the dealer's inspection (000 §4(a))."""
    shoe = table.current_shoe()
    if shoe and shoe.inspected_by_id == actor.pk:
        raise ActionError("The inspection is verified by someone other than the inspector.")
    return _prepare(
        table,
        actor,
        State.INSPECTED,
        State.VERIFIED,
        events.InspectionVerified,
        verified_by=actor,
    )


@action
def spread_decks(table: Table, *, actor: Actor) -> Shoe:
    """Cards spread face up by deck, suit and sequence for the first player (000 §4(b), (d))."""
    return _prepare(table, actor, State.VERIFIED, State.SPREAD, events.DecksSpread)


@action
def wash_decks(table: Table, *, actor: Actor) -> Shoe:
    """Turned face down, washed and stacked; batches stacked apart with a shuffler (000 §4(c))."""
    return _prepare(table, actor, State.SPREAD, State.WASHED, events.DecksWashed)


@action
def shuffle_decks(
    table: Table, *, steps: Sequence[str] = (), machine: bool = False, actor: Actor
) -> Shoe:
    """Shuffle by hand (plug, riffle, turn, strip, cut) or in the automatic shuffler (000 §5)."""
    table = lock_table(table)
    shoe = _shoe(table)
    _expect(shoe, State.WASHED)
    if machine:
        if not shoe.automatic_shuffler:
            raise ActionError("This shoe was not received for the automatic shuffler.")
        done: list[str] = ["machine"]
    else:
        try:
            parsed = [ShuffleStep(s) for s in steps]
        except ValueError:
            known = ", ".join(s.value for s in ShuffleStep)
            raise ActionError(f"Shuffle steps are: {known}.") from None
        try:
            check_shuffle(table.rules.shuffle, parsed)
        except RulesError as error:
            raise ActionError(str(error)) from None
        done = [s.value for s in parsed]
    _advance(shoe, State.SHUFFLED, shuffle=done)
    record(table, actor, events.Shuffled(shoe=shoe.number, steps=tuple(done)))
    return shoe


@action
def verify_shuffle(table: Table, *, actor: Actor) -> Shoe:
    """The floorperson verifies the feathered stack shows no uneven distribution (000 §5(a))."""
    table = lock_table(table)
    shoe = _shoe(table)
    _expect(shoe, State.SHUFFLED)
    if ShuffleStep.FEATHER.value not in shoe.shuffle:
        raise ActionError("Only a feathered manual shuffle waits for verification.")
    if shoe.shuffle_verified_by_id is not None:
        raise ActionError("The shuffle was already verified.")
    if _shuffled_by(table, shoe) == actor.pk:
        raise ActionError("The shuffle is verified by someone other than the one who shuffled.")
    shoe.shuffle_verified_by = actor
    work().save_now(shoe, ["shuffle_verified_by"])
    record(table, actor, events.ShuffleVerified(shoe=shoe.number))
    return shoe


def _shuffled_by(table: Table, shoe: Shoe) -> int | None:
    """Who shuffled the shoe's cards, as the record says (its last shuffle)."""
    return (
        Event.objects.filter(chain_id=table.chain_id, **events.Shuffled.lookup(shoe=shoe.number))
        .order_by("-sequence")
        .values_list("actor_id", flat=True)
        .first()
    )


@action
def respread_idle_shoe(
    table: Table, *, face_up: bool = False, reason: str = "", actor: Actor
) -> Shoe:
    """No gaming activity: the cards come out and are spread again (000 §5(g), 002 (e)(8));
    a supervisor who orders it says why (``reason``, recorded).

    By hand, the same decks are spread (face down unless a player asks), then washed, shuffled,
    cut and burned anew. With a shuffler, this batch goes into it and the other batch comes out
    shuffled, ready for the cut.
    """
    table = lock_table(table)
    reason = supervisor_reason(actor, reason, "the cards are spread again")
    shoe = _shoe(table)
    _expect(shoe, State.IN_PLAY)
    if table.active_round():
        raise ActionError("A round is in play: the table is not idle.")
    refuse_open_markers(table, "the reshuffle")
    _advance(shoe, State.FINISHED, finished_at=timezone.now())
    batched = shoe.batch is not None
    fresh = work().add_now(
        Shoe(
            table=table,
            number=shoe.number + 1,
            decks=shoe.decks,
            automatic_shuffler=shoe.automatic_shuffler,
            batch=None if shoe.batch is None else 1 - shoe.batch,
            back_colour="" if batched else shoe.back_colour,
            state=State.SHUFFLED if shoe.automatic_shuffler else State.SPREAD,
            shuffle=["machine"] if shoe.automatic_shuffler else [],
            remaining=fresh_counts(shoe.decks),
        )
    )
    record(
        table,
        actor,
        events.IdleRespread(
            shoe=shoe.number, next_shoe=fresh.number, face_up=face_up, reason=reason
        ),
    )
    return fresh


@action
def cut_cards(
    table: Table,
    *,
    seat: int | None,
    position: int,
    cover_from_back: int,
    declined: Sequence[int] = (),
    actor: Actor,
) -> Shoe:
    """The cut, offered in the legal order; ``seat=None`` when the dealer cuts (000 §5(b)-(d))."""
    table = lock_table(table)
    shoe = _shoe(table)
    _expect(shoe, State.SHUFFLED)
    rules = table.rules
    if ShuffleStep.FEATHER.value in shoe.shuffle and shoe.shuffle_verified_by_id is None:
        raise ActionError("The floorperson verifies the feathered shuffle before the cut.")
    order = _cut_offer(shoe)
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
    _advance(
        shoe,
        State.CUT,
        cut_by_seat=seat,
        cut_declined=list(declined),
        cut_position=position,
        cover_from_back=cover_from_back,
    )
    record(
        table,
        actor,
        events.Cut(
            shoe=shoe.number,
            seat=seat,
            declined=tuple(declined),
            position=position,
            cover_from_back=cover_from_back,
        ),
    )
    return shoe


def _cut_offer(shoe: Shoe) -> list[int]:
    try:
        return shoe.cut_offer()
    except RulesError as error:
        raise ActionError(str(error)) from None


@action
def order_recut(table: Table, *, reason: str, actor: Actor) -> Shoe:
    """A floorperson orders the cards recut before play (000 §5(e)), saying why (recorded)."""
    table = lock_table(table)
    shoe = _shoe(table)
    _expect(shoe, State.CUT)
    reason = check_text(reason, field="reason", limit=200)
    if not reason:
        raise ActionError("Say why the cards are recut.")
    _advance(shoe, State.SHUFFLED, recuts=shoe.recuts + 1)
    record(table, actor, events.RecutOrdered(shoe=shoe.number, reason=reason))
    return shoe


@action
def burn_cards(table: Table, *, first_card: str, actor: Actor) -> Shoe:
    """Expose the first card and burn as many more, face down, as its face value (000 §5(f))."""
    table = lock_table(table)
    shoe = _shoe(table)
    _expect(shoe, State.CUT)
    try:
        card = Card.parse(first_card)
    except CardError as error:
        raise MistypedCard(str(error)) from None
    shoe.take(card)
    face_down = burn(card)
    _advance(
        shoe,
        State.IN_PLAY,
        remaining=shoe.remaining,
        first_card=str(card),
        burned=face_down,
        started_at=timezone.now(),
    )
    record(table, actor, events.Burned(shoe=shoe.number, first_card=str(card), face_down=face_down))
    return shoe


@action
def set_deck_schedule(
    table: Table, *, due_at: datetime.datetime | None, reason: str, actor: Actor
) -> DeckChange:
    """A supervisor sets when the decks in use must next be changed (``None``: now), saying why:
    sooner than the 24 hours of 000 §3(c), or back up to them, never later."""
    table = lock_table(table)
    reason = check_text(reason, field="reason", limit=200)
    if not reason:
        raise ActionError("Say why the deck change is rescheduled.")
    if table.rules.deck_change is DeckRule.EVERY_SHOE:
        raise ActionError(
            f"{table} takes new decks after every shoe: there is no time to set for the change."
        )
    schedule = DeckChange.objects.filter(table=table).first()
    if schedule is None:
        raise ActionError(
            f"No decks have been opened at {table} yet: their change falls due 24 hours after."
        )
    now = timezone.now()
    when = now if due_at is None else due_at
    latest = schedule.changed_at + DECKS_LAST
    zone = table.pit.casino.zone
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
    schedule.due_at, schedule.every_shoe = when, False
    work().save_now(schedule, ["due_at", "every_shoe"])
    record(
        table,
        actor,
        events.DeckScheduleSet(
            every_shoe=False,
            due_at=when.isoformat(),
            before=before.isoformat() if before else None,
            reason=reason,
        ),
    )
    return schedule


@action
def end_shoe(table: Table, *, actor: Actor) -> Shoe:
    """The shoe is done; marked vigorish must be collected or documented first (000 §12(d))."""
    table = lock_table(table)
    shoe = _shoe(table)
    if table.active_round():
        raise ActionError("Finish or void the round in play first.")
    refuse_open_markers(table, "the reshuffle")
    _advance(shoe, State.FINISHED, finished_at=timezone.now())
    record(table, actor, events.ShoeEnded(shoe=shoe.number))
    return shoe
