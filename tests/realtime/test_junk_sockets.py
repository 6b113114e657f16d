"""Sockets that cannot be served are closed cleanly, never a server error: a path that matches no
route (4404, a warning in the log), an id no table can have (4404), and any socket while Redis is
away (1013, which live.js answers by reconnecting, its hello then reading the database)."""

from __future__ import annotations

import logging
import socket as sockets

import pytest
from asgiref.sync import async_to_sync
from pytest_django import Settings

from config.env import channel_layers_from_env
from tablegame.consumers import NOT_FOUND, TRY_AGAIN_LATER
from tests.realtime.conftest import opened, refusal, socket
from tests.tablegame.conftest import table_for


@pytest.mark.parametrize(
    "path",
    ["/ws/", "/ws/nothing/", "/ws/tables/abc/", "/ws/tables/1/x/", "/elsewhere", "/ws/pits//"],
)
def test_a_path_that_matches_no_socket_is_closed_with_4404_and_a_warning(
    floor_staff, caplog: pytest.LogCaptureFixture, path: str
) -> None:
    client = socket(path, user=floor_staff["dealer"])  # LOGGING configured by then
    logger = logging.getLogger("tablegame.consumers")
    logger.addHandler(caplog.handler)
    try:
        assert async_to_sync(refusal)(client) == NOT_FOUND
    finally:
        logger.removeHandler(caplog.handler)
    assert {r.levelname for r in caplog.records if "no socket" in r.getMessage()} == {"WARNING"}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_table_id_past_any_column_is_closed_with_4404(floor_staff) -> None:
    client = socket(f"/ws/tables/{2**70}/", user=floor_staff["floor"])
    assert async_to_sync(refusal)(client) == NOT_FOUND


def _closed_port() -> int:
    with sockets.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize("path", ["/ws/tables/{table}/", "/ws/surveillance/"])
def test_a_socket_opened_while_redis_is_away_is_closed_to_try_again(
    floor_staff, settings: Settings, path: str
) -> None:
    user = floor_staff["surveillance"]
    address = path.format(table=table_for("ma-mini").pk)
    settings.CHANNEL_LAYERS = channel_layers_from_env(
        {"REDIS_URL": f"redis://127.0.0.1:{_closed_port()}/13"}
    )
    assert async_to_sync(refusal)(socket(address, user=user)) == TRY_AGAIN_LATER


def test_a_socket_opened_again_once_redis_is_back_gets_its_hello(floor_staff) -> None:
    table = table_for("ma-mini")
    hello = async_to_sync(opened)(socket(f"/ws/tables/{table.pk}/", user=floor_staff["floor"]))
    assert hello["table"] == table.pk
