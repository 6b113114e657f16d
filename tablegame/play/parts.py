"""The table state's parts, what every screen draws, made from the state in play.

``table_state`` is the whole (a screen's read: ``GET /api/tables/<id>/``); ``answer`` is what a
command answers: its events and the parts they changed (``selectors.CHANGES``), from the state the
command left, so that the answer and a fresh read after it are made by the same functions from the
same kind of value. A screen puts a part sent whole (``changed``) in place of its own; the round
sent in part (``patched``: its core and the lists the events touched) updates the keys it sends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from typing import Any

from baccarat.cards import point_count
from baccarat.cutcard import ShoeCall, after_round
from baccarat.drawing import Coup
from baccarat.errors import RulesError
from baccarat.seating import cut_offer_order, recut_order
from baccarat.settlement import Action
from baccarat.wagertypes import WagerType
from tablegame import tablet
from tablegame.events import RoundSettled, TableEvent, TablePayload, event_data
from tablegame.models import Round, Shoe
from tablegame.play.reading import read_table
from tablegame.play.rows import CardRow, RoundRow, coup
from tablegame.play.state import InPlay
from tablegame.selectors import CHANGES, NEXT_CARD, PARTS, ROUND_LISTS, ROUND_PATCHES


def table_state(state: InPlay) -> dict[str, Any]:
    """Everything a dealer, the floor or surveillance needs to draw the table now."""
    return {"sequence": state.head.sequence, **{name: PART[name](state) for name in PARTS}}


def table_state_now(table_id: int) -> dict[str, Any] | None:
    """The table's state as it stands (one statement, ``reading.read_table``); None: no such
    table."""
    state = read_table(table_id)
    return None if state is None else table_state(state)


def answer(
    state: InPlay, events: Sequence[tuple[int, TablePayload, dict[str, Any]]]
) -> dict[str, Any]:
    """What a command answers: its events (each its number, payload, and data as the record
    keeps it), and the parts of ``state`` (the state it left) they changed, whole or (the round)
    in part."""
    kinds = [TableEvent(payload.kind) for _, payload, _ in events]
    names = {name for _, payload, _ in events for name in changed_by(payload)}
    game = state.round
    found: dict[str, Any] = {
        "sequence": events[-1][0] if events else state.head.sequence,
        "events": [event_data(sequence, payload, data) for sequence, payload, data in events],
        "changed": [],
        "patched": [],
    }
    patch = kinds and all(kind in ROUND_PATCHES for kind in kinds)
    if "repeat" in names and game is not None and game.simulated:
        names.discard("repeat")  # a simulated round is not repeated: the last stays
    for name in PARTS:
        if name not in names:
            continue
        if name == "round" and patch and game is not None:
            lists = {item for kind in kinds for item in ROUND_PATCHES[kind]}
            found["round"] = round_document(state, [n for n in ROUND_LISTS if n in lists])
            found["patched"].append(name)
        else:
            found[name] = PART[name](state)
            found["changed"].append(name)
    return found


def changed_by(payload: TablePayload) -> tuple[str, ...]:
    """The parts an event changed: ``CHANGES``, less the markers for a settlement that marked
    no vigorish (the open markers stand as they were)."""
    names = CHANGES[TableEvent(payload.kind)]
    if isinstance(payload, RoundSettled) and not any(
        step.action is Action.MARK_VIGORISH for step in payload.steps
    ):
        return tuple(name for name in names if name != "markers")
    return names


def _table(state: InPlay) -> dict[str, Any]:
    table, rules = state.table, state.dealt_under
    return {
        "id": table.id,
        "name": table.name,
        "pit": state.pit.name,
        "status": table.status,
        "seat_count": table.seat_count,
        "curator_seat": table.curator_seat,
        "player_dealer_seat": table.player_dealer_seat,
        "curator_offer": tablet.curator_offer(table, state.occupied) if rules.has_curator else None,
        "player_dealer": tablet.player_dealer(table, rules, state.occupied)
        if rules.player_dealer
        else None,
    }


def _rules(state: InPlay) -> dict[str, Any]:
    """The rules in force now, and when filed rules next take effect (``changes_at``)."""
    rules = state.rules
    return {
        "profile": rules.name,
        "title": rules.title,
        "source": rules.source,
        "wagers": [w.value for w in rules.offered_wagers],
        "commission": rules.commission.value,
        "commission_rate": str(rules.commission_rate),
        "vigorish_collection": rules.vigorish_collection.value,
        "settlement": rules.settlement.value,
        "tie_odds": rules.tie_odds,
        "shuffle": rules.shuffle.value,
        "decks": list(rules.decks),
        "shuffler_decks": list(rules.shuffler_decks) if rules.shuffler_decks else None,
        "shuffler_batches": rules.shuffler_batches,
        "royal9": tablet.royal9(rules, state.table.seat_count),
        "changes_at": state.rules_next_at.isoformat() if state.rules_next_at else None,
    }


def _limits(state: InPlay) -> dict[str, Any]:
    return {
        limit.wager_type: {"minimum": str(limit.minimum), "maximum": str(limit.maximum)}
        for limit in state.limits
    }


def _seats(state: InPlay) -> list[dict[str, Any]]:
    return [seat.as_data() for seat in state.seats]


def _markers(state: InPlay) -> list[dict[str, Any]]:
    return [
        {"id": m.id, "seat": m.seat, "amount": str(m.amount), "player": m.player_name}
        for m in state.markers
    ]


def _shoe(state: InPlay) -> dict[str, Any] | None:
    shoe = state.shoe
    if shoe is None:
        return None
    rounds = state.rounds_in_shoe
    call = after_round(rounds, shoe.cut_card_round) if rounds else ShoeCall.CONTINUE
    return {
        "number": shoe.number,
        "state": shoe.state,
        "state_label": shoe.state_label,
        "decks": shoe.decks,
        "automatic_shuffler": shoe.automatic_shuffler,
        "back_colour": shoe.back_colour,
        "cards_left": shoe.physical_cards_left,
        "rounds": rounds,
        "cut_card_round": shoe.cut_card_round,
        "held_card": shoe.held_card or None,
        "call": call.value,
        "needs_shuffle_verification": "feather" in shoe.shuffle
        and shoe.shuffle_verified_by_id is None,
        "cut_offer": cut_offer(state) if shoe.state == Shoe.State.SHUFFLED else [],
    }


def cut_offer(state: InPlay) -> list[int]:
    """The seats to offer the cut to, in order; nobody when a recut has nobody to go to."""
    try:
        return cut_offer_order_of(state)
    except RulesError:
        return []


def cut_offer_order_of(state: InPlay) -> list[int]:
    """The seats to offer the cut to, in order (a recut follows the table's recut option:
    ``Shoe.cut_offer``); the engine's ``RulesError`` when a recut has nobody to go to."""
    shoe, table = state.shoe, state.table
    assert shoe is not None
    last_curator = table.curator_seat or table.previous_curator_seat or None
    order = cut_offer_order(state.rules, list(state.occupied), last_curator=last_curator)
    if shoe.recuts:
        order = recut_order(state.rules, order, shoe.cut_by_seat)
    return order


def _round(state: InPlay) -> dict[str, Any] | None:
    return round_document(state) if state.round is not None else None


def round_document(state: InPlay, lists: Iterable[str] = ROUND_LISTS) -> dict[str, Any]:
    """The shown round as a document: its cards and what they make, and the ``lists`` asked
    for."""
    game = state.round
    assert game is not None
    cards = state.cards
    player = [c.code for c in cards if c.hand == "player"]
    banker = [c.code for c in cards if c.hand == "banker"]
    dealt = coup(cards)
    rules = state.round_submission
    document = {
        "id": game.id,
        "number": game.number,
        "state": game.state,
        "state_label": game.state_label,
        "simulated": game.simulated,
        "expected": expected_next(game, dealt),
        "drawing": dealt.why_complete() if dealt.dealt >= 4 and dealt.is_complete else "",
        "cards": [{"position": c.position, "card": c.code, "hand": c.hand} for c in cards],
        "player": player,
        "banker": banker,
        "player_total": point_count(dealt.player) if player else None,
        "banker_total": point_count(dealt.banker) if banker else None,
        "winner": game.winner or None,
        "tags": list(game.tags),
        "announcement": game.announcement,
        "player_turner": game.player_turner,
        "banker_turner": game.banker_turner,
        "curator_seat": game.curator_seat,
        "player_dealer_seat": game.player_dealer_seat,
        "player_dealer_bank": str(game.player_dealer_bank) if game.player_dealer_bank else None,
        "void_reason": game.void_reason or None,
        "bank": tablet.bank(game, rules, state.wagers)
        if game.player_dealer_seat is not None
        else None,
        "preview": _preview(state, cards) if game.state == Round.State.COMPLETE else None,
        "house_money": tablet.house_money(rules, cards=cards, wagers=state.wagers)
        if game.state == Round.State.HOUSE_MONEY
        else None,
    }
    for name in lists:
        document[name] = _ROUND_LIST[name](state)
    return document


def _preview(state: InPlay, cards: Sequence[CardRow]) -> list[dict[str, Any]]:
    """A complete coup's settlement before Settle (``tablet.preview``)."""
    game = state.round
    assert game is not None
    rules = state.round_submission
    meters: dict[str, Decimal] = {}
    if rules.royal9 is not None and any(w.type == WagerType.ROYAL9.value for w in state.wagers):
        meters = state.meter_amounts()
    return tablet.preview(
        game, rules, cards=cards, wagers=state.wagers, meters=meters, done=state.steps
    )


def _wagers(state: InPlay) -> list[dict[str, Any]]:
    return [
        {
            "seat": w.seat,
            "type": w.type,
            "amount": str(w.amount),
            "ride": w.ride or None,
            "result": w.result or None,
            "payout": str(w.payout),
            "vigorish": str(w.vigorish),
            "returned": str(w.returned),
        }
        for w in state.wagers
    ]


def _steps(state: InPlay) -> list[dict[str, Any]]:
    return [
        {
            "index": s.index,
            "phase": s.phase,
            "action": s.action,
            "seat": s.seat,
            "type": s.wager_type or None,
            "amount": str(s.amount),
        }
        for s in state.steps
    ]


def _irregularities(state: InPlay) -> list[dict[str, Any]]:
    return [
        {"kind": i.kind, "card": i.card, "disposition": i.disposition, "instruction": i.instruction}
        for i in state.irregularities
    ]


_ROUND_LIST: dict[str, Callable[[InPlay], list[dict[str, Any]]]] = {
    "wagers": _wagers,
    "steps": _steps,
    "irregularities": _irregularities,
}


def _deck_change(state: InPlay) -> dict[str, Any] | None:
    schedule = state.deck_change
    if schedule is None:
        return None
    return {
        "changed_at": schedule.changed_at.isoformat(),
        "due_at": schedule.due_at.isoformat() if schedule.due_at else None,
        "every_shoe": schedule.every_shoe,
        "due": schedule.is_due(state.read_at),
        "decks": schedule.decks,
        "automatic_shuffler": schedule.automatic_shuffler,
    }


def _meters(state: InPlay) -> dict[str, str]:
    return {m.name: str(m.amount) for m in state.meters}


def _repeat(state: InPlay) -> list[dict[str, Any]]:
    """The last settled round's wagers, for the tablet's "repeat"."""
    return tablet.repeat(state.repeat)


def expected_next(game: RoundRow, dealt: Coup) -> str:
    """What the dealer does next, in words."""
    if game.state == Round.State.BETTING:
        return "Take wagers, then call no more bets."
    if game.state == Round.State.HOUSE_MONEY:
        return "Settle House Money before any third card."
    if game.state == Round.State.COMPLETE:
        return "Settle the round."
    if game.state != Round.State.DEALING:
        return ""
    return NEXT_CARD[dealt.expected]


PART: dict[str, Callable[[InPlay], Any]] = {
    "table": _table,
    "rules": _rules,
    "limits": _limits,
    "seats": _seats,
    "markers": _markers,
    "shoe": _shoe,
    "round": _round,
    "deck_change": _deck_change,
    "meters": _meters,
    "repeat": _repeat,
}
