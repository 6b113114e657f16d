"""Table actions: open and close, seats, limits, Rules Submissions, curator and player-dealer."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils import timezone

from baccarat.errors import RulesError
from baccarat.profiles import (
    RulesSubmission,
    SettlementProcedure,
    ShuffleProcedure,
    rules_submission,
)
from baccarat.seating import california_action_order, curator_offer_order
from baccarat.wagertypes import WagerType
from casino import access
from casino.models import Pit
from casino.roles import Actor
from tablegame import events
from tablegame.actions.common import (
    ActionError,
    NotAllowed,
    action,
    check_text,
    lock_table,
    plain_options,
    record,
    supervisor_reason,
    update_later,
)
from tablegame.live import live
from tablegame.models import (
    ProcedureNotice,
    ProgressiveMeter,
    Round,
    Seat,
    Table,
    TableLimit,
    TableRules,
    VigorishMarker,
)
from tablegame.models.tables import default_limits


@action
def open_table(table: Table, *, actor: Actor) -> Table:
    """Open the table for gaming: seats, limits and the Rules Submission on file, decks schedule."""
    table = lock_table(table)
    if table.status == Table.Status.OPEN:
        raise ActionError(f"{table} is already open.")
    rules = table.rules
    for number in range(1, table.seat_count + 1):
        Seat.objects.get_or_create(table=table, number=number)
    if not table.rules_history.exists():
        TableRules.objects.create(table=table, profile=table.profile, filed_by=actor)
    for wager, (low, high) in default_limits(rules).items():
        TableLimit.objects.get_or_create(
            table=table, wager_type=wager.value, defaults={"minimum": low, "maximum": high}
        )
    if rules.royal9 is not None:
        for meter in ("star", "spade", "heart"):
            seed = rules.royal9.progressive(meter).reseed
            rate = rules.royal9.progressive(meter).contribution
            ProgressiveMeter.objects.get_or_create(
                table=table,
                name=meter,
                defaults={"amount": seed, "reseed": seed, "contribution": rate},
            )
    table.status, table.status_changed_at = Table.Status.OPEN, timezone.now()
    table.save(update_fields=["status", "status_changed_at"])
    record(table, actor, events.TableOpened(profile=rules.name))
    return table


@action
def close_table(table: Table, *, actor: Actor) -> Table:
    """Close the table: no round in play, no vigorish marker left open."""
    table = lock_table(table)
    if table.status == Table.Status.CLOSED:
        raise ActionError(f"{table} is already closed.")
    if table.active_round():
        raise ActionError("Finish or void the round in play before closing the table.")
    if table.shoes.exclude(state="finished").exists():
        raise ActionError("End the shoe before closing the table.")
    refuse_open_markers(table, "closing the table")
    table.status, table.status_changed_at = Table.Status.CLOSED, timezone.now()
    table.save(update_fields=["status", "status_changed_at"])
    record(table, actor, events.TableClosed())
    return table


def refuse_open_markers(table: Table, doing: str, seat: int | None = None) -> None:
    markers = table.markers.filter(status=VigorishMarker.Status.OPEN)
    if seat is not None:
        markers = markers.filter(seat=seat)
    seats = sorted(set(markers.values_list("seat", flat=True)), reverse=True)
    if seats:
        listed = ", ".join(str(s) for s in seats)
        raise ActionError(
            f"Vigorish is still marked at seat {listed}: collect it or request a Complimentary "
            f"Vigorish Form before {doing}."
        )


def _seat(table: Table, number: int) -> Seat:
    try:
        return table.seats.get(number=number)
    except Seat.DoesNotExist:
        raise ActionError(f"There is no seat {number} at {table}.") from None


@action
def seat_player(table: Table, *, seat: int, player: str, actor: Actor) -> Seat:
    """A player sits at a seat."""
    table = lock_table(table)
    if table.status != Table.Status.OPEN:
        raise ActionError(f"{table} is closed.")
    place = _seat(table, seat)
    name = check_text(player, field="player's name", limit=100)
    if not name:
        raise ActionError("Give the player's name or a description.")
    if place.is_occupied:
        raise ActionError(f"Seat {seat} is taken by {place.player_name}.")
    place.player_name, place.occupied_since = name, timezone.now()
    place.save(update_fields=["player_name", "occupied_since"])
    record(table, actor, events.PlayerSeated(seat=seat, player=name))
    return place


@action
def leave_seat(table: Table, *, seat: int, actor: Actor) -> Seat:
    """A player leaves; marked vigorish is settled first (000 §12(d)(2)(i))."""
    table = lock_table(table)
    place = _seat(table, seat)
    if not place.is_occupied:
        raise ActionError(f"Seat {seat} is empty.")
    refuse_open_markers(table, "the player leaves", seat=seat)
    game = table.active_round()
    if game and game.state != Round.State.BETTING and game.wagers.filter(seat=seat).exists():
        raise ActionError(f"Seat {seat} has wagers in play: settle the round first.")
    if game:
        for w in game.wagers.filter(seat=seat):
            record(
                table,
                actor,
                events.WagerWithdrawn(round=game.number, seat=seat, wager=WagerType(w.type)),
            )
            w.delete()
    left = place.player_name
    place.player_name, place.occupied_since = "", None
    place.save(update_fields=["player_name", "occupied_since"])
    record(table, actor, events.PlayerLeft(seat=seat, player=left))
    return place


@action
def file_rules(
    table: Table,
    *,
    profile: str,
    options: Mapping[str, Any] | None = None,
    effective_at: datetime.datetime | None = None,
    actor: Actor,
) -> TableRules:
    """File a Rules Submission for the table, effective now or later.

    At an open table, a change of settlement or shuffle procedure, or of the type or rate of
    commission, takes effect no sooner than the notice surveillance is given (at least 30
    minutes, 002 (c)(5), (e)(2)(ii)B, (j)(3)(ii)); every table of the pit dealt under the same
    text keeps the same procedure (002 (e)(3), (j)(3)(i)): ``file_pit_procedure`` changes them
    all at once.
    """
    table = lock_table(table)
    options = plain_options(dict(options or {}))
    try:
        new = rules_submission(profile, options)
    except RulesError as error:
        raise ActionError(str(error)) from None
    if table.seat_count > new.max_seats or table.seat_count < new.min_seats:
        raise ActionError(f"{new.title} is played with {new.min_seats}-{new.max_seats} seats.")
    now = timezone.now()
    when = effective_at or now
    current = table.rules
    if table.status == Table.Status.OPEN:
        _check_notice(table.pit, current, new, now=now, when=when)
    _check_pit_procedures(table, new, when)
    filed = TableRules.objects.create(
        table=table, profile=profile, options=options, effective_at=when, filed_by=actor
    )
    _give_notice(filed, current, new, actor=actor)
    record(
        table,
        actor,
        events.RulesFiled(profile=profile, options=options, effective_at=when.isoformat()),
    )
    return filed


#: The least notice surveillance is given of a change of procedure (002 (e)(2)(ii)B,
#: (j)(3)(ii)); a Rules Submission may ask for more, never less.
LEAST_NOTICE_MINUTES = 30


def _procedure_changes(old: RulesSubmission, new: RulesSubmission) -> list[str]:
    """What changes that surveillance must be told of in advance: the settlement or shuffle
    procedure (002 (e)(2)(ii)B, (j)(3)(ii)), a shuffle machine taken into or out of use (a change
    of the shuffle procedure, 004 §4(e)) and the type or rate of commission (002 (c)(5))."""
    return [
        what
        for what, before, after in (
            ("settlement procedure", old.settlement, new.settlement),
            ("shuffle procedure", old.shuffle, new.shuffle),
            ("automatic shuffler", old.shuffler_decks is None, new.shuffler_decks is None),
            ("commission", old.commission, new.commission),
            ("commission rate", old.commission_rate, new.commission_rate),
            ("commission on ties", old.tie_commission_rate, new.tie_commission_rate),
        )
        if before != after
    ]


def _procedure_of(rules: RulesSubmission) -> str:
    """The procedures a notice names, as surveillance reads them."""
    commission = rules.commission.value.replace("_", " ")
    if rules.commission.value == "on_banker_win":
        commission += f" {(rules.commission_rate * 100).normalize():f} %"
    elif rules.commission.value == "on_tie":
        commission += f" {(rules.tie_commission_rate * 100).normalize():f} %"
    machine = (
        f" and a shuffler of {rules.shuffler_decks[0]}-{rules.shuffler_decks[1]} decks"
        if rules.shuffler_decks
        else ""
    )
    return (
        f"settlement {rules.settlement.value.replace('_', ' ')}; "
        f"shuffle {rules.shuffle.value.replace('_', ' ')}{machine}; commission {commission}"
    )


def _give_notice(
    filed: TableRules, old: RulesSubmission, new: RulesSubmission, *, actor: Actor
) -> ProcedureNotice | None:
    """The written notice to surveillance of a change of procedure the filing makes, for
    surveillance to acknowledge (``tablegame.actions.notices``); None when it makes none."""
    changes = _procedure_changes(old, new)
    if not changes:
        return None
    return ProcedureNotice.objects.create(
        rules=filed,
        table_id=filed.table_id,
        changes=" and ".join(changes),
        before=_procedure_of(old),
        after=_procedure_of(new),
        effective_at=filed.effective_at,
        filed_by=actor,
        filed_at=filed.filed_at,
    )


def _check_notice(
    pit: Pit,
    old: RulesSubmission,
    new: RulesSubmission,
    *,
    now: datetime.datetime,
    when: datetime.datetime,
) -> None:
    """Refuse a change of procedure or commission that takes effect before surveillance has had
    its notice: the filing is the written notice, recorded, so it takes effect that much later."""
    changes = _procedure_changes(old, new)
    if not changes:
        return
    minutes = max(
        LEAST_NOTICE_MINUTES,
        old.procedure_change_notice_minutes,
        new.procedure_change_notice_minutes,
    )
    earliest = now + datetime.timedelta(minutes=minutes)
    if when < earliest:
        local = earliest.astimezone(pit.casino.zone)
        raise ActionError(
            f"Surveillance must be told at least {minutes} minutes before the "
            f"{' and '.join(changes)} change{'s' if len(changes) > 1 else ''}: make it "
            f"effective at {local:%H:%M %Z} or later."
        )


def _check_pit_procedures(table: Table, new: RulesSubmission, when: datetime.datetime) -> None:
    """Every table of the pit dealt under the same text uses one settlement and shuffle procedure
    (002 (e)(3), (j)(3)(i)), compared as they will stand at ``when``."""
    for other in Table.objects.filter(pit=table.pit).exclude(pk=table.pk):
        theirs = other.submission(other.rules_record(when))
        if theirs.source != new.source:
            continue
        if theirs.settlement is not new.settlement or theirs.shuffle is not new.shuffle:
            raise ActionError(
                f"Every table of {table.pit} dealt under the same rules uses one settlement and "
                f"shuffle procedure; {other} uses {theirs.settlement.value} and "
                f"{theirs.shuffle.value}: change the procedure for the whole pit at once."
            )


@action
def file_pit_procedure(
    pit: Pit,
    *,
    source: str = "002",
    settlement: str = "",
    shuffle: str = "",
    effective_at: datetime.datetime,
    actor: Actor,
) -> list[TableRules]:
    """Change the settlement (or shuffle) procedure of every table of the pit dealt under the
    rules text ``source``, all at one stated time, at least the notice after now (002 (j)(3))."""
    changes: dict[str, str] = {}
    try:
        if settlement:
            changes["settlement"] = SettlementProcedure(settlement).value
        if shuffle:
            changes["shuffle"] = ShuffleProcedure(shuffle).value
    except ValueError:
        raise ActionError("That is not a settlement or shuffle procedure of the rules.") from None
    if not changes:
        raise ActionError("Choose the settlement or shuffle procedure the pit changes to.")
    now = timezone.now()
    # Race: the dealer acts at a table of the pit meanwhile; every table is locked, in order.
    tables = [lock_table(t) for t in Table.objects.filter(pit=pit).order_by("pk")]
    pit = Pit.objects.select_related("casino").get(pk=pit.pk)
    filed = []
    for table in tables:
        record_in_force = table.rules_record(effective_at)
        profile = record_in_force.profile if record_in_force else table.profile
        options = dict(record_in_force.options) if record_in_force else {}
        before = rules_submission(profile, options)
        if before.source != source:
            continue
        options.update(changes)
        try:
            after = rules_submission(profile, options)
        except RulesError as error:
            raise ActionError(f"{table}: {error}") from None
        _check_notice(pit, before, after, now=now, when=effective_at)
        filing = TableRules.objects.create(
            table=table,
            profile=profile,
            options=options,
            effective_at=effective_at,
            filed_by=actor,
        )
        _give_notice(filing, before, after, actor=actor)
        filed.append(filing)
        record(
            table,
            actor,
            events.RulesFiled(
                profile=profile, options=options, effective_at=effective_at.isoformat()
            ),
        )
    if not filed:
        raise ActionError(f"{pit} has no table dealt under rules text {source}.")
    return filed


@action
def set_seat_count(table: Table, *, seats: int, reason: str = "", actor: Actor) -> Table:
    """How many numbered seats the table has, as its rules allow (Minibaccarat up to nine,
    000 §2(a); a big table 10 to 14, 004 §2(a); California up to 14, 001), between rounds."""
    table = lock_table(table)
    rules = table.rules
    reason = check_text(reason, field="reason", limit=200)
    if not rules.min_seats <= seats <= rules.max_seats:
        raise ActionError(
            f"{rules.title} is played with {rules.min_seats} to {rules.max_seats} seats."
        )
    if seats == table.seat_count:
        raise ActionError(f"{table} has {seats} seats already.")
    if table.active_round():
        raise ActionError("The seats change only between rounds.")
    gone = [n for n in table.occupied_seats() if n > seats]
    held = [
        n for n in (table.curator_seat, table.player_dealer_seat) if n is not None and n > seats
    ]
    if gone or held:
        raise ActionError(f"Seat {max(gone + held)} is taken: it stays while someone sits there.")
    if table.markers.filter(status=VigorishMarker.Status.OPEN, seat__gt=seats).exists():
        raise ActionError("Vigorish is still marked at a seat that would go: settle it first.")
    if table.status == Table.Status.OPEN:
        table.seats.filter(number__gt=seats).delete()
        for number in range(table.seat_count + 1, seats + 1):
            Seat.objects.get_or_create(table=table, number=number)
    before, table.seat_count = table.seat_count, seats
    table.save(update_fields=["seat_count"])
    record(table, actor, events.SeatsSet(seats=seats, before=before, reason=reason))
    return table


@action
def set_limit(
    table: Table,
    *,
    wager: str,
    minimum: Decimal,
    maximum: Decimal,
    reason: str = "",
    actor: Actor,
) -> TableLimit:
    """Set the minimum and maximum of one wager at the table (``reason``: why, recorded)."""
    table = lock_table(table)
    reason = check_text(reason, field="reason", limit=200)
    try:
        kind = WagerType(wager)
    except ValueError:
        raise ActionError(f"'{wager}' is not a wager.") from None
    if not table.rules.offers(kind):
        raise ActionError(f"{table} does not offer the {kind.label} wager.")
    if minimum <= 0 or maximum < minimum:
        raise ActionError("The minimum must be above zero and the maximum at least the minimum.")
    limit, _ = TableLimit.objects.update_or_create(
        table=table, wager_type=kind.value, defaults={"minimum": minimum, "maximum": maximum}
    )
    record(
        table,
        actor,
        events.LimitSet(
            wager=kind,
            minimum=Decimal(str(minimum)),
            maximum=Decimal(str(maximum)),
            reason=reason,
        ),
    )
    return limit


@action
def take_shoe(
    table: Table, *, seat: int | None, declined: Sequence[int] = (), actor: Actor
) -> Table:
    """Big table: a player accepts the shoe as curator, or the dealer takes it (004 §7, §14).

    The shoe is offered in order (seat 1 first, or from the right of the last curator); every seat
    offered before the one that accepts must have declined. ``seat=None``: the dealer is curator.
    """
    table = lock_table(table)
    facts = live(table)
    if not facts.rules_in_force.has_curator:
        raise ActionError(f"{table} is dealt by the house dealer; there is no curator.")
    game = facts.round
    if game and game.state != Round.State.BETTING:
        raise ActionError("The shoe changes hands only between rounds.")
    previous = table.curator_seat or table.previous_curator_seat
    order = curator_offer_order(facts.seats, previous=previous)
    _check_offer(order, seat, declined, "the shoe")
    table.curator_seat = seat if seat is not None else 0
    update_later(table, ["curator_seat"])  # with the command's record
    record(table, actor, events.CuratorTaken(seat=seat, declined=tuple(declined)))
    return table


def _check_offer(order: list[int], seat: int | None, declined: Sequence[int], what: str) -> None:
    """Every seat offered before the one that accepted declined; nobody accepted: all declined."""
    if seat is not None and seat not in order:
        raise ActionError(f"Seat {seat} is not offered {what}.")
    before = order[: order.index(seat)] if seat is not None else order
    skipped = [s for s in before if s not in declined]
    if skipped:
        raise ActionError(f"Offer {what} to seat {skipped[0]} first.")


@action
def pass_shoe(table: Table, *, ordered: bool = False, reason: str = "", actor: Actor) -> Table:
    """The curator passes the shoe, by choice or on the order of the dealer or a floorperson
    (``reason``: why it was ordered, recorded)."""
    table = lock_table(table)
    reason = supervisor_reason(actor, reason, "the curator must pass") if ordered else ""
    if table.curator_seat is None:
        raise ActionError("Nobody holds the shoe.")
    game = live(table).round
    if game and game.state != Round.State.BETTING:
        raise ActionError("The shoe changes hands only between rounds.")
    record(table, actor, events.ShoePassed(seat=table.curator_seat, ordered=ordered, reason=reason))
    table.previous_curator_seat, table.curator_seat = table.curator_seat, None
    update_later(table, ["curator_seat", "previous_curator_seat"])  # with the command's record
    return table


@action
def take_player_dealer(
    table: Table, *, seat: int, declined: Sequence[int] = (), reason: str = "", actor: Actor
) -> Table:
    """California: a player takes the player-dealer position, offered clockwise (001); or a
    supervisor moves it to a seated player, saying why (``reason``, recorded)."""
    table = lock_table(table)
    facts = live(table)
    if not facts.rules_in_force.player_dealer:
        raise ActionError(f"{table} has no player-dealer position.")
    if facts.round:
        raise ActionError("The player-dealer position changes only between rounds.")
    seats = facts.seats
    reason = check_text(reason, field="reason", limit=200)
    if reason:
        return _move_player_dealer(table, seat=seat, seats=seats, reason=reason, actor=actor)
    last = table.player_dealer_seat or table.previous_player_dealer_seat
    if last is None:
        order = [seat] if seat in seats else []  # the first position is offered to anyone seated
    else:
        order = california_action_order(last, seats)
        if table.player_dealer_seat is None and last in seats:
            order.append(last)  # offered continuously around the table: back to the last one
    _check_offer(order, seat, declined, "the player-dealer position")
    table.player_dealer_seat, table.player_dealer_hands = seat, 0
    update_later(table, ["player_dealer_seat", "player_dealer_hands"])  # with the record
    record(table, actor, events.PlayerDealerTaken(seat=seat, declined=tuple(declined)))
    return table


def _move_player_dealer(
    table: Table, *, seat: int, seats: list[int], reason: str, actor: Actor
) -> Table:
    """A supervisor moves the player-dealer position out of its turn (a player leaves the game,
    a dispute), to a seated player."""
    decision = access.decide(actor, "authority:move_player_dealer")
    if not decision.allowed:
        raise NotAllowed(decision.reason)
    if seat not in seats:
        raise ActionError(f"Nobody sits at seat {seat}: the position goes to a seated player.")
    if seat == table.player_dealer_seat:
        raise ActionError(f"Seat {seat} holds the player-dealer position already.")
    if table.player_dealer_seat is not None:
        table.previous_player_dealer_seat = table.player_dealer_seat
    table.player_dealer_seat, table.player_dealer_hands = seat, 0
    update_later(  # with the command's record
        table, ["player_dealer_seat", "player_dealer_hands", "previous_player_dealer_seat"]
    )
    record(table, actor, events.PlayerDealerTaken(seat=seat, declined=(), reason=reason))
    return table
