"""From the tablet alone: a player gives up turning the cards (000 §8(d)), and a round the shoe
could still complete is voided with a floorperson's approval given at the tablet, as a card
correction is; without it the void is refused in words and nothing changes."""

from __future__ import annotations

from decimal import Decimal

from tablegame import actions
from tablegame.models import Round
from tests.browser.conftest import log_in, off_the_loop, shot
from tests.browser.dealer_screen import deal, tap_card
from tests.tablegame.conftest import ready_table


def dealing_with_two_cards(floor_staff):
    """MB-1: Player wagers at seats 1 ($100) and 2 ($50), a Banker wager at seat 5; two cards."""
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="player", amount="100", actor=dealer)
    actions.place_wager(table, seat=2, wager="player", amount="50", actor=dealer)
    actions.place_wager(table, seat=5, wager="banker", amount="25", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ("2S", "KD"):
        actions.deal_card(table, card=card, actor=dealer)
    return table


def tablet(browser, live_server, table):
    """The dealer's tablet of ``table`` at 1024x768."""
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    return page


def the_round(table) -> Round:
    found: list[Round] = []
    off_the_loop(lambda: found.append(Round.objects.get(table=table, number=1)))
    return found[0]


def test_a_player_gives_up_turning_the_cards(floor_staff, live_server, browser):
    table = dealing_with_two_cards(floor_staff)
    page = tablet(browser, live_server, table)
    page.wait_for_selector("#p-turner:text('Cards to seat 1')")
    page.click("#p-turner button:text-is('Seat 1 gives them up')")
    page.wait_for_selector("#p-turner:not(:has-text('Cards to seat 1'))")
    game = the_round(table)
    assert game.player_turner != 1
    assert game.turn_declined == {"player": [1]}
    shown = page.inner_text("#p-turner")
    assert (f"Cards to seat {game.player_turner}" in shown) if game.player_turner else shown == ""
    assert page.locator("#error").is_hidden()


def test_a_round_is_voided_with_a_floorpersons_approval_at_the_tablet(
    floor_staff, live_server, browser
):
    table = dealing_with_two_cards(floor_staff)
    page = tablet(browser, live_server, table)
    page.click("#actions button:text-is('Void the round…')")
    page.wait_for_selector("#voiding:not([hidden])")
    assert page.locator("#card-pad").is_hidden()  # the panel takes the pad's place

    # Without the floorperson: refused in words, the round as it was.
    page.fill("#v-why", "Shoe dropped")
    page.click("#v-send")
    page.wait_for_selector("#error:not([hidden])")
    assert "a floorperson may void it" in page.inner_text("#error")
    assert the_round(table).state == Round.State.DEALING

    # A wrong password: refused, nothing changed.
    page.fill("#v-who", "floor")
    page.fill("#v-pass", "wrong")
    page.click("#v-send")
    page.wait_for_selector("#error:text('username or password is wrong')")
    assert the_round(table).state == Round.State.DEALING

    # The floorperson's name and password: the round is void, every wager returned.
    page.fill("#v-who", "floor")
    page.fill("#v-pass", "baccarat")
    page.click("#v-send")
    page.wait_for_selector("#settlement-title:text('Round 1 void: every wager returned')")
    shot(page, "tablet-void-approved")
    game = the_round(table)
    assert (game.state, game.void_reason) == (Round.State.VOID, "Shoe dropped")
    returned: list[tuple[str, int, str, Decimal]] = []
    off_the_loop(
        lambda: returned.extend(
            game.steps.order_by("index").values_list("action", "seat", "wager_type", "amount")
        )
    )
    assert sorted(returned) == [
        ("return", 1, "player", Decimal("100.00")),
        ("return", 2, "player", Decimal("50.00")),
        ("return", 5, "banker", Decimal("25.00")),
    ]
    assert page.locator("#voiding").is_hidden()
    assert page.locator("#steps li").count() == 3


def test_a_card_found_face_up_is_dealt_as_a_simulated_round_then_the_round_goes_on(
    floor_staff, live_server, browser
):
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    page = tablet(browser, live_server, table)
    page.click("#card-pad summary")
    tap_card(page, "7C")
    page.click("text=Card found face up")
    page.wait_for_selector('#next-title:text-is("Simulated round: Banker\'s first card")')
    assert "No wagers" in page.inner_text("#next-detail")
    shot(page, "tablet-simulated-round")
    deal(page, ["2C", "KS", "3D", "4D"])  # P 7C KS = 7 stands; B 2C 3D = 5 draws
    page.wait_for_selector("#next-title:text('Simulated round: Banker wins')")
    page.click("#actions button:text-is('Cards in the discard rack')")
    page.wait_for_selector('#next-title:text-is("Player\'s first card")')
    assert page.inner_text("#irregularities").endswith("Done: this round goes on.")
    deal(page, ["9H", "2C", "KS", "3D"])
    page.wait_for_selector("#settlement-title:text('To settle, in order')")
    found: list[list[tuple[int, bool, str]]] = []
    off_the_loop(
        lambda: found.append(
            list(
                Round.objects.filter(table=table)
                .order_by("pk")
                .values_list("number", "simulated", "state")
            )
        )
    )
    assert found == [[(1, False, "complete"), (2, True, "settled")]]
