"""The access policy as people meet it: refusals that say why and where to go, and screens that
show only what the person may do."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client

from casino import access
from tablegame import actions
from tests.clients import logged_in
from tests.tablegame.conftest import table_for


def text(response) -> str:
    return html.unescape(response.content.decode())


def test_a_refusal_names_who_may_do_it(seeded):
    dealer = User.objects.get(username="dealer")
    assert access.decide(dealer, "command:verify_inspection") == access.Decision(
        False, "Only a floorperson or pit boss may verify a deck inspection."
    )
    assert access.decide(dealer, "command:deal_card") == access.Decision(
        True, "A dealer may deal cards."
    )
    assert access.decide(AnonymousUser(), "page:home") == access.Decision(False, "Log in first.")


def test_a_name_without_a_rule_is_an_error_not_a_refusal(seeded):
    with pytest.raises(access.UnknownWhat, match="page:casino-floor"):
        access.decide(User.objects.get(username="admin"), "page:casino-floor")


def test_a_refused_page_says_why_in_the_sites_layout_and_where_to_go(seeded):
    response = logged_in("dealer").get("/floor/?partial=1")
    assert response.status_code == 403
    page = text(response)
    assert '<a class="brand" href="/">Baccarat tables</a>' in page
    assert "Only a floorperson or pit boss or pit clerk may open the pit console." in page
    assert '<a class="screen" href="/">Go to your home page</a>' in page
    assert 'href="/login/?next=/floor/%3Fpartial%3D1">Log in as someone else</a>' in page


def test_a_visitor_who_is_not_logged_in_is_still_sent_to_log_in(seeded):
    response = Client().get("/floor/")
    assert response.status_code == 302
    assert response["Location"] == "/login/?next=/floor/"


def test_a_pit_boss_is_refused_the_surveillance_socket_with_the_reason(seeded):
    pit_boss = User.objects.get(username="pitboss")
    reason = access.decide(pit_boss, "socket:surveillance").reason
    assert reason == (
        "Only surveillance may follow the floor live: the surveillance room is independent of "
        "the gaming operation it watches, pit bosses included."
    )


def test_a_person_without_a_role_reads_no_table_and_is_told_to_ask_for_one(seeded):
    User.objects.create_user("visitor", password="baccarat")
    client = logged_in("visitor")
    for url in ("/api/tables/", f"/api/tables/{table_for('ma-mini').pk}/"):
        response = client.get(url)
        assert response.status_code == 403
        assert response.json()["error"].startswith("Only casino staff with a role may read")
        assert response.json()["error"].endswith("ask a pit boss for one.")
    home = text(client.get("/"))
    assert "ask a pit boss to assign you a role" in home
    assert "Pit 1" not in home
    assert "MB-1" not in home


def test_home_links_only_the_screens_the_role_may_open(seeded):
    pit_boss = text(logged_in("pitboss").get("/"))
    assert "Pit console" in pit_boss
    assert "Surveillance wall" not in pit_boss
    surveillance = text(logged_in("surveillance").get("/"))
    assert "Surveillance wall" in surveillance
    assert "Pit console" not in surveillance
    assert ">Tablet</a>" not in surveillance
    assert ">Display</a>" in surveillance


def test_the_pit_clerk_is_not_shown_buttons_the_policy_would_refuse(seeded):
    dealer = User.objects.get(username="dealer")
    table = table_for("ma-mini")
    actions.open_table(table, actor=dealer)
    actions.receive_decks(table, decks=8, actor=dealer)
    actions.inspect_decks(table, actor=dealer)
    clerk = text(logged_in("clerk").get("/floor/"))
    floor = text(logged_in("floor").get("/floor/"))
    for button in ('data-route="open/"', 'data-route="close/"', 'data-route="shoe/verify/"'):
        assert button not in clerk
        assert button in floor
    assert f'href="/dealer/{table.pk}/"' not in clerk
    assert f'href="/dealer/{table.pk}/"' in floor
