"""Every kind of table event is a typed payload that the record stores and reads back exactly."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterator
from decimal import Decimal
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from baccarat.seating import curator_offer_order
from casino.events import KINDS, PayloadMismatch, event_lookup, payload_of
from casino.models import Event
from tablegame import actions
from tablegame.actions.corrections import correct_card
from tablegame.actions.dealers import assign_dealer, relieve_dealer
from tablegame.actions.notices import acknowledge_procedure_notice
from tablegame.actions.shoes import set_deck_schedule
from tablegame.actions.tables import set_seat_count
from tablegame.events import (
    ROUND_KINDS,
    CardDealt,
    RoundSettled,
    TableEvent,
    TablePayload,
)
from tablegame.models import MustHitWin, ProcedureNotice, Round, Table, VigorishMarker
from tablegame.play.parts import table_state_now
from tablegame.progressives import draw
from tablegame.progressives.actions import configure_must_hit, pay_must_hit_win, set_star_option
from tablegame.tasks import rules_take_effect
from tests.conftest import kept_for_the_module
from tests.progressives.conftest import LowDraw
from tests.tablegame.conftest import deal_at, play, ready_table, shuffle_steps, table_for
from tests.values import present

BANKER_NATURAL = ["4H", "9C", "2S", "KS"]  # Player 6, Banker 9
PLAYER_NATURAL = ["9H", "2C", "KS", "3D"]  # Player 9, Banker 5


def a_mini_baccarat_day(dealer, floor) -> Table:
    """Limits, wagers changed and withdrawn, House Money, markers, a face-up card, a void round,
    the cut card and the shoe's end, a recut, an idle spread and the table closed."""
    table = ready_table("ma-mini", dealer, floor, options={"vigorish_collection": "deferred"})
    actions.set_limit(
        table, wager="banker", minimum=Decimal("10"), maximum=Decimal("5000"), actor=floor
    )
    set_seat_count(table, seats=8, reason="Seat 9 broken", actor=floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=2, wager="banker", amount="100", actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="40", actor=dealer)
    actions.place_wager(table, seat=5, wager="player", amount="40", actor=dealer)
    actions.place_wager(table, seat=5, wager="player", amount="50", actor=dealer)
    actions.place_wager(table, seat=5, wager="tie", amount="10", actor=dealer)
    actions.withdraw_wager(table, seat=5, wager="tie", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.relinquish_cards(table, hand="player", actor=dealer)
    for card in BANKER_NATURAL:
        actions.deal_card(table, card=card, actor=dealer)
    correct_card(table, position=4, card="KH", approver=floor, actor=dealer)  # KS was a mis-key
    actions.settle_round(table, actor=dealer)
    markers = {m.seat: m for m in VigorishMarker.objects.filter(table=table)}
    actions.collect_marker(table, marker_id=markers[2].pk, actor=dealer)
    actions.request_vigorish_form(
        table, marker_id=markers[1].pk, reason="Player left in a hurry", actor=dealer
    )

    actions.open_round(table, actor=dealer)  # House Money, ridden on the Banker wager
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.place_wager(table, seat=1, wager="house_money", amount="10", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["2H", "3C", "2S", "KD"]:
        actions.deal_card(table, card=card, actor=dealer)
    actions.settle_house_money_wagers(table, rides={1: "banker"}, actor=dealer)
    for card in ["5D", "4C"]:
        actions.deal_card(table, card=card, actor=dealer)
    actions.settle_round(table, actor=dealer)

    actions.open_round(table, actor=dealer)  # a card found face up: a simulated round first
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.report_irregularity(table, kind="card_face_up", card="7C", actor=dealer)
    for card in ["2C", "KS", "3D", "4D"]:
        actions.deal_card(table, card=card, actor=dealer)
    actions.settle_round(table, actor=dealer)
    for card in PLAYER_NATURAL:
        actions.deal_card(table, card=card, actor=dealer)
    actions.settle_round(table, actor=dealer)

    actions.open_round(table, actor=dealer)  # a player leaves while wagers are open
    actions.place_wager(table, seat=5, wager="player", amount="25", actor=dealer)
    actions.leave_seat(table, seat=5, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="25", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.deal_card(table, card="8H", actor=dealer)
    actions.void_round(table, reason="Shoe damaged, floor decision", actor=floor)

    actions.cut_card_out(table, actor=dealer)
    play(table, dealer, [], PLAYER_NATURAL)  # "last hand" next
    play(table, dealer, [], PLAYER_NATURAL)  # the last hand: "shoe over"
    actions.end_shoe(table, actor=dealer)

    actions.receive_decks(table, decks=8, new_decks=False, actor=dealer)
    actions.shuffle_decks(table, steps=shuffle_steps(table), actor=dealer)
    actions.verify_shuffle(table, actor=floor)
    cut = {"seat": None, "position": 120, "cover_from_back": 20, "actor": dealer}
    actions.cut_cards(
        table, declined=present(table_state_now(table.pk))["shoe"]["cut_offer"], **cut
    )
    actions.order_recut(table, reason="The cut card went in crooked", actor=floor)
    actions.cut_cards(
        table, declined=present(table_state_now(table.pk))["shoe"]["cut_offer"], **cut
    )
    actions.burn_cards(table, first_card="3D", actor=dealer)
    soon = timezone.now() + datetime.timedelta(hours=2)
    set_deck_schedule(table, due_at=soon, reason="New decks before the evening", actor=floor)
    actions.respread_idle_shoe(table, actor=dealer)
    actions.end_shoe(table, actor=dealer)
    actions.close_table(table, actor=dealer)
    return table


def a_big_table_day(dealer, floor) -> Table:
    """The curator passes the shoe, takes it again, is ordered to pass; a Royal 9 meter pays."""
    table = ready_table("ma-big", dealer, floor, seats=(1, 2, 3))
    set_star_option(table, option=1, actor=floor)
    with mock.patch.object(draw, "RANDOM", LowDraw()):  # a must-hit hit at once
        configure_must_hit(table.pit, name="Stax", configuration=3, tables=[table], actor=floor)
        play(table, dealer, [(1, "royal9", "5"), (2, "royal9", "5")], ["2H", "KC", "3S", "9D"])
    pay_must_hit_win(MustHitWin.objects.get(table=table), actor=floor)
    relieve_dealer(table, actor=floor)  # a break, and back
    assign_dealer(table, dealer=dealer, actor=floor)
    play(table, dealer, [(3, "player", "100")], PLAYER_NATURAL)  # Banker loses: the shoe passes
    table.refresh_from_db()
    order = curator_offer_order(table.occupied_seats(), previous=table.previous_curator_seat)
    actions.take_shoe(table, seat=order[0], actor=dealer)
    actions.pass_shoe(table, ordered=True, actor=dealer)
    later = timezone.now() + datetime.timedelta(minutes=45)
    filed = actions.file_rules(
        table,
        profile="ma-big",
        options={"commission_rate": "0.04"},
        effective_at=later,
        actor=floor,
    )
    officer = User.objects.get(username="surveillance")
    acknowledge_procedure_notice(ProcedureNotice.objects.get(rules=filed), actor=officer)
    # Filed now, before it: the commission change is restated over it; then it takes effect.
    actions.file_rules(table, profile="ma-big", options={"tie_odds": 9}, actor=floor)
    with mock.patch("django.utils.timezone.now", return_value=later):
        rules_take_effect(filed.pk)
    return table


def a_california_day(dealer, floor) -> Table:
    """The player-dealer banks two hands, then the position rotates."""
    table = deal_at(table_for("ca-commission-free"), dealer, floor)
    actions.open_table(table, actor=dealer)
    for seat in (1, 2, 4, 5):
        actions.seat_player(table, seat=seat, player=f"P{seat}", actor=dealer)
    actions.take_player_dealer(table, seat=4, actor=dealer)
    actions.receive_decks(table, decks=8, preinspected=True, actor=dealer)
    actions.cut_cards(
        table, seat=None, declined=[5, 4, 2, 1], position=100, cover_from_back=20, actor=dealer
    )
    actions.burn_cards(table, first_card="KD", actor=dealer)
    for _hand in range(2):
        actions.open_round(table, actor=dealer)
        actions.set_player_dealer_bank(table, bank="100", actor=dealer)
        actions.place_wager(table, seat=2, wager="banker", amount="50", actor=dealer)
        actions.place_wager(table, seat=1, wager="banker", amount="80", actor=dealer)
        actions.no_more_bets(table, actor=dealer)
        for card in ["2H", "3C", "3S", "KS", "KD", "4H"]:
            actions.deal_card(table, card=card, actor=dealer)
        actions.settle_round(table, actor=dealer)
    return table


@pytest.fixture(scope="module")
def played_kept(demo_floor: str, django_db_blocker: Any) -> Iterator[list[int]]:
    """The three days of ``played``, played once for the module's tests, each of which changes
    them only in its own transaction; the tables' pks."""
    yield from kept_for_the_module(django_db_blocker, _play_three_days)


def _play_three_days() -> list[int]:
    dealer, floor = (User.objects.get(username=name) for name in ("dealer", "floor"))
    days = (a_mini_baccarat_day, a_big_table_day, a_california_day)
    return [day(dealer, floor).pk for day in days]


@pytest.fixture
def played(played_kept: list[int], seeded: str) -> list[Table]:
    """A Mini-Baccarat day, a big table's and a California one."""
    return [Table.objects.get(pk=pk) for pk in played_kept]


def test_every_table_event_kind_has_a_registered_payload_with_a_title():
    for kind in TableEvent:
        payload = KINDS.get(kind.value)
        assert payload is not None, f"{kind.value} has no payload class"
        assert payload.kind is kind and issubclass(payload, TablePayload)
        assert dataclasses.is_dataclass(payload) and payload.__dataclass_params__.frozen
        assert payload.title.strip(), f"{kind.value} has no title"


def test_every_event_of_a_played_day_reads_back_as_stored_and_describes_itself(played):
    events = list(Event.objects.filter(chain__table__in=played).order_by("chain", "sequence"))
    for event in events:
        payload = payload_of(event.action, event.data)
        assert isinstance(payload, TablePayload)
        assert payload.as_data() == event.data, event.action
        sentence = payload.describe()
        assert sentence.strip() and "None" not in sentence, (event.action, sentence)
    assert {e.action for e in events} == {kind.value for kind in TableEvent}


def test_a_settled_round_records_every_figure_of_its_wagers_and_its_outcome(played):
    table = played[0]
    game = Round.objects.get(table=table, shoe__number=1, number=1)
    event = Event.objects.get(**RoundSettled.lookup(round=1), chain__table=table)
    settled = payload_of(event.action, event.data)
    assert isinstance(settled, RoundSettled)
    assert (settled.winner.value, settled.player_total, settled.banker_total) == (
        game.winner,
        game.player_total,
        game.banker_total,
    )
    assert settled.announcement == game.announcement == "Banker wins, 9 over 6"
    assert list(settled.tags) == game.tags
    recorded = {
        (w.seat, w.wager.value): (w.result.value, w.payout, w.vigorish, w.returned, w.fee)
        for w in settled.wagers
    }
    assert recorded == {
        (w.seat, w.type): (w.result, w.payout, w.vigorish, w.returned, w.fee)
        for w in game.wagers.all()
    }
    assert recorded[(2, "banker")] == (
        "win",
        Decimal("100.00"),
        Decimal("5.00"),
        Decimal(0),
        Decimal(0),
    )


def test_a_payload_with_a_renamed_key_does_not_read_back(played):
    dealt = Event.objects.filter(action="card_dealt").first()
    assert dealt is not None
    renamed = {("code" if k == "card" else k): v for k, v in dealt.data.items()}
    with pytest.raises(PayloadMismatch, match="keys not in CardDealt: code; missing: card"):
        payload_of("card_dealt", renamed)

    settled = Event.objects.filter(action="round_settled").first()
    assert settled is not None
    steps = [dict(settled.data["steps"][0]), *settled.data["steps"][1:]]
    steps[0]["wager_type"] = steps[0].pop("wager")
    with pytest.raises(PayloadMismatch, match=r"round_settled\.steps\[0\]: keys not in StepRecord"):
        payload_of("round_settled", settled.data | {"steps": steps})


def test_a_value_of_another_type_does_not_read_back(played):
    dealt = present(Event.objects.filter(action="card_dealt").first()).data
    with pytest.raises(PayloadMismatch, match=r"card_dealt\.position: '1' is not int"):
        payload_of("card_dealt", dealt | {"position": "1"})
    with pytest.raises(PayloadMismatch, match=r"card_dealt\.hand: 'dealer' is not Hand"):
        payload_of("card_dealt", dealt | {"hand": "dealer"})
    with pytest.raises(PayloadMismatch, match="is null"):
        payload_of("card_dealt", dealt | {"round": None})


def test_a_query_on_a_field_the_payload_does_not_have_fails_loudly():
    assert CardDealt.lookup(round=3) == {"action": "card_dealt", "data__round": 3}
    with pytest.raises(ValueError, match="CardDealt has no field box"):
        CardDealt.lookup(box="player")
    with pytest.raises(ValueError, match="has no field shoe"):
        event_lookup(*ROUND_KINDS, shoe=1)


def offered(table: Table) -> list[int]:
    """Whom the cut is offered to now, as the table state says."""
    cut_offer: list[int] = present(table_state_now(table.pk))["shoe"]["cut_offer"]
    return cut_offer
