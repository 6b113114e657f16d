"""The 24-hour deck change (000 §3(c)): when the decks at a mini table are due, the tablet says so
in its banner, opens no more rounds, leads the dealer to end the shoe and take new decks only."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from tablegame import actions
from tablegame.models import DeckChange, Shoe
from tests.browser.conftest import log_in, shot
from tests.browser.dealer_screen import deal, screen_faults
from tests.tablegame.conftest import play, ready_table


@pytest.fixture
def decks_due(floor_staff):
    """A mini table one round into its shoe and taking wagers for the next, whose decks came to
    the table 24 hours ago."""
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    play(table, dealer, [], ["9H", "2C", "KS", "3D"])
    changed = timezone.now() - datetime.timedelta(hours=24, minutes=1)
    DeckChange.objects.filter(table=table).update(
        changed_at=changed, due_at=changed + datetime.timedelta(hours=24)
    )
    actions.open_round(table, actor=dealer)
    return table


def test_the_tablet_leads_the_dealer_through_the_24_hour_deck_change(
    decks_due, live_server, browser
):
    table = decks_due
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    # The round already open is dealt to its end.
    page.wait_for_selector("#next-title:text-is('Place your bets')")
    assert page.inner_text("#call") == "Decks due for change: after this round, end the shoe"
    page.click("text=No more bets")
    deal(page, ["8D", "2S", "KC", "4H"])  # Player's natural 8
    page.click("button:text-is('Settle')")
    page.wait_for_selector("#next-title:text-is('The decks are due for change: end the shoe')")
    assert page.inner_text("#call") == (
        "Decks due for change (every 24 hours): end the shoe, bring new decks"
    )
    assert page.inner_text("#next-detail") == (
        "Decks are changed at least every 24 hours. Collect markers, end the shoe, then bring "
        "new decks. Last: Player wins, 8 over 6"
    )
    assert page.locator("#actions button:text('Place your bets')").count() == 0
    assert page.inner_text("#t-shoe div:has(dt:text-is('Decks')) dd") == "CHANGE DUE"
    shot(page, "dealer-decks-due")
    assert screen_faults(page, None) == {}

    page.click("#actions button:text-is('End the shoe')")
    page.click("#ask-ok")  # the page asks first: a shoe ended cannot be undone
    page.wait_for_selector("#next-title:text-is('Bring new decks to the table')")
    assert page.inner_text("#call") == "Decks due for change (every 24 hours): bring new decks"
    assert page.inner_text("#next-detail").startswith(
        "The decks are due for change (every 24 hours): new decks only."
    )
    assert page.locator("text=Reshuffle the decks in use").count() == 0
    shot(page, "dealer-decks-due-bring-new")
    page.click("text=New decks received")
    page.wait_for_selector("#next-title:text-is('Inspect the decks for defects')")
    assert page.locator("#call").is_hidden()
    browser.stop()

    shoes = list(Shoe.objects.filter(table=table).order_by("number"))
    assert [s.state for s in shoes] == [Shoe.State.FINISHED, Shoe.State.RECEIVED]
    schedule = DeckChange.objects.get(table=table)
    assert not schedule.is_due()
