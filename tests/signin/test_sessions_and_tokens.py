"""Sessions end when idle; API tokens expire, are kept hashed, and can be revoked; failed
sign-ins are kept (django-axes)."""

from __future__ import annotations

import datetime
import time
from io import StringIO
from unittest import mock

from axes.models import AccessFailureLog
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from casino.models import Event, StaffSession
from casino.sessions import SEEN
from tablegame.api import tokens
from tablegame.api.tokens import digest, issue_api_token
from tablegame.models import ApiToken
from tests.tablegame.conftest import dealer, floor, staff

__all__ = ["dealer", "floor", "staff"]


def test_a_session_idle_for_its_whole_idle_time_is_signed_out(db, dealer, settings):
    client = Client()
    assert client.post("/login/", {"username": "dealer", "password": "baccarat"}).status_code == 302
    assert client.get("/").status_code == 200
    session = StaffSession.objects.get()
    assert session.expire_date - timezone.now() <= datetime.timedelta(
        seconds=settings.SESSION_IDLE_SECONDS
    )
    StaffSession.objects.update(expire_date=timezone.now() - datetime.timedelta(seconds=1))
    answer = client.get("/")
    assert answer.status_code == 302 and answer["Location"].startswith("/login/")


def test_a_session_in_use_has_its_expiry_renewed(db, dealer, settings):
    client = Client()
    client.post("/login/", {"username": "dealer", "password": "baccarat"})
    session = client.session
    session[SEEN] = int(session[SEEN]) - 120  # last renewed two minutes ago
    session.save()
    StaffSession.objects.update(expire_date=timezone.now() + datetime.timedelta(minutes=5))
    client.get("/")
    left = StaffSession.objects.get().expire_date - timezone.now()
    assert left > datetime.timedelta(seconds=settings.SESSION_IDLE_SECONDS - 60)


def test_a_token_is_kept_hashed_and_works_until_it_expires(db, dealer):
    out = StringIO()
    call_command("issue_token", "dealer", "--days", "7", stdout=out)
    key = out.getvalue().strip()
    token = ApiToken.objects.get(user=dealer)
    assert token.digest == digest(key) and key not in (token.digest, token.prefix)
    assert token.prefix == key[:8]
    assert datetime.timedelta(days=6) < token.expires_at - timezone.now() <= datetime.timedelta(7)
    client = Client()
    assert client.get("/api/tables/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 200
    seven_days_on = timezone.now() + datetime.timedelta(days=7, seconds=1)
    with mock.patch("tablegame.models.tokens.timezone.now", return_value=seven_days_on):
        answer = client.get("/api/tables/", HTTP_AUTHORIZATION=f"Token {key}")
    assert answer.status_code == 401
    assert answer.json() == {"error": "This API token has expired: ask for a new one."}


def test_a_revoked_token_stops_working_at_once(db, dealer):
    _token, key = issue_api_token(dealer, label="MB-1 tablet")
    _other, kept = issue_api_token(dealer)
    out = StringIO()
    # With "=": a key may begin with "-" (one in 64), which alone would read as an option.
    call_command("revoke_tokens", "dealer", f"--prefix={key[:8]}", stdout=out)
    assert "1 token(s) of dealer revoked." in out.getvalue()
    client = Client()
    answer = client.get("/api/tables/", HTTP_AUTHORIZATION=f"Token {key}")
    assert answer.status_code == 401
    assert answer.json() == {"error": "This API token was revoked: ask for a new one."}
    assert client.get("/api/tables/", HTTP_AUTHORIZATION=f"Token {kept}").status_code == 200


def test_a_key_that_begins_with_a_dash_is_revoked_by_its_prefix(db, dealer):
    key = "-" + "A" * 42  # one key in 64 begins so
    with mock.patch("secrets.token_urlsafe", return_value=key):
        issue_api_token(dealer)
    out = StringIO()
    call_command("revoke_tokens", "dealer", f"--prefix={key[:8]}", stdout=out)
    assert "1 token(s) of dealer revoked." in out.getvalue()
    assert ApiToken.objects.get(user=dealer).revoked_at is not None


def test_a_token_used_again_is_not_read_again_until_its_recheck(db, dealer, monkeypatch):
    _token, key = issue_api_token(dealer)
    client = Client(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/tables/").status_code == 200
    with CaptureQueriesContext(connection) as again:
        assert client.get("/api/tables/").status_code == 200
    assert not [q for q in again.captured_queries if "tablegame_apitoken" in q["sql"]]

    # Revoked by another process (here, behind this one's back): refused once read again.
    ApiToken.objects.update(revoked_at=timezone.now())
    assert client.get("/api/tables/").status_code == 200
    later = time.monotonic() + tokens.RECHECK_SECONDS
    monkeypatch.setattr(tokens, "_clock", lambda: later)
    answer = client.get("/api/tables/")
    assert answer.status_code == 401
    assert answer.json() == {"error": "This API token was revoked: ask for a new one."}


def test_the_admin_revokes_a_token_and_the_record_says_who(db, dealer, staff):
    token, key = issue_api_token(dealer)
    admin = Client()
    admin.force_login(staff["admin"])
    answer = admin.post(
        "/admin/tablegame/apitoken/",
        {"action": "revoke", "_selected_action": [token.pk]},
    )
    assert answer.status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None and token.revoked_by == staff["admin"]
    change = Event.objects.filter(action="admin_change").last()
    assert change is not None
    assert change.actor == staff["admin"] and change.data["object_id"].startswith("token ")
    assert key not in str(change.data)


def test_every_failed_sign_in_is_kept(db, dealer):
    client = Client()
    for _ in range(3):
        client.post("/login/", {"username": "dealer", "password": "wrong"})
    assert AccessFailureLog.objects.filter(username="dealer").count() == 3


def test_expired_sessions_are_cleared_every_hour(db, dealer, floor):
    from casino.tasks import clear_expired_sessions
    from config.celery import app

    schedule = app.conf.beat_schedule["clear-expired-sessions"]
    assert schedule["task"] == clear_expired_sessions.name and schedule["schedule"] == 3600.0
    assert clear_expired_sessions.name in app.tasks  # the worker knows it
    Client().login(username="dealer", password="baccarat")
    Client().login(username="floor", password="baccarat")
    StaffSession.objects.filter(user=dealer).update(
        expire_date=timezone.now() - datetime.timedelta(seconds=1)
    )
    assert clear_expired_sessions() == 1
    assert list(StaffSession.objects.values_list("user", flat=True)) == [floor.pk]
