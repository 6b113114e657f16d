"""The significant events of the tables on the surveillance wall and their own page: a dealer's
refusal kept (a card not in the shoe) and what the record holds of the kinds that count (a round
void, an irregularity), newest first, read from the database (so a reload shows them), each
linking to its round's review; the page filters them by table, kind and time."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from surveillance.selectors import search_zone
from tablegame import actions
from tablegame.models import Round, Table, TableRefusal
from tests.surveillance.test_pages import client_for, mid_round_with_irregularity, page_of, staff
from tests.tablegame.conftest import deal_at, ready_table

__all__ = ["staff"]  # the fixture, shared


@pytest.fixture(autouse=True)
def counts_cleared() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def impossible_card(table: Table, dealer: User) -> str:
    """The dealer keys an A♠ the shoe no longer holds, mid-round, at the tablet; the words."""
    shoe = table.current_shoe()
    assert shoe is not None
    shoe.remaining["AS"] = 0
    shoe.save(update_fields=["remaining"])
    actions.open_round(table, actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    tablet = APIClient()
    tablet.force_login(dealer)
    url = f"/api/tables/{table.pk}/round/cards/"
    answer = tablet.post(url, {"card": "AS"}, format="json", headers={"Idempotency-Key": "as"})
    assert answer.status_code == 409
    words: str = answer.json()["error"]
    return words


@pytest.fixture
def floor_events(staff: dict[str, User]) -> dict[str, Table]:
    """MB-1: a card refused (in round 1); MB-2 (s42-mini): an irregularity (round 1), then the
    round void by the floor."""
    dealer, floor = staff["dealer"], staff["floor"]
    mini = ready_table("ma-mini", dealer, floor)
    impossible_card(mini, dealer)
    other = ready_table("s42-mini", dealer, floor)
    deal_at(other, dealer, floor)
    mid_round_with_irregularity(other, dealer)
    actions.void_round(other, reason="Camera lost the layout", actor=floor)
    return {"mini": mini, "other": other}


def items(page: str) -> list[str]:
    """The strip's or the list's entries, as text."""
    rows = re.findall(
        r'<(?:li class="sig-item|tr class="[^"]*" data-kind)(.*?)</(?:li|tr)>', page, re.S
    )
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip() for row in rows]


def test_the_wall_shows_the_significant_events_newest_first_when_it_is_loaded(floor_events):
    page = page_of(client_for("surveillance"), "/surveillance/")
    strip = re.search(r'<section id="significant".*?</section>', page, re.S)
    assert strip is not None
    shown = items(strip[0])
    assert len(shown) == 3
    assert floor_events["other"].name in shown[0] and "Round void" in shown[0]
    assert "Camera lost the layout" in shown[0]
    assert "Irregularity" in shown[1]
    assert "MB-1" in shown[2] and "Card not in the shoe (refused)" in shown[2]
    assert "There is no A♠ left in this shoe" in shown[2] and "dealer" in shown[2]


def test_each_entry_links_to_the_review_of_its_round(floor_events):
    page = page_of(client_for("surveillance"), "/surveillance/significant/")
    refused = Round.objects.get(table=floor_events["mini"], number=1)
    void = Round.objects.get(table=floor_events["other"], state="void")
    assert f'href="/rounds/{refused.pk}/' in page
    assert page.count(f'href="/rounds/{void.pk}/') == 2  # the void and the irregularity


def test_the_page_finds_them_by_table(floor_events):
    client = client_for("surveillance")
    shown = items(page_of(client, f"/surveillance/significant/?table={floor_events['mini'].pk}"))
    assert len(shown) == 1 and "Card not in the shoe" in shown[0]


def test_the_page_finds_them_by_kind(floor_events):
    client = client_for("surveillance")
    shown = items(page_of(client, "/surveillance/significant/?kind=round_void"))
    assert len(shown) == 1 and "Camera lost the layout" in shown[0]
    refused = items(page_of(client, "/surveillance/significant/?kind=card_not_in_shoe"))
    assert len(refused) == 1 and "There is no A♠" in refused[0]
    assert not items(page_of(client, "/surveillance/significant/?kind=late_wager"))


def test_the_page_finds_them_by_time(floor_events):
    client = client_for("surveillance")
    here = timezone.localtime(timezone=search_zone(floor_events["mini"]))  # casino time
    later = (here + datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    earlier = (here - datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    assert len(items(page_of(client, f"/surveillance/significant/?start={earlier}"))) == 3
    assert not items(page_of(client, f"/surveillance/significant/?start={later}"))
    assert len(items(page_of(client, f"/surveillance/significant/?end={later}"))) == 3


def test_a_shoe_passed_by_choice_is_not_significant_and_one_ordered_is(staff):
    dealer, floor = staff["dealer"], staff["floor"]
    table = ready_table("ma-big", dealer, floor, seats=(1, 2))
    actions.pass_shoe(table, actor=dealer)
    client = client_for("surveillance")
    assert not items(page_of(client, "/surveillance/significant/"))
    actions.take_shoe(table, seat=2, actor=dealer)
    actions.pass_shoe(table, ordered=True, reason="Slow play", actor=floor)
    shown = items(page_of(client, "/surveillance/significant/"))
    assert len(shown) == 1 and "Shoe passed" in shown[0] and "Slow play" in shown[0]


def test_the_gaming_operation_may_not_read_them(floor_events):
    for username in ("dealer", "floor", "pitboss"):
        assert client_for(username).get("/surveillance/significant/").status_code == 403
    assert Client().get("/surveillance/significant/").status_code == 302


def test_the_walls_strip_alone_is_what_the_wall_reads_again(floor_events):
    part = page_of(client_for("surveillance"), "/surveillance/significant/?partial=1")
    assert part.lstrip().startswith('<section id="significant"')
    assert len(items(part)) == 3
    assert TableRefusal.objects.count() == 1


def test_a_wager_under_the_minimum_and_a_mistyped_card_are_listed_in_words_and_by_kind(staff):
    dealer, floor = staff["dealer"], staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    tablet = APIClient()
    tablet.force_login(dealer)
    base = f"/api/tables/{table.pk}/round/"
    low = {"seat": 1, "type": "banker", "amount": "1"}
    key = {"Idempotency-Key": "low"}
    assert tablet.post(base + "wagers/", low, format="json", headers=key).status_code == 409
    actions.no_more_bets(table, actor=dealer)
    key = {"Idempotency-Key": "q1"}
    assert (
        tablet.post(base + "cards/", {"card": "Q1"}, format="json", headers=key).status_code == 400
    )
    client = client_for("surveillance")
    shown = items(page_of(client, "/surveillance/significant/"))
    assert len(shown) == 2
    assert "Card code mistyped" in shown[0] and "Q1&#x27; is not a card" in shown[0]
    assert "Wager under the minimum" in shown[1] and "$1.00 is too little" in shown[1]
    by_kind = items(page_of(client, "/surveillance/significant/?kind=under_limit"))
    assert len(by_kind) == 1 and "too little" in by_kind[0]
    assert len(items(page_of(client, "/surveillance/significant/?kind=mistyped_card"))) == 1
