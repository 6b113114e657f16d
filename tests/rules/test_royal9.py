"""Royal 9 multi-level progressive and the must-hit progressive (004 §13(i)-(j)).

A Royal 9 is a 9 and a picture (J, Q, K) as a hand's first two cards. Each chair has one unique,
non-suited Personal King-9 combination; only the highest award of Paytable 1 is paid.
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from baccarat.cards import Card, parse_cards
from baccarat.errors import RulesError
from baccarat.royal9 import (
    MUST_HIT_CONFIGURATIONS,
    STAR_OPTIONS,
    MustHit,
    Progressive,
    Royal9Award,
    Royal9Options,
    contribute,
    default_personal_combinations,
    must_hit_advance,
    must_hit_point,
    must_hit_winner,
    royal9_award,
    royal9_prize,
)


def combo(text: str) -> tuple[Card, Card]:
    a, b = parse_cards(text.split())
    return a, b


# Chair 1: K♣ 9♦, chair 2: K♥ 9♠, chair 3: Q♦ 9♣.
OPTIONS = Royal9Options(personal_combinations=(combo("KC 9D"), combo("KH 9S"), combo("QD 9C")))


def award(player: str, banker: str, seat: int = 1) -> Royal9Award | None:
    return royal9_award(
        parse_cards(player.split()), parse_cards(banker.split()), seat=seat, options=OPTIONS
    )


# --- each tier with concrete cards ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "banker", "expected"),
    [
        ("KC 9D", "9D KC", Royal9Award.PERSONAL_VS_PERSONAL),  # both hands are chair 1's K-9
        ("2H 3S", "9D KC", Royal9Award.BANKER_PERSONAL),
        ("KC 9D", "2H 3S", Royal9Award.PLAYER_PERSONAL),
        ("KH 9S", "9S KH", Royal9Award.OTHER_PERSONAL_VS_IDENTICAL),  # chair 2's, identical
        ("QD 9C", "QD 9C", Royal9Award.OTHER_PERSONAL_VS_IDENTICAL),  # chair 3's, identical
        ("KH 9H", "9S JS", Royal9Award.SUITED_VS_SUITED),  # need not be the same combination
        ("KH 9C", "JD 9S", Royal9Award.ROYAL_VS_ROYAL),
        ("KH 9S", "QD 9C", Royal9Award.ROYAL_VS_ROYAL),  # two other chairs', not identical
        ("QH 9H", "2C 3D", Royal9Award.ANY_SUITED),
        ("2C 3D", "9D JD", Royal9Award.ANY_SUITED),
        ("JD 9C", "4C 5D", Royal9Award.ANY),
        ("4C 5D", "9H QS", Royal9Award.ANY),
        ("4C 5D", "6H 2S", None),
        ("TC 9D", "TH 9S", None),  # a ten is not a picture
        ("9C 9D", "KC KD", None),
        ("AC 8D", "9C 2D KH", None),  # a third card never makes a Royal 9
    ],
)
def test_each_award_of_paytable_1(player: str, banker: str, expected: Royal9Award | None) -> None:
    assert award(player, banker) is expected


def test_only_the_highest_award_applies() -> None:
    # Chair 1's Personal King-9 on the Player and a suited Royal 9 on the Banker: Player Personal
    assert award("KC 9D", "KS 9S") is Royal9Award.PLAYER_PERSONAL
    # Chair 1's on the Banker and chair 1's on the Player too: Personal vs Personal, nothing else
    assert award("9D KC", "KC 9D") is Royal9Award.PERSONAL_VS_PERSONAL
    # Chair 2's K-9 on both hands: Personal vs Personal at chair 2, Other vs Identical at chair 1
    assert award("KH 9S", "KH 9S", seat=2) is Royal9Award.PERSONAL_VS_PERSONAL
    assert award("KH 9S", "KH 9S", seat=1) is Royal9Award.OTHER_PERSONAL_VS_IDENTICAL
    # a suited Royal 9 against a Royal 9: Royal vs Royal beats Any Suited
    assert award("KH 9H", "JD 9S") is Royal9Award.ROYAL_VS_ROYAL


def test_the_award_depends_on_the_chair() -> None:
    assert award("KH 9S", "2H 3S", seat=2) is Royal9Award.PLAYER_PERSONAL
    assert award("KH 9S", "2H 3S", seat=1) is Royal9Award.ANY


# --- prizes ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tier", "prize"),
    [
        (Royal9Award.OTHER_PERSONAL_VS_IDENTICAL, 5000),
        (Royal9Award.SUITED_VS_SUITED, 1500),
        (Royal9Award.ROYAL_VS_ROYAL, 250),
        (Royal9Award.ANY_SUITED, 50),
        (Royal9Award.ANY, 25),
    ],
)
def test_fixed_prizes_follow_paytable_1(tier: Royal9Award, prize: int) -> None:
    assert royal9_prize(tier, OPTIONS, {"star": Decimal(1), "spade": Decimal(1)}) == prize


@pytest.mark.parametrize(
    ("tier", "meter"),
    [
        (Royal9Award.PERSONAL_VS_PERSONAL, "star"),
        (Royal9Award.BANKER_PERSONAL, "spade"),
        (Royal9Award.PLAYER_PERSONAL, "heart"),
    ],
)
def test_progressive_awards_pay_the_whole_of_their_meter(tier: Royal9Award, meter: str) -> None:
    meters = {"star": Decimal("61234.56"), "spade": Decimal("987.65"), "heart": Decimal("702.10")}
    assert tier.meter == meter
    assert royal9_prize(tier, OPTIONS, meters) == meters[meter]


def test_progressive_awards_pay_the_reseed_when_no_meter_is_given() -> None:
    assert royal9_prize(Royal9Award.PERSONAL_VS_PERSONAL, OPTIONS, {}) == 50000  # option 2
    assert royal9_prize(Royal9Award.BANKER_PERSONAL, OPTIONS, {}) == 450
    assert royal9_prize(Royal9Award.PLAYER_PERSONAL, OPTIONS, {}) == 450
    option1 = Royal9Options(star=STAR_OPTIONS[1])
    assert royal9_prize(Royal9Award.PERSONAL_VS_PERSONAL, option1, {}) == 25000


def test_the_wager_is_a_fixed_five_dollars_and_the_paytable_is_the_texts() -> None:
    assert OPTIONS.wager == 5
    assert (OPTIONS.spade, OPTIONS.heart) == (Progressive(Decimal(450), Decimal("0.05")),) * 2
    assert STAR_OPTIONS[1] == Progressive(Decimal(25000), Decimal("0.06"))
    assert STAR_OPTIONS[2] == Progressive(Decimal(50000), Decimal("0.06"))
    assert OPTIONS.star == STAR_OPTIONS[2]  # the recommended option


# --- personal combinations ------------------------------------------------------------------------


def test_every_chair_of_a_big_table_has_a_unique_non_suited_picture_9() -> None:
    combos = default_personal_combinations(14)
    assert len(combos) == 14
    assert len({frozenset(c) for c in combos}) == 14
    for a, b in combos:
        assert sorted([a.rank.is_picture, b.rank.symbol == "9"]) == [True, True]
        assert a.suit != b.suit
    # the twelve non-suited King-9s come first
    assert all(a.rank.symbol == "K" for a, _ in combos[:12])
    assert Royal9Options().personal(14) == frozenset(combos[13])


def test_a_duplicate_personal_combination_is_refused() -> None:
    with pytest.raises(RulesError, match="unique"):
        Royal9Options(personal_combinations=(combo("KC 9D"), combo("9D KC")))


@pytest.mark.parametrize("bad", ["KC 9C", "TC 9D", "KC 8D", "9C 9D"])
def test_a_suited_or_non_royal_personal_combination_is_refused(bad: str) -> None:
    with pytest.raises(RulesError, match="not a non-suited picture-9"):
        Royal9Options(personal_combinations=(combo("KC 9D"), combo(bad)))


def test_a_seat_without_a_personal_combination_is_refused() -> None:
    with pytest.raises(RulesError, match="Seat 4"):
        OPTIONS.personal(4)
    with pytest.raises(RulesError):
        award("2C 3D", "4C 5D", seat=0)


# --- contribution ---------------------------------------------------------------------------------


def test_each_wager_adds_its_contribution_to_the_meter_to_the_cent_rounded_down() -> None:
    spade = Progressive(Decimal(450), Decimal("0.05"))
    star = STAR_OPTIONS[2]
    assert contribute(Decimal("450.00"), Decimal(5), spade) == Decimal("450.25")
    assert contribute(Decimal("50000.00"), Decimal(5), star) == Decimal("50000.30")
    assert contribute(Decimal("450.00"), Decimal("5.05"), spade) == Decimal("450.25")  # 0.2525
    assert contribute(Decimal("450.00"), Decimal(35), star) == Decimal(
        "452.10"
    )  # seven $5 wagers at 6 %


# --- must-hit progressive (004 §13(j), Table 1) ---------------------------------------------------


def test_the_three_must_hit_configurations_are_table_1() -> None:
    assert dict(MUST_HIT_CONFIGURATIONS) == {
        1: MustHit(Decimal(250), Decimal(1000), Decimal("0.05")),
        2: MustHit(Decimal(100), Decimal(500), Decimal("0.05")),
        3: MustHit(Decimal(100), Decimal(200), Decimal("0.02")),
    }


@pytest.mark.parametrize("number", [1, 2, 3])
def test_the_must_hit_point_is_above_the_reset_and_at_most_the_maximum(number: int) -> None:
    config = MUST_HIT_CONFIGURATIONS[number]
    points = {must_hit_point(config, random.Random(seed)) for seed in range(300)}
    assert all(config.reset < p <= config.maximum for p in points)
    assert all(p == p.quantize(Decimal("0.01")) for p in points)
    assert len(points) > 250  # spread out, not one value


class _Extreme(random.Random):
    """A random source that always draws the lowest, or the highest, allowed integer."""

    def __init__(self, highest: bool) -> None:
        super().__init__(0)
        self.highest = highest

    def randint(self, a: int, b: int) -> int:
        return b if self.highest else a


def test_the_must_hit_point_reaches_both_ends_of_its_range() -> None:
    config = MUST_HIT_CONFIGURATIONS[3]
    assert must_hit_point(config, _Extreme(highest=False)) == Decimal("100.01")
    assert must_hit_point(config, _Extreme(highest=True)) == Decimal("200.00")


def test_the_must_hit_point_is_reproducible_from_a_seed() -> None:
    config = MUST_HIT_CONFIGURATIONS[1]
    assert must_hit_point(config, random.Random(42)) == must_hit_point(config, random.Random(42))


def test_the_must_hit_meter_advances_by_its_increment_rate() -> None:
    config = MUST_HIT_CONFIGURATIONS[1]  # 5 %
    assert must_hit_advance(Decimal(250), Decimal(100), config, Decimal("600.00")) == (
        Decimal("255.00"),
        False,
    )
    config3 = MUST_HIT_CONFIGURATIONS[3]  # 2 %
    assert must_hit_advance(Decimal(100), Decimal(35), config3, Decimal("150.00")) == (
        Decimal("100.70"),
        False,
    )


def test_the_must_hit_meter_hits_at_its_hit_point() -> None:
    config = MUST_HIT_CONFIGURATIONS[1]
    assert must_hit_advance(Decimal(250), Decimal(100), config, Decimal("254.00")) == (
        Decimal("254.00"),
        True,
    )
    assert must_hit_advance(Decimal(250), Decimal(100), config, Decimal("255.00")) == (
        Decimal("255.00"),
        True,
    )


def test_the_must_hit_meter_never_passes_its_maximum() -> None:
    config = MUST_HIT_CONFIGURATIONS[2]
    meter, hit = must_hit_advance(Decimal("499.00"), Decimal(1000), config, Decimal("500.00"))
    assert (meter, hit) == (Decimal("500.00"), True)


def test_the_must_hit_winner_is_one_of_the_seats_that_made_the_wager() -> None:
    participants = [12, 3, 7, 10]
    winners = {must_hit_winner(participants, random.Random(seed)) for seed in range(200)}
    assert winners == set(participants)


def test_the_must_hit_winner_is_reproducible_from_a_seed_whatever_the_seat_order() -> None:
    a = must_hit_winner([12, 3, 7, 10], random.Random(2024))
    b = must_hit_winner([10, 7, 3, 12], random.Random(2024))
    assert a == b == random.Random(2024).choice([3, 7, 10, 12])


def test_there_is_no_must_hit_winner_without_a_participant() -> None:
    with pytest.raises(RulesError, match="No seat made the Royal 9 wager"):
        must_hit_winner([], random.Random(1))
