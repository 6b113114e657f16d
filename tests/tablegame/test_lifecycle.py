"""A table's day end to end on PostgreSQL: open, shoe, rounds, settlement, markers, record."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino.models import Event
from casino.record import verify_chain
from tablegame import actions
from tablegame.models import Round, Shoe, VigorishMarker
from tablegame.play.parts import table_state_now
from tests.tablegame.conftest import deal_at, play, ready_table, table_for
from tests.values import present

#: The lifecycle holds on the demo's SQLite too (make test-sqlite).
pytestmark = pytest.mark.sqlite


def steps_of(game: Round) -> list[tuple[str, int, str, str]]:
    return [(s.action, s.seat, s.wager_type, str(s.amount)) for s in game.steps.all()]


def test_a_dealer_plays_a_round_from_open_table_to_settlement(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    shoe = table.current_shoe()
    assert shoe is not None
    assert shoe.state == Shoe.State.IN_PLAY
    assert shoe.burned == 3
    game = play(
        table,
        dealer,
        [(1, "banker", "100"), (2, "player", "50"), (5, "banker", "37")],
        ["4H", "9C", "2S", "KS"],  # Player 6, Banker natural 9
    )
    assert game.state == Round.State.SETTLED
    assert (game.player_total, game.banker_total, game.winner) == (6, 9, "banker")
    assert steps_of(game) == [
        ("collect", 2, "player", "50.00"),
        ("collect_vigorish", 5, "banker", "2.00"),
        ("pay", 5, "banker", "37.00"),
        ("collect_vigorish", 1, "banker", "5.00"),
        ("pay", 1, "banker", "100.00"),
    ]
    shoe.refresh_from_db()
    assert shoe.remaining["4H"] == 7 and shoe.remaining["3D"] == 7
    assert verify_chain(table.chain_id).ok


def test_the_system_says_what_comes_next_and_refuses_a_card_not_due(db, dealer, floor):
    table = ready_table("s42-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="player", amount="25", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["2H", "3C", "3S", "KS"]:
        game = actions.deal_card(table, card=card, actor=dealer)
    assert present(table_state_now(table.pk))["round"]["expected"] == "Player draws"
    game = actions.deal_card(table, card="8D", actor=dealer)  # Banker 3 stands on an 8
    assert game.state == Round.State.COMPLETE
    before = Event.objects.filter(chain__table=table).count()
    with pytest.raises(actions.ActionError, match="no card is due"):
        actions.deal_card(table, card="4D", actor=dealer)
    assert game.cards.count() == 5
    assert Event.objects.filter(chain__table=table).count() == before


def test_a_wager_after_no_more_bets_is_refused_and_nothing_changes(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    with pytest.raises(actions.ActionError, match="No more bets"):
        actions.place_wager(table, seat=2, wager="player", amount="100", actor=dealer)
    with pytest.raises(actions.ActionError, match="No more bets"):
        actions.place_wager(table, seat=1, wager="banker", amount="500", actor=dealer)
    game = table.active_round()
    assert game is not None
    assert [(w.seat, w.type, w.amount) for w in game.wagers.all()] == [
        (1, "banker", Decimal("100.00"))
    ]


def test_a_bet_over_the_table_limit_is_refused(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    with pytest.raises(actions.ActionError, match="maximum is \\$5000"):
        actions.place_wager(table, seat=1, wager="banker", amount="5000.01", actor=dealer)
    with pytest.raises(actions.ActionError, match="minimum"):
        actions.place_wager(table, seat=1, wager="banker", amount="10", actor=dealer)
    assert not present(table.active_round()).wagers.exists()


def test_an_impossible_card_is_refused(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor, decks=6)
    shoe = table.current_shoe()
    assert shoe is not None
    shoe.remaining["AS"] = 0
    shoe.save(update_fields=["remaining"])
    actions.open_round(table, actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    with pytest.raises(actions.ActionError, match="no A♠ left"):
        actions.deal_card(table, card="AS", actor=dealer)
    with pytest.raises(actions.ActionError, match="not a card"):
        actions.deal_card(table, card="1S", actor=dealer)


def test_deferred_vigorish_is_marked_and_must_be_settled_before_the_shoe_ends(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor, options={"vigorish_collection": "deferred"})
    play(table, dealer, [(2, "banker", "100")], ["4H", "9C", "2S", "KS"])
    marker = VigorishMarker.objects.get(table=table)
    assert (marker.seat, marker.amount, marker.status) == (2, Decimal("5.00"), "open")
    with pytest.raises(actions.ActionError, match="Vigorish is still marked at seat 2"):
        actions.end_shoe(table, actor=dealer)
    with pytest.raises(actions.ActionError, match="seat 2"):
        actions.leave_seat(table, seat=2, actor=dealer)


def test_house_money_is_settled_before_any_third_card_and_may_ride(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.place_wager(table, seat=1, wager="house_money", amount="10", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["2H", "3C", "2S", "KD"]:  # Player pair of twos, 4; Banker 3
        game = actions.deal_card(table, card=card, actor=dealer)
    assert game.state == Round.State.HOUSE_MONEY
    with pytest.raises(actions.ActionError, match="House Money"):
        actions.deal_card(table, card="5D", actor=dealer)
    actions.settle_house_money_wagers(table, rides={1: "banker"}, actor=dealer)
    for card in ["5D", "4C"]:  # Player 9; Banker 3 draws on a 5: 7
        game = actions.deal_card(table, card=card, actor=dealer)
    game = actions.settle_round(table, actor=dealer)
    assert steps_of(game)[0] == ("ride", 1, "banker", "30.00")
    banker = game.wagers.get(type="banker")
    assert banker.result == "lose"
    assert ("collect", 1, "banker", "130.00") in steps_of(game)


def test_the_big_table_curator_passes_the_shoe_when_banker_loses(db, dealer, floor):
    seats = (1, 3, 10, 12)
    table = ready_table("ma-big", dealer, floor, seats=seats)
    assert table_for("ma-big").curator_seat == 1
    play(table, dealer, [(3, "player", "100")], ["9H", "2C", "KS", "3D"])  # Player natural 9
    table.refresh_from_db()
    assert table.curator_seat is None
    with pytest.raises(actions.ActionError, match="Offer the shoe to seat 3 first"):
        actions.take_shoe(table, seat=10, actor=dealer)
    actions.take_shoe(table, seat=10, declined=[3], actor=dealer)
    assert table_for("ma-big").curator_seat == 10


def test_a_void_round_returns_every_wager(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.deal_card(table, card="4H", actor=dealer)
    with pytest.raises(actions.ActionError, match="void when the shoe runs out"):
        actions.void_round(table, reason="Dealer's choice", actor=dealer)
    game = actions.void_round(table, reason="Shoe damaged, floor decision", actor=floor)
    assert game.state == Round.State.VOID
    assert steps_of(game) == [("return", 1, "banker", "100.00")]


def test_the_cut_card_means_one_more_hand_then_the_shoe_ends(db, dealer, floor):
    table = ready_table("s42-mini", dealer, floor)
    natural = ["9H", "2C", "KS", "3D"]
    play(table, dealer, [], natural)
    actions.cut_card_out(table, actor=dealer)  # before round 2 starts
    play(table, dealer, [], ["8H", "2C", "KS", "3D"])  # round 2: completes; "last hand" next
    play(table, dealer, [], ["9D", "2C", "KH", "3D"])  # round 3: the last hand
    with pytest.raises(actions.ActionError, match="last hand has been dealt"):
        actions.open_round(table, actor=dealer)
    actions.end_shoe(table, actor=dealer)
    assert table.current_shoe() is None


def test_a_cut_too_close_to_the_end_is_refused(db, dealer, floor):
    table = deal_at(table_for("ma-big"), dealer, floor)
    actions.open_table(table, actor=dealer)
    actions.seat_player(table, seat=1, player="A", actor=dealer)
    actions.receive_decks(table, decks=8, preinspected=True, actor=dealer)
    with pytest.raises(actions.ActionError, match="a deck"):
        actions.cut_cards(
            table, seat=None, declined=[1], position=40, cover_from_back=20, actor=dealer
        )


def test_only_a_floorperson_verifies_the_inspection(db, dealer, floor, staff):
    table = table_for("ma-mini")
    actions.open_table(table, actor=dealer)
    actions.receive_decks(table, decks=8, actor=dealer)
    actions.inspect_decks(table, actor=dealer)
    with pytest.raises(actions.NotAllowed, match="floorperson or pit boss"):
        actions.verify_inspection(table, actor=dealer)
    with pytest.raises(actions.NotAllowed):
        actions.verify_inspection(table, actor=staff["surveillance"])
    actions.verify_inspection(table, actor=floor)


def test_the_table_state_shows_the_round_the_shoe_and_what_comes_next(db, dealer, floor):

    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.deal_card(table, card="2H", actor=dealer)
    state = present(table_state_now(table.pk))
    assert state["round"]["expected"] == "Banker's first card"
    assert state["round"]["banker_turner"] == 1
    assert state["shoe"]["cards_left"] == 8 * 52 - 1 - 3 - 1
    assert state["sequence"] == Event.objects.filter(chain__table=table).count()


def test_an_undisclosed_card_drawn_in_error_is_the_next_hands_first_card(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    play(table, dealer, [], ["9H", "2C", "KS", "3D"])
    actions.open_round(table, actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["9D", "2C", "KH", "3S"]:
        actions.deal_card(table, card=card, actor=dealer)
    found = actions.report_irregularity(
        table, kind="card_drawn_in_error", card="5H", disclosed=False, actor=dealer
    )
    assert "first card of the next hand" in found.instruction
    actions.settle_round(table, actor=dealer)
    actions.open_round(table, actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    with pytest.raises(actions.ActionError, match="5♥ held from the last hand"):
        actions.deal_card(table, card="6C", actor=dealer)
    actions.deal_card(table, card="5H", actor=dealer)
    assert present(table.current_shoe()).remaining["5H"] == 7


def test_an_unauthorized_player_third_card_becomes_the_banker_third(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["6H", "2C", "KS", "3D"]:  # Player 6 stands, Banker 5 draws
        actions.deal_card(table, card=card, actor=dealer)
    actions.report_irregularity(
        table, kind="unauthorized_player_third", card="4S", disclosed=True, actor=dealer
    )
    game = table.active_round()
    assert game is not None
    assert game.state == Round.State.COMPLETE
    assert (game.player_total, game.banker_total) == (6, 9)


def test_a_marker_is_collected_or_turned_into_a_form_request(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor, options={"vigorish_collection": "deferred"})
    play(table, dealer, [(2, "banker", "100"), (5, "banker", "40")], ["4H", "9C", "2S", "KS"])
    by_seat = {m.seat: m for m in VigorishMarker.objects.filter(table=table)}
    actions.collect_marker(table, marker_id=by_seat[2].pk, actor=dealer)
    with pytest.raises(actions.ActionError, match="Say why"):
        actions.request_vigorish_form(table, marker_id=by_seat[5].pk, reason=" ", actor=dealer)
    actions.request_vigorish_form(
        table, marker_id=by_seat[5].pk, reason="Player left in a hurry", actor=dealer
    )
    actions.end_shoe(table, actor=dealer)
    with pytest.raises(actions.ActionError, match="already collected"):
        actions.collect_marker(table, marker_id=by_seat[2].pk, actor=dealer)


def test_a_card_found_face_up_starts_a_simulated_round_then_the_real_round_resumes(
    db, dealer, floor
):
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    real = table.active_round()
    assert real is not None
    actions.report_irregularity(table, kind="card_face_up", card="7C", actor=dealer)
    simulated = table.active_round()
    assert simulated is not None
    assert simulated.simulated and simulated.pk != real.pk
    assert present(table_state_now(table.pk))["round"]["expected"] == "Banker's first card"
    for card in ["2C", "KS", "3D", "4D"]:  # P 7C KS = 7 stands; B 2C 3D = 5 draws
        actions.deal_card(table, card=card, actor=dealer)
    actions.settle_round(table, actor=dealer)
    assert present(table.active_round()).pk == real.pk
    game = play_rest(table, dealer, ["9H", "2C", "KS", "3D"])
    assert game.wagers.get().result == "lose"


def play_rest(table, dealer, cards):
    for card in cards:
        actions.deal_card(table, card=card, actor=dealer)
    return actions.settle_round(table, actor=dealer)


def test_a_feathered_shuffle_waits_for_the_floorpersons_verification_before_the_cut(
    db, dealer, floor
):
    table = table_for("ma-mini")
    actions.open_table(table, actor=dealer)
    actions.seat_player(table, seat=1, player="A", actor=dealer)
    actions.receive_decks(table, decks=8, new_decks=True, actor=dealer)
    for step in (actions.inspect_decks, actions.spread_decks, actions.wash_decks):
        if step is actions.spread_decks:
            actions.verify_inspection(table, actor=floor)
        step(table, actor=dealer)
    with pytest.raises(actions.ActionError, match="manual steps with feather"):
        actions.shuffle_decks(
            table, steps=["plug", "riffle", "riffle", "turn", "strip", "cut"], actor=dealer
        )
    actions.shuffle_decks(
        table, steps=["plug", "riffle", "riffle", "turn", "strip", "cut", "feather"], actor=dealer
    )
    with pytest.raises(actions.ActionError, match="verifies the feathered shuffle"):
        actions.cut_cards(table, seat=1, position=100, cover_from_back=20, actor=dealer)
    actions.verify_shuffle(table, actor=floor)
    actions.cut_cards(table, seat=1, position=100, cover_from_back=20, actor=dealer)


def test_a_player_who_delays_gives_up_the_cards_to_the_player_on_the_right(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor, seats=(1, 2, 5))
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=2, wager="player", amount="100", actor=dealer)
    actions.place_wager(table, seat=5, wager="player", amount="100", actor=dealer)
    game = actions.no_more_bets(table, actor=dealer)
    assert game.player_turner == 2  # equal wagers: closest to the dealer counterclockwise
    game = actions.relinquish_cards(table, hand="player", actor=dealer)
    assert game.player_turner == 5
    game = actions.relinquish_cards(table, hand="player", actor=dealer)
    assert game.player_turner == 1  # seated, to the right, counterclockwise
    game = actions.relinquish_cards(table, hand="player", actor=dealer)
    assert game.player_turner is None  # nobody takes it: the dealer turns the cards
    with pytest.raises(actions.ActionError, match="dealer turns"):
        actions.relinquish_cards(table, hand="player", actor=dealer)


def test_an_idle_table_spreads_its_cards_again_and_starts_a_new_shoe(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    play(table, dealer, [], ["9H", "2C", "KS", "3D"])
    fresh = actions.respread_idle_shoe(table, actor=dealer)
    assert (fresh.number, fresh.state, fresh.cards_left) == (2, "spread", 8 * 52)
    actions.wash_decks(table, actor=dealer)


def test_a_disclosed_card_under_section_42_is_burned_with_as_many_cards_as_its_value(
    db, dealer, floor
):
    table = ready_table("s42-mini", dealer, floor)
    burned_before = present(table.current_shoe()).burned
    actions.open_round(table, actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.deal_card(table, card="9H", actor=dealer)
    found = actions.report_irregularity(
        table, kind="card_drawn_in_error", card="7C", disclosed=True, actor=dealer
    )
    assert (found.disposition, found.extra_burn) == ("burn_by_value", 7)
    shoe = table.current_shoe()
    assert shoe is not None
    assert shoe.burned == burned_before + 7
    assert shoe.remaining["7C"] == 7
    assert present(table_state_now(table.pk))["round"]["expected"] == "Banker's first card"


def test_a_disclosed_unauthorized_third_card_is_burned_with_one_more_in_massachusetts(
    db, dealer, floor
):
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["7H", "3C", "KS", "4D"]:  # Player 7 and Banker 7 stand
        actions.deal_card(table, card=card, actor=dealer)
    found = actions.report_irregularity(
        table, kind="unauthorized_player_third", card="5S", disclosed=True, actor=dealer
    )
    assert (found.disposition, found.extra_burn) == ("burn_with_one_more", 1)
    game = table.active_round()
    assert game is not None
    assert game.state == Round.State.COMPLETE and game.winner == "tie"


def test_the_house_money_step_shows_each_wager_won_or_lost_and_where_a_payout_may_ride(
    db, dealer, floor
):
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.place_wager(table, seat=1, wager="house_money", amount="10", actor=dealer)
    actions.place_wager(table, seat=2, wager="house_money", amount="5", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["2H", "3C", "2S", "KD"]:  # Player pair of twos: House Money wins
        actions.deal_card(table, card=card, actor=dealer)
    step = present(table_state_now(table.pk))["round"]["house_money"]
    assert step == [
        {
            "seat": 1,
            "amount": "10.00",
            "result": "win",
            "payout": "30.00",
            "may_ride": "30.00",
            "ride_on": ["banker"],  # seat 1's own wager; it has no Player wager
        },
        {
            "seat": 2,
            "amount": "5.00",
            "result": "win",
            "payout": "15.00",
            "may_ride": "15.00",
            "ride_on": [],  # seat 2 has no Player or Banker wager to ride on
        },
    ]
    with pytest.raises(actions.ActionError, match="Seat 1 has no Player wager"):
        actions.settle_house_money_wagers(table, rides={1: "player"}, actor=dealer)
    with pytest.raises(actions.ActionError, match="Seat 2 has no Banker wager"):
        actions.settle_house_money_wagers(table, rides={2: "banker"}, actor=dealer)
    game = actions.settle_house_money_wagers(table, rides={1: "banker"}, actor=dealer)
    assert present(table_state_now(table.pk))["round"]["house_money"] is None
    assert game.state == Round.State.DEALING


def test_a_losing_house_money_wager_is_collected_and_offers_no_ride(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.place_wager(table, seat=1, wager="house_money", amount="10", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["2H", "3C", "4S", "KD"]:  # no pair
        actions.deal_card(table, card=card, actor=dealer)
    assert present(table_state_now(table.pk))["round"]["house_money"] == [
        {
            "seat": 1,
            "amount": "10.00",
            "result": "lose",
            "payout": "0.00",
            "may_ride": "0.00",
            "ride_on": [],
        }
    ]


def test_a_reshuffle_keeps_the_decks_in_use(db, dealer, floor):
    table = ready_table("s42-mini", dealer, floor, decks=6)
    play(table, dealer, [], ["9H", "2C", "KS", "3D"])
    actions.end_shoe(table, actor=dealer)
    assert present(table_state_now(table.pk))["deck_change"]["decks"] == 6
    with pytest.raises(actions.ActionError, match="The decks in use are 6: a reshuffle keeps"):
        actions.receive_decks(table, decks=8, new_decks=False, actor=dealer)
    shoe = actions.receive_decks(table, new_decks=False, actor=dealer)  # as many as in use
    assert (shoe.decks, shoe.cards_left) == (6, 6 * 52)
