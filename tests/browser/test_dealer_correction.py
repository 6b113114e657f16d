"""A mis-keyed card corrected on the tablet: the dealer taps the card, picks the card that was
dealt, and a floorperson approves there with their password; the record keeps both entries."""

from __future__ import annotations

from casino.models import Event
from tablegame.models import Round
from tests.browser.conftest import log_in, shot
from tests.browser.dealer_screen import SIZES, axe_script, deal, screen_faults, tap_card
from tests.tablegame.conftest import ready_table
from tests.values import present


def test_a_floorperson_approves_the_correction_of_a_mis_keyed_card_on_the_tablet(
    floor_staff, live_server, browser
):
    table = ready_table("ma-mini", floor_staff["dealer"], floor_staff["floor"])
    axe = axe_script()
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#next-title:text-is('Place your bets')")
    page.click(".seat[data-seat='1']", position={"x": 16, "y": 12})
    page.click("#w-types button[data-type='banker']")
    page.click("#chips button:text-is('+100')")
    page.wait_for_selector(".seat[data-seat='1'] .wager:text-is('Banker $100.00')")
    page.click("text=No more bets")
    deal(page, ["4H", "8C", "2S", "KS"])  # the dealer keyed 8C; the card dealt was 9C
    page.wait_for_selector("#next-title:text-is('Banker wins, 8 over 6')")

    page.click("#b-cards button[data-position='2']")
    page.wait_for_selector("#correction:not([hidden])")
    page.click("#c-deck button[data-card='9C']")
    assert page.inner_text("#c-title") == "Correct card 2, 8♣ to the Banker: 9♣"
    page.fill("#c-who", "floor")
    page.fill("#c-pass", "not the password")
    page.fill("#c-why", "Keyed 8 for 9")
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"dealer-correct-a-card-{name}")
        assert screen_faults(page, axe) == {}
    page.set_viewport_size({"width": 1024, "height": 768})
    page.click("#c-send")
    page.wait_for_selector("#error:not([hidden])")
    assert "Not approved: the username or password is wrong" in page.inner_text("#error")
    assert page.inner_text("#b-cards") == "8♣\nK♠"  # nothing changed
    page.fill("#c-pass", "baccarat")
    page.click("#c-send")
    page.wait_for_selector("#next-title:text-is('Banker wins, 9 over 6')")
    assert page.locator("#correction").is_hidden()
    page.wait_for_selector("#settlement-title:text('To settle, in order')")
    shot(page, "dealer-card-corrected")
    page.click("button:text-is('Settle')")
    page.wait_for_selector("#settlement-title:text('settled')")
    browser.stop()

    game = Round.objects.get(table=table)
    assert [c.code for c in game.cards.order_by("position")] == ["4H", "9C", "2S", "KS"]
    assert game.winner == "banker" and game.banker_total == 9
    record = Event.objects.filter(chain=table.chain_id).order_by("sequence")
    dealt = [e.data["card"] for e in record if e.action == "card_dealt"]
    assert dealt == ["4H", "8C", "2S", "KS"]  # the wrong entry stays in the record
    (corrected,) = [e for e in record if e.action == "card_corrected"]
    assert corrected.data["entered"] == "8C" and corrected.data["card"] == "9C"
    assert corrected.data["approved_by"] == "floor"
    assert present(corrected.actor).username == "dealer"


def test_an_irregularity_is_reported_from_the_tablet_with_its_remedy_shown(
    floor_staff, live_server, browser
):
    table = ready_table("ma-mini", floor_staff["dealer"], floor_staff["floor"])
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#next-title:text-is('Place your bets')")
    page.click(".seat[data-seat='1']", position={"x": 16, "y": 12})
    page.click("#w-types button[data-type='banker']")
    page.click("#chips button:text-is('+100')")
    page.wait_for_selector(".seat[data-seat='1'] .wager:text-is('Banker $100.00')")
    page.click("text=No more bets")
    deal(page, ["3H", "2S", "4C", "3D"])  # Player stands on 7; the Banker draws on 5
    page.wait_for_selector("#next-title:text-is('Banker draws')")

    # The 8D went to the Player: the card is chosen with the irregularity open, never dealt.
    page.click("#card-pad summary")
    tap_card(page, "8D")
    assert page.inner_text("#pad-choice") == "8♦: now the irregularity"
    page.click("text=Unauthorized Player third card, not seen")
    page.wait_for_selector("#irregularities li")
    assert page.inner_text("#irregularities") == (
        "Unauthorized Player third card, 8♦: The 8♦ becomes the Banker's third card."
    )
    page.wait_for_selector("#next-title:text-is('Player wins, 7 over 3')")
    assert page.inner_text("#b-cards") == "2♠\n3♦\n8♦"
    shot(page, "dealer-irregularity-remedy")
    assert screen_faults(page, None) == {}

    # Once the coup is complete, a card drawn in error is reported the same way.
    page.click("text=Irregularity with a card")
    page.wait_for_selector("#card-pad:not([hidden])")
    tap_card(page, "5H")
    page.click("text=Card drawn in error, not seen")
    page.wait_for_selector("#irregularities li:nth-child(2)")
    assert page.locator("#card-pad").is_hidden()
    page.wait_for_selector("#settlement-title:text('To settle, in order')")
    page.click("button:text-is('Settle')")
    page.wait_for_selector("#settlement-title:text('settled')")
    browser.stop()

    game = Round.objects.get(table=table)
    assert [i.kind for i in game.irregularities.order_by("pk")] == [
        "unauthorized_player_third",
        "card_drawn_in_error",
    ]
