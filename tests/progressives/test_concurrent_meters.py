"""Linked tables settling at the same moment, in real concurrent PostgreSQL transactions: no
contribution is lost, every hit is at its hidden value and queued in order, the ledger runs
without a gap, and wins are paid in the order they happened."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group, User

from baccarat.seating import cut_offer_order
from casino import roles
from casino.models import Pit
from casino.record import verify_chain
from tablegame import actions
from tablegame.actions.dealers import assign_dealer
from tablegame.models import (
    DealerAssignment,
    MustHitProgressive,
    MustHitWin,
    ProgressiveEntry,
    ProgressiveMeter,
    Round,
    Table,
)
from tablegame.progressives import draw
from tablegame.progressives.actions import configure_must_hit, pay_must_hit_win
from tests.progressives.conftest import LowDraw, naturals
from tests.tablegame.conftest import shuffle_steps
from tests.tablegame.test_concurrency import at_once

SEATS = (1, 2, 3, 4, 5, 6)  # six $5 Royal 9 wagers a round: $30
ROUNDS = 8
TABLES = 3


def dealer_for(table: Table, floor: User) -> User:
    """The table's own dealer: the demo's, or one the floor assigns to a table the test added."""
    assignment = DealerAssignment.objects.current().filter(table=table).first()
    if assignment is not None:
        return assignment.dealer
    dealer = User.objects.create_user(f"dealer-{table.name.lower()}")
    dealer.groups.add(Group.objects.get(name=roles.DEALER))
    assign_dealer(table, dealer=dealer, actor=floor)
    return dealer


def ready(table: Table, dealer: User, floor: User) -> Table:
    """Open, seat, and bring a shoe to play (as tests.tablegame.conftest.ready_table does)."""
    actions.open_table(table, actor=dealer)
    for seat in SEATS:
        actions.seat_player(table, seat=seat, player=f"Player {seat}", actor=dealer)
    actions.take_shoe(table, seat=1, actor=dealer)
    actions.receive_decks(table, decks=8, actor=dealer)
    actions.inspect_decks(table, actor=dealer)
    actions.verify_inspection(table, actor=floor)
    actions.spread_decks(table, actor=dealer)
    actions.wash_decks(table, actor=dealer)
    actions.shuffle_decks(table, steps=shuffle_steps(table), actor=dealer)
    declined = cut_offer_order(table.rules, list(SEATS), last_curator=1)
    actions.cut_cards(
        table, seat=None, declined=declined, position=120, cover_from_back=20, actor=dealer
    )
    actions.burn_cards(table, first_card="3D", actor=dealer)
    return table


def deal_rounds(table: Table, dealer: User) -> int:
    for _ in range(ROUNDS):
        actions.open_round(table, actor=dealer)
        for seat in SEATS:
            actions.place_wager(table, seat=seat, wager="royal9", amount="5", actor=dealer)
        actions.no_more_bets(table, actor=dealer)
        for card in naturals(Table.objects.get(pk=table.pk)):
            actions.deal_card(table, card=card, actor=dealer)
        actions.settle_round(table, actor=dealer)
    return ROUNDS


@pytest.fixture
def linked(floor_staff, monkeypatch) -> list[Table]:
    monkeypatch.setattr(draw, "RANDOM", LowDraw(spread=100))  # hits at reset + $1.00
    floor = floor_staff["floor"]
    pit = Pit.objects.get()
    tables = [Table.objects.get(profile="ma-big")]
    for n in range(2, TABLES + 1):
        tables.append(
            Table.objects.create(pit=pit, name=f"BB-R{n}", profile="ma-big", seat_count=14)
        )
    for table in tables:
        ready(table, dealer_for(table, floor), floor)  # a dealer per table
    configure_must_hit(pit, name="Stax", configuration=3, tables=tables, actor=floor)
    return tables


def test_linked_tables_settling_at_once_lose_no_contribution_and_queue_every_hit(
    linked, floor_staff
):
    floor = floor_staff["floor"]
    dealers = [dealer_for(t, floor) for t in linked]
    dealing = (lambda t=t, d=d: deal_rounds(t, d) for t, d in zip(linked, dealers, strict=True))
    results = at_once(*dealing)
    assert results == [ROUNDS] * TABLES, results
    rounds = Round.objects.filter(table__in=linked, state="settled").count()
    assert rounds == ROUNDS * TABLES

    meter = MustHitProgressive.objects.get()
    lines = list(ProgressiveEntry.objects.filter(must_hit=meter).order_by("pk"))
    for previous, line in itertools.pairwise(lines):
        assert line.before == previous.after, (previous.pk, line.pk)  # no gap, no lost update
    assert lines[-1].after == meter.amount < meter.hit_value
    contributions = [e for e in lines if e.kind == "contribution"]
    assert len(contributions) == rounds
    assert all(Decimal(0) < e.after - e.before <= Decimal("0.60") for e in contributions)

    wins = list(MustHitWin.objects.filter(meter=meter).order_by("number"))
    assert [w.number for w in wins] == list(range(1, meter.hits + 1))
    assert meter.hits >= 10  # $14.40 in all, a hit every $1.00 at most
    assert all(w.amount == Decimal("101.00") and w.seat == 1 for w in wins)
    assert {w.table for w in wins} == set(linked)  # every table hit in turn
    added = sum((e.after - e.before for e in contributions), Decimal(0))
    paid_out = sum((w.amount - Decimal(100) for w in wins), Decimal(0))
    assert meter.amount == Decimal(100) + added - paid_out

    for table in linked:  # each table's own Royal 9 meters took every round: 6 % of $30
        star = ProgressiveMeter.objects.get(table=table, name="star")
        assert star.amount == Decimal("50000") + ROUNDS * Decimal("1.80")
        assert verify_chain(table.chain_id).ok

    # Floorpersons paying all at once: only in the order won; never a later one before.
    at_once(*(lambda w=w: pay_must_hit_win(w.pk, actor=floor) for w in wins))
    paid = list(
        MustHitWin.objects.filter(meter=meter, status="paid")
        .order_by("number")
        .values_list("number", flat=True)
    )
    assert paid == list(range(1, len(paid) + 1)) and paid
