"""Surveillance reads the record of sign-ins and refusals on its page, in the casino's time;
the other roles are refused."""

from __future__ import annotations

from typing import Any

from axes.models import AccessFailureLog, AccessLog
from django.contrib.auth.models import Group, User
from django.test import Client

from casino import roles
from casino.models import Pit

STRANGER = "203.0.113.9"


def watcher(role: str) -> Client:
    user = User.objects.create_user(f"a-{role}", password="pw-Watch-1")
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    client = Client()
    client.force_login(user)
    return client


def record(page: Any) -> str:
    """The page's table of entries (not its search form)."""
    assert page.status_code == 200
    text: str = page.text
    table = '<table id="signins" class="list">'
    return text.split(table, 1)[1] if table in text else ""


def test_surveillance_reads_sign_ins_failures_and_refused_approvals(pit: Pit) -> None:
    for n in range(5):
        Client(REMOTE_ADDR=STRANGER).post("/login/", {"username": "floor", "password": f"x{n}"})
    AccessFailureLog.objects.create(
        username="floor", ip_address="198.51.100.20", path_info="/api/tables/1/round/void/"
    )
    room = watcher(roles.SURVEILLANCE)
    text = record(room.get("/surveillance/signins/", {"username": "floor"}))
    assert text.count("Failed sign-in") >= 4 and "Locked out" in text
    assert "Approval refused" in text and STRANGER in text

    only = record(room.get("/surveillance/signins/", {"kind": "approval_refused"}))
    assert "198.51.100.20" in only and STRANGER not in only

    log = AccessLog.objects.create(username="night", ip_address="127.0.0.1", path_info="/login/")
    when = log.attempt_time.astimezone(pit.casino.zone)
    signed = record(room.get("/surveillance/signins/", {"kind": "sign_in", "username": "night"}))
    assert f"{when:%Y-%m-%d %H:%M:%S}" in signed  # in the casino's time, not UTC
    assert "Failed sign-in" not in signed


def test_a_reversed_time_range_is_refused_in_words(pit: Pit) -> None:
    page = watcher(roles.SURVEILLANCE).get(
        "/surveillance/signins/", {"start": "2026-01-02T10:00", "end": "2026-01-01T10:00"}
    )
    assert "The end of the time range must come after its start." in page.text


def test_the_pit_may_not_read_the_sign_in_record(pit: Pit) -> None:
    for role in (roles.DEALER, roles.FLOORPERSON, roles.PIT_BOSS, roles.ACCOUNTING):
        assert watcher(role).get("/surveillance/signins/").status_code == 403
