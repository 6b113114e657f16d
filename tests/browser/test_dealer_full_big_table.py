"""A full big table on the tablet: fourteen seats with two or three wagers each, on the screen
without scrolling at both tablet sizes while the wagers are taken (each seat's spots, the wager
pad), and with the coup and the settlement list before and after Settle."""

from __future__ import annotations

import pytest

from tablegame import actions
from tablegame.models import Round
from tests.browser.conftest import log_in, off_the_loop, shot
from tests.browser.dealer_screen import SIZES, overflow
from tests.tablegame.conftest import ready_table

#: Player 2, 3, then 4: 9; Banker K, 2, then 5: 7. Both hands draw; the Player wins.
SIX_CARDS = ["2S", "KD", "3H", "2C", "4C", "5D"]
SEATS = range(1, 15)
#: Whether a wager's amount (the last word of its line) is inside the line's box: a narrow seat
#: may cut the wager's name, never its amount.
AMOUNT_SHOWN = """w => {
    const text = w.firstChild, range = document.createRange();
    range.setStart(text, text.data.lastIndexOf(" ") + 1);
    range.setEnd(text, text.data.length);
    const amount = range.getBoundingClientRect(), line = w.getBoundingClientRect();
    return amount.left >= line.left - 0.5 && amount.right <= line.right + 0.5;
}"""


def full_table_wagered(dealer, floor):
    """BB-1 with fourteen players, each with a Banker or Player wager and a Tie, and a
    Dragon Bonus on every third seat; betting still open."""
    table = ready_table("ma-big", dealer, floor, seats=SEATS)
    actions.open_round(table, actor=dealer)
    for seat in SEATS:
        main = "banker" if seat % 2 else "player"
        actions.place_wager(table, seat=seat, wager=main, amount="1000", actor=dealer)
        actions.place_wager(table, seat=seat, wager="tie", amount="100", actor=dealer)
        if seat % 3 == 0:
            side = "dragon_bonus_banker" if seat % 2 else "dragon_bonus_player"
            actions.place_wager(table, seat=seat, wager=side, amount="100", actor=dealer)
    return table


def full_table_coup_complete(dealer, floor):
    """The full table, its coup dealt."""
    table = full_table_wagered(dealer, floor)
    actions.no_more_bets(table, actor=dealer)
    for card in SIX_CARDS:
        actions.deal_card(table, card=card, actor=dealer)
    return table


@pytest.mark.parametrize("size", list(SIZES))
def test_a_full_big_table_fits_while_its_wagers_are_taken(size, floor_staff, live_server, browser):
    table = full_table_wagered(floor_staff["dealer"], floor_staff["floor"])
    width, height = SIZES[size]
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.wait_for_selector("#next-title:text-is('Place your bets')")
    page.click(".seat[data-seat='14']", position={"x": 16, "y": 12})  # the pad for seat 14
    page.click("#w-types button[data-type='dragon_bonus_player']")
    page.wait_for_selector("#w-seat:text('Seat 14')")
    for seat in SEATS:  # each seat's spots, and its wagers whole
        assert page.locator(f".seat[data-seat='{seat}'] .spot").count() == 3
        tie = page.locator(f".seat[data-seat='{seat}'] .wager.w-tie")
        assert tie.inner_text() == "Tie $100.00"
        for line in page.locator(f".seat[data-seat='{seat}'] .wager").all():
            assert line.evaluate(AMOUNT_SHOWN), f"seat {seat}: {line.inner_text()} cut short"
    shot(page, f"full-big-table-{size}-betting")
    assert overflow(page) == {"down": 0, "across": 0}, f"{size}: the dealer scrolls"


@pytest.mark.parametrize("size", list(SIZES))
def test_a_full_big_table_fits_while_its_cards_are_entered(size, floor_staff, live_server, browser):
    table = full_table_wagered(floor_staff["dealer"], floor_staff["floor"])
    actions.no_more_bets(table, actor=floor_staff["dealer"])
    for card in SIX_CARDS[:3]:
        actions.deal_card(table, card=card, actor=floor_staff["dealer"])
    width, height = SIZES[size]
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.wait_for_selector("#card-pad:not([hidden]) #deck button[data-card='KS']")
    shot(page, f"full-big-table-{size}-dealing")
    assert overflow(page) == {"down": 0, "across": 0}, f"{size}: the dealer scrolls"
    keys = page.locator("#deck button").all()
    assert len(keys) == 52
    last = keys[-1].bounding_box()
    assert last is not None and last["y"] + last["height"] <= height


@pytest.mark.parametrize("size", list(SIZES))
def test_a_full_big_table_fits_with_its_settlement(size, floor_staff, live_server, browser):
    table = full_table_coup_complete(floor_staff["dealer"], floor_staff["floor"])
    width, height = SIZES[size]
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")

    page.wait_for_selector("#settlement-title:text('To settle, in order')")
    steps = page.locator("#steps .step").count()
    assert steps >= 30, steps
    for seat in SEATS:  # every seat's wagers are on the screen, with the step that settles them
        assert page.locator(f".seat[data-seat='{seat}'] .wager").count() >= 1
    shot(page, f"full-big-table-{size}-to-settle")
    assert overflow(page) == {"down": 0, "across": 0}, f"{size}: the dealer scrolls"
    last = page.locator("#steps .step").last.bounding_box()
    assert last is not None and last["y"] + last["height"] <= height

    page.click("#actions button:text-is('Settle')")
    page.wait_for_selector("#settlement-title:text('settled')")
    shot(page, f"full-big-table-{size}-settled")
    assert overflow(page) == {"down": 0, "across": 0}, f"{size}: the dealer scrolls"
    found: list[str] = []
    off_the_loop(lambda: found.append(Round.objects.get(table=table, number=1).state))
    assert found == [Round.State.SETTLED]
