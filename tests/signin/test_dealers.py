"""The floor assigns dealers to tables and relieves them; a dealer acts only at their table, and the
record names who dealt each round."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.models import Event
from tablegame import actions
from tablegame.actions.dealers import assign_dealer, relieve_dealer
from tablegame.models import DealerAssignment, Table
from tests.tablegame.conftest import dealer, floor, play, ready_table, staff, table_for

__all__ = ["dealer", "floor", "staff"]


@pytest.fixture
def second_dealer(staff: dict[str, User]) -> User:
    """The demo's dealer2, relieved at MB-2 where the demo assigned them: free to be assigned."""
    user = staff["dealer2"]
    user.first_name, user.last_name = "Dana", "Lee"
    user.save(update_fields=["first_name", "last_name"])
    relieve_dealer(table_for("ma-mini-ez"), actor=staff["floor"])
    return user


def test_the_demo_assigns_a_dealer_to_each_table(db, staff):
    dealt = dict(DealerAssignment.objects.current().values_list("table__name", "dealer__username"))
    assert dealt == {
        "MB-1": "dealer",
        **{f"MB-{n}": f"dealer{n}" for n in range(2, 9)},
        "BB-1": "dealer9",
        "BB-2": "dealer10",
    }  # as the README's demo users say
    assert set(dealt) == set(Table.objects.values_list("name", flat=True))


def test_an_assigned_dealer_acts_only_at_their_own_table(db, dealer, floor, second_dealer):
    mini = ready_table("ma-mini", dealer, floor)  # MB-1: the demo's dealer deals it
    other = table_for("s42-mini")
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
    with pytest.raises(actions.NotAllowed, match="has not assigned you to this table"):
        actions.open_table(table_for("ma-mini-ez"), actor=dealer)  # relieved: nowhere now
    actions.no_more_bets(mini, actor=floor)  # the floor acts anywhere


def test_an_unassigned_dealer_acts_nowhere_by_default(db, floor, second_dealer):
    table = table_for("ma-mini-ez")  # the demo's dealer2 was relieved there
    with pytest.raises(actions.NotAllowed, match="has not assigned you to this table"):
        actions.open_table(table, actor=second_dealer)
    assign_dealer(table, dealer=second_dealer, actor=floor)
    actions.open_table(table, actor=second_dealer)


def test_a_house_that_does_not_require_assignments_lets_an_unassigned_dealer_deal_a_free_table(
    db, dealer, floor, second_dealer, settings
):
    settings.DEALERS_ACT_ONLY_WHERE_ASSIGNED = False
    actions.open_table(table_for("ma-mini-ez"), actor=second_dealer)  # no dealer there
    with pytest.raises(actions.NotAllowed, match=r"^dealer deals this table"):
        actions.open_table(table_for("ma-mini"), actor=second_dealer)
    with pytest.raises(actions.NotAllowed, match="You are assigned to MB-1"):
        actions.open_table(table_for("ma-mini-ez"), actor=dealer)


def test_one_dealer_per_table_and_one_table_per_dealer(db, dealer, floor, second_dealer):
    mini, other = table_for("ma-mini"), table_for("s42-mini")
    relieve_dealer(other, actor=floor)
    with pytest.raises(actions.ActionError, match="Relieve dealer at MB-1 first"):
        assign_dealer(mini, dealer=second_dealer, actor=floor)
    with pytest.raises(actions.ActionError, match="dealer deals MB-1: relieve them there first"):
        assign_dealer(other, dealer=dealer, actor=floor)
    with pytest.raises(actions.ActionError, match="floor is not a dealer"):
        assign_dealer(other, dealer=floor, actor=floor)
    with pytest.raises(actions.NotAllowed, match="floorperson or pit boss"):
        assign_dealer(other, dealer=second_dealer, actor=dealer)


def test_the_record_names_the_dealer_of_each_round(db, dealer, floor, second_dealer, staff):
    table = ready_table("ma-mini", dealer, floor)
    first = play(table, dealer, [(1, "banker", "100")], ["9C", "2D", "KH", "8S"])
    relieve_dealer(table, actor=floor)
    assign_dealer(table, dealer=second_dealer, actor=floor)
    second = actions.open_round(table, actor=floor)  # opened by the floor, dealt by dealer2
    opened = Event.objects.filter(chain=table.chain, action="round_opened").last()
    assert opened is not None
    assert opened.data["dealer"] == "dealer2"
    assigned = Event.objects.filter(chain=table.chain, action="dealer_assigned").last()
    assert assigned is not None
    assert (assigned.actor, assigned.data["name"]) == (floor, "Dana Lee")

    watcher = Client()
    watcher.force_login(staff["surveillance"])
    for game, name in ((first, "dealer"), (second, "dealer2")):
        page = watcher.get(f"/rounds/{game.pk}/").content.decode()
        assert f'<dt>Dealer</dt><dd id="dealt-by">{name}</dd>' in page


def test_the_dealers_page_assigns_and_relieves(db, dealer, floor, second_dealer):
    table = table_for("ma-mini-ez")  # no dealer: dealer2 was relieved there
    client = Client()
    client.force_login(floor)
    assert "Assign" in client.get("/dealers/").content.decode()
    answer = client.post(
        "/dealers/assign/",
        {"table": table.pk, "dealer": "dealer2"},
        content_type="application/json",
    )
    assert answer.json() == {"done": True}
    assert "Dana Lee" in client.get("/dealers/").content.decode()
    answer = client.post("/dealers/relieve/", {"table": table.pk}, content_type="application/json")
    assert answer.json() == {"done": True}
    dealer_client = Client()
    dealer_client.force_login(dealer)
    refused = dealer_client.post(
        "/dealers/assign/", {"table": table.pk, "dealer": "dealer"}, content_type="application/json"
    )
    assert refused.status_code == 403
