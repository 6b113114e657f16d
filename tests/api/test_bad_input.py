"""Bad input on the write path: a clear 4xx in JSON, and nothing changes.

Each body goes through the real API (authentication, parser, input, action) as a tablet would
send it; the answer is ``{"error": "<a sentence>"}`` (plus ``fields`` for a field's problem), and
the table state and its record are as they were before.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from casino.models import Event
from tablegame import actions
from tablegame.api.errors import API_MAX_BODY_BYTES, LONE_SURROGATE
from tablegame.models import Table
from tests.api.conftest import Tablet, new_key


def send(tablet: Tablet, table: Table, route: str, body: bytes | str) -> Any:
    """POST a raw body (as bytes on the wire) with a fresh Idempotency-Key."""
    return tablet.client.generic(
        "POST",
        f"/api/tables/{table.pk}/{route}",
        # DRF passes the body to Django's generic(), which takes bytes; its stub says str only.
        body.encode() if isinstance(body, str) else body,  # type: ignore[arg-type]
        content_type="application/json",
        headers={"Idempotency-Key": new_key()},
    )


def refused(tablet: Tablet, table: Table, route: str, body: bytes | str) -> tuple[int, str]:
    """Send the body; check the answer is JSON with a readable error and nothing changed."""
    before, events = tablet.state(table), Event.objects.filter(chain__table=table).count()
    response = send(tablet, table, route, body)
    assert response["Content-Type"] == "application/json"
    error = response.json()["error"]
    assert isinstance(error, str) and error.endswith(".") and "Traceback" not in error
    assert tablet.state(table) == before
    assert Event.objects.filter(chain__table=table).count() == events
    return response.status_code, error


def wager(amount: str) -> str:
    """A wager body with ``amount`` written as-is (a JSON string or a bare JSON number)."""
    return f'{{"seat": 1, "type": "banker", "amount": {amount}}}'


@pytest.fixture
def betting(mini: Table, dealer: User) -> Table:
    """MB-1 with a round open for wagers."""
    actions.open_round(mini, actor=dealer)
    return mini


TOO_MUCH = "amount: An amount of money is at most 9999999999.99."
NOT_MONEY = 'amount: Write an amount of money such as "100.00".'


@pytest.mark.parametrize(
    ("amount", "error"),
    [
        ('"1e30"', TOO_MUCH),
        ("1e30", TOO_MUCH),
        ('"1' + "0" * 39 + '"', TOO_MUCH),
        ("1" + "0" * 39, TOO_MUCH),
        ('"10000000000.00"', TOO_MUCH),
        ('"NaN"', NOT_MONEY),
        ('"Infinity"', NOT_MONEY),
        ('"-Infinity"', NOT_MONEY),
        ('"100 dollars"', NOT_MONEY),
        ('"0"', "amount: An amount of money is more than zero."),
        ('"-100"', "amount: An amount of money is more than zero."),
        ('"1e-30"', "amount: Ensure that there are no more than 2 decimal places."),
    ],
)
def test_it_refuses_an_amount_that_is_not_money(tablet, betting, amount, error):
    assert refused(tablet, betting, "round/wagers/", wager(amount)) == (400, error)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_it_refuses_the_bare_constants_json_does_not_have(tablet, betting, constant):
    status, error = refused(tablet, betting, "round/wagers/", wager(constant))
    assert status == 400
    assert error == f"The body is not valid JSON: {constant} is not a JSON number."


def test_it_refuses_a_body_nested_deeper_than_any_command_needs(tablet, betting):
    deep = "[" * 5_000 + "]" * 5_000
    body = f'{{"seat": 1, "type": "banker", "amount": "100", "note": {deep}}}'
    status, error = refused(tablet, betting, "round/wagers/", body)
    assert (status, error) == (400, "The body is not valid JSON: it is nested too deeply.")


def test_it_refuses_rules_options_nested_past_the_limit(tablet_for, mini):
    floor = tablet_for("floor")
    options = '{"a": ' * 40 + "1" + "}" * 40
    body = f'{{"profile": "ma-mini", "options": {options}}}'
    status, error = refused(floor, mini, "rules/", body)
    assert (status, error) == (400, "The body is not valid JSON: it is nested too deeply.")


@pytest.mark.parametrize(
    ("route", "body"),
    [
        ("rules/", '{"profile": "ma-mini", "options": {"tie_odds\\u0000": 9}}'),
        ("round/house-money/", '{"rides": {"1\\u0000": "banker"}}'),
        ("round/wagers/", '{"seat": 1, "type": "banker", "amount": "100", "\\u0000": 1}'),
    ],
)
def test_it_refuses_a_nul_character_in_a_key(tablet_for, betting, route, body):
    status, error = refused(tablet_for("pitboss"), betting, route, body)
    assert (status, error) == (400, "The body is not valid JSON: it holds a NUL character.")


def test_it_refuses_a_nul_character_in_a_name(tablet, mini):
    status, error = refused(tablet, mini, "seats/3/sit/", '{"player": "Red\\u0000scarf"}')
    assert (status, error) == (400, "The body is not valid JSON: it holds a NUL character.")


def test_it_refuses_a_body_that_is_not_utf_8(tablet, betting):
    status, error = refused(tablet, betting, "round/wagers/", b'{"seat": 1, "type": "\xff"}')
    assert status == 400
    assert error.startswith("The body is not valid JSON: 'utf-8' codec can't decode byte 0xff")


def test_it_refuses_a_body_that_is_not_an_object(tablet, betting):
    status, error = refused(tablet, betting, "round/wagers/", "[1, 2]")
    assert status == 400
    assert error == "Invalid data. Expected a dictionary, but got list."


def test_it_refuses_a_body_over_the_limit_with_413(tablet, betting):
    padding = "x" * API_MAX_BODY_BYTES
    body = f'{{"seat": 1, "type": "banker", "amount": "100", "note": "{padding}"}}'
    status, error = refused(tablet, betting, "round/wagers/", body)
    assert status == 413
    assert error == f"The body is over the limit of {API_MAX_BODY_BYTES} bytes."


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_it_refuses_a_body_over_django_s_own_limit_with_413_in_json(tablet, betting):
    body = f'{{"seat": 1, "type": "banker", "amount": "100", "note": "{"x" * 1000}"}}'
    status, error = refused(tablet, betting, "round/wagers/", body)
    assert (status, error) == (413, "The body is over the limit of 1000 bytes.")


def test_a_body_just_under_the_limit_is_read(tablet, betting):
    body = '{"seat": 1, "type": "banker", "amount": "100"}'
    body = body[:-1] + ', "note": "' + "x" * (API_MAX_BODY_BYTES - len(body) - 20) + '"}'
    response = send(tablet, betting, "round/wagers/", body)
    assert response.status_code == 200, response.content
    assert tablet.state(betting)["round"]["wagers"][0]["amount"] == "100.00"


@pytest.mark.parametrize(
    ("option", "error"),
    [
        (
            '"house_money_ride_portion": "NaN"',
            "'NaN' is not a valid value for the option 'house_money_ride_portion'.",
        ),
        (
            '"commission_rate": "sNaN"',
            "'sNaN' is not a valid value for the option 'commission_rate'.",
        ),
        ('"tie_odds": 1e30', "'1E+30' is not a valid value for the option 'tie_odds'."),
        ('"cut_min_from_end": -5', "'-5' is not a valid value for the option 'cut_min_from_end'."),
    ],
)
def test_it_refuses_a_rules_option_that_cannot_be(tablet_for, mini, option, error):
    floor = tablet_for("floor")
    body = f'{{"profile": "ma-mini", "options": {{{option}}}}}'
    assert refused(floor, mini, "rules/", body) == (409, error)


@pytest.mark.parametrize("limit", ['"1e30"', '"NaN"', '"0"'])
def test_it_refuses_a_table_limit_that_is_not_money(tablet_for, mini, limit):
    floor = tablet_for("floor")
    body = f'{{"wager": "banker", "minimum": "10", "maximum": {limit}}}'
    status, error = refused(floor, mini, "limits/", body)
    assert status == 400
    assert error.startswith("maximum: ")


@pytest.mark.parametrize(
    ("route", "body"),
    [
        ("round/wagers/", '{"seat": 1, "type": "\\ud800", "amount": "100"}'),
        ("round/wagers/", '{"seat": 1, "type": "banker\\udfff", "amount": "100"}'),
        ("round/wagers/", '{"seat": 1, "type": "banker", "amount": "100", "\\ud83d": 1}'),
    ],
)
def test_it_refuses_a_lone_surrogate_without_repeating_it(tablet, betting, route, body):
    before = Event.objects.count()
    status, error = refused(tablet, betting, route, body)
    assert (status, error) == (400, LONE_SURROGATE)
    assert Event.objects.count() == before


def test_it_takes_a_whole_character_written_as_a_surrogate_pair(tablet, mini):
    response = tablet.client.post(
        f"/api/tables/{mini.pk}/seats/3/sit/",
        '{"player": "Ace \\ud83c\\udca1"}',
        content_type="application/json",
        headers={"Idempotency-Key": new_key()},
    )
    assert response.status_code == 200, response.content
    assert "Ace \N{PLAYING CARD ACE OF SPADES}" in str(json.loads(response.content))
