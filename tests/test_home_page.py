from __future__ import annotations

from django.test import Client
from django.utils.html import escape
from pytest_django import DjangoAssertNumQueries

from baccarat.profiles import PROFILES
from tablegame.models import Table


def test_home_redirects_an_anonymous_user_to_login(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"] == "/login/?next=/"


def test_login_page_logs_a_dealer_in_and_sends_them_home(client: Client, seeded: str) -> None:
    assert client.get("/login/").status_code == 200
    response = client.post("/login/", {"username": "dealer", "password": "baccarat"})
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_login_page_refuses_a_wrong_password(client: Client, seeded: str) -> None:
    response = client.post("/login/", {"username": "dealer", "password": "punto"})
    assert response.status_code == 200
    assert "didn't match" in response.content.decode()


def test_home_shows_a_dealer_their_role_and_the_tables(client: Client, seeded: str) -> None:
    client.login(username="dealer", password="baccarat")
    page = client.get("/").content.decode()
    assert "Hello, dealer" in page
    assert "Your role:" in page
    assert "<strong>Dealer</strong>" in page
    mine = Table.objects.get(name="MB-1")  # the demo assigns dealer to MB-1
    assert f'href="/dealer/{mine.pk}/">Your table: MB-1</a>' in page
    assert "Pit 1" in page
    for table in Table.objects.all():
        assert f'<td class="table-name">{table.name}</td>' in page
        rules = PROFILES[table.profile]
        assert f"<td>{escape(rules.title)}</td>" in page
        assert f"<td>{escape(rules.source)}</td>" in page


def test_home_queries_do_not_grow_with_the_tables(
    client: Client, seeded: str, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    client.login(username="pitboss", password="baccarat")
    # The session with its user and role (casino/sessions.py); pits with casinos, tables, their
    # Rules Submissions: one each.
    with django_assert_num_queries(4):
        client.get("/")


def test_logout_is_a_post_and_ends_the_session(client: Client, seeded: str) -> None:
    client.login(username="floor", password="baccarat")
    assert client.get("/logout/").status_code == 405
    assert client.post("/logout/").status_code == 302
    assert client.get("/").status_code == 302
