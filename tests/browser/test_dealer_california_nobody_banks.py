"""California: the player-dealer position is offered continuously, clockwise around the table
(001). When every seat declines, the house does not bank: the tablet takes no wagers, says so, and
lets the dealer offer the position round again, back to the last player-dealer too."""

from __future__ import annotations

import pytest

from casino.models import Event
from tablegame import actions
from tests.browser.conftest import log_in, shot
from tests.browser.dealer_screen import screen_faults
from tests.tablegame.conftest import ready_table


@pytest.fixture
def seat_2_banked_two_hands(floor_staff):
    """A California table (seats 1, 2 and 5) whose player-dealer at seat 2 banked two hands."""
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ca-commission-free", dealer, floor)
    actions.take_player_dealer(table, seat=2, actor=dealer)
    for _hand in range(2):
        actions.open_round(table, actor=dealer)
        actions.set_player_dealer_bank(table, bank="100", actor=dealer)
        actions.place_wager(table, seat=5, wager="player", amount="25", actor=dealer)
        actions.no_more_bets(table, actor=dealer)
        for card in ["9H", "2C", "KS", "3D"]:  # Player wins, 9 over 5
            actions.deal_card(table, card=card, actor=dealer)
        actions.settle_round(table, actor=dealer)
    return table


def test_when_every_seat_declines_the_position_is_offered_round_again(
    seat_2_banked_two_hands, live_server, browser
):
    table = seat_2_banked_two_hands
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.wait_for_selector(
        "#next-title:text-is('Offer the player-dealer position to seat 1 (Player 1)')"
    )
    assert page.inner_text("#next-detail").endswith("Clockwise: seat 1, seat 5, seat 2.")
    page.click("text=Seat 1 declines")
    page.click("text=Seat 5 declines")
    # Round the table and back to the player-dealer whose two hands ended.
    page.wait_for_selector(
        "#next-title:text-is('Offer the player-dealer position to seat 2 (Player 2)')"
    )
    page.click("text=Seat 2 declines")
    page.wait_for_selector("#next-title:text-is('Nobody takes the player-dealer position')")
    assert page.inner_text("#next-detail") == (
        "Seat 2 banked 2 hands: the position moves on clockwise. "
        "Declined: seat 1, seat 5, seat 2. "
        "The house does not bank: no wagers until a player takes the position. "
        "Keep offering it clockwise, as a player asks for it or sits down."
    )
    assert page.locator("#actions button:text('Place your bets')").count() == 0
    assert page.locator("#wager-pad").is_hidden()
    shot(page, "california-nobody-banks")
    assert screen_faults(page, None) == {}

    page.click("text=Offer it again, seat 1 first")
    page.wait_for_selector(
        "#next-title:text-is('Offer the player-dealer position to seat 1 (Player 1)')"
    )
    page.click("text=Seat 1 declines")
    page.click("text=Seat 5 declines")
    page.click("text=Seat 2 takes the position")
    page.wait_for_selector(".seat[data-seat='2'] .role:text-is('Player-dealer')")
    page.wait_for_selector("#actions button:text('Place your bets: open the round')")
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#bank")
    browser.stop()

    table.refresh_from_db()
    assert (table.player_dealer_seat, table.player_dealer_hands) == (2, 0)
    record = Event.objects.filter(chain=table.chain_id, action="player_dealer_taken")
    taken = record.order_by("sequence").last()
    assert taken is not None
    assert (taken.data["seat"], taken.data["declined"]) == (2, [1, 5])
