"""One whole shoe dealt on the tablet: six decks, round after round, until the cut card comes out
during a hand (recorded then), that hand completed, "last hand", the shoe over and ended. The
shoe's count on the screen follows every card tapped in."""

from __future__ import annotations

import json
import random
import time

from baccarat.cards import Card as PlayingCard
from baccarat.cards import Rank, Suit
from tablegame.models import Card, Round, Shoe
from tests.browser.conftest import SHOTS, log_in, shot
from tests.browser.dealer_screen import tap_card
from tests.tablegame.conftest import ready_table

DECKS = 6
#: The cut card comes out with about this many cards left (the cover card's place).
CUT_CARD_AT = 30


def six_decks_shuffled() -> list[str]:
    """The shoe's cards in a fixed order: six decks, less the 3D exposed at the burn."""
    cards = [str(PlayingCard(rank, suit)) for rank in Rank for suit in Suit] * DECKS
    cards.remove("3D")
    random.Random(11).shuffle(cards)
    return cards


def cards_left(page) -> int:
    return int(page.inner_text("#t-shoe div:has(dt:text-is('Cards left')) dd"))


def deal_a_round(page, cards: list[str], *, cut_card_after: int | None = None) -> int:
    """Open the round, call no more bets, tap cards until the coup is complete, settle it;
    returns how many cards it took. ``cut_card_after``: the cut card comes out of the shoe after
    that many cards, and is recorded then (000 §9(e))."""
    page.click("#actions button:text('Place your bets: open the round')")
    page.click("text=No more bets")
    page.wait_for_selector("#card-pad:not([hidden])")
    dealt = 0
    while not page.locator("#card-pad").is_hidden():
        tap_card(page, cards.pop())
        dealt += 1
        page.wait_for_function(
            "n => document.querySelectorAll('#p-cards .playing, #b-cards .playing').length >= n",
            arg=dealt,
        )
        if dealt == cut_card_after:
            page.click("#actions button:text-is('Cut card came out')")
            page.wait_for_selector("#call:text-is('Cut card out: one more hand after this one')")
    page.click("button:text-is('Settle')")
    page.wait_for_selector("#t-shoe dd:text('· Settled')")
    page.wait_for_selector("#actions button:text('End the shoe')")
    return dealt


def test_a_whole_shoe_is_dealt_to_the_cut_card_and_the_last_hand(floor_staff, live_server, browser):
    table = ready_table("s42-mini", floor_staff["dealer"], floor_staff["floor"], decks=DECKS)
    cards = six_decks_shuffled()
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.wait_for_selector("#next-title:text-is('Ready for the next round')")
    started, rounds, dealt = time.monotonic(), 0, 0
    first_left = cards_left(page)
    assert first_left == DECKS * 52 - 4  # the 3D exposed at the burn, and three cards burned

    while cards_left(page) > CUT_CARD_AT:
        dealt += deal_a_round(page, cards)
        rounds += 1
        assert cards_left(page) == first_left - dealt
    # The cut card comes out during a hand, after its second card: recorded then, the hand is
    # completed and the next one is the last.
    dealt += deal_a_round(page, cards, cut_card_after=2)
    assert page.locator("#actions button:text('Cut card came out')").count() == 0
    page.wait_for_selector("#call:text-is('Next round is the LAST HAND')")
    assert page.inner_text("#next-title") == "Ready for the LAST HAND"
    dealt += deal_a_round(page, cards)  # the last hand
    rounds += 2
    page.wait_for_selector("#call:text-is('Shoe over: collect markers, end the shoe')")
    assert page.locator("#actions button:text('Place your bets')").count() == 0
    assert cards_left(page) == first_left - dealt
    shot(page, "whole-shoe-over")
    page.click("#actions button:text-is('End the shoe')")
    page.click("#ask-ok")  # the page asks first: a shoe ended cannot be undone
    page.wait_for_selector("#next-title:text-is('Bring decks to the table')")
    seconds = time.monotonic() - started
    browser.stop()

    SHOTS.mkdir(exist_ok=True)
    measured = {"rounds": rounds, "cards": dealt, "seconds": round(seconds, 1)}
    measured["seconds per round"] = round(seconds / rounds, 2)
    (SHOTS / "whole-shoe.json").write_text(json.dumps(measured, indent=2))
    shoe = Shoe.objects.get(table=table)
    assert shoe.state == Shoe.State.FINISHED
    assert Round.objects.filter(table=table, state=Round.State.SETTLED).count() == rounds
    assert Card.objects.filter(round__table=table).count() == dealt
    assert shoe.physical_cards_left == first_left - dealt
