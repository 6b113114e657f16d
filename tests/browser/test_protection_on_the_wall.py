"""A shoe runs out of eights and nines: game protection's follower prices the rounds, and the
surveillance wall, open in the browser, marks the table live (no reload) with the wager and the
round it turned; the alert leads to the table's protection page, whose edges are drawn round by
round, and the floor and ratings pages show the table and its players."""

from __future__ import annotations

from decimal import Decimal

from protection.follower import follow
from tablegame.models import ProgressiveMeter
from tests.browser.conftest import log_in, off_the_loop, shot
from tests.protection.conftest import eights_and_nines, play, ready_table


def test_a_wager_turned_the_players_is_marked_on_the_wall_live(floor_staff, daphne, browser):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-mini-ez", dealer, floor)
    follow([table.pk])

    chromium = browser.start()
    wall = log_in(chromium, daphne, "surveillance", width=1024, height=768)
    wall.goto(f"{daphne.url}/surveillance/")
    tile = wall.locator(f"#table-{table.pk}")
    tile.wait_for()
    wall.wait_for_selector("#live-status:text-is('Live')", timeout=15000)
    assert tile.locator(".marks").count() == 0

    def strip_and_follow() -> None:
        for turn in range(16):
            play(table, dealer, [(1, "banker", "25"), (1, "dragon7", "10")], eights_and_nines(turn))
        follow([table.pk])

    off_the_loop(strip_and_follow)
    alert = tile.locator(".marks a")
    alert.wait_for(timeout=5000)  # the mark's notice: the tile is read again, no reload
    assert "Shoe 1: favours the players: Dragon 7 since round" in alert.inner_text()
    shot(wall, "protection-alert-on-the-wall")

    alert.click()
    wall.wait_for_url(f"**/protection/tables/{table.pk}/?back=/surveillance/")
    assert wall.locator(".edge-rows tr.theirs th").first.inner_text() == "Dragon 7"
    assert wall.locator("svg.edge-line").count() >= 5
    assert "Cleared" not in wall.inner_text("#alerts") and "Now" in wall.inner_text("#alerts")
    shot(wall, "protection-table-page")
    wall.click("text=Back")
    wall.wait_for_url("**/surveillance/")

    wall.goto(f"{daphne.url}/protection/")
    row = wall.locator("#protection-floor tr.theirs")
    assert table.name in row.first.inner_text()
    shot(wall, "protection-floor")

    wall.goto(f"{daphne.url}/protection/ratings/")
    assert "Player 1" in wall.inner_text("#ratings")
    shot(wall, "protection-ratings")


def test_a_royal_9_chair_turned_the_players_is_marked_and_charted(floor_staff, daphne, browser):
    """A big table whose Star meter has grown past what its chance costs: every chair's Royal 9
    is the players'; the wall names the chairs, and the table's page charts Royal 9 by chair."""
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-big", dealer, floor)
    ProgressiveMeter.objects.update_or_create(
        table=table, name="star", defaults={"amount": Decimal("9000000.00")}
    )
    play(table, dealer, [(1, "banker", "25"), (1, "royal9", "5")], ["2C", "3D", "4H", "5S"])
    follow([table.pk])

    chromium = browser.start()
    wall = log_in(chromium, daphne, "surveillance", width=1024, height=768)
    wall.goto(f"{daphne.url}/surveillance/")
    alert = wall.locator(f"#table-{table.pk} .marks a")
    alert.wait_for(timeout=15000)
    assert "favours the players: Royal 9 Progressive at chairs 1, 2, 3" in alert.inner_text()
    alert.click()
    wall.wait_for_url(f"**/protection/tables/{table.pk}/?back=/surveillance/")
    heads = wall.locator(".edge-rows tr.theirs th").all_inner_texts()
    assert heads and all(h.startswith("Royal 9 Progressive, chair ") for h in heads)
    assert "Banker" in wall.inner_text(".edge-rows")
    assert "meters as last shown: Star $9,000,000." in wall.inner_text("#royal9-priced")
    shot(wall, "protection-royal9-table-page")
