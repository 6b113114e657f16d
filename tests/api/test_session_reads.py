"""A tablet's session: one statement reads the session, its user and their role
(``casino.sessions``); and whatever Django's own sessions refuse is refused at the very next tap.
"""

from __future__ import annotations

from django.contrib.auth.models import Group, User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from casino.models import StaffSession
from tablegame.models import Table
from tests.api.test_query_budgets import SAVEPOINTS, command_queries

OPEN = "/api/tables/{}/round/open/"
WAGER = "/api/tables/{}/round/wagers/"


def signed_in(username: str) -> APIClient:
    client = APIClient()
    assert client.login(username=username, password="baccarat")
    return client


def same_session(client: APIClient) -> APIClient:
    """Another tablet holding the same session cookie (a copied cookie, or a second tab)."""
    other = APIClient()
    other.cookies = client.cookies
    return other


def opens(client: APIClient, table: Table, key: str) -> int:
    answer = client.post(OPEN.format(table.pk), {}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    return answer.status_code


def reads(client: APIClient, table: Table) -> int:
    return client.get(f"/api/tables/{table.pk}/").status_code


def test_a_session_command_reads_its_session_user_and_role_in_one_query(
    mini: Table, staff: dict[str, User]
) -> None:
    client = signed_in("dealer")
    with CaptureQueriesContext(connection) as queries:
        assert opens(client, mini, "s-1") == 200
    statements = [q["sql"] for q in queries.captured_queries]
    before_command = len(statements) - command_queries(statements) - SAVEPOINTS
    assert before_command == 1, statements
    assert "casino_staffsession" in statements[0] and "auth_user" in statements[0]
    # The role read with the session is the one the policy answers: surveillance may not deal.
    refused = signed_in("surveillance").post(
        WAGER.format(mini.pk),
        {"seat": 1, "type": "banker", "amount": "100"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="s-2",
    )
    assert refused.status_code == 403, refused.content


def test_the_session_row_names_its_user_and_signing_out_ends_it_everywhere(
    mini: Table, staff: dict[str, User]
) -> None:
    client = signed_in("dealer")
    assert StaffSession.objects.get().user == staff["dealer"]
    other = same_session(client)
    client.post("/logout/")
    assert not StaffSession.objects.exists()
    assert opens(other, mini, "s-3") in (401, 403)
    assert not mini.rounds.exists()


def test_an_inactive_user_is_signed_out_at_the_next_tap(
    mini: Table, staff: dict[str, User]
) -> None:
    client = signed_in("dealer")
    User.objects.filter(username="dealer").update(is_active=False)
    assert opens(client, mini, "s-4") in (401, 403)
    assert not mini.rounds.exists()
    page = client.get("/")  # a page, not only the API (which checks is_active again)
    assert page.status_code == 302 and page["Location"].startswith("/login/")


def test_a_changed_password_signs_out_the_other_sessions_at_the_next_tap(
    mini: Table, staff: dict[str, User]
) -> None:
    client = signed_in("dealer")
    dealer = staff["dealer"]
    dealer.set_password("a new password")
    dealer.save()
    assert opens(client, mini, "s-5") in (401, 403)
    assert not StaffSession.objects.filter(user=dealer).exists()  # Django flushed it


def test_a_new_role_counts_from_the_next_tap(mini: Table, staff: dict[str, User]) -> None:
    client = signed_in("dealer")
    dealer = staff["dealer"]
    dealer.groups.clear()
    dealer.groups.add(Group.objects.get(name="surveillance"))
    answer = client.post(OPEN.format(mini.pk), {}, format="json", HTTP_IDEMPOTENCY_KEY="s-6")
    assert answer.status_code == 403, answer.content
    assert "dealer" in answer.json()["error"]  # who may: the rule's reason
    assert not mini.rounds.exists()


def test_the_session_rows_user_never_outranks_the_signed_session(
    mini: Table, staff: dict[str, User]
) -> None:
    """The row's user is only a way to read the user with the session: where it differs from the
    user the session's signed data names, the data's user is read and checked as Django does."""
    watcher = signed_in("surveillance")
    StaffSession.objects.update(user=staff["dealer"])
    assert opens(watcher, mini, "s-7") == 403
    StaffSession.objects.all().delete()
    dealer = signed_in("dealer")
    StaffSession.objects.update(user_id=10**9)  # nobody's
    assert opens(dealer, mini, "s-8") == 200
    assert mini.rounds.count() == 1


def test_a_session_signed_with_a_retired_secret_still_works(
    mini: Table, staff: dict[str, User], settings
) -> None:
    """A rotated SECRET_KEY: the user read with the session does not match the new hash, so
    Django's own check decides (it accepts the fallback secret and signs the session anew)."""
    client = signed_in("dealer")
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-" + "x" * 40
    assert opens(client, mini, "s-9") == 200
    assert opens(client, mini, "s-9") == 200  # the same key again: the stored answer


def test_session_data_is_checked_once_but_tampered_or_unsigned_data_is_refused_every_time(
    mini: Table, staff: dict[str, User], settings
) -> None:
    """The signature of a session's data is checked once a process and kept by the data and
    the keys: data changed in the table, or a secret key changed without a fallback, is
    refused at the next tap as Django refuses it."""
    client = signed_in("dealer")
    assert opens(client, mini, "s-10") == 200
    session = StaffSession.objects.get()
    good = session.session_data
    StaffSession.objects.update(session_data=good[:-3] + ("abc" if good[-3:] != "abc" else "xyz"))
    for _ in range(2):  # tampered: refused, and again
        assert reads(client, mini) == 401
    StaffSession.objects.update(session_data=good)
    assert reads(client, mini) == 200  # the same data as before: as good as before
    settings.SECRET_KEY = "another-secret-key-" + "y" * 40  # no fallback: signed by nobody now
    assert reads(client, mini) == 401
