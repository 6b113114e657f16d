"""Every JSON command of the pages (the pit's, surveillance's) goes through one helper
(``casino.page_commands``): POST only, the one body reader, one error body, one success body,
and the Idempotency-Key honoured: a double tap acts once.

The checks run over every page command the URLconf holds, each as a person of a role that may
give it, so that a command added later is held to the same."""

from __future__ import annotations

import datetime
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from casino import access, roles
from casino.bodies import LONE_SURROGATE, MAX_BODY_BYTES
from casino.models import Event, PageCommand, Pit
from casino.page_commands import KEY_MAX_LENGTH, KEY_REUSED, NOT_AN_OBJECT, POST_ONLY
from pit.alerts import watch
from tablegame.actions.dealers import relieve_dealer
from tablegame.actions.tables import file_pit_procedure
from tablegame.models import (
    DealerAssignment,
    ProcedureNotice,
    ProgressiveEntry,
    ProgressiveMeter,
    Table,
    VigorishFormSeries,
)
from tests.clients import logged_in
from tests.progressives.conftest import big_table
from tests.tablegame.conftest import ready_table

#: A demo user of each role (``seed_demo``).
DEMO_USER = {
    roles.FLOORPERSON: "floor",
    roles.PIT_BOSS: "pitboss",
    roles.PIT_CLERK: "clerk",
    roles.DEALER: "dealer",
    roles.SURVEILLANCE: "surveillance",
    roles.ACCOUNTING: "accounting",
    access.ADMINISTRATOR: "admin",
}


def page_commands() -> list[tuple[str, str]]:
    """Every page command of the URLconf: its URL (a table's the first table's) and its name."""
    found: list[tuple[str, str]] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern):
                what = getattr(pattern.callback, "page_command", None)
                if what:
                    found.append((route, what))

    walk(get_resolver().url_patterns, "/")
    return found


def url_of(route: str) -> str:
    table = Table.objects.order_by("pk").first()
    assert table is not None
    return route.replace("<int:table_id>", str(table.pk))


def client_for(what: str) -> Client:
    """Logged in as the demo user of the first role the policy allows ``what``."""
    allowed = access.RULES[what].roles
    username = next(user for role, user in DEMO_USER.items() if role in allowed)
    client = Client()
    assert client.login(username=username, password="baccarat")
    return client


def post(client: Client, url: str, body: bytes | str | dict[str, Any], key: str = "") -> Any:
    raw = json.dumps(body) if isinstance(body, dict) else body
    headers = {"Idempotency-Key": key} if key else {}
    return client.generic("POST", url, raw, content_type="application/json", headers=headers)


def state() -> tuple[int, int, int]:
    return Event.objects.count(), PageCommand.objects.count(), DealerAssignment.objects.count()


@pytest.fixture
def commands(seeded: str) -> list[tuple[str, str]]:
    found = page_commands()
    # The pit's alerts, dealers, progressives, forms and rules, and surveillance's notices.
    assert len(found) >= 26
    for prefix in ("/alerts/", "/dealers/", "/progressives/", "/floor/forms/", "/surveillance/"):
        assert any(route.startswith(prefix) for route, _ in found), prefix
    return found


def test_every_page_command_answers_another_method_405_in_json(commands):
    for route, what in commands:
        client, url = client_for(what), url_of(route)
        for method in ("GET", "PUT", "DELETE"):
            answer = client.generic(method, url)
            assert answer.status_code == 405, (method, url)
            assert answer["Allow"] == "POST"
            assert answer.json() == {"error": POST_ONLY}


def test_every_page_command_refuses_a_body_over_the_limit_with_413_and_changes_nothing(commands):
    before = state()
    for route, what in commands:
        client, url = client_for(what), url_of(route)
        body = json.dumps({"reason": "x" * MAX_BODY_BYTES})
        answer = post(client, url, body, key=f"big {what}")
        assert answer.status_code == 413, url
        assert answer.json() == {"error": f"The body is over the limit of {MAX_BODY_BYTES} bytes."}
    assert state() == before


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ("{", "The body is not valid JSON: Expecting property name enclosed in double quotes: "),
        ('{"pit": NaN}', "The body is not valid JSON: NaN is not a JSON number."),
        ('{"pit": Infinity}', "The body is not valid JSON: Infinity is not a JSON number."),
        ('{"reason": "late\\u0000"}', "The body is not valid JSON: it holds a NUL character."),
        ('{"reason": "\\udc00"}', LONE_SURROGATE),
        ('{"a": ' * 9 + "1" + "}" * 9, "The body is not valid JSON: it is nested too deeply."),
        ('{"pit": ' + "9" * 101 + "}", "The body is not valid JSON: a number of 101 digits is "),
        (b'{"reason": "\xff"}', "The body is not valid JSON: 'utf-8' codec can't decode byte 0xff"),
        ("[1, 2]", NOT_AN_OBJECT),
    ],
    ids=[
        "not JSON",
        "NaN",
        "Infinity",
        "NUL",
        "lone surrogate",
        "deep",
        "digits",
        "not UTF-8",
        "list",
    ],
)
def test_every_page_command_refuses_a_body_no_script_sends_400_in_words(commands, body, error):
    before = state()
    for route, what in commands:
        answer = post(client_for(what), url_of(route), body, key=f"bad {what}")
        assert answer.status_code == 400, (route, answer.content)
        assert set(answer.json()) == {"error"}
        assert answer.json()["error"].startswith(error), route
    assert state() == before


def test_every_page_command_answers_a_repeated_key_with_its_first_answer(commands):
    """``{}`` names nothing: each command refuses it, and the refusal is the key's answer."""
    for route, what in commands:
        client, url = client_for(what), url_of(route)
        first = post(client, url, {}, key=f"empty {what}")
        assert first.status_code in (200, 400, 403, 409), (url, first.content)
        again = post(client, url, {}, key=f"empty {what}")
        assert (again.status_code, again.content) == (first.status_code, first.content)
        assert again["Idempotent-Replayed"] == "true"


def test_a_key_over_the_api_s_limit_is_refused(commands):
    route, what = next(c for c in commands if c[0] == "/dealers/relieve/")
    answer = post(client_for(what), route, {}, key="k" * (KEY_MAX_LENGTH + 1))
    assert answer.status_code == 400
    assert answer.json() == {
        "error": f"The Idempotency-Key header is at most {KEY_MAX_LENGTH} characters."
    }


# --- Commands that act: the same key twice acts once ---------------------------------------------


def twice(client: Client, url: str, body: dict[str, Any]) -> tuple[Any, Any]:
    first = post(client, url, body, key="tap-1")
    again = post(client, url, body, key="tap-1")
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert again["Idempotent-Replayed"] == "true"
    return first, again


def test_relieving_a_dealer_twice_with_one_key_relieves_once(seeded):
    table = Table.objects.get(name="MB-1")
    events = Event.objects.count()
    first, _ = twice(logged_in("floor"), "/dealers/relieve/", {"table": table.pk})
    assert (first.status_code, first.json()) == (200, {"done": True})
    assert not DealerAssignment.objects.current().filter(table=table).exists()
    assert Event.objects.count() == events + 1
    # A new key is a new command: the floor's rules refuse it (nobody to relieve).
    assert (
        post(logged_in("floor"), "/dealers/relieve/", {"table": table.pk}, key="tap-2").status_code
        == 409
    )


def test_a_series_received_twice_with_one_key_is_received_once(seeded):
    body = {"pit": Pit.objects.get().pk, "first": 4601, "last": 4700}
    first, _ = twice(logged_in("clerk"), "/floor/forms/series/", body)
    assert (first.status_code, first.json()) == (200, {"done": True})
    assert VigorishFormSeries.objects.count() == 1


def test_seats_set_twice_with_one_key_are_set_once(seeded):
    table = Table.objects.get(name="MB-1")
    events = Event.objects.count()
    url = f"/floor/tables/{table.pk}/seats/"
    first, _ = twice(logged_in("floor"), url, {"seats": 6, "reason": "Smaller layout"})
    assert (first.status_code, first.json()) == (200, {"done": True})
    assert Event.objects.count() == events + 1


def test_a_notice_acknowledged_twice_with_one_key_answers_done_both_times(seeded):
    later = timezone.now() + datetime.timedelta(minutes=45)
    file_pit_procedure(
        Pit.objects.get(),
        settlement="vigorish_all_then_pay",
        effective_at=later,
        actor=User.objects.get(username="floor"),
    )
    notice = ProcedureNotice.objects.order_by("pk").first()
    assert notice is not None
    first, _ = twice(
        logged_in("surveillance"), "/surveillance/notices/acknowledge/", {"notice": notice.pk}
    )
    assert (first.status_code, first.json()) == (200, {"done": True})
    notice.refresh_from_db()
    assert notice.acknowledged_at is not None


def test_the_key_sent_again_with_another_body_is_refused(seeded):
    mb1, mb2 = Table.objects.get(name="MB-1"), Table.objects.get(name="MB-2")
    floor = logged_in("floor")
    assert post(floor, "/dealers/relieve/", {"table": mb1.pk}, key="tap-1").status_code == 200
    answer = post(floor, "/dealers/relieve/", {"table": mb2.pk}, key="tap-1")
    assert (answer.status_code, answer.json()) == (409, {"error": KEY_REUSED})
    assert DealerAssignment.objects.current().filter(table=mb2).exists()


def test_another_person_s_key_is_their_own(seeded):
    mb1 = Table.objects.get(name="MB-1")
    assert (
        post(logged_in("floor"), "/dealers/relieve/", {"table": mb1.pk}, key="tap-1").status_code
        == 200
    )
    second = post(logged_in("pitboss"), "/dealers/relieve/", {"table": mb1.pk}, key="tap-1")
    assert second.status_code == 409  # acted on: nobody to relieve
    assert "Idempotent-Replayed" not in second


def test_without_a_key_the_command_is_done_without_the_promise(seeded):
    mb1 = Table.objects.get(name="MB-1")
    floor = logged_in("floor")
    assert post(floor, "/dealers/relieve/", {"table": mb1.pk}).status_code == 200
    assert post(floor, "/dealers/relieve/", {"table": mb1.pk}).status_code == 409
    assert not PageCommand.objects.exists()


# --- A double tap at once ----------------------------------------------------------------------


@pytest.fixture
def floor_staff(floor_staff: dict[str, User]) -> Iterator[dict[str, User]]:
    yield floor_staff
    PageCommand.objects.all().delete()


def test_a_double_tap_at_once_acts_once(floor_staff):
    """Two requests with one key at the same moment: the second waits on the key's row until the
    first commits, then answers the same."""
    table = Table.objects.get(name="MB-1")
    events = Event.objects.count()
    start = threading.Barrier(2)
    answers: list[tuple[int, bytes]] = []

    def tap() -> None:
        try:
            client = logged_in("floor")
            start.wait()
            answer = post(client, "/dealers/relieve/", {"table": table.pk}, key="double-tap")
            answers.append((answer.status_code, answer.content))
        finally:
            connection.close()

    threads = [threading.Thread(target=tap) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(answers) == 2
    assert answers[0] == answers[1]
    assert answers[0][0] == 200
    assert Event.objects.count() == events + 1


def test_a_star_option_set_twice_with_one_key_is_set_once(dealer, floor):
    table = big_table(dealer, floor)  # a big table offering Royal 9
    meter = ProgressiveMeter.objects.get(table=table, name="star")
    entries = ProgressiveEntry.objects.count()
    body = {"table": meter.table_id, "option": 2}
    first, _ = twice(logged_in("floor"), "/progressives/star-option/", body)
    assert (first.status_code, first.json()) == (200, {"done": True})
    assert ProgressiveEntry.objects.count() == entries + 1


def test_an_alert_acknowledged_twice_with_one_key_answers_done_both_times(dealer, floor):
    relieve_dealer(ready_table("ma-mini", dealer, floor), actor=floor)  # open, with no dealer
    (alert,) = watch()
    first, _ = twice(logged_in("floor"), "/alerts/acknowledge/", {"alert": alert.pk})
    assert (first.status_code, first.json()) == (200, {"done": True})
    alert.refresh_from_db()
    assert alert.acknowledged_by == floor
