"""A command sent again with its Idempotency-Key answers the first answer and changes nothing."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from casino.models import Event
from tablegame.models import Card, CommandRecord, SettlementStep, Table
from tests.api.conftest import Tablet, new_key, table_for


def counts(table: Table) -> tuple[int, int, int, int]:
    return (
        SettlementStep.objects.filter(round__table=table).count(),
        Card.objects.filter(round__table=table).count(),
        Event.objects.filter(chain__table=table).count(),
        CommandRecord.objects.count(),
    )


def complete_coup(tablet: Tablet, table: Table) -> None:
    tablet.do(table, "round/open/")
    tablet.do(table, "round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    tablet.do(table, "round/wagers/", {"seat": 2, "type": "player", "amount": "50"})
    tablet.do(table, "round/no-more-bets/")
    for card in ["4H", "9C", "2S", "KS"]:
        tablet.do(table, "round/cards/", {"card": card})


def test_the_same_settle_sent_twice_with_one_key_settles_once_and_answers_the_same(tablet, mini):
    complete_coup(tablet, mini)
    key = new_key()
    first = tablet.post(mini, "round/settle/", key=key)
    assert first.status_code == 200
    after_first = counts(mini)
    assert after_first[0] == 3
    again = tablet.post(mini, "round/settle/", key=key)
    assert again.status_code == 200
    assert again.content == first.content
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert counts(mini) == after_first


def test_the_same_card_sent_twice_with_one_key_is_dealt_once(tablet, mini):
    tablet.do(mini, "round/open/")
    tablet.do(mini, "round/no-more-bets/")
    key = new_key()
    first = tablet.post(mini, "round/cards/", {"card": "4H"}, key=key)
    after_first = counts(mini)
    again = tablet.post(mini, "round/cards/", {"card": "4H"}, key=key)
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.content == first.content
    assert counts(mini) == after_first
    state = tablet.state(mini)
    assert state["round"]["player"] == ["4H"]
    assert state["round"]["expected"] == "Banker's first card"


def test_a_key_reused_for_another_command_is_refused_with_409(tablet, mini):
    tablet.do(mini, "round/open/")
    key = new_key()
    tablet.post(mini, "round/no-more-bets/", key=key)
    before, recorded = tablet.state(mini), counts(mini)
    response = tablet.post(mini, "round/cards/", {"card": "4H"}, key=key)
    assert response.status_code == 409
    assert response.json() == {
        "error": "This key was used for another command: send a new key with each new command."
    }
    assert tablet.state(mini) == before
    assert counts(mini) == recorded


def test_a_key_reused_with_another_card_is_refused_with_409(tablet, mini):
    tablet.do(mini, "round/open/")
    tablet.do(mini, "round/no-more-bets/")
    key = new_key()
    tablet.post(mini, "round/cards/", {"card": "4H"}, key=key)
    response = tablet.post(mini, "round/cards/", {"card": "9C"}, key=key)
    assert response.status_code == 409
    assert tablet.state(mini)["round"]["cards"] == [{"position": 1, "card": "4H", "hand": "player"}]


def test_a_key_reused_at_another_table_is_refused_with_409(tablet, mini):
    key = new_key()
    assert tablet.post(mini, "seats/3/sit/", {"player": "Ann"}, key=key).status_code == 200
    other = table_for("s42-mini")
    response = tablet.post(other, "open/", key=key)
    assert response.status_code == 409
    assert table_for("s42-mini").status == "closed"


def test_each_user_has_their_own_keys(tablet_for, mini):
    dealer, floor = tablet_for("dealer"), tablet_for("floor")
    assert dealer.post(mini, "seats/3/sit/", {"player": "Ann"}, key="same").status_code == 200
    assert floor.post(mini, "seats/4/sit/", {"player": "Bo"}, key="same").status_code == 200
    players = {s["number"]: s["player"] for s in dealer.state(mini)["seats"]}
    assert (players[3], players[4]) == ("Ann", "Bo")


def test_a_refused_command_sent_again_answers_the_same_refusal(tablet, mini):
    tablet.do(mini, "round/open/")
    key = new_key()
    first = tablet.post(mini, "round/cards/", {"card": "4H"}, key=key)
    assert first.status_code == 409
    tablet.do(mini, "round/no-more-bets/")  # the card would be due now
    again = tablet.post(mini, "round/cards/", {"card": "4H"}, key=key)
    assert (again.status_code, again.content) == (409, first.content)
    assert tablet.state(mini)["round"]["cards"] == []


@pytest.mark.parametrize(
    ("route", "body"),
    [
        ("round/cards/", {"card": "4H"}),
        ("round/wagers/", {"seat": 1, "type": "banker", "amount": "100"}),
        ("round/no-more-bets/", None),
        ("round/settle/", None),
        ("round/house-money/", {"rides": {}}),
    ],
)
def test_a_round_command_without_a_key_is_refused_with_400(tablet, mini, route, body):
    tablet.do(mini, "round/open/")
    before = tablet.state(mini)
    response = tablet.post(mini, route, body, key=None)
    assert response.status_code == 400
    assert response.json()["error"].startswith("Idempotency-Key: Send an Idempotency-Key header")
    assert tablet.state(mini) == before


def test_a_command_outside_the_round_may_go_without_a_key(tablet, mini):
    assert tablet.post(mini, "seats/3/sit/", {"player": "Ann"}, key=None).status_code == 200
    assert not CommandRecord.objects.exists()


@pytest.mark.usefixtures("events_cleared_after")
def test_a_double_tap_of_settle_at_the_same_moment_settles_once(tablet, committed_mini):
    complete_coup(tablet, committed_mini)
    key, start = new_key(), threading.Barrier(2)
    answers: list[tuple[int, bytes]] = []

    def tap() -> None:
        try:
            start.wait(timeout=10)
            response = tablet.post(committed_mini, "round/settle/", key=key)
            answers.append((response.status_code, response.content))
        finally:
            connection.close()

    taps = [threading.Thread(target=tap) for _ in range(2)]
    for thread in taps:
        thread.start()
    for thread in taps:
        thread.join(timeout=60)

    assert len(answers) == 2
    assert answers[0] == answers[1]
    assert answers[0][0] == 200
    assert SettlementStep.objects.filter(round__table=committed_mini).count() == 3
    assert Event.objects.filter(chain__table=committed_mini, action="round_settled").count() == 1


@pytest.mark.usefixtures("events_cleared_after")
def test_one_key_sent_to_two_tables_at_the_same_moment_opens_only_one(tablet_for):
    tablet = tablet_for("floor")  # a dealer works one table; the floor acts at both
    tables, key, start = (
        [table_for("ma-mini"), table_for("s42-mini")],
        new_key(),
        threading.Barrier(2),
    )
    statuses: list[int] = []

    def send(table: Table) -> None:
        try:
            start.wait(timeout=10)
            statuses.append(tablet.post(table, "open/", key=key).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(table,)) for table in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert sorted(statuses) == [200, 409]
    opened = [t.name for t in Table.objects.filter(pk__in=[t.pk for t in tables], status="open")]
    assert len(opened) == 1
    assert CommandRecord.objects.get(key=key).table.name == opened[0]
