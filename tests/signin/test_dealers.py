"""The floor assigns dealers to tables and relieves them; a dealer acts only at their table, and the
record names who dealt each round."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from casino import roles
from casino.models import Event
from tablegame import actions
from tablegame.actions.dealers import assign_dealer, relieve_dealer
from tests.tablegame.conftest import dealer, floor, ready_table, staff, table_for

__all__ = ["dealer", "floor", "staff"]


@pytest.fixture
def second_dealer(staff) -> User:
    user = User.objects.create_user("dealer2", first_name="Dana", last_name="Lee")
    user.groups.add(Group.objects.get(name=roles.DEALER))
    return user


def test_an_assigned_dealer_acts_only_at_their_own_table(db, dealer, floor, second_dealer):
    mini = ready_table("ma-mini", dealer, floor)
    other = table_for("s42-mini")
    assign_dealer(mini, dealer=dealer, actor=floor)
    with pytest.raises(actions.NotAllowed, match="You are assigned to MB-1"):
        actions.open_table(other, actor=dealer)
    with pytest.raises(actions.NotAllowed, match=r"^dealer deals this table"):
        actions.open_round(mini, actor=second_dealer)
    actions.open_round(mini, actor=dealer)
    relieve_dealer(mini, actor=floor)
    assign_dealer(mini, dealer=second_dealer, actor=floor)
    with pytest.raises(actions.NotAllowed, match=r"^dealer2 deals this table"):
        actions.place_wager(mini, seat=1, wager="banker", amount="100", actor=dealer)
    actions.place_wager(mini, seat=1, wager="banker", amount="100", actor=second_dealer)
    actions.open_table(other, actor=dealer)  # relieved: free again
    actions.no_more_bets(mini, actor=floor)  # the floor acts anywhere


def test_with_assignments_required_an_unassigned_dealer_acts_nowhere(db, dealer, floor, settings):
    settings.DEALERS_ACT_ONLY_WHERE_ASSIGNED = True
    table = table_for("ma-mini")
    with pytest.raises(actions.NotAllowed, match="has not assigned you to this table"):
        actions.open_table(table, actor=dealer)
    assign_dealer(table, dealer=dealer, actor=floor)
    actions.open_table(table, actor=dealer)


def test_one_dealer_per_table_and_one_table_per_dealer(db, dealer, floor, second_dealer):
    mini, other = table_for("ma-mini"), table_for("s42-mini")
    assign_dealer(mini, dealer=dealer, actor=floor)
    with pytest.raises(actions.ActionError, match="Relieve dealer at MB-1 first"):
        assign_dealer(mini, dealer=second_dealer, actor=floor)
    with pytest.raises(actions.ActionError, match="dealer deals MB-1: relieve them there first"):
        assign_dealer(other, dealer=dealer, actor=floor)
    with pytest.raises(actions.ActionError, match="floor is not a dealer"):
        assign_dealer(other, dealer=floor, actor=floor)
    with pytest.raises(actions.NotAllowed, match="floorperson or pit boss"):
        assign_dealer(other, dealer=second_dealer, actor=dealer)


def test_the_record_names_the_dealer_of_each_round(db, dealer, floor, second_dealer):
    table = ready_table("ma-mini", dealer, floor)
    assign_dealer(table, dealer=second_dealer, actor=floor)
    actions.open_round(table, actor=floor)  # opened by the floor, dealt by the table's dealer
    opened = Event.objects.filter(chain=table.chain, action="round_opened").last()
    assert opened.data["dealer"] == "dealer2"
    assigned = Event.objects.get(chain=table.chain, action="dealer_assigned")
    assert (assigned.actor, assigned.data["name"]) == (floor, "Dana Lee")


def test_the_dealers_page_assigns_and_relieves(db, dealer, floor, second_dealer):
    table = table_for("ma-mini")
    client = Client()
    client.force_login(floor)
    assert "Assign" in client.get("/dealers/").content.decode()
    answer = client.post(
        "/dealers/assign/",
        {"table": table.pk, "dealer": "dealer2"},
        content_type="application/json",
    )
    assert answer.json() == {"ok": True}
    assert "Dana Lee" in client.get("/dealers/").content.decode()
    answer = client.post("/dealers/relieve/", {"table": table.pk}, content_type="application/json")
    assert answer.json() == {"ok": True}
    dealer_client = Client()
    dealer_client.force_login(dealer)
    refused = dealer_client.post(
        "/dealers/assign/", {"table": table.pk, "dealer": "dealer"}, content_type="application/json"
    )
    assert refused.status_code == 403
