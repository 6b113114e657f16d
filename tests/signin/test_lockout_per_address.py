"""A stranger's wrong passwords lock out only that stranger: failures count per username at one
address, an address is locked after many usernames, and the proxy's header is believed only from
a trusted proxy."""

from __future__ import annotations

import ipaddress
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django import Settings

PASSWORD = "right-Password-7"
STRANGER = "203.0.113.9"
FLOOR_TABLET = "198.51.100.20"


@pytest.fixture
def floor(db: None) -> User:
    return User.objects.create_user("floor", password=PASSWORD)


def sign_in(username: str, password: str, **meta: Any) -> str:
    """Post the login page from a fresh browser; "signed in" or the page's text."""
    response = Client(**meta).post("/login/", {"username": username, "password": password})
    return "signed in" if response.status_code == 302 else response.text


def test_a_strangers_wrong_passwords_do_not_lock_out_the_floorperson_elsewhere(floor: User) -> None:
    for _ in range(6):
        sign_in("floor", "wrong", REMOTE_ADDR=STRANGER)
    assert "locked out" in sign_in("floor", PASSWORD, REMOTE_ADDR=STRANGER)
    assert sign_in("floor", PASSWORD, REMOTE_ADDR=FLOOR_TABLET) == "signed in"


def test_many_usernames_from_one_address_lock_that_address(floor: User, settings: Settings) -> None:
    settings.SIGN_IN_FAILURES_PER_ADDRESS = 6
    for n in range(5):
        assert "didn't match" in sign_in(f"guess{n}", "wrong", REMOTE_ADDR=STRANGER)
    assert "locked out" in sign_in("guess5", "wrong", REMOTE_ADDR=STRANGER)
    assert "locked out" in sign_in("floor", PASSWORD, REMOTE_ADDR=STRANGER)
    assert sign_in("floor", PASSWORD, REMOTE_ADDR=FLOOR_TABLET) == "signed in"


def test_the_proxys_header_names_the_client_only_from_a_trusted_proxy(
    floor: User, settings: Settings
) -> None:
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("10.0.0.2/32")]
    via_proxy = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": f"1.2.3.4, {STRANGER}"}
    for _ in range(5):
        sign_in("floor", "wrong", **via_proxy)
    # The stranger is locked; the tablet behind the same proxy is not.
    assert "locked out" in sign_in("floor", PASSWORD, **via_proxy)
    tablet = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": FLOOR_TABLET}
    assert sign_in("floor", PASSWORD, **tablet) == "signed in"
    # From an untrusted peer the header is ignored: naming the tablet does not unlock the stranger.
    forged = {"REMOTE_ADDR": STRANGER, "HTTP_X_FORWARDED_FOR": FLOOR_TABLET}
    assert "locked out" in sign_in("floor", PASSWORD, **forged)
