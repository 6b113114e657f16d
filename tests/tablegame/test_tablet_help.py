"""The tablet's helps, parts of the table state (``tablegame.tablet``): whom to offer the shoe and
the player-dealer position, what the wagers commit of the bank, the settlement shown before Settle
(the same as Settle records), and last round's wagers to repeat."""

from __future__ import annotations

from typing import Any

import pytest

from tablegame import actions
from tablegame.models import Round, Table
from tablegame.play.parts import table_state_now
from tests.tablegame.conftest import ready_table

pytestmark = pytest.mark.django_db

BANKER_NATURAL = ["4H", "9C", "2S", "KS"]
PLAYER_NATURAL = ["9H", "2C", "KS", "3D"]


def dealt(table, dealer, wagers, cards) -> Round:
    actions.open_round(table, actor=dealer)
    for seat, kind, amount in wagers:
        actions.place_wager(table, seat=seat, wager=kind, amount=amount, actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in cards:
        game = actions.deal_card(table, card=card, actor=dealer)
    return game


def state(table: Table) -> dict[str, Any]:
    """The table state as the tablet reads it: of the table as it is now in the database."""
    found = table_state_now(table.pk)
    assert found is not None
    return found


def steps(game: Round) -> list[dict[str, Any]]:
    return [
        {"action": s.action, "seat": s.seat, "type": s.wager_type or None, "amount": str(s.amount)}
        for s in game.steps.order_by("index")
    ]


@pytest.mark.parametrize("profile", ["ma-mini", "ma-big-ez", "s42-mini-tievig", "mini-pairs"])
def test_the_settlement_shown_before_settle_is_what_settle_records(dealer, floor, profile):
    table = ready_table(profile, dealer, floor)
    wagers = [(1, "banker", "100"), (2, "player", "55"), (5, "tie", "10")]
    game = dealt(table, dealer, wagers, BANKER_NATURAL)
    preview = state(table)["round"]["preview"]
    actions.settle_round(table, actor=dealer)
    assert preview == steps(game)
    assert state(table)["repeat"] == [
        {"seat": seat, "type": kind, "amount": f"{amount}.00"} for seat, kind, amount in wagers
    ]


def test_the_shoe_is_offered_to_the_right_of_the_curator_who_passed_it(dealer, floor):
    table = ready_table("ma-big", dealer, floor, seats=(1, 2, 5))  # seat 1 holds the shoe
    seen = state(table)["table"]
    assert (seen["curator_seat"], seen["curator_offer"]) == (1, [2, 5])
    dealt(table, dealer, [(2, "banker", "100")], PLAYER_NATURAL)
    actions.settle_round(table, actor=dealer)  # the Banker's hand lost: the shoe passes
    seen = state(table)["table"]
    assert (seen["curator_seat"], seen["curator_offer"]) == (None, [2, 5])


def test_the_bank_shows_what_the_wagers_commit_and_the_position_moves_clockwise(dealer, floor):
    table = ready_table("ca-commission-free", dealer, floor, seats=(1, 2, 5))
    first = state(table)["table"]["player_dealer"]
    assert (first["first"], first["offer"], first["fees"]["player"]) == (True, [1, 2, 5], "1.00")
    actions.take_player_dealer(table, seat=2, actor=dealer)
    for _hand in range(2):  # two hands banked
        actions.open_round(table, actor=dealer)
        actions.set_player_dealer_bank(table, bank="100", actor=dealer)
        actions.place_wager(table, seat=5, wager="player", amount="100", actor=dealer)
        actions.place_wager(table, seat=1, wager="banker", amount="25", actor=dealer)
        bank = state(table)["round"]["bank"]
        assert (bank["committed"], bank["worst_when"], bank["free"], bank["fees"]) == (
            "75.00",
            "Player wins",
            "25.00",
            "3.00",
        )
        actions.no_more_bets(table, actor=dealer)
        for card in BANKER_NATURAL:
            actions.deal_card(table, card=card, actor=dealer)
        actions.settle_round(table, actor=dealer)
    moved = state(table)["table"]
    assert moved["player_dealer_seat"] is None
    assert (moved["player_dealer"]["first"], moved["player_dealer"]["offer"]) == (False, [1, 5])
