"""A table's socket: hello with the last sequence, then one notice per committed change."""

from __future__ import annotations

from asgiref.sync import async_to_sync, sync_to_async

from casino.models import Event
from tablegame import actions
from tablegame.models import Table
from tests.realtime.conftest import HeldOpen, last_sequence, opened, socket
from tests.tablegame.conftest import ready_table, table_for


def test_a_dealer_joining_a_table_is_told_its_last_sequence(floor_staff):
    table = ready_table("ma-mini", floor_staff["dealer"], floor_staff["floor"])
    client = socket(f"/ws/tables/{table.pk}/", user=floor_staff["dealer"])

    async def scenario():
        hello = await opened(client)
        await client.disconnect()
        return hello

    assert last_sequence(table) > 1
    assert async_to_sync(scenario)() == {
        "type": "hello",
        "table": table.pk,
        "sequence": last_sequence(table),
    }


def test_a_table_with_no_events_yet_says_sequence_zero(floor_staff):
    demo = table_for("ma-big")  # a table of the demo has its dealer's assignment recorded
    table = Table.objects.create(pit=demo.pit, name="BB-9", profile="ma-big", seat_count=14)
    client = socket(f"/ws/tables/{table.pk}/", user=floor_staff["floor"])

    async def scenario():
        hello = await opened(client)
        await client.disconnect()
        return hello

    assert async_to_sync(scenario)()["sequence"] == 0


def test_a_committed_action_reaches_the_socket_with_the_next_sequence(floor_staff):
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    before = last_sequence(table)
    client = socket(f"/ws/tables/{table.pk}/", user=dealer)

    async def scenario():
        await opened(client)
        await sync_to_async(actions.open_round)(table, actor=dealer)
        notice = await client.receive_json_from(timeout=3)
        await client.disconnect()
        return notice

    notice = async_to_sync(scenario)()
    event = Event.objects.get(chain__table=table, sequence=before + 1)
    assert event.action == "round_opened"
    change = notice.pop("change")
    assert notice == {
        "type": "changed",
        "table": table.pk,
        "sequence": before + 1,
        "action": "round_opened",
    }
    # The notice carries the change itself: the event, in the words the review uses.
    assert [(e["sequence"], e["action"], e["text"]) for e in change["events"]] == [
        (before + 1, "round_opened", "Round 1 of shoe 1: place your bets")
    ]


def test_nothing_is_sent_before_the_change_commits(floor_staff):
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    actions.open_round(table, actor=dealer)
    before = last_sequence(table)
    client = socket(f"/ws/tables/{table.pk}/", user=dealer)

    wager = HeldOpen(
        lambda: actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    )

    async def scenario():
        await opened(client)
        await wager.change()
        nothing_yet = await client.receive_nothing(timeout=0.5)
        await wager.commit()
        notice = await client.receive_json_from(timeout=3)
        await client.disconnect()
        return nothing_yet, notice

    nothing_yet, notice = async_to_sync(scenario)()
    assert nothing_yet
    assert (notice["type"], notice["sequence"], notice["action"]) == (
        "changed",
        before + 1,
        "wager_placed",
    )


def test_what_a_screen_sends_is_ignored(floor_staff):
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    before = last_sequence(table)
    client = socket(f"/ws/tables/{table.pk}/", user=dealer)

    async def scenario():
        await opened(client)
        await client.send_json_to({"type": "open_round"})
        nothing = await client.receive_nothing(timeout=0.3)
        await client.disconnect()
        return nothing

    assert async_to_sync(scenario)()
    assert last_sequence(table) == before
