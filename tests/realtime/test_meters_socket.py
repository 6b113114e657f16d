"""The progressives page's socket hears the tables with progressive meters only; a watcher that
joins a page's socket after its hello asks for one; a must-hit meter's move reaches every linked
table's socket."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync, sync_to_async

from casino.models import Pit
from tablegame import actions
from tablegame.progressives.actions import configure_must_hit
from tests.realtime.conftest import opened, socket
from tests.tablegame.conftest import ready_table


def test_the_meters_socket_hears_the_tables_with_meters_and_no_other(floor_staff):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    mini = ready_table("ma-mini", dealer, floor)
    big = ready_table("ma-big", floor_staff["dealer9"], floor)  # Royal 9: its meters
    pit = Pit.objects.get()
    client = socket(f"/ws/pits/{pit.pk}/meters/", user=floor)

    async def scenario() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        hello = await opened(client)
        await sync_to_async(actions.open_round)(mini, actor=dealer)
        await sync_to_async(actions.open_round)(big, actor=floor_staff["dealer9"])
        heard = [await client.receive_json_from(timeout=5)]
        nothing = await client.receive_nothing(timeout=0.3)
        await client.disconnect()
        assert nothing
        return hello, heard

    hello, heard = async_to_sync(scenario)()
    assert [row["table"] for row in hello["tables"]] == [big.pk]
    assert [(f["type"], f["table"], f["action"]) for f in heard] == [
        ("changed", big.pk, "round_opened")
    ]


def test_a_screen_may_ask_for_the_hello_again(floor_staff):
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    client = socket(f"/ws/tables/{table.pk}/", user=dealer)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], bool]:
        first = await opened(client)
        await client.send_json_to({"type": "hello"})
        again = await client.receive_json_from(timeout=5)
        await client.send_json_to({"type": "hello"})  # within a second: not answered
        quiet = await client.receive_nothing(timeout=0.3)
        await client.disconnect()
        return first, again, quiet

    first, again, quiet = async_to_sync(scenario)()
    assert again == first and quiet


def test_a_must_hit_meter_moved_at_one_table_is_told_to_the_other_linked_tables(floor_staff):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    first = ready_table("ma-big", dealer, floor, seats=(1, 2))
    second = ready_table("ma-big-ez", floor_staff["dealer10"], floor, seats=(1, 2))
    configure_must_hit(
        Pit.objects.get(), name="Stax", configuration=1, tables=[first, second], actor=floor
    )
    client = socket(f"/ws/tables/{second.pk}/", user=floor)

    def royal9_round() -> None:
        actions.open_round(first, actor=dealer)
        actions.place_wager(first, seat=1, wager="royal9", amount="5", actor=dealer)
        actions.no_more_bets(first, actor=dealer)
        for card in ("4H", "9C", "2S", "KS"):
            actions.deal_card(first, card=card, actor=dealer)
        actions.settle_round(first, actor=dealer)

    async def scenario() -> dict[str, Any]:
        await opened(client)
        await sync_to_async(royal9_round)()
        told = await client.receive_json_from(timeout=5)
        await client.disconnect()
        result: dict[str, Any] = told
        return result

    told = async_to_sync(scenario)()
    assert told == {"type": "meter", "meter": "Stax", "amount": "250.25", "read": False}
