"""The table's state in play, read in one statement after its lock, holds what the ORM reads of
the same rows: this round's wagers and cards (not another table's), the California
player-dealer's last hand with its steps, and whether the same player still sits at its seat. The
same on PostgreSQL and on the demo's SQLite (``make test-sqlite``)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from tablegame import actions
from tablegame.models import Round, SettlementStep, Shoe, Wager
from tablegame.play import reading
from tablegame.play.rows import ROW_TYPES
from tablegame.play.state import InPlay
from tests.tablegame.conftest import dealer, floor, ready_table, staff

__all__ = ["dealer", "floor", "staff"]

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def read_locked(table_id: int, user: User | None = None) -> InPlay:
    with transaction.atomic():
        locked = reading.lock(table_id)
        assert locked is not None
        return reading.read(locked, user_id=user.pk if user else None).state


def wagered(table: Any, dealer: User, stakes: dict[int, str]) -> None:
    actions.open_round(table, actor=dealer)
    for seat, amount in stakes.items():
        actions.place_wager(table, seat=seat, wager="banker", amount=amount, actor=dealer)
    actions.place_wager(table, seat=5, wager="player", amount="25", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.deal_card(table, card="9H", actor=dealer)


def test_every_row_type_holds_its_models_columns_no_more_no_fewer() -> None:
    for model, row_type in ROW_TYPES.items():
        assert [f.name for f in fields(row_type)] == [  # type: ignore[arg-type]
            f.attname for f in model._meta.concrete_fields
        ], row_type.__name__


def test_the_round_read_after_the_lock_is_this_tables_as_the_orm_reads_it(dealer, floor):
    other = ready_table("s42-mini", dealer, floor)  # another table's round, with its own wagers
    wagered(other, dealer, {1: "100", 2: "200", 5: "300"})
    table = ready_table("ma-mini", dealer, floor)  # the dealer moves here
    wagered(table, dealer, {1: "25", 2: "50"})
    mine = Round.objects.get(table=table)

    state = read_locked(table.pk, dealer)
    game = state.in_play
    assert game is not None and game.id == mine.pk
    assert (game.state, game.number, game.opened_at) == (mine.state, mine.number, mine.opened_at)
    orm = [(w.pk, w.seat, w.type, w.amount, w.placed_at) for w in mine.wagers.all()]
    assert [(w.id, w.seat, w.type, w.amount, w.placed_at) for w in state.wagers] == orm
    assert [str(w.amount) for w in state.wagers] == ["25.00", "50.00", "25.00"]
    assert [c.code for c in state.cards] == ["9H"]
    shoe = Shoe.objects.get(pk=game.shoe_id)
    assert state.shoe is not None and dict(state.shoe.remaining) == shoe.remaining
    assert state.occupied == tuple(table.occupied_seats())
    assert Wager.objects.filter(round__table=other).count() == 4


def test_the_player_dealers_last_hand_is_read_after_the_lock_as_the_orm_reads_it(dealer, floor):
    """Between rounds, with the steps the bank carries from (``open_round``): the same round,
    figures and steps, and whether the same player still sits at the seat."""
    table = ready_table("ca-commission-free", dealer, floor)
    actions.take_player_dealer(table, seat=2, actor=dealer)
    assert read_locked(table.pk).banked is None  # no hand banked in the position yet
    actions.open_round(table, actor=dealer)
    actions.set_player_dealer_bank(table, bank="100", actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="50", actor=dealer)
    actions.place_wager(table, seat=5, wager="player", amount="30", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ("9H", "2C", "KS", "3D"):
        actions.deal_card(table, card=card, actor=dealer)
    game = actions.settle_round(table, actor=dealer)

    banked = read_locked(table.pk).banked
    assert banked is not None and banked.game.id == game.pk and banked.same_player
    assert banked.game.player_dealer_bank == game.player_dealer_bank
    steps = SettlementStep.objects.filter(round=game).order_by("index")
    assert [(s.index, s.action, s.seat, s.amount) for s in banked.steps] == [
        (s.index, s.action, s.seat, s.amount) for s in steps
    ]
    assert len(banked.steps) == 5  # three fees, a collection and a payment
    assert banked.shoe == game.shoe.number

    actions.leave_seat(table, seat=2, actor=dealer)
    actions.seat_player(table, seat=2, player="Someone else", actor=dealer)
    banked = read_locked(table.pk).banked
    assert banked is not None and not banked.same_player

    actions.open_round(table, actor=dealer)
    assert read_locked(table.pk).banked is None  # a round in play: nothing to carry now
