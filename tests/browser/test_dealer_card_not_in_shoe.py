"""A card the shoe cannot hold (every copy already seen) is refused in plain words: the hand on
the screen stays as it was, and the next card keyed deals as usual."""

from __future__ import annotations

import pytest

from tablegame.models import Round
from tests.browser.conftest import log_in, shot
from tests.browser.dealer_screen import deal, tap_card
from tests.tablegame.conftest import play, ready_table

DECKS = 6


@pytest.fixture
def six_kings_of_spades_seen(floor_staff):
    """A six-deck mini table whose first two rounds dealt all six K♠ of its shoe."""
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-mini", dealer, floor, decks=DECKS)
    play(table, dealer, [], ["KS", "KS", "KS", "KS", "2C", "3C"])  # both 0: each hand draws
    play(table, dealer, [], ["KS", "KS", "9H", "8C"])  # naturals, 9 over 8
    return table


def test_a_card_not_left_in_the_shoe_is_refused_and_the_hand_stays(
    six_kings_of_spades_seen, live_server, browser
):
    table = six_kings_of_spades_seen
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#next-title:text-is('Place your bets')")
    page.click(".seat[data-seat='1']", position={"x": 16, "y": 12})
    page.click("#w-types button[data-type='player']")
    page.click("#chips button:text-is('+25')")
    page.wait_for_selector(".seat[data-seat='1'] .wager:text-is('Player $25.00')")
    page.click("text=No more bets")
    deal(page, ["4H", "5D"])
    left = page.inner_text("#t-shoe div:has(dt:text-is('Cards left')) dd")

    tap_card(page, "KS")  # the seventh K♠ of a six-deck shoe
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error") == (
        "⚠ There is no K♠ left in this shoe: its 6 decks hold 6 and all have been seen. "
        "Check the card."
    )
    page.wait_for_selector("#pad-choice:text-is('K♠ not dealt')")
    assert page.inner_text("#p-cards") == "4♥"
    assert page.inner_text("#b-cards") == "5♦"
    assert page.inner_text("#next-title") == "Player's second card"
    assert page.inner_text("#t-shoe div:has(dt:text-is('Cards left')) dd") == left
    assert page.locator(".seat[data-seat='1'] .wager").all_inner_texts() == ["Player $25.00"]
    shot(page, "dealer-card-not-in-shoe")

    deal(page, ["KH", "4C"])  # the card it was: Player 4, Banker 9, a natural
    page.wait_for_selector("#next-title:text-is('Banker wins, 9 over 4')")
    assert page.locator("#error").is_hidden()
    assert page.inner_text("#p-cards") == "4♥\nK♥"
    page.wait_for_selector("#settlement-title:text('To settle, in order')")
    browser.stop()

    game = Round.objects.get(table=table, number=3)
    assert [c.code for c in game.cards.order_by("position")] == ["4H", "5D", "KH", "4C"]
