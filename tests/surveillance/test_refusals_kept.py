"""Every refusal of the access policy that reaches a person as a 403 is kept in the record of
sign-ins and refusals, one row each, and surveillance reads and filters them there; an allowed
request keeps nothing, and a flood of refusals is counted, not kept one by one (issue 28)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.test import Client

from casino import roles
from casino.models import AccessRefusal, Pit
from casino.refusals import KEPT_PER_MINUTE

TABLET = "198.51.100.20"


@pytest.fixture(autouse=True)
def counts_cleared() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def person(username: str, role: str | None) -> Client:
    user = User.objects.create_user(username, password="pw-Watch-1")
    if role is not None:
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    client = Client(REMOTE_ADDR=TABLET)
    client.force_login(user)
    return client


def test_a_refused_page_is_kept_with_who_what_where_and_when(pit: Pit) -> None:
    dealer = person("dealer7", roles.DEALER)
    assert dealer.get("/surveillance/signins/").status_code == 403
    row = AccessRefusal.objects.get()
    assert (row.username, row.what, row.channel, row.path, row.address) == (
        "dealer7",
        "page:surveillance:signins",
        "page",
        "/surveillance/signins/",
        TABLET,
    )
    assert row.doing == "read the record of sign-ins and refusals" and row.user is not None
    assert row.more == 0 and row.at is not None


def test_an_allowed_request_keeps_nothing(pit: Pit) -> None:
    room = person("watcher", roles.SURVEILLANCE)
    assert room.get("/surveillance/signins/").status_code == 200
    assert room.get("/api/tables/").status_code == 200
    assert not AccessRefusal.objects.exists()


def test_a_refusal_of_the_api_is_kept(pit: Pit) -> None:
    nobody = person("norole", None)
    answer = nobody.get("/api/tables/")
    assert answer.status_code == 403
    row = AccessRefusal.objects.get()
    assert (row.username, row.what, row.channel, row.path) == (
        "norole",
        "api:tables",
        "api",
        "/api/tables/",
    )


def test_a_visitor_sent_to_log_in_is_no_refusal(pit: Pit) -> None:
    assert Client().get("/surveillance/signins/").status_code == 302
    assert Client().get("/api/tables/").status_code in (401, 403)
    assert not AccessRefusal.objects.exists()


def test_a_flood_of_refusals_keeps_a_few_rows_and_counts_the_rest(pit: Pit) -> None:
    dealer = person("dealer7", roles.DEALER)
    for _ in range(KEPT_PER_MINUTE + 15):
        assert dealer.get("/surveillance/signins/").status_code == 403
    rows = AccessRefusal.objects.order_by("pk")
    # Unless the minute turned during the loop: then two minutes' rows, and all are counted.
    assert KEPT_PER_MINUTE <= rows.count() <= 2 * KEPT_PER_MINUTE
    assert rows.count() + sum(row.more for row in rows) == KEPT_PER_MINUTE + 15
    # Another thing refused to the same person is counted apart.
    assert dealer.get("/floor/").status_code == 403
    assert AccessRefusal.objects.filter(what="page:floor").count() == 1


def test_surveillance_reads_the_refusals_and_filters_them(pit: Pit) -> None:
    person("dealer7", roles.DEALER).get("/floor/")
    person("norole", None).get("/api/tables/")
    for _ in range(KEPT_PER_MINUTE + 3):
        person_client = Client(REMOTE_ADDR=TABLET)
        person_client.force_login(User.objects.get(username="dealer7"))
        person_client.get("/surveillance/signins/")
    room = person("watcher", roles.SURVEILLANCE)

    page = room.get("/surveillance/signins/", {"kind": "refused"}).text
    table = page.split('<table id="signins" class="list">', 1)[1]
    assert "Refused by the access policy" in table
    assert "open the pit console (page:floor, Page)" in table and "/floor/" in table
    assert "read the tables (api:tables, API)" in table and TABLET in table
    assert "and 3 more alike that minute" in table or "and 2 more alike" in table

    tried = room.get("/surveillance/signins/", {"tried": "pit console"}).text
    table = tried.split('<table id="signins" class="list">', 1)[1]
    assert "page:floor" in table and "api:tables" not in table and "dealer7" in table
    by_name = room.get("/surveillance/signins/", {"tried": "api:", "username": "norole"}).text
    assert "api:tables" in by_name.split('<table id="signins" class="list">', 1)[1]
    # "What was tried" is about refusals: no sign-in matches it.
    nothing = room.get("/surveillance/signins/", {"tried": "floor", "kind": "sign_in"}).text
    assert '<table id="signins" class="list">' not in nothing and "Nothing matches." in nothing
