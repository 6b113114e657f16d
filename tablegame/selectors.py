"""Reads: the whole state of a table as one plain-data document (what every screen shows)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from baccarat.cards import parse_cards, point_count
from baccarat.cutcard import ShoeCall, after_round
from baccarat.drawing import Coup, Expect
from baccarat.errors import RulesError
from baccarat.irregularities import IrregularityKind
from baccarat.settlement import Action
from baccarat.wagertypes import WagerType
from casino.models import Event
from tablegame.models import DeckChange, Round, Shoe, Table, VigorishMarker


def table_state(table: Table) -> dict[str, Any]:
    """Everything a dealer, the floor or surveillance needs to draw the table now."""
    rules = table.rules
    shoe = table.current_shoe()
    game = table.active_round() or _last_round(shoe)
    last_event = Event.objects.filter(chain_id=table.chain_id).order_by("-sequence").first()
    open_markers = list(table.markers.filter(status=VigorishMarker.Status.OPEN).order_by("-seat"))
    return {
        "table": {
            "id": table.pk,
            "name": table.name,
            "pit": str(table.pit),
            "status": table.status,
            "seat_count": table.seat_count,
            "curator_seat": table.curator_seat,
            "player_dealer_seat": table.player_dealer_seat,
        },
        "sequence": last_event.sequence if last_event else 0,
        "rules": {
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
        },
        "limits": {
            limit.wager_type: {"minimum": str(limit.minimum), "maximum": str(limit.maximum)}
            for limit in table.limits.all()
        },
        "seats": [seat.as_data() for seat in table.seats.all()],
        "markers": [_marker(m) for m in open_markers],
        "shoe": _shoe(shoe, table),
        "round": _round(game) if game else None,
        "deck_change": _deck_change(table),
        "meters": {m.name: str(m.amount) for m in table.meters.all()},
    }


def labels() -> dict[str, dict[str, str]]:
    """The engine's labels by the words the API uses: what the tablet shows for a wager type,
    a settlement step's action and an irregularity (one definition, in ``baccarat``)."""
    return {
        "wagers": {t.value: t.label for t in WagerType},
        "steps": {a.value: a.label for a in Action},
        "irregularities": {k.value: k.label for k in IrregularityKind},
    }


def _last_round(shoe: Shoe | None) -> Round | None:
    return shoe.rounds.order_by("-number").first() if shoe else None


def _marker(m: VigorishMarker) -> dict[str, Any]:
    return {"id": m.pk, "seat": m.seat, "amount": str(m.amount), "player": m.player_name}


def _shoe(shoe: Shoe | None, table: Table) -> dict[str, Any] | None:
    if shoe is None:
        return None
    rounds = shoe.rounds.count()
    call = after_round(rounds, shoe.cut_card_round) if rounds else ShoeCall.CONTINUE
    return {
        "number": shoe.number,
        "state": shoe.state,
        "state_label": shoe.get_state_display(),
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
        "cut_offer": _cut_offer(shoe) if shoe.state == Shoe.State.SHUFFLED else [],
    }


def _cut_offer(shoe: Shoe) -> list[int]:
    """Who is offered the cut; nobody when a recut has nobody to go to."""
    try:
        return shoe.cut_offer()
    except RulesError:
        return []


def _round(game: Round) -> dict[str, Any]:
    cards = list(game.cards.all())
    player = [c.code for c in cards if c.hand == "player"]
    banker = [c.code for c in cards if c.hand == "banker"]
    coup = Coup(parse_cards(player), parse_cards(banker))
    return {
        "number": game.number,
        "state": game.state,
        "state_label": game.get_state_display(),
        "simulated": game.simulated,
        "expected": expected_next(game, coup),
        "drawing": coup.why_complete() if coup.dealt >= 4 and coup.is_complete else "",
        "cards": [{"position": c.position, "card": c.code, "hand": c.hand} for c in cards],
        "player": player,
        "banker": banker,
        "player_total": point_count(coup.player) if player else None,
        "banker_total": point_count(coup.banker) if banker else None,
        "winner": game.winner or None,
        "tags": game.tags,
        "announcement": game.announcement,
        "player_turner": game.player_turner,
        "banker_turner": game.banker_turner,
        "curator_seat": game.curator_seat,
        "player_dealer_seat": game.player_dealer_seat,
        "player_dealer_bank": str(game.player_dealer_bank) if game.player_dealer_bank else None,
        "wagers": [
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
            for w in game.wagers.all()
        ],
        "steps": [
            {
                "index": s.index,
                "phase": s.phase,
                "action": s.action,
                "seat": s.seat,
                "type": s.wager_type or None,
                "amount": str(s.amount),
            }
            for s in game.steps.all()
        ],
        "irregularities": [
            {"kind": i.kind, "card": i.card, "instruction": i.instruction}
            for i in game.irregularities.all()
        ],
        "void_reason": game.void_reason or None,
    }


def _deck_change(table: Table) -> dict[str, Any] | None:
    schedule = DeckChange.objects.filter(table=table).first()
    if schedule is None:
        return None
    return {
        "changed_at": schedule.changed_at.isoformat(),
        "due_at": schedule.due_at.isoformat() if schedule.due_at else None,
        "every_shoe": schedule.every_shoe,
        "due": schedule.is_due(timezone.now()),
    }


NEXT_CARD = {
    Expect.PLAYER_FIRST: "Player's first card",
    Expect.BANKER_FIRST: "Banker's first card",
    Expect.PLAYER_SECOND: "Player's second card",
    Expect.BANKER_SECOND: "Banker's second card",
    Expect.PLAYER_THIRD: "Player draws",
    Expect.BANKER_THIRD: "Banker draws",
    Expect.NONE: "",
}


def expected_next(game: Round, coup: Coup | None = None) -> str:
    """What the dealer does next, in words (``coup``: the round's cards, if already read)."""
    if game.state == Round.State.BETTING:
        return "Take wagers, then call no more bets."
    if game.state == Round.State.HOUSE_MONEY:
        return "Settle House Money before any third card."
    if game.state == Round.State.COMPLETE:
        return "Settle the round."
    if game.state != Round.State.DEALING:
        return ""
    return NEXT_CARD[(coup or game.coup()).expected]
