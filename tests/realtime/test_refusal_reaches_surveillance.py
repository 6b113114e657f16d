"""A dealer's refusal that is kept (a card not in the shoe, a wager after no more bets, a card code
mistyped, refused by the command's input) reaches the surveillance room's socket and the pit's as
it happens, with the words the dealer was told; the table's own socket, whose tablet was told
already, hears nothing of it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.core.cache import cache
from rest_framework.test import APIClient

from tablegame.models import Table, TableRefusal
from tests.realtime.conftest import opened, socket
from tests.tablegame.conftest import ready_table


@pytest.fixture(autouse=True)
def counts_cleared() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def dealing(floor_staff: dict[str, Any]) -> tuple[Table, APIClient]:
    """MB-1 with a round past "no more bets" and no A♠ left, and the dealer's tablet."""
    table = ready_table("ma-mini", floor_staff["dealer"], floor_staff["floor"])
    shoe = table.current_shoe()
    assert shoe is not None
    shoe.remaining["AS"] = 0  # every ace of spades seen
    shoe.save(update_fields=["remaining"])
    tablet = APIClient()
    tablet.force_login(floor_staff["dealer"])
    for route, body in (
        ("round/open/", {}),
        ("round/wagers/", {"seat": 1, "type": "banker", "amount": "100"}),
        ("round/no-more-bets/", {}),
    ):
        answer = tablet.post(
            f"/api/tables/{table.pk}/{route}",
            body,
            format="json",
            headers={"Idempotency-Key": route},
        )
        assert answer.status_code == 200, answer.content
    return table, tablet


def heard(
    floor_staff: dict[str, Any], route: str, body: dict[str, Any], status: int = 409
) -> list[Any]:
    """What surveillance, the pit and the table's socket hear of one refused command."""
    table, tablet = dealing(floor_staff)
    watcher = floor_staff["pitboss"]
    room = socket("/ws/surveillance/", user=floor_staff["surveillance"])
    pit = socket(f"/ws/pits/{table.pit_id}/", user=watcher)
    own = socket(f"/ws/tables/{table.pk}/", user=watcher)

    def post() -> Any:
        url = f"/api/tables/{table.pk}/{route}"
        return tablet.post(url, body, format="json", headers={"Idempotency-Key": "refused"})

    async def scenario() -> list[Any]:
        for client in (room, pit, own):
            await opened(client)
        answer = await sync_to_async(post)()
        assert answer.status_code == status
        told = [await room.receive_json_from(timeout=3), await pit.receive_json_from(timeout=3)]
        assert await own.receive_nothing(timeout=0.3)
        for client in (room, pit, own):
            await client.disconnect()
        return [answer.json()["error"], *told]

    return async_to_sync(scenario)()


def test_an_impossible_card_reaches_the_surveillance_and_pit_sockets_as_it_is_refused(
    floor_staff,
):
    words, room, pit = heard(floor_staff, "round/cards/", {"card": "AS"})
    assert words.startswith("There is no A♠ left in this shoe")
    kept = TableRefusal.objects.get()
    assert (
        room
        == pit
        == {
            "type": "refused",
            "table": kept.table_id,
            "table_name": "MB-1",
            "id": kept.pk,
            "at": kept.at.isoformat(),
            "kind": "card_not_in_shoe",
            "label": "Card not in the shoe",
            "words": words,
            "who": "dealer",
            "round": 1,
            "shoe": kept.shoe_number,
            "round_id": kept.round_id,
            "given": {"card": "AS"},
        }
    )


def test_a_wager_after_no_more_bets_reaches_the_surveillance_socket_as_it_is_refused(
    floor_staff,
):
    body = {"seat": 2, "type": "player", "amount": "100"}
    words, room, _ = heard(floor_staff, "round/wagers/", body)
    assert (room["kind"], room["words"], room["given"]) == (
        "late_wager",
        "No more bets: a wager may not be made, raised or withdrawn now.",
        {"seat": 2, "wager": "player", "amount": "100.00"},
    )
    assert words == room["words"]


def test_a_mistyped_card_reaches_the_surveillance_and_pit_sockets_as_it_is_refused(floor_staff):
    words, room, pit = heard(floor_staff, "round/cards/", {"card": "S5"}, status=400)
    assert room == pit
    assert (room["kind"], room["label"], room["given"]) == (
        "mistyped_card",
        "Card code mistyped",
        {"card": "S5"},
    )
    assert room["words"] == words and "'S5' is not a card" in words
    assert room["round"] == 1
