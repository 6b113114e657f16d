"""Surveillance watches the floor and reviews a round in real Chromium."""

from __future__ import annotations

import json
import uuid

from django.db import connection

from casino.models import Event
from tablegame import actions
from tablegame.models import Round, Table
from tests.browser.conftest import log_in, shot
from tests.record.chains import triggers_bypassed
from tests.tablegame.conftest import play, ready_table

BANKER_NATURAL = ["4H", "9C", "2S", "KS"]


def words(locator) -> str:
    """The element's visible text on one line."""
    return " ".join(locator.inner_text().split())


def floor_in_play(staff) -> dict[str, object]:
    """Three tables at work, each by the demo's dealer there: one taking wagers, one dealing with
    an irregularity, one settled."""
    dealer, dealer3, dealer4, floor = (staff[n] for n in ("dealer", "dealer3", "dealer4", "floor"))
    betting = ready_table("ma-mini", dealer, floor)
    play(betting, dealer, [(1, "banker", "100"), (5, "player", "40")], BANKER_NATURAL)
    actions.open_round(betting, actor=dealer)
    actions.place_wager(betting, seat=2, wager="player", amount="75", actor=dealer)

    dealing = ready_table("s42-mini", dealer3, floor)
    play(dealing, dealer3, [(1, "player", "200")], ["9H", "2C", "TD", "5S"])
    actions.open_round(dealing, actor=dealer3)
    actions.place_wager(dealing, seat=2, wager="banker", amount="300", actor=dealer3)
    actions.no_more_bets(dealing, actor=dealer3)
    actions.deal_card(dealing, card="6D", actor=dealer3)
    actions.deal_card(dealing, card="7C", actor=dealer3)
    actions.report_irregularity(dealing, kind="card_face_up", card="3H", actor=dealer3)

    settled = ready_table("s42-mini-4", dealer4, floor)
    actions.open_round(settled, actor=dealer4)
    actions.place_wager(settled, seat=1, wager="banker", amount="500", actor=dealer4)
    actions.place_wager(settled, seat=2, wager="player", amount="100", actor=dealer4)
    actions.place_wager(settled, seat=5, wager="tie", amount="20", actor=dealer4)
    actions.no_more_bets(settled, actor=dealer4)
    actions.deal_card(settled, card="2H", actor=dealer4)
    actions.deal_card(settled, card="3D", actor=dealer4)
    actions.report_irregularity(settled, kind="card_face_up", card="AS", actor=dealer4)
    for card in ["2C", "TS", "5S", "QH"]:
        actions.deal_card(settled, card=card, actor=dealer4)
    reviewed = actions.settle_round(settled, actor=dealer4)
    return {"betting": betting, "dealing": dealing, "reviewed": reviewed}


def test_surveillance_watches_the_wall_live_and_reviews_a_round(floor_staff, live_server, browser):
    tables = floor_in_play(floor_staff)
    betting: Table = tables["betting"]  # type: ignore[assignment]
    dealing: Table = tables["dealing"]  # type: ignore[assignment]
    reviewed: Round = tables["reviewed"]  # type: ignore[assignment]
    table_count = Table.objects.count()

    chromium = browser.start()
    page = log_in(chromium, live_server, "surveillance")
    page.set_viewport_size({"width": 1600, "height": 1000})
    page.goto(f"{live_server.url}/surveillance/")
    page.wait_for_selector(".stile")
    assert page.locator(".stile").count() == table_count
    mb = page.locator(f"#table-{betting.pk}")
    assert "Round 2 · Taking wagers" in words(mb)
    assert "Last: Round 1: Banker wins, 9 over 6" in words(mb)
    alert = page.locator(f"#table-{dealing.pk}")
    assert "alert" in (alert.get_attribute("class") or "")
    assert "Irregularity: card found face up 3♥" in words(alert)
    assert "Player 6 6♦ Banker 7 7♣" in words(alert)
    page.wait_for_selector("#live-status.polling, #live-status.live")
    shot(page, "surveillance-wall")

    # A dealer takes a wager on the tablet's API; the wall's tile follows without a reload.
    dealer = log_in(chromium, live_server, "dealer")
    token = next(c["value"] for c in dealer.context.cookies() if c["name"] == "csrftoken")
    answer = dealer.request.post(
        f"{live_server.url}/api/tables/{betting.pk}/round/wagers/",
        data=json.dumps({"seat": 1, "type": "banker", "amount": "500"}),
        headers={
            "Content-Type": "application/json",
            "X-CSRFToken": token,
            "Idempotency-Key": str(uuid.uuid4()),
            "Referer": f"{live_server.url}/",
        },
    )
    assert answer.status == 200, answer.text()
    page.wait_for_function(
        "id => document.querySelector(`#table-${id}`).innerText.includes('$575.00 · 2 wagers')",
        arg=betting.pk,
        timeout=15000,
    )
    assert page.locator(".stile").count() == table_count

    page.click(f"#table-{dealing.pk} >> text=Round history")
    page.wait_for_selector("#rounds")
    assert page.locator("#rounds tbody tr").count() == 2
    assert page.locator("#rounds tr.flagged").count() == 1  # round 2, with its irregularity
    shot(page, "surveillance-rounds")

    page.goto(f"{live_server.url}/rounds/{reviewed.pk}/")
    page.wait_for_selector("#events")
    assert "Chain intact" in page.inner_text("#chain")
    actions_seen = page.eval_on_selector_all(
        "#events tr.ev", "rows => rows.map(r => r.dataset.action)"
    )
    assert actions_seen.count("card_dealt") == 6
    assert "irregularity" in actions_seen
    assert page.locator("#steps li").count() >= 3
    shot(page, "round-review")
    browser.stop()  # Playwright's loop leaves the thread; the ORM may run again

    # Someone with the database's keys changes a card in the record: the review shows the break.
    dealt = Event.objects.filter(chain__table=reviewed.table, action="card_dealt").order_by(
        "sequence"
    )
    changed = dealt[4]
    with triggers_bypassed(), connection.cursor() as cursor:
        cursor.execute(
            """UPDATE casino_event SET data = jsonb_set(data, '{card}', '"KS"')
               WHERE id = %s""",
            [changed.pk],
        )
    page = log_in(browser.start(), live_server, "surveillance")
    page.set_viewport_size({"width": 1600, "height": 1000})
    page.goto(f"{live_server.url}/rounds/{reviewed.pk}/")
    assert f"Chain broken at event {changed.sequence}" in page.inner_text("#chain")
    assert "K♠" in page.inner_text(f"tr[data-sequence='{changed.sequence}']")
    assert page.locator("#differences").is_visible()
    shot(page, "round-review-broken")
    browser.stop()
