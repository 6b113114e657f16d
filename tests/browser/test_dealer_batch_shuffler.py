"""A batch shuffle machine at a big table (004 §4(e)), set in its Rules Submission: the tablet
offers the shuffler with the counts the rules allow, the two batches are spread and washed
apart, and the machine shuffles (no shuffle by hand); a big table without one is not offered it."""

from __future__ import annotations

import datetime

from django.utils import timezone

from tablegame import actions
from tablegame.models import Shoe, TableRules
from tests.browser.conftest import log_in, off_the_loop, shot
from tests.browser.dealer_screen import screen_faults
from tests.tablegame.conftest import deal_at, table_for


def seated(profile: str, dealer, floor, options=None):
    table = deal_at(table_for(profile), dealer, floor)
    if options:
        # A shuffler is a change of procedure: filed with surveillance's notice, at a closed
        # table too (issue 27); then its time is let pass.
        later = timezone.now() + datetime.timedelta(minutes=31)
        filed = actions.file_rules(
            table, profile=profile, options=options, effective_at=later, actor=floor
        )
        TableRules.objects.filter(pk=filed.pk).update(effective_at=timezone.now())
    actions.open_table(table, actor=dealer)
    for seat in (1, 2):
        actions.seat_player(table, seat=seat, player=f"Player {seat}", actor=dealer)
    actions.take_shoe(table, seat=1, actor=dealer)
    return table


def test_the_tablet_deals_a_shoe_from_a_big_tables_batch_shuffler(
    floor_staff, live_server, browser
):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = seated("ma-big", dealer, floor, {"shuffler_decks": [12, 16]})
    plain = seated("ma-big-ez", dealer, floor)
    chromium = browser.start()
    page = log_in(chromium, live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{plain.pk}/")
    page.wait_for_selector("#next-title:text-is('Bring decks to the table')")
    assert page.inner_text("#next-detail") == "6 to 8 decks in the shoe."
    assert page.locator("#asm").count() == 0  # no shuffler at this table

    off_the_loop(lambda: deal_at(table, dealer, floor))  # the floor moves the dealer back
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.wait_for_selector("#next-title:text-is('Bring decks to the table')")
    assert page.inner_text("#next-detail") == (
        "6 to 8 decks in the shoe, or 12 to 16 with the automatic shuffler "
        "(two equal batches of different backs, used by turns)."
    )
    shot(page, "tablet-batch-shuffler-bring-decks")
    page.fill("#decks", "16")
    page.check("#asm")
    page.click("text=New decks received")
    page.wait_for_selector("#next-title:text-is('Inspect the decks for defects')")
    page.click("text=Inspection done")
    console = log_in(chromium, live_server, "floor")
    console.goto(f"{live_server.url}/floor/")
    console.locator(
        f"[data-table='{table.pk}'] button:has-text('Verify the deck inspection')"
    ).click()
    console.locator(f"[data-table='{table.pk}'] dd:has-text('Inspection verified')").wait_for()
    page.reload()
    page.wait_for_selector("#next-title:text-is('Spread each batch apart for the first player')")
    page.click("text=Both batches spread")
    page.wait_for_selector(
        "#next-title:text-is('Turn each batch face down, wash and stack it apart')"
    )
    page.click("text=Batches washed and stacked")
    page.wait_for_selector("#next-title:text-is('Shuffle in the automatic shuffler')")
    assert "batch 1 (8 decks)" in page.inner_text("#next-detail")
    assert page.locator("#actions button:has-text('Shuffled: plug')").count() == 0
    assert screen_faults(page, None) == {}
    shot(page, "tablet-batch-shuffler-shuffle")
    page.click("text=Shuffled by the machine")
    page.wait_for_selector("#next-title:text-is('Offer the cut')")
    browser.stop()
    shoe = Shoe.objects.get(table=table)
    assert (shoe.decks, shoe.batch, shoe.automatic_shuffler, shoe.shuffle) == (
        8,
        0,
        True,
        ["machine"],
    )
