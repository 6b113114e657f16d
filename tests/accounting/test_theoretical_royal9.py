"""Theoretical win at a table whose rules offer Royal 9 (their options hold the fixed prizes as a
mapping): each Banker and Player wager times its exact edge, as at any other table; Royal 9 has
no fixed edge and adds nothing. It was $0 at every such table: the rules could not key the
edge cache, and the error was swallowed into no edge."""

from __future__ import annotations

from decimal import Decimal

from accounting.reports import day_report, house_edge
from baccarat.profiles import PROFILES
from tests.accounting.conftest import BANKER_WINS
from tests.tablegame.conftest import play, ready_table
from tests.values import present

D = Decimal


def test_the_royal9_rules_have_the_exact_edges_of_their_wagers():
    rules = PROFILES["ma-big"]
    assert rules.royal9 is not None
    # Published exact edges for eight decks: Banker 1.0579 %, Player 1.2351 %.
    assert round(float(present(house_edge(rules, 8, "banker"))), 6) == 0.010579
    assert round(float(present(house_edge(rules, 8, "player"))), 6) == 0.012351
    assert house_edge(rules, 8, "royal9") is None


def test_a_royal9_tables_theoretical_win_is_its_wagers_times_their_edges(staff):
    table = ready_table("ma-big", staff["dealer9"], staff["floor"])  # BB-1's dealer
    dealer = staff["dealer9"]
    play(
        table, dealer, [(1, "banker", "100"), (2, "player", "50"), (5, "royal9", "5")], BANKER_WINS
    )
    day = table.pit.casino.gaming_day(present(table.rounds.get().settled_at))
    line = next(t for t in day_report(table.pit.casino, day).tables if t.table_id == table.pk)
    expected = 100 * D("0.010579") + 50 * D("0.012351")  # 1.67545
    assert line.theoretical == expected.quantize(D("0.01")) == D("1.68")
