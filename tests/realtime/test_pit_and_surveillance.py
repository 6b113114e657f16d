"""Pit and surveillance sockets: the sequences of their tables, then every one of their notices."""

from __future__ import annotations

from asgiref.sync import async_to_sync, sync_to_async

from casino.models import Casino, Pit
from tablegame import actions
from tablegame.models import Table
from tests.realtime.conftest import last_sequence, opened, socket
from tests.tablegame.conftest import table_for


def other_pit_table() -> Table:
    """A table in a second pit of another casino."""
    pit = Pit.objects.create(casino=Casino.objects.create(name="Other Casino"), name="Pit 9")
    return Table.objects.create(pit=pit, name="MB-9", profile="ma-mini", seat_count=7)


def test_surveillance_is_told_the_sequence_of_every_table(floor_staff):
    actions.open_table(table_for("ma-mini"), actor=floor_staff["dealer"])
    elsewhere = other_pit_table()
    client = socket("/ws/surveillance/", user=floor_staff["surveillance"])

    async def scenario():
        hello = await opened(client)
        await client.disconnect()
        return hello

    hello = async_to_sync(scenario)()
    tables = Table.objects.order_by("pk")
    assert elsewhere in tables
    assert hello == {
        "type": "hello",
        "tables": [{"table": t.pk, "sequence": last_sequence(t)} for t in tables],
    }


def test_surveillance_hears_the_changes_of_every_table(floor_staff):
    floor = floor_staff["floor"]  # opens any table (a dealer, only their own)
    mini, big, elsewhere = table_for("ma-mini"), table_for("ma-big"), other_pit_table()
    client = socket("/ws/surveillance/", user=floor_staff["surveillance"])

    async def scenario():
        await opened(client)
        for table in (mini, big, elsewhere):
            await sync_to_async(actions.open_table)(table, actor=floor)
        notices = [await client.receive_json_from(timeout=3) for _ in range(3)]
        await client.disconnect()
        return notices

    notices = async_to_sync(scenario)()
    assert [n["change"]["events"][0]["action"] for n in notices] == ["table_opened"] * 3
    assert [{k: v for k, v in n.items() if k != "change"} for n in notices] == [
        {"type": "changed", "table": t.pk, "sequence": last_sequence(t), "action": "table_opened"}
        for t in (mini, big, elsewhere)
    ]


def test_a_superuser_may_use_the_surveillance_socket(floor_staff):
    client = socket("/ws/surveillance/", user=floor_staff["admin"])

    async def scenario():
        hello = await opened(client)
        await client.disconnect()
        return hello

    assert len(async_to_sync(scenario)()["tables"]) == Table.objects.count()


def test_a_pit_socket_hears_its_own_tables_and_no_others(floor_staff):
    floor = floor_staff["floor"]  # opens any table (a dealer, only their own)
    mini, elsewhere = table_for("ma-mini"), other_pit_table()
    pit = mini.pit
    before = {t.pk: last_sequence(t) for t in pit.tables.all()}  # the demo's assignments
    client = socket(f"/ws/pits/{pit.pk}/", user=floor_staff["floor"])

    async def scenario():
        hello = await opened(client)
        await sync_to_async(actions.open_table)(elsewhere, actor=floor)
        await sync_to_async(actions.open_table)(mini, actor=floor)
        notice = await client.receive_json_from(timeout=3)
        nothing_more = await client.receive_nothing(timeout=0.5)
        await client.disconnect()
        return hello, notice, nothing_more

    hello, notice, nothing_more = async_to_sync(scenario)()
    assert hello == {
        "type": "hello",
        "pit": pit.pk,
        "tables": [{"table": t.pk, "sequence": before[t.pk]} for t in pit.tables.order_by("pk")],
    }
    opened_at = before[mini.pk] + 1
    assert notice.pop("change")["events"][0]["sequence"] == opened_at
    assert notice == {
        "type": "changed",
        "table": mini.pk,
        "sequence": opened_at,
        "action": "table_opened",
    }
    assert nothing_more
