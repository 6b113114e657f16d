"""A demo floor with staff, and helpers to walk a table through its day."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from django.contrib.auth.models import User

from casino import roles
from tablegame import actions
from tablegame.actions.dealers import assign_dealer, relieve_dealer
from tablegame.models import DealerAssignment, Table


@pytest.fixture
def staff(seeded: str) -> dict[str, User]:
    """The demo users by role name."""
    return {u.username: u for u in User.objects.all()}


@pytest.fixture
def dealer(staff: dict[str, User]) -> User:
    return staff["dealer"]


@pytest.fixture
def floor(staff: dict[str, User]) -> User:
    return staff["floor"]


def table_for(profile: str) -> Table:
    return Table.objects.get(profile=profile)


def deal_at(table: Table, dealer: User, floor: User) -> Table:
    """The floor moves ``dealer`` to ``table`` (the demo assigned one dealer to each table):
    relieves them where they deal and the table's own dealer, then assigns them."""
    current = DealerAssignment.objects.current()
    if current.filter(table=table, dealer=dealer).exists():
        return table
    for elsewhere in current.filter(dealer=dealer).select_related("table"):
        relieve_dealer(elsewhere.table, actor=floor)
    if current.filter(table=table).exists():
        relieve_dealer(table, actor=floor)
    assign_dealer(table, dealer=dealer, actor=floor)
    return table


def ready_table(
    profile: str,
    dealer: User,
    floor: User,
    *,
    seats: Iterable[int] = (1, 2, 5),
    decks: int = 8,
    options: dict[str, Any] | None = None,
) -> Table:
    """Open the table, seat players, and take a shoe through inspection, shuffle, cut and burn."""
    table = deal_at(table_for(profile), dealer, floor)
    actions.open_table(table, actor=dealer)
    if options:
        actions.file_rules(table, profile=profile, options=options, actor=floor)
    for seat in seats:
        actions.seat_player(table, seat=seat, player=f"Player {seat}", actor=dealer)
    if table.rules.has_curator:
        actions.take_shoe(table, seat=min(seats), actor=dealer)
    actions.receive_decks(table, decks=decks, actor=dealer)
    actions.inspect_decks(table, actor=dealer)
    actions.verify_inspection(table, actor=floor)
    actions.spread_decks(table, actor=dealer)
    actions.wash_decks(table, actor=dealer)
    actions.shuffle_decks(table, steps=shuffle_steps(table), actor=dealer)
    if "feather" in shuffle_steps(table):
        actions.verify_shuffle(table, actor=floor)
    actions.cut_cards(
        table, seat=None, declined=_cut_order(table), position=120, cover_from_back=20, actor=dealer
    )
    actions.burn_cards(table, first_card="3D", actor=dealer)
    return table


MANUAL = ["plug", "riffle", "riffle", "turn", "strip", "cut"]


def shuffle_steps(table: Table) -> list[str]:
    """A shuffle by hand that follows the table's procedure."""
    return {
        "feathered": [*MANUAL, "feather"],
        "laced": [*MANUAL, "lace"],
        "laced_then_reshuffled": [*MANUAL, "lace", "reshuffle"],
        "wash_and_three_dealers": ["wash", *["dealer_shuffle"] * 3, *MANUAL],
    }[table.rules.shuffle.value]


def _cut_order(table: Table) -> list[int]:
    from baccarat.seating import cut_offer_order

    return cut_offer_order(table.rules, table.occupied_seats(), last_curator=table.curator_seat)


def play(table: Table, dealer: User, wagers: list[tuple[int, str, str]], cards: list[str]) -> Any:
    """Open a round, take the wagers, deal the cards and settle it; returns the round. A dealer
    who deals another table is moved here by the floor first (a test's one dealer at many
    tables)."""
    if roles.role_of(dealer) == roles.DEALER:
        deal_at(table, dealer, User.objects.get(username="floor"))
    actions.open_round(table, actor=dealer)
    for seat, kind, amount in wagers:
        actions.place_wager(table, seat=seat, wager=kind, amount=amount, actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    game = None
    for card in cards:
        game = actions.deal_card(table, card=card, actor=dealer)
    return actions.settle_round(table, actor=dealer) if game else None
