"""A whole shoe at each table type, dealt from the tablet at ten taps a second with 30 ms of
network delay: every round three wagers on the seats' spots, the cards, Settle; the cut card
comes out during the second round's hand and is recorded then; the last hand follows it; the shoe
is ended. Then every round the server recorded is compared with the taps (wagers, cards, state),
and taps and seconds per round go to test-output/tap-speed.json."""

from __future__ import annotations

import time
from decimal import Decimal
from typing import Any

import pytest

from baccarat.profiles import PROFILES
from tablegame.models import Round, Shoe
from tests.browser.conftest import shot
from tests.browser.dealer_screen import overflow
from tests.browser.test_dealer_tap_speed import (
    Finger,
    open_tablet,
    read,
    record_the_bank,
    report,
    round_of,
    settled_down,
    spot,
    wagers_of,
)
from tests.tablegame.conftest import ready_table

#: On the demo's SQLite too (make test-sqlite): pytest-django's live server, its threads on the
#: test's SQLite file.
pytestmark = pytest.mark.sqlite

#: Coups dealt in turn, in the order the cards leave the shoe (Player, Banker, Player, Banker,
#: then the third cards): both draw; a Player natural; a Banker natural; a tie of sevens; the
#: Player draws and the Banker stands on 7.
COUPS = [
    ["2S", "KD", "3H", "2C", "4C", "5D"],
    ["9S", "KH", "QD", "2C"],
    ["8H", "9C", "KS", "TD"],
    ["7D", "7C", "KC", "QH"],
    ["3S", "7H", "2D", "KS", "5C"],
]
CHIP = Decimal("25.00")


def player_dealer(page: Any) -> int | None:
    """The seat the tablet shows as the player-dealer's."""
    tile = page.locator(".seat:has(.role:text-is('Player-dealer'))")
    return int(tile.get_attribute("data-seat")) if tile.count() else None


def between_rounds(page: Any, finger: Finger) -> None:
    """What the text asks between two rounds, tapped as offered: the big table's shoe passed
    when the Banker's hand lost, the California position offered after two hands."""
    ready = "#actions button:text('Place your bets: open the round'):enabled"
    offers = ", ".join(
        f"#actions button:text('{offer}'):enabled"
        for offer in ("takes the shoe", "takes the position")
    )
    while True:
        page.wait_for_selector(f"{ready}, {offers}")
        if page.locator(ready).count():
            return
        if page.locator(offers).count():  # gone since? then look again
            finger.tap(offers)
            page.wait_for_selector("#actions button:text('declines')", state="detached")


@pytest.mark.parametrize("profile", list(PROFILES))
def test_a_whole_shoe_at_ten_taps_a_second_is_recorded_as_tapped(
    profile, floor_staff, live_server, browser
):
    table = ready_table(profile, floor_staff["dealer"], floor_staff["floor"], seats=(1, 2, 5))
    california = table.rules.player_dealer
    page = open_tablet(browser, live_server, table)
    finger = Finger(page)
    if california:
        page.wait_for_selector("#next-title:text-is('Who banks the game?')")
        finger.tap("text=Seat 5 takes the position")
        page.wait_for_selector(".seat[data-seat='5'] .role:text-is('Player-dealer')")
    tapped: dict[int, dict[tuple[int, str], Decimal]] = {}
    dealt: dict[int, list[str]] = {}
    rounds: list[dict[str, float]] = []
    number = 0
    while True:
        between_rounds(page, finger)
        number += 1
        last_hand = page.locator("#call:text('LAST HAND')").count() > 0
        started, taps = time.monotonic(), finger.taps
        banker = player_dealer(page)
        first, second = [s for s in (1, 2, 5) if s != banker][:2]
        wagers = [(first, "banker"), (second, "player"), (first, "tie")]
        for seat, kind in wagers:  # the first spot tapped opens the round
            finger.tap(spot(seat, kind))
        tapped[number] = {where: CHIP for where in wagers}
        for seat, kind in wagers:
            page.wait_for_selector(f".seat[data-seat='{seat}'] .wager.w-{kind}:not(.sending)")
        if california:
            record_the_bank(page, finger)
        finger.tap("#actions button:text-is('No more bets')")
        coup = COUPS[(number - 1) % len(COUPS)]
        for n, code in enumerate(coup, start=1):
            finger.card(code)
            if n == 1:  # the card pad and the seats on the screen, nothing to scroll to
                assert overflow(page) == {"down": 0, "across": 0}, f"{profile}: the dealer scrolls"
            if number == 2 and n == 2:  # the cut card comes out during this hand
                finger.tap("#actions button:text-is('Cut card came out')")
        dealt[number] = coup
        try:
            page.wait_for_selector("#settlement-title:text('To settle, in order')")
        except Exception:
            shot(page, f"shoe-at-speed-{profile}-stuck")
            raise AssertionError(
                f"{profile} round {number}: {page.inner_text('#next-title')}; "
                f"recorded {round_of(table, number)}; tapped {coup}"
            ) from None
        finger.tap("#actions button:text-is('Settle')")
        page.wait_for_selector(f"#t-shoe dd:text-is('{number} · Settled')")
        settled_down(page)
        assert page.locator("#error").is_hidden(), f"round {number}: {page.inner_text('#error')}"
        rounds.append({"taps": finger.taps - taps, "seconds": round(time.monotonic() - started, 2)})
        assert number < 6, "the last hand never came"
        if last_hand:
            break

    # The shoe is over: outstanding markers collected, then it is ended (the page asks first).
    page.wait_for_selector("#next-title:text('The shoe is over')")
    while page.locator("#markers button:text-is('Collected')").count():
        finger.tap("#markers button:text-is('Collected')")
        settled_down(page)
    finger.tap("#actions button:text-is('End the shoe')")
    finger.tap("#ask-ok")
    page.wait_for_selector("#next-title:text('Bring')")
    settled_down(page)

    assert number == 3, "the last hand is the one after the cut card came out"
    for n in tapped:
        assert wagers_of(table, n) == tapped[n], f"{profile} round {n}"
        assert round_of(table, n) == (Round.State.SETTLED, dealt[n]), f"{profile} round {n}"
    shoe = read(lambda: Shoe.objects.filter(table=table).latest("number"))
    assert (shoe.state, shoe.cut_card_round) == (Shoe.State.FINISHED, 2)
    for figures in rounds:  # three wagers, the cards, Settle: the physical actions + 2 at most
        assert figures["taps"] <= 3 + 6 + 1 + 2, rounds
    report(profile, "a whole shoe: each round three wagers, the cards, settle", {"rounds": rounds})
