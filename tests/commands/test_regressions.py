"""What the tablet's state machine (``test_commands_stateful``) found, each as a tablet meets it:
the commands over the API, each answer checked against a reload (``tests.api.conftest.Tablet``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tablegame.models import DealerAssignment, Table
from tests.api.conftest import Tablet
from tests.tablegame.conftest import ready_table

#: The state machine runs on the demo's SQLite too; so do these.
pytestmark = pytest.mark.sqlite


def ready(profile: str) -> tuple[Table, Tablet]:
    """The profile's table readied, and the tablet of the dealer the demo assigned to it."""
    floor = User.objects.get(username="floor")
    table = DealerAssignment.objects.current().get(table__profile=profile).table
    dealer = DealerAssignment.objects.current().get(table=table).dealer
    ready_table(profile, dealer, floor)
    client = APIClient()
    client.force_login(dealer)
    return table, Tablet(client)


def deal(tablet: Tablet, table: Table, cards: list[str]) -> Any:
    state = None
    for card in cards:
        state = tablet.do(table, "round/cards/", {"card": card})
    return state


def test_a_wager_a_pair_wager_stands_beside_is_not_withdrawn_from_under_it(db, seeded):
    """A pair wager needs a Banker, Player or Tie wager beside it (003): withdrawing that one
    is refused, as placing the pair alone is. Once let through, the round could be neither
    settled (the engine refuses the layout) nor void (its coup complete): the table was stuck."""
    table, tablet = ready("mini-pairs")
    tablet.do(table, "round/open/")
    tablet.do(table, "round/wagers/", {"seat": 1, "type": "player", "amount": "25"})
    tablet.do(table, "round/wagers/", {"seat": 1, "type": "player_pair", "amount": "5"})
    before = tablet.state(table)
    refused = tablet.post(table, "round/wagers/withdraw/", {"seat": 1, "type": "player"})
    assert refused.status_code == 409, refused.content
    assert "a pair wager needs a Banker, Player or Tie wager" in refused.json()["error"]
    assert tablet.state(table) == before
    tablet.do(table, "round/no-more-bets/")
    deal(tablet, table, ["4H", "9C", "2S", "KS"])  # Player 6, Banker 9
    settled = tablet.do(table, "round/settle/")
    assert [(w["type"], w["result"]) for w in settled["round"]["wagers"]] == [
        ("player", "lose"),
        ("player_pair", "lose"),
    ]


def a_simulated_round(tablet: Tablet, table: Table) -> None:
    """A card found face up (7C) starts a simulated round, which is dealt to its end: Player
    7C KS = 7 stands, Banker 2C 3D = 5 draws the 4D."""
    body = {"kind": "card_face_up", "card": "7C", "disclosed": True}
    state = tablet.do(table, "round/irregularities/", body)
    assert state["round"]["simulated"]
    deal(tablet, table, ["2C", "KS", "3D", "4D"])


def test_a_simulated_round_is_settled_over_the_api_and_the_round_it_interrupted_goes_on(db, seeded):
    """Settling a simulated round answers the round it interrupted, read before the command's
    writes wait for their flush (it was read after, and the tests' guard of the unit of work,
    ``tests.conftest.fail_reads_of_waiting_writes``, failed the command on PostgreSQL)."""
    table, tablet = ready("ma-mini")
    tablet.do(table, "round/open/")
    tablet.do(table, "round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    tablet.do(table, "round/no-more-bets/")
    a_simulated_round(tablet, table)
    resumed = tablet.do(table, "round/settle/")["round"]
    assert (resumed["number"], resumed["simulated"], resumed["state"]) == (1, False, "dealing")
    assert [(w["seat"], w["type"]) for w in resumed["wagers"]] == [(1, "banker")]


def test_the_round_settled_after_a_simulated_round_is_the_one_a_reload_shows(db, seeded):
    """Between rounds a reload shows the round that ended last, as the settlement's answer
    does: the round a simulated round interrupted, settled after it; not the simulated round,
    numbered after it but ended before it, which a reload showed in its place."""
    table, tablet = ready("ma-mini")
    tablet.do(table, "round/open/")
    tablet.do(table, "round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    tablet.do(table, "round/no-more-bets/")
    a_simulated_round(tablet, table)
    tablet.do(table, "round/settle/")  # the simulated round: the real one goes on
    deal(tablet, table, ["9H", "2C", "KS", "3D"])  # Player 9 beats Banker 5
    state = tablet.do(table, "round/settle/")  # checked against a reload
    assert (state["round"]["number"], state["round"]["simulated"]) == (1, False)
    assert [(w["seat"], w["result"]) for w in state["round"]["wagers"]] == [(1, "lose")]


def test_a_simulated_round_at_a_player_dealer_table_is_settled(db, seeded):
    """A card found face up starts a simulated round (001 follows 000 §13(d)): it has no
    wagers and nobody banks it, and it is settled like any round; the round it interrupted then
    resumes. The engine was asked to settle it with no player-dealer, and refused: the round
    could not end, nor the one it interrupted."""
    table, tablet = ready("ca-commission-free")
    tablet.do(table, "player-dealer/", {"seat": 1, "declined": []})
    tablet.do(table, "round/open/")
    tablet.do(table, "round/player-dealer-bank/", {"bank": "2000.00"})
    tablet.do(table, "round/wagers/", {"seat": 2, "type": "player", "amount": "25"})
    tablet.do(table, "round/no-more-bets/")
    a_simulated_round(tablet, table)
    state = tablet.do(table, "round/settle/")
    resumed = state["round"]
    assert not resumed["simulated"] and resumed["state"] == "dealing"
    deal(tablet, table, ["9H", "2C", "KS", "3D"])  # Player 9 beats Banker 5
    settled = tablet.do(table, "round/settle/")["round"]
    assert [(w["seat"], w["result"], w["payout"]) for w in settled["wagers"]] == [
        (2, "win", "25.00")
    ]


def test_a_player_does_not_leave_with_wagers_in_the_round_a_simulated_round_interrupted(db, seeded):
    """A player whose wagers are in play may not leave, whichever round is dealt now: during a
    simulated round, their wagers wait in the round it interrupted (they were let go, and the
    round settled wagers of an empty seat)."""
    table, tablet = ready("ma-mini")
    tablet.do(table, "round/open/")
    tablet.do(table, "round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    tablet.do(table, "round/no-more-bets/")
    tablet.do(
        table, "round/irregularities/", {"kind": "card_face_up", "card": "7C", "disclosed": True}
    )
    before = tablet.state(table)
    refused = tablet.post(table, "seats/1/leave/")
    assert refused.status_code == 409, refused.content
    assert refused.json() == {"error": "Seat 1 has wagers in play: settle the round first."}
    assert tablet.state(table) == before
    tablet.do(table, "seats/2/leave/")  # no wager: free to go
