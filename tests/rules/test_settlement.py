"""Settlement order and amounts, step by step, as a dealer, floorperson or regulator checks them.

Texts: 000 §8(c)(3), §11(b), §12 (Massachusetts Minibaccarat); 001 (California player-dealer);
002 (b)(1), (c), (j)(2) (Mini-Baccarat section 42); 003 (mini with pairs); 004 §9(e), §12(b), §13
(Massachusetts big table). Seat 1 is at the dealer's right; counterclockwise is ascending seats.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from baccarat.cards import parse_cards
from baccarat.drawing import Coup
from baccarat.errors import RulesError
from baccarat.profiles import (
    PROFILES,
    CollectionFees,
    RulesSubmission,
    SettlementProcedure,
    rules_submission,
)
from baccarat.settlement import (
    Action,
    PlayerDealer,
    SettledWager,
    Settlement,
    Wager,
    player_dealer_result,
    settle,
)
from baccarat.wagers import Result
from baccarat.wagertypes import WagerType

P = WagerType.PLAYER
B = WagerType.BANKER
T = WagerType.TIE
HM = WagerType.HOUSE_MONEY
DBB = WagerType.DRAGON_BONUS_BANKER
D7 = WagerType.DRAGON7
R9 = WagerType.ROYAL9


def coup(player: str, banker: str) -> Coup:
    return Coup.from_hands(parse_cards(player.split()), parse_cards(banker.split()))


def d(amount: str | int) -> Decimal:
    return Decimal(str(amount))


def wager(seat: int, kind: WagerType, amount: str | int, ride: WagerType | None = None) -> Wager:
    return Wager(seat, kind, d(amount), ride)


def plan(result: Settlement, phase: str | None = None) -> list[tuple[str, int, str | None, str]]:
    """The dealer's steps as (action, seat, wager, amount), optionally of one phase only."""
    return [
        (s.action.value, s.seat, s.wager.value if s.wager else None, f"{s.amount:.2f}")
        for s in result.steps
        if phase is None or s.phase == phase
    ]


def settled(result: Settlement, seat: int, kind: WagerType) -> SettledWager:
    (found,) = [w for w in result.wagers if w.seat == seat and w.type is kind]
    return found


# Coups (first four cards Player, Banker, Player, Banker; then any third cards).
BANKER_NATURAL_9 = coup("7C KD", "4H 5S")  # Banker 9 (Natural) over Player 7, no pairs
PLAYER_NATURAL_8 = coup("3C 5D", "2H 5S")  # Player 8 (Natural) over Banker 7, no pairs
TIE_SEVENS = coup("3C 4D", "2H 5S")  # 7 to 7, both stand
DRAGON_7 = coup("2H 3S KD", "3C KS 4H")  # Banker three-card 7 over Player 5
BANKER_WINS_ON_6 = coup("2C 3D TC", "KH 6S")  # Player 5 (drew a ten), Banker stands on 6
PLAYER_PAIR_WINS = coup("4C 4D", "2H 5S")  # Player pair, Player 8 (Natural) over Banker 7
BOTH_PAIRS = coup("4C 4D", "KH KS")  # Player pair and Banker pair, Player 8 over Banker 0


CA = PROFILES["ca-commission-free"]


def with_options(name: str, **options: str) -> RulesSubmission:
    return rules_submission(name, options)


# --- the coups themselves are what the tests say they are -----------------------------------------


def test_the_example_coups_show_the_results_the_tests_rely_on() -> None:
    from baccarat.outcome import Outcome, Winner

    assert Outcome.of(BANKER_NATURAL_9).winner is Winner.BANKER
    assert Outcome.of(PLAYER_NATURAL_8).winner is Winner.PLAYER
    assert Outcome.of(TIE_SEVENS).winner is Winner.TIE
    assert Outcome.of(DRAGON_7).is_dragon7
    six = Outcome.of(BANKER_WINS_ON_6)
    assert (six.winner, six.banker_total, six.player_total) == (Winner.BANKER, 6, 5)
    pair = Outcome.of(PLAYER_PAIR_WINS)
    assert (pair.player_pair, pair.banker_pair) == (True, False)
    both = Outcome.of(BOTH_PAIRS)
    assert (both.player_pair, both.banker_pair) == (True, True)


# --- losing wagers first, highest seat down (000 §11(b), 002 (j)(2), 004 §12(b)) ------------------

# A Banker win at a section 42 table (5 % commission rounded up to 5¢): three losing wagers at seats
# 5, 3 and 2; three winning Banker wagers at seats 6, 3 and 1.
MULTI_SEAT = [
    wager(1, B, 47),
    wager(2, P, 30),
    wager(3, B, 100),
    wager(3, T, 5),
    wager(5, P, 25),
    wager(6, B, 20),
]
LOSERS_HIGHEST_SEAT_DOWN = [
    ("collect", 5, "player", "25.00"),
    ("collect", 3, "tie", "5.00"),
    ("collect", 2, "player", "30.00"),
]
PAYS = {
    6: ("pay", 6, "banker", "20.00"),
    3: ("pay", 3, "banker", "100.00"),
    1: ("pay", 1, "banker", "47.00"),
}
VIGS = {  # 5 % of 20, 100 and 47 (2.35) rounded up to 5¢
    6: ("collect_vigorish", 6, "banker", "1.00"),
    3: ("collect_vigorish", 3, "banker", "5.00"),
    1: ("collect_vigorish", 1, "banker", "2.35"),
}
SEATS_DOWN = (6, 3, 1)


def test_losing_wagers_are_collected_first_from_the_highest_seat_down() -> None:
    result = settle(BANKER_NATURAL_9, MULTI_SEAT, PROFILES["s42-mini"])
    assert plan(result)[:3] == LOSERS_HIGHEST_SEAT_DOWN


@pytest.mark.parametrize(
    ("procedure", "expected"),
    [
        pytest.param(
            SettlementProcedure.PAY_ALL_THEN_VIGORISH,
            [PAYS[s] for s in SEATS_DOWN] + [VIGS[s] for s in SEATS_DOWN],
            id="(i) pay every winner, then the vigorish of each",
        ),
        pytest.param(
            SettlementProcedure.VIGORISH_ALL_THEN_PAY,
            [VIGS[s] for s in SEATS_DOWN] + [PAYS[s] for s in SEATS_DOWN],
            id="(ii) the vigorish of each, then pay every winner",
        ),
        pytest.param(
            SettlementProcedure.PAY_THEN_VIGORISH_BY_SEAT,
            [step for s in SEATS_DOWN for step in (PAYS[s], VIGS[s])],
            id="(iii) seat by seat, pay then vigorish",
        ),
        pytest.param(
            SettlementProcedure.VIGORISH_THEN_PAY_BY_SEAT,
            [step for s in SEATS_DOWN for step in (VIGS[s], PAYS[s])],
            id="(iv) seat by seat, vigorish then pay",
        ),
    ],
)
def test_each_section_42_procedure_pays_and_takes_vigorish_in_its_own_order(
    procedure: SettlementProcedure, expected: list[tuple[str, int, str | None, str]]
) -> None:
    rules = with_options("s42-mini", settlement=procedure.value)
    result = settle(BANKER_NATURAL_9, MULTI_SEAT, rules)
    assert plan(result) == LOSERS_HIGHEST_SEAT_DOWN + expected


def test_massachusetts_mini_takes_the_vigorish_then_pays_seat_by_seat() -> None:
    # 000 §11(b): collect losers; then from the highest winning seat, vigorish then payout.
    rules = PROFILES["ma-mini"]
    assert rules.settlement is SettlementProcedure.VIGORISH_THEN_PAY_BY_SEAT
    wagers = [wager(2, B, 47), wager(4, P, 10), wager(7, B, 20), wager(7, DBB, 10)]
    assert plan(settle(BANKER_NATURAL_9, wagers, rules)) == [
        ("collect", 4, "player", "10.00"),
        ("collect_vigorish", 7, "banker", "1.00"),
        ("pay", 7, "banker", "20.00"),
        ("pay", 7, "dragon_bonus_banker", "10.00"),  # Natural winner 1:1, no vigorish (§12(e))
        ("collect_vigorish", 2, "banker", "2.50"),  # 5 % of 47 = 2.35, up to 25¢ (§12(c))
        ("pay", 2, "banker", "47.00"),
    ]


def test_massachusetts_big_table_pays_then_takes_the_vigorish_seat_by_seat() -> None:
    # 004 §12(b): collect losers; then from the highest winning seat, payout then vigorish.
    rules = PROFILES["ma-big"]
    assert rules.settlement is SettlementProcedure.PAY_THEN_VIGORISH_BY_SEAT
    wagers = [wager(3, R9, 5), wager(3, B, 47), wager(10, P, 10), wager(12, B, 20)]
    assert plan(settle(BANKER_NATURAL_9, wagers, rules)) == [
        ("collect", 10, "player", "10.00"),
        ("collect", 3, "royal9", "5.00"),
        ("pay", 12, "banker", "20.00"),
        ("collect_vigorish", 12, "banker", "1.00"),
        ("pay", 3, "banker", "47.00"),
        ("collect_vigorish", 3, "banker", "2.50"),
    ]


@pytest.mark.parametrize("name", ["ma-mini", "ma-big", "s42-mini"])
def test_deferred_vigorish_is_marked_at_the_seat_number_not_collected(name: str) -> None:
    # 000 §12(d)(2), 002 (c)(3)(ii), 004 §13(d)(2): a marker in the box of the seat that owes it.
    rules = with_options(name, vigorish_collection="deferred")
    result = settle(BANKER_NATURAL_9, [wager(2, B, 100), wager(1, P, 10)], rules)
    marks = [s for s in result.steps if s.action is Action.MARK_VIGORISH]
    assert [(s.seat, s.wager, s.amount) for s in marks] == [(2, B, d("5.00"))]
    assert not [s for s in result.steps if s.action is Action.COLLECT_VIGORISH]
    assert settled(result, 2, B).vigorish == d("5.00")


def test_deferred_marks_keep_the_procedure_order() -> None:
    rules = with_options(
        "s42-mini", settlement="vigorish_all_then_pay", vigorish_collection="deferred"
    )
    marked = [("mark_vigorish", *v[1:]) for v in (VIGS[s] for s in SEATS_DOWN)]
    assert plan(settle(BANKER_NATURAL_9, MULTI_SEAT, rules)) == (
        LOSERS_HIGHEST_SEAT_DOWN + marked + [PAYS[s] for s in SEATS_DOWN]
    )


def test_the_25_percent_tie_commission_is_collected_even_when_vigorish_is_deferred() -> None:
    # 002 (c)(4): 25 % of each Banker wager on a tie, collected at the end of the round.
    rules = with_options("s42-mini-tievig", vigorish_collection="deferred")
    wagers = [wager(1, P, 50), wager(2, B, "10.10"), wager(3, T, 10), wager(4, B, 100)]
    result = settle(TIE_SEVENS, wagers, rules)
    assert plan(result) == [
        ("collect_vigorish", 4, "banker", "25.00"),
        ("pay", 3, "tie", "80.00"),
        ("collect_vigorish", 2, "banker", "2.55"),  # 2.525 rounded up to 5¢
        ("return", 4, "banker", "100.00"),
        ("return", 2, "banker", "10.10"),
        ("return", 1, "player", "50.00"),
    ]
    assert not [s for s in result.steps if s.action is Action.MARK_VIGORISH]
    assert settled(result, 4, B).result is Result.PUSH


def test_a_tie_commission_table_takes_no_commission_on_a_banker_win() -> None:
    # 002 (c)(4): "the vigorish otherwise required by (3) above shall not be collected".
    result = settle(BANKER_NATURAL_9, [wager(1, B, 100)], PROFILES["s42-mini-tievig"])
    assert plan(result) == [("pay", 1, "banker", "100.00")]


def test_a_4_percent_table_takes_4_percent_rounded_up_to_5_cents() -> None:
    result = settle(BANKER_NATURAL_9, [wager(1, B, "33")], PROFILES["s42-mini-4"])
    assert plan(result) == [
        ("pay", 1, "banker", "33.00"),
        ("collect_vigorish", 1, "banker", "1.35"),  # 1.32 up to 5¢
    ]


def test_ez_baccarat_takes_no_vigorish_on_a_banker_win() -> None:
    result = settle(BANKER_NATURAL_9, [wager(3, B, 100), wager(5, B, 47)], PROFILES["ma-mini-ez"])
    assert plan(result) == [("pay", 5, "banker", "47.00"), ("pay", 3, "banker", "100.00")]
    assert all(w.vigorish == 0 for w in result.wagers)


def test_ez_baccarat_returns_the_banker_wager_on_a_dragon_7() -> None:
    # 000 §7(a)(1)(iii), §7(a)(2)(ii), §12(f): Banker pushes, Player loses, Dragon 7 pays 40 to 1.
    wagers = [wager(1, B, 100), wager(2, P, 50), wager(3, D7, 10)]
    result = settle(DRAGON_7, wagers, PROFILES["ma-mini-ez"])
    assert plan(result) == [
        ("collect", 2, "player", "50.00"),
        ("pay", 3, "dragon7", "400.00"),
        ("return", 1, "banker", "100.00"),
    ]
    assert settled(result, 1, B).result is Result.PUSH


def test_a_commission_table_pays_the_banker_on_a_dragon_7_less_commission() -> None:
    result = settle(DRAGON_7, [wager(1, B, 100)], PROFILES["ma-mini"])
    assert plan(result) == [
        ("collect_vigorish", 1, "banker", "5.00"),
        ("pay", 1, "banker", "100.00"),
    ]


def test_player_and_banker_wagers_are_returned_on_a_tie_and_the_tie_wager_paid() -> None:
    wagers = [wager(1, P, 20), wager(2, B, 30), wager(2, T, 5), wager(4, P, 10)]
    assert plan(settle(TIE_SEVENS, wagers, PROFILES["ma-mini"])) == [
        ("pay", 2, "tie", "40.00"),
        ("return", 4, "player", "10.00"),
        ("return", 2, "banker", "30.00"),
        ("return", 1, "player", "20.00"),
    ]


def test_a_banker_win_on_six_pays_half_where_there_is_no_commission() -> None:
    # 002 (c)(6), 003: Banker wins on 6 pay 1 to 2, other Banker wins 1 to 1, no commission.
    result = settle(BANKER_WINS_ON_6, [wager(1, B, 45)], PROFILES["s42-mini-nocommission"])
    assert plan(result) == [("pay", 1, "banker", "22.50")]
    other = settle(BANKER_NATURAL_9, [wager(1, B, 45)], PROFILES["mini-pairs"])
    assert plan(other) == [("pay", 1, "banker", "45.00")]


def test_every_step_moves_money_even_for_a_one_cent_banker_win_on_six() -> None:
    # Half a cent is never paid (payouts round down); the dealer takes no $0.00 step for it.
    result = settle(BANKER_WINS_ON_6, [wager(1, B, "0.01")], PROFILES["mini-pairs"])
    assert all(s.amount > 0 for s in result.steps)
    assert settled(result, 1, B).payout == 0
    ca = settle(BANKER_WINS_ON_6, [wager(1, B, "0.01")], CA, player_dealer=PlayerDealer(5, d(1)))
    assert all(s.amount > 0 for s in ca.steps)


# --- House Money, before any third card (000 §8(c)(3), 004 §9(e)) --------------------------------


@pytest.mark.parametrize("name", ["ma-mini", "ma-big"])
def test_house_money_is_settled_first_from_the_dealers_right_counterclockwise(name: str) -> None:
    wagers = [wager(9, HM, 5), wager(2, HM, 10), wager(4, HM, "2.50"), wager(4, B, 10)]
    result = settle(PLAYER_PAIR_WINS, wagers, PROFILES[name])
    assert plan(result, "house_money") == [
        ("pay", 2, "house_money", "30.00"),  # either pair 3 to 1 (§12(h))
        ("pay", 4, "house_money", "7.50"),
        ("pay", 9, "house_money", "15.00"),
    ]
    phases = [s.phase for s in result.steps]
    assert phases == sorted(phases, key=["house_money", "round"].index)
    assert plan(result, "round") == [("collect", 4, "banker", "10.00")]


def test_losing_house_money_wagers_are_collected_in_the_house_money_phase() -> None:
    wagers = [wager(7, HM, 5), wager(1, HM, 10), wager(3, HM, 5, ride=B), wager(3, B, 20)]
    result = settle(BANKER_NATURAL_9, wagers, PROFILES["ma-mini"])
    assert plan(result, "house_money") == [
        ("collect", 1, "house_money", "10.00"),
        ("collect", 3, "house_money", "5.00"),
        ("collect", 7, "house_money", "5.00"),
    ]
    # nothing rode: the Banker wager is settled at its own amount
    assert settled(result, 3, B).amount == d(20)
    assert ("pay", 3, "banker", "20.00") in plan(result, "round")


def test_house_money_pays_15_to_1_when_both_hands_are_pairs() -> None:
    result = settle(BOTH_PAIRS, [wager(1, HM, 10)], PROFILES["ma-mini"])
    assert plan(result) == [("pay", 1, "house_money", "150.00")]


def test_a_house_money_payout_rides_in_full_and_is_settled_with_the_wager_it_rides_on() -> None:
    wagers = [
        wager(1, HM, 10),
        wager(2, HM, 10, ride=P),
        wager(2, P, 25),
        wager(3, HM, 5, ride=B),
        wager(3, B, 20),
    ]
    result = settle(PLAYER_PAIR_WINS, wagers, PROFILES["ma-mini"])
    assert plan(result, "house_money") == [
        ("pay", 1, "house_money", "30.00"),
        ("ride", 2, "player", "30.00"),
        ("ride", 3, "banker", "15.00"),
    ]
    assert plan(result, "round") == [
        ("collect", 3, "banker", "35.00"),  # 20 wagered + 15 ridden, lost together
        ("pay", 2, "player", "55.00"),  # 25 wagered + 30 ridden, paid 1 to 1
    ]
    player = settled(result, 2, P)
    assert (player.amount, player.result, player.payout) == (d(55), Result.WIN, d(55))
    hm = settled(result, 2, HM)
    assert (hm.payout, hm.ridden) == (d(30), d(30))


def test_a_ridden_house_money_payout_owes_commission_with_the_banker_wager() -> None:
    wagers = [wager(1, HM, 5, ride=B), wager(1, B, 20)]
    both_pairs_banker_wins = coup("KC KD 5H", "2C 2S 5D")  # P 0+5=5, B 4 draws on 5: 9
    result = settle(both_pairs_banker_wins, wagers, PROFILES["ma-mini"])
    assert plan(result) == [
        ("ride", 1, "banker", "75.00"),  # 15 to 1 on 5
        ("collect_vigorish", 1, "banker", "4.75"),  # 5 % of 95
        ("pay", 1, "banker", "95.00"),
    ]
    assert [s.phase for s in result.steps] == ["house_money", "round", "round"]


def test_a_portion_of_the_house_money_payout_rides_when_the_rules_say_so() -> None:
    rules = with_options("ma-mini", house_money_ride_portion="0.5")
    wagers = [
        wager(2, HM, 10, ride=P),
        wager(2, P, 25),
        wager(5, HM, "5.01", ride=P),
        wager(5, P, 5),
    ]
    result = settle(PLAYER_PAIR_WINS, wagers, rules)
    hm_steps = plan(result, "house_money")
    assert hm_steps[:2] == [("pay", 2, "house_money", "15.00"), ("ride", 2, "player", "15.00")]
    # 3 to 1 on 5.01 is 15.03: what is handed over and what rides add up to it exactly
    seat5 = [s for s in result.steps if s.seat == 5 and s.phase == "house_money"]
    assert {s.action for s in seat5} == {Action.PAY, Action.RIDE}
    assert sum(s.amount for s in seat5) == d("15.03")
    ridden = next(s.amount for s in seat5 if s.action is Action.RIDE)
    assert settled(result, 5, P).amount == d(5) + ridden
    assert ("pay", 2, "player", "40.00") in plan(result, "round")


# --- refusals, before any card is dealt -----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "wagers", "message"),
    [
        ("ma-mini", [wager(1, R9, 5)], "does not offer the Royal 9"),
        ("s42-mini", [wager(1, HM, 5)], "does not offer the House Money"),
        ("ma-mini", [wager(1, WagerType.PLAYER_PAIR, 5)], "does not offer the Player Pair"),
        ("mini-pairs", [wager(1, D7, 5)], "does not offer the Dragon 7"),
        ("ma-mini", [wager(10, P, 5)], "no seat 10"),
        ("ma-mini", [wager(0, P, 5)], "no seat 0"),
        ("ma-big", [wager(15, P, 5)], "no seat 15"),
        ("ma-mini", [wager(1, P, 5), wager(1, P, 10)], "already has a Player wager"),
        ("ma-mini", [wager(1, P, 0)], "more than zero"),
        ("ma-mini", [wager(1, B, -5)], "more than zero"),
        ("ma-mini", [wager(1, B, "1e30")], "up to 9999999999.99"),
        ("ma-mini", [wager(1, B, "NaN")], "up to 9999999999.99"),
        ("ma-mini", [wager(1, HM, 5, ride=P)], "no Player or Banker wager"),
        ("ma-mini", [wager(1, HM, 5, ride=P), wager(1, B, 5)], "no Player or Banker wager"),
        ("ma-mini", [wager(1, HM, 5, ride=P), wager(2, P, 5)], "no Player or Banker wager"),
        ("ma-mini", [wager(1, HM, 5, ride=T), wager(1, T, 5)], "no Player or Banker wager"),
        ("ma-mini", [wager(1, P, 5, ride=B), wager(1, B, 5)], "Only a House Money payout"),
        ("mini-pairs", [wager(1, WagerType.PLAYER_PAIR, 5)], "needs a Banker, Player or Tie"),
        (
            "mini-pairs",
            [wager(1, WagerType.BANKER_PAIR, 5), wager(2, B, 5)],
            "needs a Banker, Player or Tie",
        ),
        ("ma-big", [wager(1, R9, 10)], "fixed $5"),
        ("ma-big", [wager(1, R9, "4.99")], "fixed $5"),
    ],
)
def test_it_refuses_wagers_the_table_does_not_take(
    name: str, wagers: list[Wager], message: str
) -> None:
    with pytest.raises(RulesError, match=message.replace("$", r"\$")):
        settle(BANKER_NATURAL_9, wagers, PROFILES[name])


def test_it_accepts_a_pair_wager_beside_a_tie_wager_and_a_five_dollar_royal_9() -> None:
    pair = settle(
        BANKER_NATURAL_9,
        [wager(1, T, 5), wager(1, WagerType.PLAYER_PAIR, 5)],
        PROFILES["mini-pairs"],
    )
    assert plan(pair) == [("collect", 1, "tie", "5.00"), ("collect", 1, "player_pair", "5.00")]
    royal = settle(BANKER_NATURAL_9, [wager(1, R9, 5)], PROFILES["ma-big"])
    assert plan(royal) == [("collect", 1, "royal9", "5.00")]


def test_it_refuses_a_player_dealer_at_a_table_without_one() -> None:
    with pytest.raises(RulesError, match="no player-dealer"):
        settle(
            BANKER_NATURAL_9,
            [wager(1, B, 5)],
            PROFILES["ma-mini"],
            player_dealer=PlayerDealer(3, d(100)),
        )


def test_it_refuses_to_settle_a_coup_that_still_needs_a_card() -> None:
    unfinished = Coup.from_dealing_order(parse_cards(["2C", "3D", "4H", "KS"]))
    with pytest.raises(RulesError, match="not complete"):
        settle(unfinished, [wager(1, B, 5)], PROFILES["ma-mini"])


# --- Royal 9 on the big table (004 §13(i)) -------------------------------------------------------


def test_a_royal_9_personal_vs_personal_pays_the_star_meter() -> None:
    rules = PROFILES["ma-big"]
    assert rules.royal9 is not None
    mine = sorted(rules.royal9.personal(4), key=lambda c: c.rank)
    nine, picture = (str(c) for c in mine)
    both = coup(f"{picture} {nine}", f"{nine} {picture}")  # Natural 9 each: a tie
    result = settle(both, [wager(4, R9, 5), wager(6, R9, 5)], rules, meters={"star": d("73456.78")})
    award = settled(result, 4, R9)
    assert (award.result, award.payout, award.award) == (
        Result.WIN,
        d("73456.78"),
        "personal_vs_personal",
    )
    other = settled(result, 6, R9)
    assert (other.award, other.payout) == ("other_personal_vs_identical", d(5000))


# --- California Commission-Free Baccarat, the player-dealer (001) ---------------------------------


def test_california_needs_a_player_dealer() -> None:
    with pytest.raises(RulesError, match="needs a player-dealer"):
        settle(BANKER_NATURAL_9, [wager(1, B, 10)], CA)


@pytest.mark.parametrize(
    ("pd", "message"),
    [
        (PlayerDealer(0, d(100)), "needs a seat"),
        (PlayerDealer(15, d(100)), "needs a seat"),
        (PlayerDealer(3, d(0)), "bank above zero"),
    ],
)
def test_california_refuses_a_player_dealer_without_a_seat_or_a_bank(
    pd: PlayerDealer, message: str
) -> None:
    with pytest.raises(RulesError, match=message):
        settle(BANKER_NATURAL_9, [wager(1, B, 10)], CA, player_dealer=pd)


def test_the_player_dealer_cannot_also_wager() -> None:
    with pytest.raises(RulesError, match="cannot wager"):
        settle(BANKER_NATURAL_9, [wager(3, P, 10)], CA, player_dealer=PlayerDealer(3, d(100)))


def test_california_takes_only_player_banker_and_tie() -> None:
    with pytest.raises(RulesError, match="does not offer"):
        settle(
            BANKER_NATURAL_9,
            [wager(1, WagerType.PLAYER_PAIR, 10), wager(1, B, 5)],
            CA,
            player_dealer=PlayerDealer(3, d(100)),
        )


def test_california_collection_fees_are_fixed_and_come_first() -> None:
    fees = CollectionFees(
        player_line=d("2.00"), banker_line=d("3.00"), tie=d("0.50"), player_dealer_per_hand=d(5)
    )
    rules = dataclasses.replace(CA, collection_fees=fees)
    wagers = [wager(7, B, 300), wager(4, P, 10), wager(4, T, 5), wager(2, B, 20)]
    result = settle(BANKER_NATURAL_9, wagers, rules, player_dealer=PlayerDealer(5, d(1000)))
    assert plan(result, "fees") == [
        ("collect_fee", 5, None, "5.00"),  # the player-dealer, per hand
        ("collect_fee", 4, "player", "2.00"),  # per bet, never a share of the wager
        ("collect_fee", 4, "tie", "0.50"),
        ("collect_fee", 2, "banker", "3.00"),
        ("collect_fee", 7, "banker", "3.00"),
    ]
    assert [s.phase for s in result.steps[:5]] == ["fees"] * 5
    assert all(s.phase == "round" for s in result.steps[5:])
    assert settled(result, 7, B).fee == d(3)


def test_california_settles_player_line_then_banker_line_then_tie_from_the_dealers_left() -> None:
    # Player-dealer at seat 5: to its left, clockwise, are seats 4, 2, 1, then 7, 6 (wrapping).
    wagers = [
        wager(7, P, 10),
        wager(4, B, 40),
        wager(2, P, 20),
        wager(2, B, 10),
        wager(6, T, 5),
        wager(1, T, 8),
    ]
    result = settle(BANKER_WINS_ON_6, wagers, CA, player_dealer=PlayerDealer(5, d(1000)))
    assert plan(result, "round") == [
        ("collect", 2, "player", "20.00"),
        ("collect", 7, "player", "10.00"),
        ("pay", 4, "banker", "20.00"),  # Banker wins on 6: 1 to 2
        ("pay", 2, "banker", "5.00"),
        ("collect", 1, "tie", "8.00"),
        ("collect", 6, "tie", "5.00"),
    ]
    assert result.player_dealer_net == d(18)


def test_the_bank_covers_until_exhausted_and_the_rest_is_returned_at_1_to_2() -> None:
    # Bank 100. Player line: seat 2 loses 20 (bank 120). Banker wins on 6, paid 1 to 2: seat 4's
    # 100 is paid 50 (bank 70); seat 3's 150 is covered for 140, paid 70, 10 returned (bank 0);
    # seat 1's 30 is not covered at all and is returned.
    wagers = [wager(2, P, 20), wager(4, B, 100), wager(3, B, 150), wager(1, B, 30)]
    result = settle(BANKER_WINS_ON_6, wagers, CA, player_dealer=PlayerDealer(5, d(100)))
    assert plan(result, "round") == [
        ("collect", 2, "player", "20.00"),
        ("pay", 4, "banker", "50.00"),
        ("pay", 3, "banker", "70.00"),
        ("return", 3, "banker", "10.00"),
        ("return", 1, "banker", "30.00"),
    ]
    assert (settled(result, 3, B).payout, settled(result, 3, B).returned) == (d(70), d(10))
    assert (settled(result, 1, B).payout, settled(result, 1, B).returned) == (d(0), d(30))
    assert result.player_dealer_net == d(-100)
    assert player_dealer_result(result.steps) == d(-100)  # the fees are not the bank's


def test_the_bank_covers_until_exhausted_and_the_rest_is_returned_at_8_to_1() -> None:
    # Bank 101, player-dealer at seat 1, so the action runs 6, 5, 3, 2. A tie: the line wagers
    # are returned; seat 5's Tie 5 is paid 40 (bank 61); seat 2's Tie 10 is covered for the
    # largest stake whose 8-to-1 payout fits in 61, 7.62 (paid 60.96), and 2.38 is returned.
    wagers = [wager(6, P, 50), wager(3, B, 40), wager(2, T, 10), wager(5, T, 5)]
    result = settle(TIE_SEVENS, wagers, CA, player_dealer=PlayerDealer(1, d(101)))
    assert plan(result, "round") == [
        ("return", 6, "player", "50.00"),
        ("return", 3, "banker", "40.00"),
        ("pay", 5, "tie", "40.00"),
        ("pay", 2, "tie", "60.96"),
        ("return", 2, "tie", "2.38"),
    ]
    assert result.player_dealer_net == d("-100.96")


def test_the_player_dealer_never_wins_more_than_its_bank() -> None:
    # Bank 50, Player wins: seat 4's Banker 40 is collected, seat 3's Banker 30 only for 10.
    wagers = [wager(4, B, 40), wager(3, B, 30)]
    result = settle(PLAYER_NATURAL_8, wagers, CA, player_dealer=PlayerDealer(5, d(50)))
    assert plan(result, "round") == [
        ("collect", 4, "banker", "40.00"),
        ("collect", 3, "banker", "10.00"),
        ("return", 3, "banker", "20.00"),
    ]
    assert result.player_dealer_net == d(50)


def test_the_player_dealer_never_loses_more_than_its_bank() -> None:
    wagers = [wager(4, P, 40), wager(3, P, 30), wager(2, P, 30)]
    result = settle(PLAYER_NATURAL_8, wagers, CA, player_dealer=PlayerDealer(5, d(60)))
    assert plan(result, "round") == [
        ("pay", 4, "player", "40.00"),
        ("pay", 3, "player", "20.00"),
        ("return", 3, "player", "10.00"),
        ("return", 2, "player", "30.00"),
    ]
    assert result.player_dealer_net == d(-60)
