"""Two tablets at one table at once: the table row lock serialises them; nothing settles twice."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection

from casino.models import Event
from casino.record import verify_chain
from tablegame import actions
from tablegame.models import SettlementStep
from tests.tablegame.conftest import ready_table
from tests.values import present


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; each returns its result or its exception."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        barrier.wait()
        try:
            results[i] = call()
        except Exception as error:  # the refusal is the result under test
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_two_tablets_settling_the_same_round_settle_it_once(floor_staff):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["4H", "9C", "2S", "KS"]:
        actions.deal_card(table, card=card, actor=dealer)
    results = at_once(
        lambda: actions.settle_round(table, actor=dealer),
        lambda: actions.settle_round(table, actor=dealer),
    )
    refused = [r for r in results if isinstance(r, actions.ActionError)]
    assert len(refused) == 1
    assert SettlementStep.objects.filter(round__table=table).count() == 2  # vigorish, pay
    assert Event.objects.filter(chain__table=table, action="round_settled").count() == 1
    assert verify_chain(table.chain_id).ok


def test_wagers_from_two_tablets_at_once_are_both_taken_in_a_gap_free_record(floor_staff):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    at_once(
        lambda: actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer),
        lambda: actions.place_wager(table, seat=2, wager="player", amount="50", actor=dealer),
        lambda: actions.place_wager(table, seat=5, wager="tie", amount="10", actor=dealer),
    )
    assert present(table.active_round()).wagers.count() == 3
    report = verify_chain(table.chain_id)
    assert report.ok and report.checked == Event.objects.filter(chain__table=table).count()


def test_the_same_card_entered_twice_at_once_is_dealt_once(floor_staff):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["9H", "2C", "KS"]:
        actions.deal_card(table, card=card, actor=dealer)
    results = at_once(
        lambda: actions.deal_card(table, card="3D", actor=dealer),
        lambda: actions.deal_card(table, card="3D", actor=dealer),
    )
    assert sum(isinstance(r, actions.ActionError) for r in results) == 1
    assert present(table.active_round()).cards.count() == 4
