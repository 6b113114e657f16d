"""A round as fast as a dealer deals it: chips that add to a seat's wager, last round's wagers
repeated in one tap, the settlement listed as soon as the coup is complete, cards tapped in
without waiting for the screen; taps and seconds per round measured into test-output/taps.json.
Wrong input is refused in plain words with nothing lost, and the page asks in its own dialogs."""

from __future__ import annotations

import json
import time

import pytest

from tablegame.models import Round
from tests.browser.conftest import SHOTS, log_in, shot
from tests.browser.dealer_screen import tap_card
from tests.tablegame.conftest import ready_table

#: On the demo's SQLite too (make test-sqlite): pytest-django's live server, its threads on the
#: test's SQLite file.
pytestmark = pytest.mark.sqlite

#: Both hands draw: Player 2, 3 then 4 (9); Banker K, 2 then 5 (7). Player wins, 9 over 7.
SIX_CARDS = ["2S", "KD", "3H", "2C", "4C", "5D"]


class Taps:
    """The page, counting each tap the dealer makes."""

    def __init__(self, page) -> None:
        self.page, self.count = page, 0

    def tap(self, selector: str) -> None:
        self.page.click(selector)
        self.count += 1

    def card(self, code: str) -> None:
        tap_card(self.page, code)
        self.count += 1


def cards_then_settle(taps: Taps) -> None:
    page = taps.page
    taps.tap("text=No more bets")
    page.wait_for_selector("#card-pad:not([hidden])")
    for code in SIX_CARDS:  # tapped one after the other: the tablet queues them
        taps.card(code)
    page.wait_for_selector("#settlement-title:text('To settle, in order')")
    taps.tap("button:text-is('Settle')")
    page.wait_for_selector("#settlement-title:text('settled')")


def test_a_practised_dealer_deals_a_round_in_few_taps(floor_staff, live_server, browser):
    table = ready_table("ma-mini", floor_staff["dealer"], floor_staff["floor"])
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.wait_for_selector("#next-title:text-is('Ready for the next round')")
    measured = {}

    # Round 1: three wagers with the chip in hand ($25 until another is taken), each one tap on
    # its seat's spot (the first opens the round), six cards, settle: the physical actions + 1.
    taps, started = Taps(page), time.monotonic()
    taps.tap(".seat[data-seat='1'] .spot[data-type='banker']")
    taps.tap(".seat[data-seat='2'] .spot[data-type='banker']")
    taps.tap(".seat[data-seat='5'] .spot[data-type='player']")
    for seat, text in ((1, "Banker $25.00"), (2, "Banker $25.00"), (5, "Player $25.00")):
        page.wait_for_selector(f".seat[data-seat='{seat}'] .wager:text-is('{text}')")
    shot(page, "fast-hands-spots")
    cards_then_settle(taps)
    measured["three wagers with the chip in hand, six cards, settle"] = {
        "taps": taps.count,
        "seconds": round(time.monotonic() - started, 2),
    }
    assert taps.count <= 3 + 6 + 1 + 2  # the physical actions, plus two

    # Round 2: chips taken in hand, placed on the spots ($100, $25 twice, $500).
    taps, started = Taps(page), time.monotonic()
    taps.tap("#chips button:text-is('+100')")
    taps.tap(".seat[data-seat='1'] .spot[data-type='banker']")
    taps.tap("#chips button:text-is('+25')")
    taps.tap(".seat[data-seat='2'] .spot[data-type='banker']")
    taps.tap(".seat[data-seat='2'] .spot[data-type='banker']")  # chips add up: $50
    taps.tap("#chips button:text-is('+500')")
    taps.tap(".seat[data-seat='5'] .spot[data-type='player']")
    page.wait_for_selector(".seat[data-seat='1'] .wager:text-is('Banker $100.00')")
    page.wait_for_selector(".seat[data-seat='2'] .wager:text-is('Banker $50.00')")
    page.wait_for_selector(".seat[data-seat='5'] .wager:text-is('Player $500.00')")
    cards_then_settle(taps)
    measured["three wagers by chips of three values, six cards, settle"] = {
        "taps": taps.count,
        "seconds": round(time.monotonic() - started, 2),
    }
    steps = page.inner_text("#steps")
    assert "Collect seat 2 Banker $50.00" in steps
    assert "Pay seat 5 Player $500.00" in steps

    # Round 3: last round's wagers repeated in one tap.
    taps, started = Taps(page), time.monotonic()
    taps.tap("text=Place your bets: open the round")
    taps.tap("text=Repeat last round's wagers (3)")
    for seat, text in ((1, "Banker $100.00"), (2, "Banker $50.00"), (5, "Player $500.00")):
        page.wait_for_selector(f".seat[data-seat='{seat}'] .wager:text-is('{text}')")
    shot(page, "fast-hands-repeated")
    cards_then_settle(taps)
    measured["three seats' wagers repeated, six cards, settle"] = {
        "taps": taps.count,
        "seconds": round(time.monotonic() - started, 2),
    }

    # Round 4: a wager over the limit is refused and the seat's other wagers stay; a wager is
    # withdrawn before no more bets.
    page.click("text=Place your bets: open the round")
    page.click("text=Repeat last round's wagers (3)")
    page.wait_for_selector(".seat[data-seat='5'] .wager:text-is('Player $500.00')")
    page.click(".seat[data-seat='1']", position={"x": 16, "y": 12})
    page.click("#w-types button[data-type='tie']")
    page.click("#chips button:text-is('+5')")
    page.wait_for_selector(".seat[data-seat='1'] .wager:text-is('Tie $5.00')")
    page.click("#w-types button[data-type='banker']")
    page.fill("#w-amount", "6000")
    page.click("#w-take")
    page.wait_for_selector("#error:not([hidden])")
    assert "The Banker maximum is $5000.00; $6000.00 is over it." in page.inner_text("#error")
    shot(page, "fast-hands-refused")
    assert page.locator(".seat[data-seat='1'] .wager").all_inner_texts() == [
        "Banker $100.00",
        "Tie $5.00",
    ]
    assert page.input_value("#w-amount") == "6000"  # what the dealer typed is kept
    page.click(".seat[data-seat='2']", position={"x": 16, "y": 12})
    page.click("button[aria-label='Withdraw Banker $50.00']")
    page.wait_for_selector(".seat[data-seat='2'] .wager", state="detached")
    assert page.locator("#error").is_hidden()

    # A player sits down: the page's own dialog asks the name or card (no prompt()).
    page.on("dialog", lambda d: (_ for _ in ()).throw(AssertionError("a browser dialog")))
    page.click("button[aria-label='Seat a player at seat 3']")
    page.wait_for_selector("#sit[open]")
    page.fill("#sit-name", "Red scarf")
    page.click("#sit-ok")
    page.wait_for_selector(".seat[data-seat='3'] .seat-who:text-is('Red scarf')")
    browser.stop()

    SHOTS.mkdir(exist_ok=True)
    (SHOTS / "taps.json").write_text(json.dumps(measured, indent=2))
    print(json.dumps(measured, indent=2))
    _, chips, repeated = measured.values()
    assert repeated["taps"] < chips["taps"]  # the seconds are reported (they are the machine's)
    game = Round.objects.get(table=table, number=3)
    assert [(w.seat, w.type, str(w.amount)) for w in game.wagers.order_by("seat")] == [
        (1, "banker", "100.00"),
        (2, "banker", "50.00"),
        (5, "player", "500.00"),
    ]
    assert [c.code for c in game.cards.order_by("position")] == SIX_CARDS
