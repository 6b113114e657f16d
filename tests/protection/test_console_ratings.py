"""The pit console's ratings panel (``protection.console``, through ``tablegame.panels``): each
player seated now at the pit's tables, rated wager by wager at the exact edge of its shoe, the
figures checked by hand; read only by those the ratings page is for (the pit clerk's console has
no such panel); in a fixed number of queries however many players sit; told to the pit's
screens after the follower's commit, and forwarded by the pit's socket."""

from __future__ import annotations

import json
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pytest_django import Settings

from casino import access
from protection import console
from protection.follower import follow
from protection.models import PlayerSession
from protection.ratings import dollars
from protection.worker import PANEL_EVERY
from tablegame import actions, panels
from tablegame.broadcast import Notice, announce_panel, notices, pit_group
from tests.clients import signed_in
from tests.protection.conftest import play, ready_table
from tests.protection.test_ratings import ROUNDS, _by_hand, play_a_counter
from tests.realtime.conftest import opened, socket


def cells(html: str) -> dict[int, list[str]]:
    """The panel's rows by seat, each its cells' text."""
    rows = re.findall(r'<tr data-session="\d+" data-seat="(\d+)">(.*?)</tr>', html, re.S)
    return {
        int(seat): [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", body, re.S)
        ]
        for seat, body in rows
    }


def panel(user: User, pit_id: int) -> Any:
    return signed_in(user).get(f"/protection/pits/{pit_id}/ratings/")


@pytest.mark.django_db
def test_the_panel_shows_each_seated_player_rated_exactly_with_a_link_to_the_session(
    dealer: User, floor: User
) -> None:
    table = ready_table("mini-pairs", dealer, floor)
    for cards in ROUNDS:
        play(table, dealer, [(1, "banker", "25"), (1, "player_pair", "5")], cards)
    follow([table.pk])
    exact = _by_hand(ROUNDS)
    theo = (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
        Decimal("0.01"), ROUND_HALF_UP
    )
    zone = table.pit.casino.zone
    sessions = {s.seat: s for s in PlayerSession.objects.filter(table=table)}
    seated_at = {seat: f"{s.seated_at.astimezone(zone):%H:%M}" for seat, s in sessions.items()}

    answer = panel(User.objects.get(username="pitboss"), table.pit_id)
    html = answer.content.decode()
    assert answer.status_code == 200
    assert cells(html) == {
        # -25 - 5, then +25 - 5, then -25 + 5 x 11: $90 over 3 rounds, the player $20 up.
        1: ["Player 1", table.name, "1", seated_at[1], "3", "$30.00", "$20.00", dollars(theo), "—"],
        2: ["Player 2", table.name, "2", seated_at[2], "0", "—", "$0.00", "$0.00", "—"],
        5: ["Player 5", table.name, "5", seated_at[5], "0", "—", "$0.00", "$0.00", "—"],
    }
    assert theo != 0
    for session in sessions.values():  # the pit boss may open the session's page: linked
        assert f'href="/protection/sessions/{session.pk}/"' in html

    actions.leave_seat(table, seat=5, actor=dealer)
    follow([table.pk])
    assert sorted(cells(panel(floor, table.pit_id).content.decode())) == [1, 2]


@pytest.mark.django_db
def test_a_player_the_advantage_test_flags_is_flagged_on_the_panel(
    dealer: User, floor: User
) -> None:
    table = ready_table("ma-mini-ez", dealer, floor)
    play_a_counter(table, dealer)
    shown = cells(panel(floor, table.pit_id).content.decode())
    assert (shown[2][0], shown[2][-1]) == ("Player 2", "Dragon 7")
    assert (shown[5][0], shown[5][-1]) == ("Player 5", "—")


@pytest.mark.django_db
def test_the_pit_clerk_is_refused_the_panel_and_the_console_offers_the_clerk_none(
    dealer: User, floor: User
) -> None:
    table = ready_table("mini-pairs", dealer, floor)
    follow([table.pk])
    clerk = User.objects.get(username="clerk")
    answer = panel(clerk, table.pit_id)
    reason = access.decide(clerk, "page:protection:ratings").reason
    assert answer.status_code == 403 and reason.startswith("Only a floorperson or pit boss")
    assert "Player 1" not in answer.content.decode()
    url = f"/protection/pits/{table.pit_id}/ratings/"
    assert url not in signed_in(clerk).get("/floor/?pits=all").content.decode()
    console = signed_in(floor).get("/floor/?pits=all").content.decode()
    assert f'data-panel="ratings" data-pit="{table.pit_id}" data-url="{url}"' in console
    assert panel(User.objects.get(username="dealer"), table.pit_id).status_code == 403


@pytest.mark.django_db
def test_the_panel_is_read_in_the_same_few_queries_however_many_players_sit(
    dealer: User, floor: User
) -> None:
    first = ready_table("mini-pairs", dealer, floor)
    play(first, dealer, [(1, "banker", "25"), (2, "player", "25")], ROUNDS[0])
    follow([first.pk])
    client = signed_in(User.objects.get(username="pitboss"))
    url = f"/protection/pits/{first.pit_id}/ratings/"
    client.get(url)  # the session's first read

    def counted() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as queries:
            answer = client.get(url)
        assert answer.status_code == 200
        return len(queries), answer.content.decode().count("<tr data-session=")

    few = counted()
    second = ready_table("ma-mini", dealer, floor, seats=(1, 3, 4, 6))
    play(second, dealer, [(3, "banker", "50"), (4, "player", "25")], ROUNDS[1])
    follow([second.pk])
    more = counted()
    # The session and its user with the role, the pit with its casino, the ratings.
    assert (few, more) == ((3, 3), (3, 7))


@pytest.mark.django_db
def test_the_follower_tells_the_pits_screens_after_commit_and_only_when_ratings_moved(
    dealer: User, floor: User, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks
) -> None:
    table = ready_table("mini-pairs", dealer, floor)
    told: list[Notice] = []
    monkeypatch.setattr(notices, "put", told.append)
    with django_capture_on_commit_callbacks(execute=False) as waiting:
        follow([table.pk])
        assert told == []  # nothing before the commit
    for callback in waiting:
        callback()
    frames = [json.loads(n.message["text"]) for n in told if n.message["type"] == "pit.panel"]
    assert frames == [
        {"type": "panel", "panel": "ratings", "pit": table.pit_id, "tables": [table.pk]}
    ]
    assert [n.groups for n in told if n.message["type"] == "pit.panel"] == [
        (pit_group(table.pit_id),)
    ]
    told.clear()
    with django_capture_on_commit_callbacks(execute=True):
        follow([table.pk])  # nothing new: no session moved
        actions.open_round(table, actor=dealer)
        follow([table.pk])  # a round opened: no rating moved either
    assert [n for n in told if n.message["type"] == "pit.panel"] == []
    assert [p.name for p in panels.registered()] == ["ratings"]


def test_the_pit_socket_forwards_a_panels_notice(floor_staff, settings: Settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    table = ready_table("mini-pairs", floor_staff["dealer"], floor_staff["floor"])
    pit = socket(f"/ws/pits/{table.pit_id}/", user=floor_staff["pitboss"])

    async def scenario() -> Any:
        await opened(pit)
        await sync_to_async(announce_panel)("ratings", table.pit_id, [table.pk])
        frame = await pit.receive_json_from(timeout=3)
        await pit.disconnect()
        return frame

    frame = async_to_sync(scenario)()
    assert frame == {"type": "panel", "panel": "ratings", "pit": table.pit_id, "tables": [table.pk]}


def test_the_worker_tells_a_pit_at_most_every_few_seconds_and_never_forgets_a_change(
    dealer: User, floor: User, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks
) -> None:
    """Rounds settled a second apart: the pit is told of the first at once; of the second once
    ``PANEL_EVERY`` has passed since (``tell_waiting``, the worker's loop), not before."""
    table = ready_table("mini-pairs", dealer, floor)
    told: list[Notice] = []
    monkeypatch.setattr(notices, "put", told.append)
    now = [100.0]
    pacer = console.Pacer(PANEL_EVERY, clock=lambda: now[0])

    def committed(call: Any, *args: Any, **kwargs: Any) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            call(*args, **kwargs)

    def panel_notices() -> list[dict[str, Any]]:
        return [json.loads(n.message["text"]) for n in told if n.message["type"] == "pit.panel"]

    committed(follow, [table.pk], pacer=pacer)  # the players seated
    assert len(panel_notices()) == 1
    play(table, dealer, [(1, "banker", "25")], ROUNDS[0])
    now[0] += 1
    committed(follow, [table.pk], pacer=pacer)
    committed(console.tell_waiting, pacer)
    assert len(panel_notices()) == 1  # rated, but told a second ago: it waits
    now[0] += PANEL_EVERY
    committed(console.tell_waiting, pacer)
    assert panel_notices()[1:] == [
        {"type": "panel", "panel": "ratings", "pit": table.pit_id, "tables": [table.pk]}
    ]
    committed(console.tell_waiting, pacer)
    assert len(panel_notices()) == 2  # told once
