"""PostgreSQL down: the API answers 503 in JSON, a page answers a plain 503 page, never a
traceback or Django's HTML 500.

The database is really unreachable here: the connection is closed (and its pool, if it has one)
and pointed at a port of 127.0.0.1 where nothing listens, so the next query gets psycopg's own
"connection refused".
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import Group, User
from django.db import OperationalError, connection
from django.test import Client, RequestFactory

from config.middleware import SERVER_ERROR, UNAVAILABLE
from config.request_id import server_error
from tablegame.api.views import TableList
from tests.clients import logged_in


def _closed_port() -> int:
    """A port of 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _reconnect() -> None:
    connection.close()
    if hasattr(connection, "close_pool"):
        connection.close_pool()


@pytest.fixture
def dealer_client(transactional_db: None) -> Client:
    """A dealer's browser, its session stored while the database still answers."""
    user = User.objects.create_user("dealer", password="baccarat")
    user.groups.add(Group.objects.get_or_create(name="dealer")[0])
    return logged_in("dealer")


@pytest.fixture
def database_down(dealer_client: Client) -> Iterator[None]:
    settings_dict = connection.settings_dict
    saved = {key: settings_dict[key] for key in ("HOST", "PORT", "OPTIONS")}
    _reconnect()
    pool = settings_dict["OPTIONS"].get("pool")
    settings_dict.update(
        HOST="127.0.0.1",
        PORT=str(_closed_port()),
        # A pool waits for a connection as long as its timeout: not the test's 5 s.
        OPTIONS={**saved["OPTIONS"], "pool": {**pool, "timeout": 1}} if pool else saved["OPTIONS"],
    )
    try:
        yield
    finally:
        _reconnect()
        settings_dict.update(saved)


@pytest.mark.parametrize(
    ("method", "path"), [("get", "/api/tables/"), ("post", "/api/tables/1/round/open/")]
)
def test_the_api_answers_503_in_json_when_the_database_is_down(
    dealer_client, database_down, method, path
):
    response = getattr(dealer_client, method)(path, content_type="application/json")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response["Retry-After"] == "5"
    assert response.json() == {"error": UNAVAILABLE, "request_id": response["X-Request-ID"]}


def test_a_page_answers_a_plain_503_page_when_the_database_is_down(dealer_client, database_down):
    response = dealer_client.get("/")
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "The database is not answering" in page
    assert "Traceback" not in page and "OperationalError" not in page


def test_the_same_requests_are_answered_when_the_database_is_up(dealer_client):
    assert dealer_client.get("/api/tables/").json() == []
    assert dealer_client.get("/").status_code == 200


def test_any_other_server_error_of_the_api_is_json_too(dealer_client, monkeypatch):
    def fail(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(TableList, "get", fail)
    dealer_client.raise_request_exception = False
    response = dealer_client.get("/api/tables/")
    assert response.status_code == 500
    assert response.json() == {"error": SERVER_ERROR, "request_id": response["X-Request-ID"]}


def test_the_database_failing_outside_a_view_is_503_as_well():
    """A middleware's own query (the session saved after the view) reaches handler500."""
    request = RequestFactory().post("/api/tables/1/round/open/")
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        response = server_error(request)
    assert response.status_code == 503
    assert json.loads(response.content)["error"] == UNAVAILABLE
