"""Clients for the API as the demo staff, and a table ready to deal (set up through the actions)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tablegame.api.urls import COMMANDS
from tablegame.api.views import TableCommand
from tablegame.models import Table
from tests.conftest import commits_for_real, kept_for_the_module
from tests.tablegame.conftest import dealer, floor, ready_table, staff, table_for

if TYPE_CHECKING:
    from rest_framework.response import _MonkeyPatchedResponse as Answer

# The demo staff fixtures, shared with the table tests.
__all__ = ["Tablet", "dealer", "floor", "new_key", "ready_table", "staff", "table_for"]

_keys = itertools.count(1)


def new_key() -> str:
    """A fresh Idempotency-Key, as a tablet makes one per command."""
    return f"test-key-{next(_keys)}"


class Tablet:
    """An API client logged in as one user, speaking the table's URLs.

    Like the tablet's script, it keeps each table's state: the whole state once, then each
    command's answer (the parts it changed) put in place; and it checks, after every command, that
    what it keeps is exactly the whole state the server would give now.
    """

    def __init__(self, client: APIClient) -> None:
        self.client = client
        self.kept: dict[int, Any] = {}

    def state(self, table: Table) -> Any:
        response = self.client.get(f"/api/tables/{table.pk}/")
        assert response.status_code == 200, response.content
        return response.json()

    def post(
        self, table: Table, route: str, body: dict[str, Any] | None = None, *, key: str | None = ""
    ) -> Answer:
        """POST a command; a fresh key unless ``key`` is given (None: send no key)."""
        headers = {} if key is None else {"Idempotency-Key": key or new_key()}
        return self.client.post(
            f"/api/tables/{table.pk}/{route}", body or {}, format="json", headers=headers
        )

    def do(self, table: Table, route: str, body: dict[str, Any] | None = None) -> Any:
        """POST a command that must succeed; the table state after it, as the tablet keeps it
        (checked against the whole state)."""
        kept = self.kept.get(table.pk) or self.state(table)
        response = self.post(table, route, body)
        assert response.status_code == 200, response.content
        kept = apply_answer(kept, response.json())
        assert kept == self.state(table), f"{route}: the answer left the tablet's state stale"
        self.kept[table.pk] = kept
        return kept


def command_views() -> list[type[TableCommand]]:
    """The views of the API's commands (``tablegame.api.urls.COMMANDS``)."""
    views = [view.view_class for _, view in COMMANDS]
    commands = [view for view in views if issubclass(view, TableCommand)]
    assert commands == views
    return commands


def apply_answer(state: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    """The table state with a command's answer put in place, as ``static/js/dealer.js`` does:
    the parts it changed replace the tablet's, the round it patched is updated key by key."""
    assert answer["events"], "a command that succeeded recorded an event"
    parts = [*answer["changed"], *answer["patched"]]
    assert set(answer) == {"sequence", "events", "changed", "patched", *parts}
    new = {**state, "sequence": answer["sequence"]}
    for name in answer["changed"]:
        new[name] = answer[name]
    for name in answer["patched"]:
        assert state[name]["number"] == answer[name]["number"], "a patch of another round"
        new[name] = {**state[name], **answer[name]}
    return new


@pytest.fixture
def tablet_for(seeded: str) -> Callable[[str], Tablet]:
    """A tablet logged in (session) as a demo user, by username."""

    def log_in(username: str) -> Tablet:
        client = APIClient()
        assert client.login(username=username, password="baccarat")
        return Tablet(client)

    return log_in


@pytest.fixture
def tablet(tablet_for: Callable[[str], Tablet]) -> Tablet:
    """The dealer's tablet."""
    return tablet_for("dealer")


@pytest.fixture(scope="module")
def mini_kept(demo_floor: str, django_db_blocker: Any) -> Iterator[int]:
    """``mini`` made ready once for the module's tests (a dozen actions, about 0.1 s a test),
    each of which changes it only in its own transaction; MB-1's pk."""
    yield from kept_for_the_module(django_db_blocker, _ready_mini)


def _ready_mini() -> int:
    dealer, floor = (User.objects.get(username=name) for name in ("dealer", "floor"))
    return ready_table("ma-mini", dealer, floor).pk


@pytest.fixture
def mini(mini_kept: int, seeded: str) -> Table:
    """MB-1 (ma-mini) open, seats 1, 2 and 5 taken, the shoe burned and in play (kept for the
    module: ``mini_kept``; a test that commits for real asks for ``committed_mini``)."""
    return Table.objects.get(pk=mini_kept)


@pytest.fixture
def committed_mini(request: pytest.FixtureRequest, dealer: User, floor: User) -> Table:
    """``mini`` made for a test that commits for real (other connections see it)."""
    assert commits_for_real(request.node), "a rolled-back test asks for mini"
    return ready_table("ma-mini", dealer, floor)
