"""A mis-keyed card is corrected with a floorperson's approval; the record keeps both entries."""

from __future__ import annotations

from typing import Any

import pytest

from casino.events import payload_of
from casino.models import Event
from tablegame import actions
from tablegame.actions.corrections import correct_card
from tablegame.events import CardCorrected, CardDealt
from tablegame.models import Round
from tests.tablegame.conftest import ready_table

pytestmark = pytest.mark.django_db


def dealt(table, dealer, cards: list[str]) -> Round:
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    game = None
    for card in cards:
        game = actions.deal_card(table, card=card, actor=dealer)
    assert game is not None
    return game


def table_events(table, kind: str) -> list[Any]:
    found = Event.objects.filter(chain=table.chain_id, action=kind).order_by("sequence")
    return [payload_of(e.action, e.data) for e in found]


def test_a_mis_keyed_card_is_corrected_and_the_record_keeps_both_entries(dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    dealt(table, dealer, ["4H", "8C", "2S", "KS"])  # the Banker's 9C keyed as 8C
    shoe = table.current_shoe()
    assert shoe is not None
    left = dict(shoe.remaining)
    game = correct_card(
        table, position=2, card="9C", approver=floor, reason="Keyed 8 for 9", actor=dealer
    )
    assert [c.code for c in game.cards.order_by("position")] == ["4H", "9C", "2S", "KS"]
    assert (game.state, game.announcement) == (Round.State.COMPLETE, "Banker wins, 9 over 6")
    shoe.refresh_from_db()
    assert shoe.remaining["8C"] == left["8C"] + 1
    assert shoe.remaining["9C"] == left["9C"] - 1
    assert [p.card for p in table_events(table, "card_dealt")][1] == "8C"
    (corrected,) = table_events(table, "card_corrected")
    assert corrected == CardCorrected(
        round=1,
        position=2,
        hand=corrected.hand,
        entered="8C",
        card="9C",
        approved_by="floor",
        reason="Keyed 8 for 9",
    )
    assert corrected.hand.value == "banker"
    assert isinstance(table_events(table, "card_dealt")[1], CardDealt)
    actions.settle_round(table, actor=dealer)


def test_a_correction_that_completes_the_coup_or_reopens_it_moves_the_round(dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    game = dealt(table, dealer, ["2H", "KC", "3S", "KS"])  # Player 5, Banker 0: Player draws
    assert game.state == Round.State.DEALING
    game = correct_card(table, position=3, card="7S", approver=floor, actor=dealer)
    assert (game.state, game.announcement) == (Round.State.COMPLETE, "Player wins, 9 over 0")
    game = correct_card(table, position=3, card="3S", approver=floor, actor=dealer)
    assert (game.state, game.announcement) == (Round.State.DEALING, "")


def test_a_correction_is_refused_without_a_supervisor_or_when_the_draw_changes(dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    dealt(table, dealer, ["2H", "KC", "3S", "KS", "4D"])  # Player drew a 4; the Banker draws next
    with pytest.raises(actions.ActionError, match="Only a floorperson or pit boss may approve"):
        correct_card(table, position=1, card="3H", approver=dealer, actor=dealer)
    with pytest.raises(actions.ActionError, match="Another person approves"):
        correct_card(table, position=1, card="3H", approver=floor, actor=floor)
    with pytest.raises(actions.ActionError, match="the hands draw differently"):
        correct_card(table, position=1, card="5H", approver=floor, actor=dealer)  # a Natural
    game = Round.objects.get(table=table)
    assert [c.code for c in game.cards.order_by("position")] == ["2H", "KC", "3S", "KS", "4D"]
    assert table_events(table, "card_corrected") == []
