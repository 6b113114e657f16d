"""The variance exception's "rounds" link leads accounting to a page it may open, listing the
table's rounds of the gaming day as the day is defined: by when a round was settled, not when it
was opened (the link went to surveillance's round search, 403 for accounting, which searched by
opening time)."""

from __future__ import annotations

import datetime
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from tablegame import actions
from tablegame.models import Round, Table
from tests.accounting.conftest import PLAYER_WINS
from tests.conftest import kept_for_the_module
from tests.tablegame.conftest import play, ready_table


def _open_and_deal(table: Table, dealer: User) -> None:
    """A $300 Banker wager that loses (Player 9, Banker 5): the house wins $300."""
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="300", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in PLAYER_WINS:
        actions.deal_card(table, card=card, actor=dealer)


#: How long after it is set the new gaming day starts: time to play a round and deal another.
WINDOW = datetime.timedelta(seconds=4)


@pytest.fixture(scope="module")
def played_across_the_start(demo_floor: str, django_db_blocker: Any) -> Iterator[dict[str, object]]:
    """``across_the_start``, played once for the module's tests (its wait for the start is
    most of their time: ``WINDOW``), each of which changes it only in its own transaction."""
    yield from kept_for_the_module(django_db_blocker, _play_across_the_start)


@pytest.fixture
def across_the_start(played_across_the_start: dict[str, object], seeded: str) -> dict[str, object]:
    """At MB-1: the casino's gaming day made to start a few seconds from now; a round played
    before (of the day before), a round opened and dealt before the start and settled after it
    (of the day), and a round of the day. Nothing was counted, so each day's house result of
    $300 a round is a variance over the $100 threshold."""
    return played_across_the_start


def _play_across_the_start() -> dict[str, object]:
    dealer, floor = (User.objects.get(username=name) for name in ("dealer", "floor"))
    table = ready_table("ma-mini", dealer, floor)
    casino = table.pit.casino
    start = timezone.now() + WINDOW
    casino.gaming_day_start = start.astimezone(casino.zone).time()
    casino.save(update_fields=["gaming_day_start"])
    day = casino.gaming_day(start)
    assert casino.gaming_day_bounds(day)[0] == start
    before = play(table, dealer, [(1, "banker", "300")], PLAYER_WINS)
    _open_and_deal(table, dealer)
    assert timezone.now() < start, "a round and a deal took longer than the window: widen it"
    time.sleep((start - timezone.now()).total_seconds() + 0.05)
    across = actions.settle_round(table, actor=dealer)
    within = play(table, dealer, [(1, "banker", "300")], PLAYER_WINS)
    return {
        "casino": casino,
        "day": day,
        "table": table,
        "before": before,
        "across": across,
        "within": within,
    }


def _rounds_link(client: Client, casino_day: datetime.date, table: Table) -> str:
    """The href of the "rounds" link on the table's variance, on the day's report."""
    page = client.get(reverse("accounting:day"), {"day": casino_day.isoformat()})
    assert page.status_code == 200
    row = re.search(rf'<tr[^>]*data-table="{table.name}".*?</tr>', page.content.decode(), re.S)
    assert row is not None
    link = re.search(r'<a href="([^"]+)"[^>]*>rounds</a>', row.group(0))
    assert link is not None, "the variance is flagged with a link to its rounds"
    return link.group(1).replace("&amp;", "&")


def _listed(client: Client, href: str) -> list[int]:
    answer = client.get(href)
    assert answer.status_code == 200
    return [int(pk) for pk in re.findall(r'data-round="(\d+)"', answer.content.decode())]


def test_the_rounds_link_lists_the_rounds_settled_in_the_day(across_the_start):
    played = across_the_start
    table, day = played["table"], played["day"]
    assert isinstance(table, Table) and isinstance(day, datetime.date)
    before, across, within = (played[k] for k in ("before", "across", "within"))
    assert isinstance(across, Round) and across.settled_at is not None
    assert across.opened_at < table.pit.casino.gaming_day_bounds(day)[0] < across.settled_at
    client = Client()
    client.force_login(User.objects.get(username="accounting"))
    # The day: the round opened before its start and settled in it, and the round of the day.
    assert _listed(client, _rounds_link(client, day, table)) == [across.pk, within.pk]
    # The day before: its round only, not the one opened in it and settled after it.
    previous = day - datetime.timedelta(days=1)
    assert _listed(client, _rounds_link(client, previous, table)) == [before.pk]


def test_the_rounds_page_links_each_round_to_its_review_and_only_accounting_opens_it(
    across_the_start,
):
    table, day = across_the_start["table"], across_the_start["day"]
    assert isinstance(table, Table) and isinstance(day, datetime.date)
    href = f"{reverse('accounting:rounds')}?day={day.isoformat()}&table={table.pk}"
    accounting = Client()
    accounting.force_login(User.objects.get(username="accounting"))
    page = accounting.get(href).content.decode()
    across = across_the_start["across"]
    assert isinstance(across, Round) and across.settled_at is not None
    review = reverse("round-review", args=[across.pk])
    back = href.replace("?", "%3F").replace("=", "%3D").replace("&", "%26")
    assert f'href="{review}?back={back}"' in page  # the review links back to this page
    assert f'<a id="back" href="{escape(href)}">Back</a>' in (
        accounting.get(review, {"back": href}).content.decode()
    )
    assert "2 rounds: 2 settled, 0 void; $600.00 wagered." in page
    for username in ("floor", "pitboss", "dealer"):
        other = Client()
        other.force_login(User.objects.get(username=username))
        assert other.get(href).status_code == 403
