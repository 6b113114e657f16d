"""The tablet at a dealer's speed, for every bundled table profile: chips and card keys tapped
ten times a second (and in bursts at twenty), pressed as a mouse or a pen presses (down, then up
a moment later) with 30 ms of network delay, land exactly as tapped; then the server's record is
compared with the taps. A double tap on a control that another replaces under the finger does
one thing. Taps and seconds per round go to test-output/tap-speed.json."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any, TypeVar

import pytest

from baccarat.profiles import PROFILES
from tablegame.models import Round, Wager
from tests.browser.conftest import SHOTS, log_in, off_the_loop, shot
from tests.tablegame.conftest import ready_table

#: On the demo's SQLite too (make test-sqlite): pytest-django's live server, its threads on the
#: test's SQLite file.
pytestmark = pytest.mark.sqlite

#: Player 2, 3, then 4: 9; Banker K, 2, then 5: 7. Both hands draw; the Player wins.
T = TypeVar("T")
SIX_CARDS = ["2S", "KD", "3H", "2C", "4C", "5D"]
SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: How long a finger (or a pen, or a mouse button) stays down on a tap.
PRESS_MS = 60


class Finger:
    """Taps the screen at a pace, as a person does: where a control is, down, then up."""

    def __init__(self, page: Any) -> None:
        self.page, self.taps, self.next_at = page, 0, 0.0

    def tap(
        self, selector: str, per_second: float = 10.0, at: tuple[int, int] | None = None
    ) -> None:
        """Tap the control (at ``at`` from its top left corner, or its middle), no sooner than
        1/per_second after the last tap."""
        wait = self.next_at - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.next_at = time.monotonic() + 1 / per_second
        self.press(*self.where(selector, at))

    def seat(self, number: int) -> None:
        """Tap a seat's tile by its number and name (its spots take their own taps)."""
        self.tap(f".seat[data-seat='{number}']", at=(16, 12))

    def where(self, selector: str, at: tuple[int, int] | None = None) -> tuple[float, float]:
        """The middle of the control, as the eye finds it on the screen (the first match, shown
        and taking taps)."""
        box = None
        while box is None:  # drawn again between finding it and measuring it: look again
            found = self.page.locator(selector).first
            position = {"x": at[0], "y": at[1]} if at else None
            found.click(
                trial=True, position=position
            )  # shown, still, enabled: what a person waits for
            box = found.bounding_box()
        if at:
            return box["x"] + at[0], box["y"] + at[1]
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def press(self, x: float, y: float) -> None:
        """Down, then up a moment later, where the finger is: on whatever is there then."""
        self.page.mouse.click(x, y, delay=PRESS_MS)
        self.taps += 1

    def card(self, code: str, per_second: float = 10.0) -> None:
        """One tap: the card's key (once not lit from a tap of the same card just before)."""
        self.tap(f"#deck button[data-card='{code}']:not(.just)", per_second)

    def double_tap(self, selector: str, gap_ms: int) -> None:
        """Two taps ``gap_ms`` apart where the control is: the second lands on whatever is
        there then."""
        x, y = self.where(selector)
        self.press(x, y)
        time.sleep(gap_ms / 1000)
        self.press(x, y)


def read(query: Callable[[], T]) -> T:
    """What the server recorded (read off Playwright's loop, as a screen cannot)."""
    found: list[T] = []
    off_the_loop(lambda: found.append(query()))
    return found[0]


def wagers_of(table, number: int) -> dict[tuple[int, str], Decimal]:
    return read(
        lambda: {
            (w.seat, w.type): w.amount
            for w in Wager.objects.filter(round__table=table, round__number=number)
        }
    )


def round_of(table, number: int) -> tuple[str, list[str]]:
    """The round's state and its cards, in the order dealt."""
    return read(
        lambda: (
            (game := Round.objects.get(table=table, number=number)).state,
            [c.code for c in game.cards.order_by("position")],
        )
    )


def settled_down(page: Any) -> None:
    """Every command tapped has had its answer (nothing in line, nothing on its way)."""
    page.wait_for_function("() => !document.body.classList.contains('busy')")


def slow_network(page: Any) -> None:
    """30 ms each way between the tablet and the server."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 30, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def open_tablet(browser, live_server, table) -> Any:
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    slow_network(page)
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    return page


def ready_for_a_round(page: Any, california: bool) -> None:
    """At a California table seat 5 takes the player-dealer position; then the seats' spots
    are there (the first spot tapped opens the round)."""
    if california:
        page.wait_for_selector("#next-title:text-is('Who banks the game?')")
        page.click("text=Seat 5 takes the position")
        page.wait_for_selector(".seat[data-seat='5'] .role:text-is('Player-dealer')")
    page.wait_for_selector("#actions button:text('Place your bets: open the round'):enabled")


def spot(seat: int, kind: str) -> str:
    return f".seat[data-seat='{seat}'] .spot[data-type='{kind}']"


def record_the_bank(page: Any, finger: Finger) -> None:
    """California: the player-dealer's bank, typed only when no bank is carried to this hand."""
    page.wait_for_selector("#bank")
    if not page.input_value("#bank"):
        page.fill("#bank", "5000")
    if page.inner_text("#bank-set") == "Record the bank":
        finger.tap("#bank-set")
    page.wait_for_selector("#bank-commit:text('Bank $')")


def report(profile: str, what: str, figures: dict[str, Any]) -> None:
    """Taps and seconds, per profile, into test-output/tap-speed.json."""
    SHOTS.mkdir(exist_ok=True)
    measured = SHOTS / "tap-speed.json"
    found = json.loads(measured.read_text()) if measured.exists() else {}
    found.setdefault(profile, {})[what] = figures
    measured.write_text(json.dumps(found, indent=2))


@pytest.mark.parametrize("profile", list(PROFILES))
def test_chips_and_cards_at_ten_taps_a_second_are_recorded_as_tapped(
    profile, floor_staff, live_server, browser
):
    table = ready_table(profile, floor_staff["dealer"], floor_staff["floor"], seats=(1, 2, 5))
    california = table.rules.player_dealer
    page = open_tablet(browser, live_server, table)
    ready_for_a_round(page, california)
    finger, started = Finger(page), time.monotonic()

    # The chip in hand on the spots: the first tap opens the round; ten a second, then twenty.
    finger.tap("#chips button:text-is('+25')")
    for _ in range(8):
        finger.tap(spot(1, "banker"))
    for _ in range(4):
        finger.tap(spot(2, "player"))
    finger.tap("#chips button:text-is('+5')", per_second=20)
    for _ in range(4):
        finger.tap(spot(2, "player"), per_second=20)
    for _ in range(4):
        finger.tap(spot(1, "banker"), per_second=20)
    # The wager pad: the seat, the wager, then chips that add to it.
    finger.seat(1)
    finger.tap("#w-types button[data-type='tie']")
    finger.tap("#chips button:text-is('+25')")
    for _ in range(3):
        finger.tap("#chips button:text-is('+5')", per_second=20)
    tapped = {
        (1, "banker"): Decimal("220.00"),
        (2, "player"): Decimal("120.00"),
        (1, "tie"): Decimal("40.00"),
    }
    for (seat, kind), amount in tapped.items():  # the seat shows what was tapped, recorded
        label = {"banker": "Banker", "player": "Player", "tie": "Tie"}[kind]
        page.wait_for_selector(f".seat[data-seat='{seat}'] .wager:text-is('{label} ${amount}')")
    settled_down(page)
    recorded = wagers_of(table, 1)
    assert recorded == tapped, f"{profile}: recorded {recorded}, tapped {tapped}"
    if california:
        record_the_bank(page, finger)

    finger.tap("#actions button:text-is('No more bets')")
    page.wait_for_selector("#card-pad:not([hidden])")
    for code in SIX_CARDS:
        finger.card(code)
    page.wait_for_selector("#settlement-title:text('To settle, in order')")
    settled_down(page)
    assert round_of(table, 1) == (Round.State.COMPLETE, SIX_CARDS)
    finger.tap("#actions button:text-is('Settle')")
    page.wait_for_selector("#settlement-title:text('settled')")
    settled_down(page)
    assert page.locator("#error").is_hidden(), page.inner_text("#error")
    assert round_of(table, 1) == (Round.State.SETTLED, SIX_CARDS)
    shot(page, f"tap-speed-{profile}")
    report(
        profile,
        "three wagers by 24 chips, six cards, settle",
        {
            "taps": finger.taps,
            "seconds": round(time.monotonic() - started, 2),
        },
    )


@pytest.mark.parametrize(
    ("profile", "gap_ms"),
    [
        ("ma-mini", 50),
        ("ma-mini", 150),
        ("ma-mini", 300),
        ("ma-big", 150),
        ("ca-commission-free", 150),
    ],
)
def test_a_double_tap_does_one_thing(profile, gap_ms, floor_staff, live_server, browser):
    table = ready_table(profile, floor_staff["dealer"], floor_staff["floor"], seats=(1, 2, 5))
    california, big_table = table.rules.player_dealer, table.rules.has_curator
    page = open_tablet(browser, live_server, table)
    finger = Finger(page)
    if california:  # the position: seat 5 banks
        page.wait_for_selector("#next-title:text-is('Who banks the game?')")
        finger.double_tap("text=Seat 5 takes the position", gap_ms)
        page.wait_for_selector(".seat[data-seat='5'] .role:text-is('Player-dealer')")
    page.wait_for_selector("#actions button:text('Place your bets: open the round'):enabled")

    # Open the round: "No more bets" takes its place, and is not tapped by the second touch.
    finger.double_tap("#actions button:text('Place your bets: open the round')", gap_ms)
    page.wait_for_selector("#next-title:text('Place your bets')")
    settled_down(page)
    assert round_of(table, 1) == (Round.State.BETTING, [])

    if california:  # the bank, recorded once however it is tapped
        page.fill("#bank", "5000")
        finger.double_tap("#bank-set", gap_ms)
        page.wait_for_selector("#bank-commit:text('Bank $5000.00')")

    # A chip: each touch is one more chip (two touches, two chips).
    finger.double_tap(spot(1, "banker"), gap_ms)
    page.wait_for_selector(".seat[data-seat='1'] .wager:text-is('Banker $50.00')")

    # No more bets: the card pad appears; no key of it is tapped by the second touch.
    finger.double_tap("#actions button:text-is('No more bets')", gap_ms)
    page.wait_for_selector("#card-pad:not([hidden])")
    settled_down(page)
    assert round_of(table, 1) == (Round.State.DEALING, [])

    # A card key tapped twice: one card (a second card alike leaves the shoe later than that).
    finger.double_tap("#deck button[data-card='2S']", gap_ms)
    for code in SIX_CARDS[1:]:
        finger.card(code)
    page.wait_for_selector("#settlement-title:text('To settle, in order')")

    # Settle: the next round's "open" takes its place, and is not tapped by the second touch.
    finger.double_tap("#actions button:text-is('Settle')", gap_ms)
    page.wait_for_selector("#settlement-title:text('settled')")
    settled_down(page)
    assert read(lambda: list(Round.objects.filter(table=table).values_list("number", "state"))) == [
        (1, Round.State.SETTLED)
    ]
    assert round_of(table, 1)[1] == SIX_CARDS

    if big_table:  # the Banker's hand lost: the curator passes the shoe, offered in order
        page.wait_for_selector("#next-title:text('Offer the shoe to')")
        finger.double_tap("#actions button:text('takes the shoe')", gap_ms)
        page.wait_for_selector("#t-shoe dd:text('seat')")

    # Repeat last round's wagers, after "open": the wagers once, and no more bets not called.
    page.click("#actions button:text('Place your bets: open the round')")
    finger.double_tap("#actions #repeat", gap_ms)
    page.wait_for_selector(".seat[data-seat='1'] .wager:text-is('Banker $50.00')")
    settled_down(page)
    assert round_of(table, 2) == (Round.State.BETTING, [])
    assert wagers_of(table, 2) == {(1, "banker"): Decimal("50.00")}
    assert page.locator("#error").is_hidden(), page.inner_text("#error")
