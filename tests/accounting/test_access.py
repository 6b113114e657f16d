"""Who may open accounting's pages: the accounting role for the reports, the count and closing;
the pit for inventories and fill and credit requests; nobody else."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

REPORTS = ["accounting:day", "accounting:day-csv", "accounting:day-pdf", "accounting:master"]
COUNT_ROOM = ["accounting:close", "accounting:drop"]
PIT = ["accounting:inventory", "accounting:slip", "accounting:slip-void"]
#: A table's counts and their amendments; the thresholds.
ACCOUNTS = ["accounting:table-day", "accounting:settings"]

ALLOWED = {
    "dealer": set(),
    "floor": {"accounting:inventory", "accounting:slip", "accounting:slip-void"},
    "pitboss": {"accounting:inventory", "accounting:slip", "accounting:slip-void"},
    "clerk": {"accounting:slip"},
    "surveillance": set(),
    "accounting": set(REPORTS + COUNT_ROOM + PIT + ACCOUNTS),
    "admin": set(REPORTS + COUNT_ROOM + PIT + ACCOUNTS),
    "visitor": set(),
}


@pytest.mark.parametrize("username", sorted(ALLOWED))
def test_each_role_opens_what_it_may_and_is_refused_the_rest(seeded, username):
    if username == "visitor":
        User.objects.create_user("visitor", password="baccarat")
    client = Client()
    client.force_login(User.objects.get(username=username))
    every = REPORTS + COUNT_ROOM + PIT + ACCOUNTS
    answers = {name: client.get(reverse(name)).status_code for name in every}
    assert {name for name, status in answers.items() if status == 200} == ALLOWED[username]
    assert {status for name, status in answers.items() if name not in ALLOWED[username]} <= {403}


def test_a_pit_boss_is_refused_the_reports_with_the_reason(seeded):
    client = Client()
    client.force_login(User.objects.get(username="pitboss"))
    page = client.get(reverse("accounting:day"))
    assert page.status_code == 403
    assert "Only accounting may read the accounting reports." in page.content.decode()


def test_a_visitor_is_sent_to_log_in(seeded):
    page = Client().get(reverse("accounting:day"))
    assert page.status_code == 302 and page["Location"].startswith("/login/")


def test_the_accounting_home_links_to_the_reports(seeded):
    client = Client()
    client.force_login(User.objects.get(username="accounting"))
    assert reverse("accounting:day") in client.get("/").content.decode()
