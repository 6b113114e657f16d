"""A Royal 9 round played over the API as the tablet plays it: the answer to settle carries the
meters, and the progressive events come with it."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from casino.models import Pit
from tablegame.models import ProgressiveEntry, ProgressiveMeter, Table
from tablegame.progressives.actions import configure_must_hit
from tests.progressives.conftest import big_table, naturals


def sender(table: Table, dealer: User) -> Callable[..., dict[str, Any]]:
    """The dealer's tablet: POST one command to ``table`` with a new key; its answer."""
    client = Client()
    client.force_login(dealer)
    keys = iter(range(1000))

    def send(route: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = client.post(
            f"/api/tables/{table.pk}/{route}",
            body or {},
            content_type="application/json",
            headers={"Idempotency-Key": f"key-{next(keys)}"},
        )
        assert answer.status_code == 200, (route, answer.content)
        result: dict[str, Any] = answer.json()
        return result

    return send


def play(
    send: Callable[..., dict[str, Any]], seats: tuple[int, ...], cards: list[str]
) -> dict[str, Any]:
    """A round with a $5 Royal 9 wager at each of ``seats``; the settlement's answer."""
    send("round/open/")
    for seat in seats:
        send("round/wagers/", {"seat": seat, "type": "royal9", "amount": "5"})
    send("round/no-more-bets/")
    for card in cards:
        send("round/cards/", {"card": card})
    return send("round/settle/")


def test_settling_royal_9_wagers_over_the_api_answers_with_the_new_meters(db, dealer, floor):
    table = big_table(dealer, floor)
    configure_must_hit(Pit.objects.get(), name="Stax", configuration=1, tables=[table], actor=floor)
    settled = play(sender(table, dealer), (1, 2), naturals(table))
    assert settled["meters"] == {"star": "50000.60", "spade": "450.50", "heart": "450.50"}
    kinds = [e["action"] for e in settled["events"]]
    assert kinds[:2] == ["progressive_contributed", "round_settled"]
    contributed = settled["events"][0]["text"]
    assert contributed.startswith("$10.00 of Royal 9 wagers: Star +$0.60 to $50000.60")
    assert "Stax +$0.50 to $250.50" in contributed


def test_a_royal_9_win_over_the_api_reseeds_the_meter_in_the_commands_one_write(db, dealer, floor):
    """The contribution and the win of one settlement reach the meter as one UPDATE with the
    command's record (the database's guard sees a win: hits + 1, the amount at its reseed), the
    ledger has its three lines in order, and the answer shows the meters as the database holds
    them. (Its query count: ``tests/api/test_query_budgets.py``.)"""
    table = big_table(dealer, floor, seats=(1, 2))
    send = sender(table, dealer)
    play(send, (1, 2), naturals(table))  # the Spade: 450.50
    # Seat 1's Personal King-9 is K♣ 9♦: the Banker holds it, and the Spade pays in full.
    settled = play(send, (1,), ["2H", "KC", "3S", "9D"])

    spade = ProgressiveMeter.objects.get(table=table, name="spade")
    assert (spade.amount, spade.hits, spade.live) == (Decimal("450"), 1, True)
    assert settled["meters"] == {
        m.name: str(m.amount) for m in ProgressiveMeter.objects.filter(table=table)
    }
    assert settled["meters"]["spade"] == "450.00"
    lines = ProgressiveEntry.objects.filter(royal9=spade).order_by("pk")
    assert [(e.kind, e.before, e.after) for e in lines][-3:] == [
        ("contribution", Decimal("450.50"), Decimal("450.75")),
        ("hit", Decimal("450.75"), Decimal("450.75")),
        ("reset", Decimal("450.75"), Decimal("450")),
    ]
    kinds = [e["action"] for e in settled["events"]]
    assert "progressive_hit" in kinds and "progressive_reset" in kinds
