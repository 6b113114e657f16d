"""Five failed sign-ins within 15 minutes lock a username out; the lock-out is an event of the
casino's own chain, at no pit and no table, and the record still verifies."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from casino.models import Chain, Event, Pit
from casino.signin import locked_until

PASSWORD = "right-Password-7"


@pytest.fixture
def floor(pit: Pit) -> User:
    return User.objects.create_user("floor", password=PASSWORD)


def sign_in(client: Client, password: str, username: str = "floor") -> str:
    """Post the login page; the page's text, or "signed in" when it let the user in."""
    response = client.post("/login/", {"username": username, "password": password})
    return "signed in" if response.status_code == 302 else response.text


def test_five_wrong_passwords_lock_the_username_out_even_with_the_right_one(
    client: Client, floor: User, pit: Pit
) -> None:
    for _ in range(4):
        assert "didn't match" in sign_in(client, "wrong")
    fifth = sign_in(client, "wrong")
    assert "Too many failed sign-ins: floor is locked out until " in fifth
    assert "(America/New_York). Try again then, or ask a supervisor." in fifth

    refused = sign_in(client, PASSWORD)
    assert "Too many failed sign-ins: floor is locked out until" in refused
    assert "_auth_user_id" not in client.session

    event = Event.objects.get(action="user_locked_out")
    chain = Chain.objects.get(pk=event.chain_id)
    assert (chain.scope, chain.casino_id, chain.pit_id) == ("casino", pit.casino_id, None)
    assert not hasattr(chain, "table")
    assert event.actor is None
    until = locked_until("floor", "127.0.0.1")
    assert until is not None
    assert event.data == {
        "username": "floor",
        "failures": 5,
        "until": until.astimezone(datetime.UTC).isoformat(timespec="seconds"),
    }
    assert until - timezone.now() > datetime.timedelta(minutes=14)

    out = StringIO()
    call_command("verify_record", stdout=out)
    assert "Casino Test Casino: 1 event, chain intact" in out.getvalue()


def test_attempts_while_locked_out_are_refused_without_another_lock_out(
    client: Client, floor: User
) -> None:
    for _ in range(5):
        sign_in(client, "wrong")
    for _ in range(6):
        assert "locked out" in sign_in(client, "wrong")
    assert Event.objects.filter(action="user_locked_out").count() == 1
    assert AccessAttempt.objects.get(username="floor").failures_since_start == 5  # not counted


def test_the_admin_sign_in_refuses_a_locked_out_username(
    client: Client, admin_user: User, pit: Pit
) -> None:
    for _ in range(5):
        sign_in(client, "wrong", username="admin")
    response = client.post(
        "/admin/login/?next=/admin/", {"username": "admin", "password": "password"}
    )
    assert response.status_code == 200
    assert "Too many failed sign-ins: admin is locked out until" in response.text


def test_the_right_password_works_again_once_the_lock_out_ends(client: Client, floor: User) -> None:
    for _ in range(5):
        sign_in(client, "wrong")
    AccessAttempt.objects.update(attempt_time=timezone.now() - datetime.timedelta(minutes=16))
    assert sign_in(client, PASSWORD) == "signed in"


def test_failures_older_than_15_minutes_do_not_count(client: Client, floor: User) -> None:
    long_ago = timezone.now() - datetime.timedelta(minutes=16)
    attempt = AccessAttempt.objects.create(
        username="floor", ip_address="127.0.0.1", user_agent="", failures_since_start=4
    )
    AccessAttempt.objects.filter(pk=attempt.pk).update(attempt_time=long_ago)  # auto_now_add
    assert "didn't match" in sign_in(client, "wrong")
    assert sign_in(client, PASSWORD) == "signed in"
    assert not Event.objects.filter(action="user_locked_out").exists()


def test_a_username_nobody_has_is_locked_out_alike(client: Client, pit: Pit) -> None:
    """The answer does not tell a guesser which usernames exist."""
    for _ in range(5):
        sign_in(client, "wrong", username="nobody")
    assert "Too many failed sign-ins: nobody is locked out until" in sign_in(
        client, "wrong", username="nobody"
    )
