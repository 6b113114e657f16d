"""The bundled Rules Submissions and JSON-style overrides (000, 001, 002, 003, 004)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from baccarat.errors import RulesError
from baccarat.profiles import (
    PROFILES,
    Commission,
    DeckChange,
    DragonBonusPaytable,
    SettlementProcedure,
    TableType,
    VigorishCollection,
    rules_submission,
)
from baccarat.wagertypes import WagerType as W

MAIN = {W.PLAYER, W.BANKER, W.TIE}
DRAGON_BONUS = {W.DRAGON_BONUS_PLAYER, W.DRAGON_BONUS_BANKER}
EZ_INSURANCE = {W.DRAGON7, W.PANDA8}

NAMES = [
    "ma-mini",
    "ma-mini-ez",
    "ma-big",
    "ma-big-ez",
    "s42-mini",
    "s42-mini-4",
    "s42-mini-tievig",
    "s42-mini-nocommission",
    "ca-commission-free",
    "mini-pairs",
]

# What a regulator checks first on each filing, with the section it comes from.
KEY_OPTIONS: dict[str, dict[str, Any]] = {
    "ma-mini": {
        "source": "000",
        "table_type": TableType.MINI,
        "max_seats": 9,  # 000 §2(a)
        "decks": (6, 8),  # 000 §3(a)
        "shuffler_decks": (12, 16),  # 000 §3(b)
        "deck_change": DeckChange.EVERY_24_HOURS,  # 000 §3(c)
        "commission": Commission.ON_BANKER_WIN,
        "commission_rate": Decimal("0.05"),  # 000 §12(c)
        "vigorish_rounding": Decimal("0.25"),
        "settlement": SettlementProcedure.VIGORISH_THEN_PAY_BY_SEAT,  # 000 §11(b)
        "tie_odds": 8,
        "cut_min_from_end": 10,  # 000 §5(c)
        "second_cover_min_from_back": 14,  # 000 §5(d)
        "wagers": MAIN | DRAGON_BONUS | {W.HOUSE_MONEY},
        "is_ez": False,
    },
    "ma-mini-ez": {
        "source": "000",
        "table_type": TableType.MINI,
        "max_seats": 9,
        "commission": Commission.EZ,  # 000 §1 "vigorish is not collected"
        "marks_vigorish": False,
        "tie_odds": 8,
        "wagers": MAIN | DRAGON_BONUS | {W.HOUSE_MONEY} | EZ_INSURANCE,  # 000 §7(a)(5)-(6)
        "is_ez": True,
    },
    "ma-big": {
        "source": "004",
        "table_type": TableType.BIG,
        "min_seats": 10,  # 004 §2(a)
        "max_seats": 14,
        "decks": (6, 8),  # 004 §3(a)
        "deck_change": DeckChange.EVERY_SHOE,  # 004 §3(b)
        "commission": Commission.ON_BANKER_WIN,
        "commission_rate": Decimal("0.05"),  # 004 §13(c)
        "vigorish_rounding": Decimal("0.25"),
        "settlement": SettlementProcedure.PAY_THEN_VIGORISH_BY_SEAT,  # 004 §12(b)
        "has_curator": True,  # 004 §7
        "cut_min_from_end": 52,  # 004 §5(d) "at least a deck in"
        "second_cover_min_from_back": 14,  # 004 §5(e)
        "tie_odds": 8,
        "wagers": MAIN | DRAGON_BONUS | {W.HOUSE_MONEY, W.ROYAL9},  # 004 §13(i)
        "is_ez": False,
    },
    "ma-big-ez": {
        "source": "004",
        "table_type": TableType.BIG,
        "min_seats": 10,
        "max_seats": 14,
        "commission": Commission.EZ,
        "marks_vigorish": False,
        "has_curator": True,
        "wagers": MAIN | DRAGON_BONUS | {W.HOUSE_MONEY, W.ROYAL9} | EZ_INSURANCE,
        "is_ez": True,
    },
    "s42-mini": {
        "source": "002",
        "commission": Commission.ON_BANKER_WIN,
        "commission_rate": Decimal("0.05"),  # 002 (c)(3)
        "vigorish_rounding": Decimal("0.05"),  # 002 (c)(3)(i)
        "tie_odds": 8,  # 002 (c)(2)
        "wagers": MAIN,  # 002 (b)(2): no other wager unless approved
    },
    "s42-mini-4": {
        "source": "002",
        "commission": Commission.ON_BANKER_WIN,
        "commission_rate": Decimal("0.04"),
        "vigorish_rounding": Decimal("0.05"),
        "wagers": MAIN,
    },
    "s42-mini-tievig": {
        "source": "002",
        "commission": Commission.ON_TIE,  # 002 (c)(4)
        "tie_commission_rate": Decimal("0.25"),
        "wagers": MAIN,
    },
    "s42-mini-nocommission": {
        "source": "002",
        "commission": Commission.BANKER_SIX_PAYS_HALF,  # 002 (c)(6)
        "wagers": MAIN,
    },
    "ca-commission-free": {
        "source": "001",
        "decks": (8, 8),  # 001 "eight decks shall be used"
        "commission": Commission.BANKER_SIX_PAYS_HALF,
        "settlement": SettlementProcedure.CALIFORNIA_LINES,
        "player_dealer": True,
        "player_dealer_rotation_hands": 2,  # 001 "after every two hands"
        "max_seats": 14,  # 13 players and the player-dealer on a baccarat table
        "tie_odds": 8,
        "wagers": MAIN,
    },
    "mini-pairs": {
        "source": "003",
        "commission": Commission.BANKER_SIX_PAYS_HALF,  # 003 "paid 0.5 to 1"
        "tie_odds": 8,
        "pair_odds": 11,
        "pair_requires_main_wager": True,
        "wagers": MAIN | {W.PLAYER_PAIR, W.BANKER_PAIR},
    },
}


def test_the_bundled_profiles_are_the_ten_filings() -> None:
    assert sorted(PROFILES) == sorted(NAMES)
    assert sorted(KEY_OPTIONS) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_every_bundled_profile_validates_and_is_found_by_its_name(name: str) -> None:
    preset = PROFILES[name]
    assert preset.name == name
    assert preset.validate() is preset
    assert rules_submission(name) == preset
    assert rules_submission(name, {}) == preset


@pytest.mark.parametrize("name", NAMES)
def test_every_bundled_profile_has_the_options_its_text_requires(name: str) -> None:
    preset = PROFILES[name]
    wrong = {
        option: (getattr(preset, option), want)
        for option, want in KEY_OPTIONS[name].items()
        if getattr(preset, option) != want
    }
    assert wrong == {}


@pytest.mark.parametrize("name", NAMES)
def test_dragon_7_and_panda_8_are_offered_only_at_ez_tables(name: str) -> None:
    preset = PROFILES[name]
    assert bool(preset.wagers & EZ_INSURANCE) == preset.is_ez


@pytest.mark.parametrize("name", NAMES)
def test_a_minibaccarat_table_has_at_most_nine_seats_unless_a_player_dealer_banks(
    name: str,
) -> None:
    preset = PROFILES[name]
    if preset.table_type is TableType.MINI and not preset.player_dealer:
        assert preset.max_seats <= 9


# --- overrides that are allowed -------------------------------------------------------------------


@pytest.mark.parametrize("raw", [9, 9.0])
def test_a_table_may_pay_a_tie_at_9_to_1(raw: Any) -> None:
    assert rules_submission("ma-mini", {"tie_odds": raw}).tie_odds == 9


@pytest.mark.parametrize("raw", ["0.04", 0.04])
def test_a_section_42_table_may_charge_4_percent(raw: Any) -> None:
    assert rules_submission("s42-mini", {"commission_rate": raw}).commission_rate == Decimal("0.04")


def test_commission_may_be_rounded_to_5_cents_25_cents_or_not_at_all() -> None:
    rules = rules_submission("ma-mini", {"vigorish_rounding": "0.05"})
    assert rules.vigorish_rounding == Decimal("0.05")
    assert rules_submission("ma-mini", {"vigorish_rounding": None}).vigorish_rounding is None
    rules = rules_submission("s42-mini", {"vigorish_rounding": "0.25"})
    assert rules.vigorish_rounding == Decimal("0.25")


@pytest.mark.parametrize(
    ("name", "procedure"),
    [
        ("pay_all_then_vigorish", SettlementProcedure.PAY_ALL_THEN_VIGORISH),  # 002 (j)(2)(i)
        ("vigorish_all_then_pay", SettlementProcedure.VIGORISH_ALL_THEN_PAY),  # (ii)
        ("pay_then_vigorish_by_seat", SettlementProcedure.PAY_THEN_VIGORISH_BY_SEAT),  # (iii)
        ("vigorish_then_pay_by_seat", SettlementProcedure.VIGORISH_THEN_PAY_BY_SEAT),  # (iv)
    ],
)
def test_a_section_42_pit_may_choose_any_of_the_four_settlement_procedures(
    name: str, procedure: SettlementProcedure
) -> None:
    assert rules_submission("s42-mini", {"settlement": name}).settlement is procedure


@pytest.mark.parametrize("name", ["ma-mini", "ma-big", "s42-mini", "s42-mini-4"])
def test_a_commission_table_may_defer_the_vigorish_to_a_marker(name: str) -> None:
    rules = rules_submission(name, {"vigorish_collection": "deferred"})
    assert rules.vigorish_collection is VigorishCollection.DEFERRED
    assert rules.marks_vigorish


@pytest.mark.parametrize("letter", ["A", "B", "C"])
def test_a_licensee_selects_one_of_the_three_dragon_bonus_pay_tables(letter: str) -> None:
    rules = rules_submission("ma-mini", {"dragon_bonus_paytable": letter})
    assert rules.dragon_bonus_paytable is DragonBonusPaytable(letter)


def test_several_overrides_apply_together() -> None:
    rules = rules_submission(
        "s42-mini",
        {
            "tie_odds": 9,
            "commission_rate": "0.04",
            "vigorish_rounding": None,
            "vigorish_collection": "deferred",
            "settlement": "vigorish_all_then_pay",
        },
    )
    assert (rules.tie_odds, rules.commission_rate, rules.vigorish_rounding) == (
        9,
        Decimal("0.04"),
        None,
    )
    assert rules.marks_vigorish
    assert rules.settlement is SettlementProcedure.VIGORISH_ALL_THEN_PAY


def test_an_override_leaves_the_bundled_profile_untouched() -> None:
    rules_submission("ma-mini", {"tie_odds": 9, "dragon_bonus_paytable": "B"})
    assert PROFILES["ma-mini"].tie_odds == 8
    assert PROFILES["ma-mini"].dragon_bonus_paytable is DragonBonusPaytable.A


# --- overrides that are refused -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "overrides", "complaint"),
    [
        ("ma-mini", {"tie_odds": 7}, "at least 8 to 1"),
        ("s42-mini", {"tie_odds": 7}, "at least 8 to 1"),
        ("ma-mini", {"commission_rate": "0.06"}, "4 % or 5 %"),
        ("s42-mini", {"commission_rate": 0.06}, "4 % or 5 %"),
        ("ma-mini", {"vigorish_rounding": "0.10"}, "5¢ or 25¢"),
        ("ma-mini", {"wagers": ["player", "banker", "tie", "dragon7"]}, "EZ"),
        ("s42-mini", {"wagers": ["player", "banker", "tie", "panda8"]}, "EZ"),
        ("ma-mini-ez", {"vigorish_collection": "deferred"}, "EZ"),
        ("ma-mini", {"commission": "ez", "vigorish_collection": "deferred"}, "EZ"),
        ("ma-mini", {"settlement": "california_lines"}, "player-dealer"),
    ],
)
def test_it_refuses_a_combination_the_texts_do_not_allow_and_names_the_profile(
    name: str, overrides: dict[str, Any], complaint: str
) -> None:
    with pytest.raises(RulesError) as refused:
        rules_submission(name, overrides)
    assert complaint in str(refused.value)
    assert f"'{name}'" in str(refused.value)


def test_an_ez_table_with_deferred_vigorish_is_refused_because_there_is_none_to_mark() -> None:
    with pytest.raises(RulesError, match="EZ Baccarat table collects no vigorish"):
        rules_submission("ma-big-ez", {"vigorish_collection": "deferred"})


def test_it_refuses_an_option_that_does_not_exist() -> None:
    with pytest.raises(RulesError, match="'house_edge' is not an option of a Rules Submission"):
        rules_submission("ma-mini", {"house_edge": "0.01"})


@pytest.mark.parametrize("option", ["name", "title", "source"])
def test_it_refuses_to_rename_a_filing_through_an_override(option: str) -> None:
    with pytest.raises(RulesError, match=f"'{option}' is not an option"):
        rules_submission("ma-mini", {option: "something else"})


def test_it_refuses_an_unknown_profile_and_lists_the_known_ones() -> None:
    with pytest.raises(RulesError) as refused:
        rules_submission("nevada-mini")
    message = str(refused.value)
    assert "Unknown rules profile 'nevada-mini'" in message
    for name in NAMES:
        assert name in message


@pytest.mark.parametrize(
    ("overrides", "complaint"),
    [
        ({"tie_odds": "nine"}, "'nine' is not a valid value for the option 'tie_odds'"),
        ({"tie_odds": 8.5}, "not a valid value for the option 'tie_odds'"),
        ({"tie_odds": True}, "not a valid value for the option 'tie_odds'"),
        ({"dragon_bonus_paytable": "D"}, "'D' is not a valid value"),
        ({"settlement": "first_come"}, "'first_come' is not a valid value"),
        ({"vigorish_collection": "never"}, "'never' is not a valid value"),
        ({"commission_rate": "five percent"}, "not a valid value for the option 'commission_rate'"),
        ({"wagers": ["player", "baccarat"]}, "not a valid value for the option 'wagers'"),
        ({"house_money_ride_portion": "NaN"}, "'NaN' is not a valid value for the option"),
        ({"commission_rate": "sNaN"}, "'sNaN' is not a valid value for the option"),
        ({"vigorish_rounding": "Infinity"}, "'Infinity' is not a valid value for the option"),
        ({"tie_odds": 10**30}, "not a valid value for the option 'tie_odds'"),
        ({"cut_min_from_end": -5}, "'-5' is not a valid value for the option 'cut_min_from_end'"),
        ({"decks": [6, 10**30]}, "not a valid value for the option 'decks'"),
        ({"decks": []}, "not a valid value for the option 'decks'"),
        ({"tie_odds": Decimal("1e999999")}, "not a valid value for the option 'tie_odds'"),
        ({"decks": [6, Decimal("1e999999")]}, "not a valid value for the option 'decks'"),
        ({"decks": "68"}, "not a valid value for the option 'decks'"),
        ({"house_money_ride_portion": None}, "not a valid value for the option"),
    ],
)
def test_it_refuses_a_value_of_the_wrong_kind_with_the_option_named(
    overrides: dict[str, Any], complaint: str
) -> None:
    with pytest.raises(RulesError, match=complaint):
        rules_submission("ma-mini", overrides)


# --- filings the texts forbid that the engine accepts ---------------------------------------------


@pytest.mark.parametrize("rate", ["0.10", "0.30"])
def test_the_tie_commission_is_25_percent_and_no_other_rate(rate: str) -> None:
    with pytest.raises(RulesError, match="25"):
        rules_submission("s42-mini-tievig", {"tie_commission_rate": rate})


@pytest.mark.parametrize("name", ["ma-mini", "ma-big", "s42-mini", "ca-commission-free"])
def test_a_shoe_of_fewer_than_six_decks_is_refused(name: str) -> None:
    with pytest.raises(RulesError, match="deck"):
        rules_submission(name, {"decks": [4, 8]})


def test_a_table_lists_the_wagers_it_offers_in_the_order_of_the_layout():
    assert PROFILES["ma-big-ez"].offered_wagers == (
        W.PLAYER,
        W.BANKER,
        W.TIE,
        W.DRAGON_BONUS_PLAYER,
        W.DRAGON_BONUS_BANKER,
        W.DRAGON7,
        W.PANDA8,
        W.HOUSE_MONEY,
        W.ROYAL9,
    )
    assert PROFILES["mini-pairs"].offered_wagers == (
        W.PLAYER,
        W.BANKER,
        W.TIE,
        W.PLAYER_PAIR,
        W.BANKER_PAIR,
    )
