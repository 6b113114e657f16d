"""An address locked out after failures with many usernames is one event of the casino's chain
that names the address and every username tried from it within the window; a username's own
lock-out is recorded as before (issue 28)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client
from pytest_django import Settings

from casino.events import UserLockedOut
from casino.models import Event, Pit
from casino.record import verify_chain

STRANGER = "203.0.113.9"


def sign_in(username: str, password: str, address: str = STRANGER) -> str:
    response = Client(REMOTE_ADDR=address).post(
        "/login/", {"username": username, "password": password}
    )
    return "signed in" if response.status_code == 302 else response.text


def test_an_address_lock_out_names_every_username_tried_from_it(
    pit: Pit, settings: Settings
) -> None:
    User.objects.create_user("floor", password="right-Password-7")
    settings.SIGN_IN_FAILURES_PER_ADDRESS = 6
    for name in ["guess0", "floor", "guess1", "floor", "guess2"]:
        assert "didn't match" in sign_in(name, "wrong")
    assert "locked out" in sign_in("guess3", "wrong")
    assert "locked out" in sign_in("guess4", "wrong")  # refused before it counts

    event = Event.objects.get(action="user_locked_out")
    assert event.data["address"] == STRANGER
    assert event.data["usernames"] == ["guess0", "floor", "guess1", "guess2", "guess3"]
    assert (event.data["username"], event.data["failures"]) == ("guess3", 6)
    described = UserLockedOut.from_data(event.data).describe()
    assert described.startswith(f"address {STRANGER}: 6 failed sign-ins (guess0, floor, guess1")
    assert verify_chain(event.chain_id).ok


def test_a_username_lock_out_is_recorded_as_before(pit: Pit) -> None:
    for _ in range(5):
        sign_in("floor", "wrong")
    event = Event.objects.get(action="user_locked_out")
    assert set(event.data) == {"username", "failures", "until"}
