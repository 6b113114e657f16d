"""Each command's cost in SQL queries, over the API as a tablet sends it: a budget per command
type, so that a change that adds queries to the live path fails here.

The counts are of the whole request: the session, the user and their role (3), the command
record's savepoint inside the test's own transaction (2; BEGIN and COMMIT in production, which
Django does not count), and the command itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tablegame.models import Table
from tests.api.conftest import Tablet

#: The most queries each command may take (measured; lower them as the path gets leaner).
BUDGETS = {  # +1 each (issue 12): is the dealer the table's assigned dealer (tablegame.dealers)
    "round/open/": 22,
    "round/wagers/": 17,
    "round/no-more-bets/": 15,
    "round/cards/": 15,
    "round/cards/ (the coup completes)": 17,
    "round/settle/": 30,
}

Count = Callable[..., int]


@pytest.fixture
def count(tablet: Tablet, mini: Table) -> Count:
    """Send one command; how many queries it took (it must succeed)."""

    def send(route: str, body: dict[str, Any] | None = None) -> int:
        with CaptureQueriesContext(connection) as queries:
            response = tablet.post(mini, route, body)
        assert response.status_code == 200, response.content
        return len(queries)

    return send


def test_each_command_of_a_round_keeps_to_its_query_budget(count: Count) -> None:
    used = {"round/open/": count("round/open/")}
    used["round/wagers/"] = count("round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    count("round/wagers/", {"seat": 2, "type": "player", "amount": "50"})
    used["round/no-more-bets/"] = count("round/no-more-bets/")
    cards = [count("round/cards/", {"card": card}) for card in ("4H", "9C", "2S")]
    used["round/cards/"] = max(cards)
    used["round/cards/ (the coup completes)"] = count("round/cards/", {"card": "KS"})
    used["round/settle/"] = count("round/settle/")
    over = {route: (n, BUDGETS[route]) for route, n in used.items() if n > BUDGETS[route]}
    assert not over, f"over budget (used, budget): {over}"


def settle_cost(count: Count, wagers: list[tuple[int, str, str]]) -> int:
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
    assert many == one <= BUDGETS["round/settle/"]
