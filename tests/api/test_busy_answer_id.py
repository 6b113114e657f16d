"""A command answered busy at once (its table's commands already waiting in this process) names
the request's id, as the lock timeout's 503 does (issue 28)."""

from __future__ import annotations

from tablegame.api import commands
from tablegame.api.commands import BUSY, WAITING_PER_TABLE
from tablegame.models import Table
from tests.api.conftest import Tablet


def test_a_command_answered_busy_at_once_names_its_request(tablet: Tablet, mini: Table) -> None:
    commands._waiting[mini.pk] += WAITING_PER_TABLE  # as if two commands waited for the lock
    try:
        answer = tablet.post(mini, "round/open/")
    finally:
        commands._waiting[mini.pk] -= WAITING_PER_TABLE
        if not commands._waiting[mini.pk]:
            del commands._waiting[mini.pk]
    assert (answer.status_code, answer.headers["Retry-After"]) == (503, "2")
    assert answer.json() == {"error": BUSY, "request_id": answer.headers["X-Request-ID"]}
