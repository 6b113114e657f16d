"""The supervisors' decisions of the day (recuts, limits, seats, rules, the cards' turn
relinquished, the shoe passed on an order) are in the day's exceptions, each linked to the round
to review in surveillance; accounting opens those reviews, read-only."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounting.reports import day_report
from baccarat.seating import curator_offer_order
from casino import access
from tablegame import actions
from tablegame.actions.common import NotAllowed
from tablegame.models import Round
from tests.tablegame.conftest import play, ready_table
from tests.tablegame.test_event_kinds import a_mini_baccarat_day
from tests.values import present

BANKER_WINS = ["4H", "9C", "2S", "KS"]


@pytest.fixture
def overridden(staff):
    dealer, floor = staff["dealer"], staff["floor"]
    mini = a_mini_baccarat_day(dealer, floor)
    big = ready_table("ma-big", dealer, floor)
    play(big, dealer, [(1, "player", "100")], ["9H", "2C", "KD", "3S"])  # Banker loses: passed
    _take_shoe(big, dealer)
    actions.pass_shoe(big, ordered=True, reason="Slow play, floor's call", actor=floor)
    _take_shoe(big, dealer)
    play(big, dealer, [(2, "banker", "100")], BANKER_WINS)
    return mini, big


def _take_shoe(table, dealer):
    """The next seat in the offer order accepts the shoe."""
    table.refresh_from_db()
    order = curator_offer_order(table.occupied_seats(), previous=table.previous_curator_seat)
    actions.take_shoe(table, seat=order[0], actor=dealer)


def test_the_days_overrides_name_who_decided_why_and_the_round_to_review(staff, overridden):
    mini, big = overridden
    casino = mini.pit.casino
    report = day_report(casino, casino.gaming_day(timezone.now()))
    lines = {(line.table, line.text.split(":")[0]): line for line in report.overrides}
    assert {
        (mini.name, "Limit set"),
        (mini.name, "Seats set"),
        (mini.name, "Rules filed"),
        (mini.name, "Cards relinquished"),
        (mini.name, "Recut ordered"),
        (big.name, "Shoe passed"),
    } <= set(lines)
    passed = lines[(big.name, "Shoe passed")]
    assert "Slow play, floor's call" in passed.text and "(by floor)" in passed.text
    assert "The cut card went in crooked" in lines[(mini.name, "Recut ordered")].text
    # The rules' own passes (Banker lost) are no decision of anybody's.
    assert not any("Banker's hand lost" in line.text for line in report.overrides)
    # The relinquished turn is reviewed in its round; the passed shoe in the round dealt next.
    relinquished = Round.objects.get(pk=present(lines[(mini.name, "Cards relinquished")].round_id))
    assert (relinquished.table_id, relinquished.number) == (mini.pk, 1)
    after_pass = Round.objects.get(pk=present(passed.round_id))
    assert after_pass.table_id == big.pk and after_pass.opened_at > present(passed.at)
    assert all(line.round_id for line in report.overrides)


def test_accounting_opens_the_review_an_override_links_to_and_may_not_act(staff, overridden):
    mini, big = overridden
    client = Client()
    client.force_login(staff["accounting"])
    today = mini.pit.casino.gaming_day(timezone.now())
    page = html.unescape(client.get(reverse("accounting:day"), {"day": today}).content.decode())
    passed = r"override — Shoe passed: Seat \d passes the shoe \(Slow play, floor's call\)"
    assert re.search(passed, page)
    links = re.findall(r'href="(/rounds/\d+/\?back=[^"]*)"', page)
    assert links
    for link in set(links):
        review = client.get(link)
        assert review.status_code == 200, link
        assert reverse("surveillance:wall") not in review.content.decode()  # only its own pages
        assert f'<a id="back" href="/accounting/?day={today}">Back</a>' in review.content.decode()
        forms = re.findall(r"<form[^>]*>", review.content.decode())
        assert all('action="/logout/"' in form for form in forms)  # nothing there to act with
    # Still not the surveillance room: no wall, no round search, and no command at a table.
    assert client.get(reverse("surveillance:wall")).status_code == 403
    assert client.get(reverse("surveillance:rounds")).status_code == 403
    assert not access.decide(staff["accounting"], "command:void_round").allowed
    actions.open_round(big, actor=staff["dealer"])
    with pytest.raises(NotAllowed):
        actions.pass_shoe(big, ordered=True, reason="Accounting's idea", actor=staff["accounting"])
