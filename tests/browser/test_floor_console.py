"""The floorperson verifies a deck inspection from the pit console, in real Chromium."""

from __future__ import annotations

from tablegame import actions
from tablegame.models import Shoe
from tests.browser.conftest import log_in, shot
from tests.tablegame.conftest import table_for
from tests.values import present


def test_a_floorperson_verifies_an_inspection_from_the_console(floor_staff, live_server, browser):
    dealer = floor_staff["dealer"]
    table = table_for("ma-mini")
    actions.open_table(table, actor=dealer)
    actions.receive_decks(table, decks=8, actor=dealer)
    actions.inspect_decks(table, actor=dealer)
    page = log_in(browser.start(), live_server, "floor")
    page.goto(f"{live_server.url}/floor/")
    tile = page.locator(f"[data-table='{table.pk}']")
    tile.locator("text=Verify the deck inspection").click()
    tile = page.locator(f"[data-table='{table.pk}']")
    tile.locator("text=Verified by the floor").or_(
        tile.locator("dd:text('Inspection verified')")
    ).wait_for()
    shot(page, "floor-console")
    browser.stop()
    shoe = Shoe.objects.get(table=table)
    assert shoe.state == Shoe.State.VERIFIED
    assert present(shoe.verified_by).username == "floor"
