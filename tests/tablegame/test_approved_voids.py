"""A dealer voids a round the shoe could still complete with a floorperson's approval, recorded."""

from __future__ import annotations

import pytest

from casino.events import payload_of
from casino.models import Event
from casino.record import verify_chain
from tablegame import actions
from tablegame.events import RoundVoid
from tablegame.models import Round, Table
from tests.tablegame.conftest import ready_table

pytestmark = pytest.mark.django_db

NOT_A_SUPERVISOR = "Only a floorperson or pit boss may void a round while the shoe still holds"


def dealing(table: Table, dealer) -> Round:
    """A round mid-shoe with two wagers and one card dealt."""
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.place_wager(table, seat=2, wager="tie", amount="5", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    return actions.deal_card(table, card="4H", actor=dealer)


def voids(table: Table) -> list[Event]:
    return list(Event.objects.filter(chain=table.chain_id, action="round_void"))


def test_a_dealer_voids_mid_shoe_with_a_floorpersons_approval_and_the_record_names_them(
    dealer, floor
):
    table = ready_table("ma-mini", dealer, floor)
    dealing(table, dealer)
    game = actions.void_round(table, reason="Shoe damaged", approver=floor, actor=dealer)
    assert (game.state, game.void_reason) == (Round.State.VOID, "Shoe damaged")
    returned = [(s.action, s.seat, s.wager_type, s.amount) for s in game.steps.order_by("index")]
    assert [(a, seat, w, str(amount)) for a, seat, w, amount in returned] == [
        ("return", 2, "tie", "5.00"),
        ("return", 1, "banker", "100.00"),
    ]
    assert set(game.wagers.values_list("result", flat=True)) == {"push"}
    (event,) = voids(table)
    assert event.actor == dealer and event.data["approved_by"] == "floor"
    payload = payload_of(event.action, event.data)
    assert isinstance(payload, RoundVoid) and payload.approved_by == "floor"
    assert payload.describe() == "Wagers returned: Shoe damaged; approved by floor"
    assert verify_chain(table.chain_id).ok


def test_an_approver_who_is_no_supervisor_or_the_dealer_themself_is_refused(staff, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    dealing(table, dealer)
    with pytest.raises(actions.ActionError, match=NOT_A_SUPERVISOR):
        actions.void_round(table, reason="Shoe damaged", approver=staff["dealer2"], actor=dealer)
    with pytest.raises(actions.ActionError, match="Another person approves the void"):
        actions.void_round(table, reason="Shoe damaged", approver=floor, actor=floor)
    assert Round.objects.get(table=table).state == Round.State.DEALING
    assert voids(table) == []


def test_without_an_approval_a_dealer_still_voids_only_when_the_shoe_runs_out(staff, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    dealing(table, dealer)
    with pytest.raises(actions.ActionError, match="void when the shoe runs out"):
        actions.void_round(table, reason="Shoe damaged", actor=dealer)
    assert voids(table) == []
    actions.void_round(table, reason="Shoe damaged", approver=staff["pitboss"], actor=dealer)
    (event,) = voids(table)
    assert event.data["approved_by"] == "pitboss"


def test_a_void_nobody_approved_is_recorded_and_read_back_as_before_the_approval_existed(
    dealer, floor
):
    table = ready_table("ma-mini", dealer, floor)
    dealing(table, dealer)
    actions.void_round(table, reason="Shoe damaged", actor=floor)
    (event,) = voids(table)
    assert set(event.data) == {"round", "reason", "steps"}  # no "approved_by": null
    payload = payload_of(event.action, event.data)
    assert isinstance(payload, RoundVoid) and payload.approved_by is None
    assert payload.as_data() == event.data
    assert payload.describe() == "Wagers returned: Shoe damaged"
    assert verify_chain(table.chain_id).ok
