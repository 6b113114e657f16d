"""A big table dealt from the tablet alone: the shoe offered in the text's order, accepted and
declined, passed when the Banker's hand loses and on the dealer's call (004 §7, §14)."""

from __future__ import annotations

from baccarat.profiles import PROFILES
from tablegame import actions
from tablegame.models import Round, Table
from tests.browser.conftest import log_in, shot
from tests.browser.dealer_screen import deal, screen_faults
from tests.tablegame.conftest import _cut_order, deal_at, shuffle_steps
from tests.values import present

ROYAL9 = present(PROFILES["ma-big"].royal9)
assert ROYAL9 is not None
assert ROYAL9 is not None


def face(card) -> str:
    """A card as the tablet shows it: 10♥, K♠."""
    code = str(card)
    rank = "10" if code[:-1] == "T" else code[:-1]
    return rank + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[code[-1]]


def shoe_in_play_without_curator(dealer, floor) -> Table:
    """BB-1 open, seats 1, 2 and 5 taken, a shoe in play, and nobody offered the shoe yet."""
    table = deal_at(Table.objects.get(profile="ma-big"), dealer, floor)
    actions.open_table(table, actor=dealer)
    for seat in (1, 2, 5):
        actions.seat_player(table, seat=seat, player=f"Player {seat}", actor=dealer)
    actions.receive_decks(table, decks=8, actor=dealer)
    actions.inspect_decks(table, actor=dealer)
    actions.verify_inspection(table, actor=floor)
    actions.spread_decks(table, actor=dealer)
    actions.wash_decks(table, actor=dealer)
    steps = shuffle_steps(table)
    actions.shuffle_decks(table, steps=steps, actor=dealer)
    if "feather" in steps:
        actions.verify_shuffle(table, actor=floor)
    actions.cut_cards(
        table, seat=None, declined=_cut_order(table), position=120, cover_from_back=20, actor=dealer
    )
    actions.burn_cards(table, first_card="3D", actor=dealer)
    return table


def a_round(page, wagers: list[tuple[int, str, str]], cards: list[str]) -> None:
    """Open the round, take each wager with a chip, deal the cards and settle, on the screen."""
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#next-title:text-is('Place your bets')")
    for seat, kind, chip in wagers:
        page.click(f".seat[data-seat='{seat}']", position={"x": 16, "y": 12})
        page.click(f"#w-types button[data-type='{kind}']")
        page.click(
            f"#chips button:text-is('{chip}')"
            if kind == "royal9"
            else f"#chips button:text-is('+{chip}')"
        )
        page.wait_for_selector(f".seat[data-seat='{seat}'] .wager.w-{kind}")
        if kind == "royal9":  # the chair's Personal King-9 combination, as printed on the layout
            personal = " ".join(face(card) for card in ROYAL9.personal_combinations[seat - 1])
            page.wait_for_selector(f".seat[data-seat='{seat}'] .personal:text-is('{personal}')")
    page.click("text=No more bets")
    page.wait_for_selector("#card-pad:not([hidden])")
    deal(page, cards)
    page.wait_for_selector("#settlement-title:text('To settle, in order')")
    page.click("button:text-is('Settle')")
    page.wait_for_selector("#settlement-title:text('settled')")


def test_the_tablet_offers_passes_and_takes_the_shoe_round_after_round(
    floor_staff, live_server, browser
):
    table = shoe_in_play_without_curator(floor_staff["dealer"], floor_staff["floor"])
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")

    # The shoe is offered from seat 1; seat 1 declines, seat 2 takes it.
    page.wait_for_selector("#next-title:text-is('Offer the shoe to seat 1 (Player 1)')")
    assert "Place your bets: open the round" not in page.inner_text("#actions")
    shot(page, "big-table-offer-the-shoe")
    assert screen_faults(page, None) == {}
    page.click("text=Seat 1 declines")
    page.wait_for_selector("#next-title:text-is('Offer the shoe to seat 2 (Player 2)')")
    assert page.inner_text("#next-detail") == "Declined: seat 1. In order: seat 1, seat 2, seat 5."
    page.click("text=Seat 2 takes the shoe")
    page.wait_for_selector("#next-title:text-is('Ready for the next round')")
    assert "Shoe held by" in page.inner_text("#t-shoe")
    assert "seat 2" in page.inner_text("#t-shoe")
    page.wait_for_selector(".seat[data-seat='2'] .role:text-is('Holds the shoe')")

    # Banker wins: the curator keeps the shoe.
    royal9 = (5, "royal9", "Royal 9 Progressive $5.00")  # a wager of one amount: one chip
    a_round(page, [(1, "banker", "100"), (5, "player", "100"), royal9], ["4H", "9C", "2S", "KS"])
    page.wait_for_selector("#next-title:text-is('Ready for the next round')")
    assert "seat 2" in page.inner_text("#t-shoe")

    # Player wins: the Banker's hand lost, so the shoe passes to the right, to seat 5.
    a_round(page, [(1, "banker", "100"), (5, "player", "25")], ["9H", "2C", "KS", "3D"])
    page.wait_for_selector("#next-title:text-is('Offer the shoe to seat 5 (Player 5)')")
    assert "The Banker's hand lost: seat 2 passes the shoe." in page.inner_text("#next-detail")
    shot(page, "big-table-shoe-passes-after-banker-loses")
    page.click("text=Seat 5 takes the shoe")
    page.wait_for_selector("#next-title:text-is('Ready for the next round')")

    # The dealer orders the shoe passed; the others decline, and the dealer deals the shoe.
    page.click("text=Pass the shoe (dealer's call)")
    page.wait_for_selector("#next-title:text-is('Offer the shoe to seat 1 (Player 1)')")
    assert "In order: seat 1, seat 2." in page.inner_text("#next-detail")
    for seat in (1, 2):
        page.click(f"text=Seat {seat} declines")
    page.wait_for_selector("#next-title:text-is('Nobody takes the shoe')")
    page.click("text=The dealer takes the shoe")
    page.wait_for_selector("#t-shoe dd:text-is('the dealer')")

    # A tie: nobody's hand lost, the dealer keeps dealing.
    a_round(page, [(2, "tie", "5")], ["8H", "8C", "KS", "KD"])
    page.wait_for_selector("#next-title:text-is('Ready for the next round')")
    shot(page, "big-table-dealer-deals")
    browser.stop()

    rounds = list(Round.objects.filter(table=table).order_by("number"))
    assert [(r.winner, r.curator_seat) for r in rounds] == [
        ("banker", 2),
        ("player", 2),
        ("tie", 0),
    ]
    table.refresh_from_db()
    assert table.curator_seat == 0
