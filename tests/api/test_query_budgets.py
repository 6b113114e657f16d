"""Each command's cost in SQL queries, over the API as a tablet sends it: a budget per command
type, so that a change that adds queries to the live path fails here.

Two counts per command. The command's own: from the table's lock to the last write before
COMMIT (``tablegame.commands``: the lock, one read of the table's state in play, the writes, then
the events with the command record in one statement). And the whole request: besides, the
session read with its user and their role (1, ``casino.sessions``;
``tests/api/test_session_reads.py``) and the command record's savepoint inside the test's own
transaction (2; BEGIN and COMMIT in production, which Django does not count). A token costs one
query too (``test_a_token_command_reads_its_token_user_and_role_in_one_query``), and none when
its process read it less than 5 s before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tablegame.api.tokens import issue_api_token
from tablegame.models import Table
from tests.api.conftest import Tablet, apply_answer, ready_table, table_for
from tests.progressives.conftest import naturals
from tests.tablegame.conftest import deal_at

#: The most queries of the command itself (issue 10: at most 6 for a card or a wager).
COMMAND_BUDGETS = {
    "round/open/": 4,
    "round/wagers/": 3,
    "round/no-more-bets/": 3,
    "round/cards/": 3,
    "round/cards/ (the coup completes)": 3,
    "round/settle/": 3,  # 4 where vigorish is marked: the markers' keys taken first
    # Royal 9 (big tables): the table's meters are in its state in play (its lock is theirs); the
    # meters and ledger lines are written with the record, a win as a contribution. A table that
    # feeds a must-hit meter locks it besides (4).
    "round/settle/ (Royal 9)": 3,
    "round/house-money/": 3,
    # Between rounds: the lock, the read after it and the one write (the answer, the cut offered
    # from the new curator included, is made from the state in play).
    "curator/": 3,
    "player-dealer/": 3,
    # A player seated (name, card or both): the lock, the read after it, the write.
    "seats/<n>/sit/": 3,
}
#: And of the whole request, as a tablet logged in with its session sends it.
AUTH, SAVEPOINTS = 1, 2
BUDGETS = {route: n + AUTH + SAVEPOINTS for route, n in COMMAND_BUDGETS.items()}


@dataclass(frozen=True)
class Used:
    command: int
    request: int


Count = Callable[..., Used]


def command_queries(statements: list[str]) -> int:
    """The command's own: from the table's lock on, savepoints not counted."""
    locked = next(i for i, sql in enumerate(statements) if "FOR NO KEY UPDATE" in sql)
    return sum(1 for sql in statements[locked:] if "SAVEPOINT" not in sql)


def sent(
    tablet: Tablet, table: Table, route: str, body: dict[str, Any] | None = None
) -> tuple[Used, Any]:
    """Send one command, which must succeed: how many queries it took, and its answer."""
    with CaptureQueriesContext(connection) as queries:
        response = tablet.post(table, route, body)
    assert response.status_code == 200, response.content
    # Read now: Django keeps a bounded log of queries, and later ones push these out.
    statements = [q["sql"] for q in queries.captured_queries]
    return Used(command=command_queries(statements), request=len(statements)), response.json()


@pytest.fixture
def count(tablet: Tablet, mini: Table) -> Count:
    """Send one command; how many queries it took (it must succeed)."""

    def send(route: str, body: dict[str, Any] | None = None) -> Used:
        return sent(tablet, mini, route, body)[0]

    return send


def test_each_command_of_a_round_keeps_to_its_query_budget(count: Count) -> None:
    used = {"round/open/": count("round/open/")}
    used["round/wagers/"] = count("round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    count("round/wagers/", {"seat": 2, "type": "player", "amount": "50"})
    used["round/no-more-bets/"] = count("round/no-more-bets/")
    cards = [count("round/cards/", {"card": card}) for card in ("4H", "9C", "2S")]
    used["round/cards/"] = max(cards, key=lambda n: (n.command, n.request))
    used["round/cards/ (the coup completes)"] = count("round/cards/", {"card": "KS"})
    used["round/settle/"] = count("round/settle/")
    over = {
        route: (n, COMMAND_BUDGETS[route], BUDGETS[route])
        for route, n in used.items()
        if n.command > COMMAND_BUDGETS[route] or n.request > BUDGETS[route]
    }
    assert not over, f"over budget (used, command budget, request budget): {over}"


def test_seating_a_player_by_name_and_card_keeps_to_its_query_budget(count: Count) -> None:
    used = count("seats/3/sit/", {"player": "Ann Lee", "card": "12345"})
    assert used == Used(
        command=COMMAND_BUDGETS["seats/<n>/sit/"], request=BUDGETS["seats/<n>/sit/"]
    )
    by_card = count("seats/4/sit/", {"card": "9001"})
    assert by_card == used


def settle_cost(count: Count, wagers: list[tuple[int, str, str]]) -> Used:
    count("round/open/")
    for seat, kind, amount in wagers:
        count("round/wagers/", {"seat": seat, "type": kind, "amount": amount})
    count("round/no-more-bets/")
    for card in ("4H", "9C", "2S", "KS"):
        count("round/cards/", {"card": card})
    return count("round/settle/")


def test_settlement_costs_the_same_whatever_the_number_of_wagers(
    count: Count, tablet: Tablet, mini: Table
) -> None:
    one = settle_cost(count, [(1, "banker", "100")])
    many = settle_cost(
        count,
        [
            (1, "banker", "100"),
            (1, "tie", "10"),
            (2, "player", "50"),
            (2, "tie", "5"),
            (5, "banker", "200"),
            (5, "player", "25"),
        ],
    )
    assert many == one
    assert one.command <= COMMAND_BUDGETS["round/settle/"]


def house_money_cost(count: Count, seats: list[int]) -> Used:
    count("round/open/")
    for seat in seats:
        count("round/wagers/", {"seat": seat, "type": "banker", "amount": "100"})
        count("round/wagers/", {"seat": seat, "type": "house_money", "amount": "10"})
    count("round/no-more-bets/")
    for card in ("2H", "3C", "2S", "KD"):  # the Player's pair of twos: House Money wins
        count("round/cards/", {"card": card})
    used = count("round/house-money/", {"rides": {str(seats[0]): "banker"}})
    for card in ("5D", "4C"):
        count("round/cards/", {"card": card})
    count("round/settle/")
    return used


def test_house_money_costs_the_same_whatever_the_number_of_its_wagers(count: Count) -> None:
    """Settling House Money before the third cards: the rides and results of every House Money
    wager, its steps, the round and its event in the command's one write."""
    one = house_money_cost(count, [1])
    many = house_money_cost(count, [1, 2, 5])
    assert many == one
    assert one.command <= COMMAND_BUDGETS["round/house-money/"]
    assert one.request <= BUDGETS["round/house-money/"]


def test_a_token_command_reads_its_token_user_and_role_in_one_query(
    mini: Table, staff: dict[str, User]
) -> None:
    """A tablet or a script with an API token: one statement for the token, its user and the
    user's role, and the role is the one the policy answers (surveillance may not deal)."""
    _, key = issue_api_token(staff["dealer"])
    client = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(
            f"/api/tables/{mini.pk}/round/open/", {}, format="json", HTTP_IDEMPOTENCY_KEY="t-1"
        )
    assert answer.status_code == 200, answer.content
    statements = [q["sql"] for q in queries.captured_queries]
    assert len(statements) - command_queries(statements) - SAVEPOINTS == 1
    _, watcher_key = issue_api_token(staff["surveillance"])
    refused = APIClient(HTTP_AUTHORIZATION=f"Token {watcher_key}").post(
        f"/api/tables/{mini.pk}/round/wagers/",
        {"seat": 1, "type": "banker", "amount": "100"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="t-2",
    )
    assert refused.status_code == 403, refused.content


def test_the_curator_and_the_player_dealer_take_their_place_within_the_budget(
    tablet: Tablet, dealer: User, floor: User
) -> None:
    """Between rounds, the shoe (big table) or the player-dealer position (California) taken: the
    rules in force, the round and the seats as read after the lock; the table's new seat holder
    written with the event and the command record, in one statement."""

    big = ready_table("ma-big", dealer, floor, seats=(1, 3, 10))
    tablet.do(big, "curator/pass/", {"ordered": True})
    taken, _ = sent(tablet, big, "curator/", {"seat": 10, "declined": [1, 3]})
    assert taken == Used(command=COMMAND_BUDGETS["curator/"], request=BUDGETS["curator/"])
    assert tablet.state(big)["table"]["curator_seat"] == 10

    california = deal_at(table_for("ca-commission-free"), dealer, floor)  # the dealer moves
    tablet.do(california, "open/")
    for seat in (1, 2, 4):
        tablet.do(california, f"seats/{seat}/sit/", {"player": f"P{seat}"})
    taken, _ = sent(tablet, california, "player-dealer/", {"seat": 4})
    assert taken == Used(
        command=COMMAND_BUDGETS["player-dealer/"], request=BUDGETS["player-dealer/"]
    )
    assert tablet.state(california)["table"]["player_dealer_seat"] == 4


def test_a_royal_9_settlement_keeps_to_its_budget_whether_a_meter_is_won_or_not(
    tablet: Tablet, dealer: User, floor: User
) -> None:
    """The meters contributed to (three Royal 9 meters and the must-hit meter's lock), and in the
    next round the Spade won in full and reseeded: the same count, within the budget."""
    big = ready_table("ma-big", dealer, floor, seats=(1, 2))

    def settle(seats: tuple[int, ...], cards: list[str]) -> Used:
        tablet.do(big, "round/open/")
        for seat in seats:
            tablet.do(big, "round/wagers/", {"seat": seat, "type": "royal9", "amount": "5"})
        tablet.do(big, "round/no-more-bets/")
        for card in cards:
            tablet.do(big, "round/cards/", {"card": card})
        used, answer = sent(tablet, big, "round/settle/")
        # The answer's meters as the database holds them after the write (as ``Tablet.do``).
        kept = apply_answer(tablet.kept[big.pk], answer)
        assert kept == tablet.state(big), "the settlement's answer left the meters stale"
        tablet.kept[big.pk] = kept
        return used

    contributed = settle((1, 2), naturals(big))
    # Seat 1's Personal King-9 is K♣ 9♦, held by the Banker: the Spade pays in full.
    won = settle((1,), ["2H", "KC", "3S", "9D"])
    assert tablet.state(big)["meters"]["spade"] == "450.00"
    budget = COMMAND_BUDGETS["round/settle/ (Royal 9)"]
    assert contributed == won == Used(command=budget, request=budget + AUTH + SAVEPOINTS)


def test_a_california_hand_opens_with_the_bank_carried_within_the_budget(
    tablet: Tablet, dealer: User, floor: User
) -> None:
    """The player-dealer's last hand and its steps are read with the table's state after the lock
    (``Live.banked``): the next hand opens with its bank carried for no query more, and the
    answer gives the tablet the bank and the record's carried event."""
    california = deal_at(table_for("ca-commission-free"), dealer, floor)  # the dealer moves
    tablet.do(california, "open/")
    for seat in (1, 2, 4):
        tablet.do(california, f"seats/{seat}/sit/", {"player": f"P{seat}"})
    tablet.do(california, "player-dealer/", {"seat": 4})
    tablet.do(california, "shoe/receive/", {"decks": 8, "preinspected": True})
    cut = {"seat": None, "declined": [4, 2, 1], "position": 100, "cover_from_back": 20}
    tablet.do(california, "shoe/cut/", cut)
    tablet.do(california, "shoe/burn/", {"first_card": "KD"})
    first, answer = sent(tablet, california, "round/open/")
    tablet.kept[california.pk] = apply_answer(tablet.kept[california.pk], answer)
    tablet.do(california, "round/player-dealer-bank/", {"bank": "100"})
    tablet.do(california, "round/wagers/", {"seat": 1, "type": "banker", "amount": "50"})
    tablet.do(california, "round/no-more-bets/")
    for card in ("9H", "2C", "KS", "3D"):  # Player 9 over Banker 5: seat 1's 50 collected
        tablet.do(california, "round/cards/", {"card": card})
    tablet.do(california, "round/settle/")

    carried, answer = sent(tablet, california, "round/open/")
    assert carried == first
    assert carried.command <= COMMAND_BUDGETS["round/open/"]
    assert (answer["round"]["player_dealer_bank"], answer["round"]["bank"]["bank"]) == (
        "150.00",
        "150.00",
    )
    assert [e["action"] for e in answer["events"]] == ["round_opened", "player_dealer_bank"]
    assert answer["events"][1]["data"]["carried_from"] == {
        "shoe": 1,
        "round": 1,
        "bank": "100.00",
        "result": "50.00",
    }
    kept = apply_answer(tablet.kept[california.pk], answer)
    assert kept == tablet.state(california), "the opening's answer left the tablet's bank stale"
