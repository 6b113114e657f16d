"""The table's state read after the lock puts the round's wagers, cards and irregularities in
place as ``prefetch_related`` would: read again for nothing, and a query chained on them (a
filter, an order, an update) still reaches this round's rows alone."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tablegame import actions, live
from tablegame.models import Round, Table, Wager
from tests.tablegame.conftest import dealer, floor, ready_table, staff

__all__ = ["dealer", "floor", "staff"]

pytestmark = pytest.mark.django_db


def wagered(table, dealer: User, stakes: dict[int, str]) -> None:
    actions.open_round(table, actor=dealer)
    for seat, amount in stakes.items():
        actions.place_wager(table, seat=seat, wager="banker", amount=amount, actor=dealer)
    actions.place_wager(table, seat=5, wager="player", amount="25", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.deal_card(table, card="9H", actor=dealer)


def test_the_round_read_after_the_lock_has_its_rows_and_chains_on_them_alone(dealer, floor):
    if connection.vendor != "postgresql":
        pytest.skip("the live read is PostgreSQL's")
    other = ready_table("s42-mini", dealer, floor)  # another table's round, with its own wagers
    wagered(other, dealer, {1: "100", 2: "200", 5: "300"})
    table = ready_table("ma-mini", dealer, floor)  # the dealer moves here
    wagered(table, dealer, {1: "25", 2: "50"})
    mine = Round.objects.get(table=table)

    with transaction.atomic():
        locked = live.lock(table.pk)
        assert locked is not None
        live.read_after_lock(locked, user_id=dealer.pk, key="")
        game = live.live(locked).last_round
        assert game is not None and game.pk == mine.pk
        with CaptureQueriesContext(connection) as read:
            wagers = sorted((w.seat, w.type, str(w.amount)) for w in game.wagers.all())
            cards = [c.code for c in game.cards.all()]
            count = game.wagers.count()
            irregularities = list(game.irregularities.all())
        assert read.captured_queries == []
        assert wagers == [(1, "banker", "25.00"), (2, "banker", "50.00"), (5, "player", "25.00")]
        assert (cards, count, irregularities) == (["9H"], 3, [])

        banker = game.wagers.filter(type="banker").order_by("-seat")
        assert [(w.seat, str(w.amount)) for w in banker] == [(2, "50.00"), (1, "25.00")]
        assert all(w.round is game for w in banker)  # the round itself, as the manager gives it
        assert game.wagers.update(ride="") == 3  # this round's three, not the other table's
    assert Wager.objects.filter(round__table=other).count() == 4


def banked_after_lock(table) -> live.Banked | None:
    with transaction.atomic():
        locked = live.lock(table.pk)
        assert locked is not None
        live.read_after_lock(locked, user_id=None, key="")
        return live.live(locked).banked


def seen(banked: live.Banked | None) -> tuple[Any, ...] | None:
    if banked is None:
        return None
    game = banked.game
    steps = [(s.index, s.phase, s.action, s.seat, s.wager_type, s.amount) for s in game.steps.all()]
    return (
        game.pk,
        game.player_dealer_bank,
        game.opened_at,
        banked.shoe,
        banked.same_player,
        steps,
    )


def test_the_player_dealers_last_hand_is_read_after_the_lock_as_the_orm_reads_it(dealer, floor):
    """Between rounds, with the steps the bank carries from (``open_round``): the same round,
    figures and steps, and whether the same player still sits at the seat."""
    if connection.vendor != "postgresql":
        pytest.skip("the live read is PostgreSQL's")
    table = ready_table("ca-commission-free", dealer, floor)
    actions.take_player_dealer(table, seat=2, actor=dealer)
    assert banked_after_lock(table) is None  # no hand banked in the position yet
    actions.open_round(table, actor=dealer)
    actions.set_player_dealer_bank(table, bank="100", actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="50", actor=dealer)
    actions.place_wager(table, seat=5, wager="player", amount="30", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ("9H", "2C", "KS", "3D"):
        actions.deal_card(table, card=card, actor=dealer)
    game = actions.settle_round(table, actor=dealer)

    read = banked_after_lock(table)
    assert seen(read) == seen(live.Live(Table.objects.get(pk=table.pk)).banked)
    assert read is not None and read.game.pk == game.pk and read.same_player
    assert len(read.game.steps.all()) == 5  # three fees, a collection and a payment

    actions.leave_seat(table, seat=2, actor=dealer)
    actions.seat_player(table, seat=2, player="Someone else", actor=dealer)
    read = banked_after_lock(table)
    assert seen(read) == seen(live.Live(Table.objects.get(pk=table.pk)).banked)
    assert read is not None and not read.same_player

    actions.open_round(table, actor=dealer)
    assert banked_after_lock(table) is None  # a round in play: nothing to carry now
