"""A California table dealt from the tablet alone: the player-dealer position taken, the bank
entered, what the wagers commit of it shown as they are taken, the collection fees, the bank
running out, and the position moving on clockwise after two hands (001)."""

from __future__ import annotations

from playwright.sync_api import Page

from tablegame.models import Round, Table
from tests.browser.conftest import log_in, shot, wager
from tests.browser.dealer_screen import deal, screen_faults
from tests.tablegame.conftest import ready_table


def bank(page, amount: str) -> None:
    page.fill("#bank", amount)
    page.click("#bank-set")
    page.wait_for_selector(f"#bank-commit:text('Bank ${amount}.00')")


def seat_2_banks(floor_staff, live_server, browser) -> tuple[Table, Page]:
    """A California table on the dealer's tablet, seat 2 taking the player-dealer position."""
    table = ready_table("ca-commission-free", floor_staff["dealer"], floor_staff["floor"])
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.wait_for_selector("#next-title:text-is('Who banks the game?')")
    page.click("text=Seat 2 takes the position")
    page.wait_for_selector(".seat[data-seat='2'] .role:text-is('Player-dealer')")
    return table, page


def test_the_player_dealer_banks_two_hands_then_the_position_moves_clockwise(
    floor_staff, live_server, browser
):
    table, page = seat_2_banks(floor_staff, live_server, browser)

    # Hand 1: the bank is $100; the wagers commit $75 of it at worst (Player wins).
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#bank")
    assert page.locator(".seat[data-seat='2'].takes").count() == 0  # the banker does not wager
    bank(page, "100")
    wager(page, 5, "player", "100")
    wager(page, 1, "banker", "25")
    page.wait_for_selector("#bank-commit:text('the wagers commit $75.00')")
    assert page.inner_text("#bank-commit") == (
        "Bank $100.00: the wagers commit $75.00 (at worst, Player wins), $25.00 free."
    )
    assert "Fees this hand: $3.00" in page.inner_text("#bank-fees")
    page.wait_for_selector("#t-shoe dd:text-is('seat 2 · hand 1 of 2')")
    shot(page, "california-bank-committed")
    assert screen_faults(page, None) == {}
    page.click("text=No more bets")
    deal(page, ["9H", "2C", "KS", "3D"])  # Player wins, 9 over 5
    page.wait_for_selector("#settlement-title:text('To settle, in order')")
    steps = page.inner_text("#steps")
    assert "Collect the collection fee seat 2 $1.00" in steps
    assert "Pay seat 5 Player $100.00" in steps
    page.click("button:text-is('Settle')")
    page.wait_for_selector("#settlement-title:text('settled')")

    # Hand 2: a $50 bank cannot cover the action: the rest is returned.
    page.click("text=Place your bets: open the round")
    bank(page, "50")
    wager(page, 5, "player", "100")
    wager(page, 1, "banker", "25")
    page.wait_for_selector("text=$25.00 of the action is beyond the bank")
    page.wait_for_selector("#t-shoe dd:text-is('seat 2 · hand 2 of 2')")
    page.click("text=No more bets")
    deal(page, ["9H", "2C", "KS", "3D"])
    page.wait_for_selector("#settlement-title:text('To settle, in order')")
    steps = page.inner_text("#steps")
    assert "Pay seat 5 Player $50.00" in steps
    assert "Return seat 5 Player $50.00" in steps
    shot(page, "california-bank-runs-out")
    page.click("button:text-is('Settle')")

    # Two hands banked: the position is offered clockwise, seat 1 first; seat 5 takes it.
    page.wait_for_selector(
        "#next-title:text-is('Offer the player-dealer position to seat 1 (Player 1)')"
    )
    assert page.inner_text("#next-detail") == (
        "Seat 2 banked 2 hands: the position moves on clockwise. Clockwise: seat 1, seat 5, seat 2."
    )
    shot(page, "california-position-rotates")
    page.click("text=Seat 1 declines")
    page.click("text=Seat 5 takes the position")
    page.wait_for_selector(".seat[data-seat='5'] .role:text-is('Player-dealer')")
    browser.stop()

    rounds = Round.objects.filter(table=table).order_by("number")
    assert [(r.player_dealer_seat, str(r.player_dealer_bank)) for r in rounds] == [
        (2, "100.00"),
        (2, "50.00"),
    ]
    table.refresh_from_db()
    assert table.player_dealer_seat == 5


def test_the_bank_being_typed_keeps_its_keystrokes_when_a_wager_redraws_the_form(
    floor_staff, daphne, browser
):
    """The dealer types the bank; midway a wager taken on another tablet changes what the form
    shows, and the form is drawn again: the field keeps the focus and what was typed, and the
    rest of the keystrokes land in it (the wager's notice reaches the tablet over its socket)."""
    table, page = seat_2_banks(floor_staff, daphne, browser)
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#bank")
    page.click("#bank")
    page.keyboard.type("10")
    before = page.query_selector("#bank")
    answer = page.evaluate(
        """async (url) => {
            const answer = await Http.post(url, { seat: 5, type: "player", amount: "40" });
            return answer.ok || answer.error;
        }""",
        f"/api/tables/{table.pk}/round/wagers/",
    )
    assert answer is True
    page.wait_for_selector(".seat[data-seat='5'] .wager:text('Player $40.00')")
    # The form was drawn again, around the same field: it was never replaced under the typing.
    assert page.evaluate("b => b.isConnected && b === document.getElementById('bank')", before)
    page.keyboard.type("00")
    assert page.input_value("#bank") == "1000"
    assert page.evaluate("document.activeElement.id") == "bank"
    page.click("#bank-set")
    page.wait_for_selector("#bank-commit:text('Bank $1000.00: the wagers commit $40.00')")
