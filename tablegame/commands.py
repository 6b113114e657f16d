"""The one way a command on a table runs, whoever gives it: the tablet's API, the pit's pages, a
management command, the load simulator, a test.

In one transaction (``run``): the table's row is locked, then one statement reads its state in
play and the command's idempotency key (``tablegame.play.reading``); a key used already answers
as it answered then; otherwise the access policy is asked (the role's rule, and a dealer's own
table), the command's function makes its ``Changes`` from the state, the writer writes them with
the command's record in one statement (``tablegame.play.writing``), and the answer (the events
and the parts of the table state they changed) is made from the state those changes leave
(``tablegame.play.changes.applied``): what was written, never read back. Once the transaction
commits, the table's screens are told the answer (``broadcast.announce_change``). A refusal
(``ActionError``) changes nothing: the transaction is rolled back whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from casino import access
from casino.page_commands import KEY_REUSED
from casino.roles import Actor
from fastpath import rows
from tablegame import broadcast
from tablegame.dealers import refusal_among
from tablegame.errors import ActionError, NotAllowed
from tablegame.events import RulesInForce
from tablegame.models import CommandRecord
from tablegame.play import changes as c
from tablegame.play import (
    irregularities,
    parts,
    progressives,
    reading,
    rounds,
    rules,
    seats,
    settlement,
    shoes,
    staff,
    tables,
    writing,
)
from tablegame.play.changes import Changes, applied
from tablegame.play.command import Command
from tablegame.play.state import InPlay

#: Every command run this way, by name (its access rule is ``command:<name>``).
COMMANDS: dict[str, Callable[..., Changes]] = {
    "open_round": rounds.open_round,
    "place_wager": rounds.place_wager,
    "withdraw_wager": rounds.withdraw_wager,
    "set_player_dealer_bank": rounds.set_player_dealer_bank,
    "no_more_bets": rounds.no_more_bets,
    "relinquish_cards": rounds.relinquish_cards,
    "deal_card": rounds.deal_card,
    "settle_house_money_wagers": settlement.settle_house_money_wagers,
    "settle_round": settlement.settle_round,
    "void_round": settlement.void_round,
    "cut_card_out": settlement.cut_card_out,
    "report_irregularity": irregularities.report_irregularity,
    "correct_card": irregularities.correct_card,
    "seat_player": seats.seat_player,
    "leave_seat": seats.leave_seat,
    "collect_marker": seats.collect_marker,
    "request_vigorish_form": seats.request_vigorish_form,
    "open_table": tables.open_table,
    "close_table": tables.close_table,
    "set_limit": tables.set_limit,
    "take_shoe": tables.take_shoe,
    "pass_shoe": tables.pass_shoe,
    "take_player_dealer": tables.take_player_dealer,
    "receive_decks": shoes.receive_decks,
    "inspect_decks": shoes.inspect_decks,
    "verify_inspection": shoes.verify_inspection,
    "spread_decks": shoes.spread_decks,
    "wash_decks": shoes.wash_decks,
    "shuffle_decks": shoes.shuffle_decks,
    "verify_shuffle": shoes.verify_shuffle,
    "respread_idle_shoe": shoes.respread_idle_shoe,
    "cut_cards": shoes.cut_cards,
    "order_recut": shoes.order_recut,
    "burn_cards": shoes.burn_cards,
    "set_deck_schedule": shoes.set_deck_schedule,
    "end_shoe": shoes.end_shoe,
    "file_rules": rules.file_rules,
    "set_seat_count": rules.set_seat_count,
    "record_rules_in_force": rules.record_rules_in_force,
    "file_procedure": rules.file_procedure,
    "assign_dealer": staff.assign_dealer,
    "relieve_dealer": staff.relieve_dealer,
    "acknowledge_procedure_notice": staff.acknowledge_procedure_notice,
    "set_star_option": progressives.set_star_option,
}
#: Commands that record rules in force themselves (not before them, as every other command).
OWN_TIME = frozenset({"record_rules_in_force"})
#: The access rule of a command whose own name has none (``command:<name>`` otherwise).
ACCESS = {"file_procedure": "command:file_pit_procedure"}
#: What a command reads or locks besides the state in play (one statement, after the table's
#: lock), given to it by keyword: the must-hit meter a settlement feeds, locked after the table;
#: a vigorish marker whatever its status; who shuffled the cards a shuffle's verifier checks.
EXTRAS: dict[str, Callable[[InPlay, Mapping[str, Any]], dict[str, Any]]] = {
    "settle_round": lambda state, _: {"must_hit": progressives.lock_must_hit(state)},
    "collect_marker": seats.marker_of,
    "request_vigorish_form": seats.marker_of,
    "verify_shuffle": shoes.shuffled_by,
    "leave_seat": seats.interrupted_wagers,
    "file_rules": rules.filings,
    "file_procedure": rules.filings,
    "assign_dealer": staff.assignments,
    "relieve_dealer": staff.assignments,
    "acknowledge_procedure_notice": staff.notice_of,
    "record_rules_in_force": rules.recorded_in_force,
}


class NoTable(ActionError):
    """No table has this number."""


class KeyReused(ActionError):
    """The idempotency key was used for another command, or at another table."""


@dataclass(frozen=True)
class Done:
    """A command done, or answered again from its record."""

    text: str
    """Its answer as JSON text, as stored with its key."""
    status: int = 200
    replayed: bool = False
    state: InPlay | None = None
    """The state in play it left (None: answered again from its record)."""
    before: InPlay | None = None
    """The state in play it was given."""


def run(
    table_id: int,
    actor: Actor | None,
    name: str,
    inputs: Mapping[str, Any] | None = None,
    *,
    key: str = "",
    record_as: str = "",
) -> Done:
    """Run the command ``name`` with ``inputs`` at the table, by ``actor`` (None: the rules, no
    person, as a filing taking effect at its time), at most once per
    ``key`` (``record_as``: the name and inputs' digest its record keeps, so that a key sent
    again with other inputs is refused). Raises ``ActionError`` (``NotAllowed``, ``NoTable``,
    ``KeyReused``) when refused: nothing is written then."""
    act = COMMANDS[name]
    with transaction.atomic(), rows.one_cursor():
        # Race: a double tap sends one command twice at once. The second waits at this lock
        # until the first commits, then finds its record and answers the same.
        locked = reading.lock(table_id)
        if locked is None:
            raise NoTable(f"There is no table {table_id}.")
        read = reading.read(locked, user_id=actor.pk if actor else None, key=key)
        if read.done_id is not None:
            return _replay(read.done_id, table_id, record_as or name)
        state = read.state
        command = Command(actor=actor, at=state.read_at)
        try:
            if actor is not None:
                _check_access(state, actor, name)
            extras = EXTRAS[name](state, inputs or {}) if name in EXTRAS else {}
            taken = _taken_effect(state, command) if name not in OWN_TIME else c.NONE
            changes = taken + act(state, command, **(inputs or {}), **extras)
        except ActionError as refusal:
            refusal.where = state  # kept for surveillance once rolled back (``refusals``)
            raise
        changes = writing.keyed(changes)
        events = writing.chained(
            changes, chain_id=state.table.chain_id, head=state.head, at=command.at
        )
        after = applied(state, changes, writing.head_after(events, state.head))
        told = [
            (e.sequence, r.payload, e.data) for e, r in zip(events, changes.events, strict=True)
        ]
        if changes.read_again:
            writing.write(changes, events)
            after = reading.read(reading.Locked(after.table, after.pit, after.casino)).state
        answer = parts.answer(after, told)
        text = json.dumps(answer)
        record = None
        if key:
            assert actor is not None, "a command sent with a key has a sender"
            record = CommandRecord(
                user_id=actor.pk,
                key=key,
                table_id=table_id,
                command=record_as or name,
                status=200,
                response=text,
                created_at=command.at,
            )
        if changes.read_again:
            writing.write(Changes(), [], record)
        else:
            writing.write(changes, events, record)
        if told:
            _announce(after, told[-1][:2], answer, text)
        for notice in changes.after_commit:
            transaction.on_commit(notice)
    return Done(text=text, state=after, before=state)


def _check_access(state: InPlay, actor: Actor, name: str) -> None:
    """The role's rule (``command:<name>``), then a dealer's own table."""
    decision = access.decide(actor, ACCESS.get(name, f"command:{name}"))
    if not decision.allowed:
        raise NotAllowed(decision.reason)
    if access.floor_role(actor) != "dealer":
        return
    assignments = [(a.dealer_id, a.table_id, a.table_name, a.username) for a in state.assignments]
    refusal = refusal_among(actor.pk, state.table.key, assignments)
    if refusal is not None:
        raise NotAllowed(refusal)


def _taken_effect(state: InPlay, command: Command) -> Changes:
    """Between rounds: rules filed for later that took effect since the table's last event are
    recorded in force first (no actor), so that the command's answer tells the screens."""
    filing = state.rules_now
    if (
        state.in_play is not None
        or filing is None
        or state.head_at is None
        or filing.effective_at <= state.head_at
    ):
        return c.NONE
    return c.event(
        None,
        RulesInForce(
            filing=filing.id or 0,
            profile=filing.profile,
            options=dict(filing.options),
            effective_at=filing.effective_at.isoformat(),
        ),
    )


def _replay(done_id: int, table_id: int, command: str) -> Done:
    """The stored answer of a command sent again; a key used for another is refused."""
    done = CommandRecord.objects.filter(pk=done_id).first()
    if done is None or (done.table_id, done.command) != (table_id, command):
        raise KeyReused(KEY_REUSED)
    return Done(text=done.response, status=done.status, replayed=True)


def _announce(state: InPlay, last: tuple[int, Any], answer: dict[str, Any], text: str) -> None:
    """Once the transaction commits, tell the table's screens (its, its pit's, surveillance's)
    what changed: the answer itself, less what the screens read again (``WITHHELD``)."""
    table_id, pit_id = state.table.id, state.table.pit_id
    sequence, payload = last
    told = broadcast.notice_change(answer, text)
    transaction.on_commit(
        lambda: broadcast.announce_change(
            table_id or 0, sequence, payload.kind.value, pit_id=pit_id, change_text=told
        )
    )
