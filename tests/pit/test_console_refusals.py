"""The dealers' refusals on the pit console (``pit.refusals``): the strip lists the newest kept at
the console's pits' tables, read from the database (what a dropped notice said is there), with
the words the dealer was told, who and which round; a link to the round's review only for those
who may open it; in a fixed number of queries however many there are."""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from pit.refusals import HOURS, SHOWN
from tablegame.models import Table, TableRefusal
from tests.clients import signed_in
from tests.tablegame.conftest import ready_table

pytestmark = pytest.mark.django_db

LATE = "No more bets: a wager may not be made, raised or withdrawn now."


@pytest.fixture(autouse=True)
def counts_cleared() -> Iterator[None]:
    """The minute's counts of refusals are the cache's: another test's are not ours."""
    cache.clear()
    yield
    cache.clear()


def dealing(table: Table, dealer: User) -> APIClient:
    """The dealer's tablet at ``table``, a round past "no more bets"."""
    tablet = APIClient()
    tablet.force_login(dealer)
    for route, body in (
        ("round/open/", {}),
        ("round/wagers/", {"seat": 1, "type": "banker", "amount": "100"}),
        ("round/no-more-bets/", {}),
    ):
        answer = tablet.post(
            f"/api/tables/{table.pk}/{route}",
            body,
            format="json",
            headers={"Idempotency-Key": route},
        )
        assert answer.status_code == 200, answer.content
    return tablet


def late_wager(tablet: APIClient, table: Table, seat: int) -> None:
    body = {"seat": seat, "type": "player", "amount": "100"}
    answer = tablet.post(
        f"/api/tables/{table.pk}/round/wagers/",
        body,
        format="json",
        headers={"Idempotency-Key": uuid.uuid4().hex},  # each a command of its own
    )
    assert answer.status_code == 409 and answer.json()["error"] == LATE


def strip(user: User, table: Table) -> str:
    answer = signed_in(user).get(f"/floor/refusals/?pits={table.pit_id}")
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_late_wager_refused_is_on_the_strip_with_its_words_and_round_but_no_review_link(
    dealer: User, floor: User
) -> None:
    table = ready_table("ma-mini", dealer, floor)
    late_wager(dealing(table, dealer), table, 2)
    kept = TableRefusal.objects.get()
    shown = strip(floor, table)
    assert f'<li data-refusal="{kept.pk}" data-kind="late_wager">' in shown
    assert f'<b class="refusal-table">{table.name}</b>' in shown
    assert '<span class="refusal-kind">Wager after no more bets</span>' in shown
    assert f'<span class="refusal-words">{LATE}</span>' in shown
    assert '<span class="refusal-who">dealer</span>' in shown
    assert f"shoe {kept.shoe_number}, round 1" in shown
    local = kept.at.astimezone(table.pit.casino.zone)
    assert f'<time datetime="{kept.at.isoformat()}">{local:%H:%M:%S}</time>' in shown
    # The round's review is surveillance's and accounting's: a pit boss's strip does not link it.
    assert "/rounds/" not in shown and "/rounds/" not in strip(
        User.objects.get(username="pitboss"), table
    )
    admin = User.objects.get(username="admin")
    assert f'href="/rounds/{kept.round_id}/?back=/floor/"' in strip(admin, table)

    console = signed_in(floor).get(f"/floor/?pits={table.pit_id}").content.decode()
    assert (
        f'id="refusals" class="refusals-strip" data-url="/floor/refusals/?pits={table.pit_id}"'
        in console
    )


def test_the_strip_shows_the_newest_few_of_the_last_hours_in_the_same_queries(
    dealer: User, floor: User
) -> None:
    table = ready_table("ma-mini", dealer, floor)
    tablet = dealing(table, dealer)
    client = signed_in(floor)
    url = f"/floor/refusals/?pits={table.pit_id}"
    assert "No refusal in the last 12 hours." in client.get(url).content.decode()

    def counted() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as queries:
            answer = client.get(url)
        return len(queries), answer.content.decode().count("<li data-refusal=")

    late_wager(tablet, table, 1)
    one = counted()
    for seat in (2, 5, 2, 5, 2, 5, 2, 5):
        late_wager(tablet, table, seat)
    many = counted()
    # The session and its user with the role, the pits supervised, the pits asked for, the strip.
    assert (one, many) == ((4, 1), (4, SHOWN))
    old = datetime.timedelta(hours=HOURS, minutes=1)
    for row in TableRefusal.objects.all():
        TableRefusal.objects.filter(pk=row.pk).update(at=row.at - old)
    assert counted()[1] == 0
