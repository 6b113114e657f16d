"""A Royal 9 round played over the API as the tablet plays it: the answer to settle carries the
meters, and the progressive events come with it."""

from __future__ import annotations

from django.test import Client

from casino.models import Pit
from tablegame.actions.progressives import configure_must_hit
from tests.progressives.conftest import big_table, naturals


def test_settling_royal_9_wagers_over_the_api_answers_with_the_new_meters(db, dealer, floor):
    table = big_table(dealer, floor)
    configure_must_hit(Pit.objects.get(), name="Stax", configuration=1, tables=[table], actor=floor)
    client = Client()
    client.force_login(dealer)
    keys = iter(range(100))

    def send(route: str, body: dict | None = None) -> dict:
        answer = client.post(
            f"/api/tables/{table.pk}/{route}",
            body or {},
            content_type="application/json",
            headers={"Idempotency-Key": f"key-{next(keys)}"},
        )
        assert answer.status_code == 200, (route, answer.content)
        return answer.json()

    send("round/open/")
    for seat in (1, 2):
        send("round/wagers/", {"seat": seat, "type": "royal9", "amount": "5"})
    send("round/no-more-bets/")
    for card in naturals(table):
        send("round/cards/", {"card": card})
    settled = send("round/settle/")
    assert settled["meters"] == {"star": "50000.60", "spade": "450.50", "heart": "450.50"}
    kinds = [e["action"] for e in settled["events"]]
    assert kinds[:2] == ["progressive_contributed", "round_settled"]
    contributed = settled["events"][0]["text"]
    assert contributed.startswith("$10.00 of Royal 9 wagers: Star +$0.60 to $50000.60")
    assert "Stax +$0.50 to $250.50" in contributed
