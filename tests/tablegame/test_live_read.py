"""The table's state read after the lock puts the round's wagers, cards and irregularities in
place as ``prefetch_related`` would: read again for nothing, and a query chained on them (a
filter, an order, an update) still reaches this round's rows alone."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tablegame import actions, live
from tablegame.models import Round, Wager
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
