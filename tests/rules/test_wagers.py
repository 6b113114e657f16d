"""Every wager of every bundled Rules Submission against coups worked by hand from the texts.

Sources: 000 §7, §12 (Massachusetts Minibaccarat), 004 §8, §13 (big table), 002 (b)-(c)
(Section 42), 001 (California Commission-Free), 003 (Mini Baccarat with pairs). The expected odds
and amounts are worked out here from those texts, not read from ``baccarat/wagers.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import pytest

from baccarat.cards import parse_cards
from baccarat.drawing import Coup
from baccarat.outcome import Outcome
from baccarat.profiles import PROFILES, Commission, RulesSubmission, rules_submission
from baccarat.wagers import Odds, Resolution, Result, odds, resolve
from baccarat.wagertypes import WagerType as W

LOSE = Odds(Result.LOSE)
PUSH = Odds(Result.PUSH)


def pays(ratio: int | Fraction) -> Odds:
    return Odds(Result.WIN, Fraction(ratio))


# 000 §12(e) / 004 §13(e), transcribed.
DRAGON_BONUS_PAYTABLES_TEXT = """
| Hand            | Paytable A | Paytable B | Paytable C |
| Win by 9 points | 30 to 1    | 20 to 1    | 30 to 1    |
| Win by 8 points | 10 to 1    | 8 to 1     | 10 to 1    |
| Win by 7 points | 6 to 1     | 7 to 1     | 4 to 1     |
| Win by 6 points | 4 to 1     | 4 to 1     | 4 to 1     |
| Win by 5 points | 2 to 1     | 3 to 1     | 2 to 1     |
| Win by 4 points | 1 to 1     | 1 to 1     | 2 to 1     |
| Natural winner  | 1 to 1     | 1 to 1     | 1 to 1     |
| Natural tie     | Push       | Push       | Push       |
"""


def _read_paytables() -> dict[str, dict[str, Odds]]:
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in DRAGON_BONUS_PAYTABLES_TEXT.strip().splitlines()
    ]
    header, body = rows[0], rows[1:]
    tables: dict[str, dict[str, Odds]] = {}
    for column, title in enumerate(header[1:], start=1):
        letter = title.removeprefix("Paytable ")
        tables[letter] = {}
        for row in body:
            cell = row[column]
            if cell == "Push":
                tables[letter][row[0]] = PUSH
            else:
                to_win, to_one = cell.split(" to ")
                tables[letter][row[0]] = pays(Fraction(int(to_win), int(to_one)))
    return tables


DRAGON_BONUS = _read_paytables()

TIE_PAYS = 8  # 000 §12(b) "at least 8 to 1"; 001 and 003 "8 to 1"
DRAGON7_PAYS = 40  # 000 §12(f)
PANDA8_PAYS = 25  # 000 §12(g)
HOUSE_MONEY_BOTH = 15  # 000 §12(h) "Player and Banker Pair"
HOUSE_MONEY_EITHER = 3  # 000 §12(h) "Player or Banker Pair"
PAIR_PAYS = 11  # 003 "11 to1"
TIE_COMMISSION = Fraction(1, 4)  # 002 (c)(4): 25 percent of the wager on the Banker's Hand

# How the Banker wager is decided under each way of charging commission.
VIG = "1 to 1 less the commission rate"  # 000 §12(c), 002 (c)(3)
B_WIN: dict[Commission, Odds | str] = {
    Commission.ON_BANKER_WIN: VIG,
    Commission.EZ: pays(1),
    Commission.BANKER_SIX_PAYS_HALF: pays(1),
    Commission.ON_TIE: pays(1),
}
B_WIN_ON_6: dict[Commission, Odds | str] = {
    **B_WIN,
    Commission.BANKER_SIX_PAYS_HALF: pays(Fraction(1, 2)),  # 002 (c)(6), 001, 003 "0.5 to 1"
}
B_DRAGON7: dict[Commission, Odds | str] = {**B_WIN, Commission.EZ: PUSH}  # 000 §7(a)(1)(iii)
B_TIE: dict[Commission, Odds | str] = {
    Commission.ON_BANKER_WIN: PUSH,
    Commission.EZ: PUSH,
    Commission.BANKER_SIX_PAYS_HALF: PUSH,
    Commission.ON_TIE: Odds(Result.PUSH, commission=TIE_COMMISSION),
}
B_LOSE: dict[Commission, Odds | str] = dict.fromkeys(Commission, LOSE)


@dataclass(frozen=True)
class Case:
    """A coup worked by hand and how each wager is decided on it."""

    name: str
    player: str
    banker: str
    totals: tuple[int, int]
    banker_wager: dict[Commission, Odds | str]
    decided: dict[W, Odds | str]
    """Wagers not listed lose. Dragon Bonus wins are written as a row of the pay table."""


CASES = [
    Case(
        "player natural 9 over a standing banker 7",
        "9C KD", "4H 3S", (9, 7), B_LOSE,
        {W.PLAYER: pays(1), W.DRAGON_BONUS_PLAYER: "Natural winner"},
    ),
    Case(
        "player natural 9 over banker natural 8",
        "4C 5D", "8H KS", (9, 8), B_LOSE,
        {W.PLAYER: pays(1), W.DRAGON_BONUS_PLAYER: "Natural winner"},
    ),
    Case(
        "natural 9 over 0 pays 1 to 1 not the 9 point margin",
        "9C KD", "KH QS", (9, 0), B_LOSE,
        {W.PLAYER: pays(1), W.DRAGON_BONUS_PLAYER: "Natural winner"},
    ),
    Case(
        "natural 8 tie",
        "8C KD", "3H 5S", (8, 8), B_TIE,
        {
            W.TIE: pays(TIE_PAYS), W.PLAYER: PUSH,
            W.DRAGON_BONUS_PLAYER: "Natural tie", W.DRAGON_BONUS_BANKER: "Natural tie",
        },
    ),
    Case(
        "banker natural 8 over a standing player 7",
        "4C 3D", "5H 3S", (7, 8), B_WIN,
        {W.DRAGON_BONUS_BANKER: "Natural winner"},
    ),
    Case(
        "banker wins on a two card 6 by 1",
        "2C 3D KH", "4H 2S", (5, 6), B_WIN_ON_6, {},
    ),
    Case(
        "banker wins on a three card 6 by 1",
        "AC 2D 2H", "3S KH 3C", (5, 6), B_WIN_ON_6, {},
    ),
    Case(
        "banker wins on a two card 6 by 4",
        "2C KD KH", "4S 2H", (2, 6), B_WIN_ON_6,
        {W.DRAGON_BONUS_BANKER: "Win by 4 points"},
    ),
    Case(
        "dragon 7 over a player 5",
        "2C 3D KH", "3H KS 4S", (5, 7), B_DRAGON7,
        {W.DRAGON7: pays(DRAGON7_PAYS)},
    ),
    Case(
        "a two card banker 7 over 5 is no dragon 7",
        "2C 3D KH", "4S 3H", (5, 7), B_WIN, {},
    ),
    Case(
        "a natural 8 over 7 is no panda 8",
        "4C 4D", "4S 3H", (8, 7), B_LOSE,
        {
            W.PLAYER: pays(1), W.DRAGON_BONUS_PLAYER: "Natural winner",
            W.HOUSE_MONEY: pays(HOUSE_MONEY_EITHER), W.PLAYER_PAIR: pays(PAIR_PAYS),
        },
    ),
    Case(
        "dragon 7 with both pairs",
        "2C 2D AH", "6S 6D 5C", (5, 7), B_DRAGON7,
        {
            W.DRAGON7: pays(DRAGON7_PAYS), W.HOUSE_MONEY: pays(HOUSE_MONEY_BOTH),
            W.PLAYER_PAIR: pays(PAIR_PAYS), W.BANKER_PAIR: pays(PAIR_PAYS),
        },
    ),
    Case(
        "panda 8 over a banker 7",
        "2C AD 5H", "4S 3H", (8, 7), B_LOSE,
        {W.PLAYER: pays(1), W.PANDA8: pays(PANDA8_PAYS)},
    ),
    Case(
        "panda 8 with a player pair",
        "AC AD 6H", "KS 7H", (8, 7), B_LOSE,
        {
            W.PLAYER: pays(1), W.PANDA8: pays(PANDA8_PAYS),
            W.HOUSE_MONEY: pays(HOUSE_MONEY_EITHER), W.PLAYER_PAIR: pays(PAIR_PAYS),
        },
    ),
    Case(
        "both pairs and player 9 over 4 by 5",
        "QC QD 9H", "7H 7S", (9, 4), B_LOSE,
        {
            W.PLAYER: pays(1), W.DRAGON_BONUS_PLAYER: "Win by 5 points",
            W.HOUSE_MONEY: pays(HOUSE_MONEY_BOTH),
            W.PLAYER_PAIR: pays(PAIR_PAYS), W.BANKER_PAIR: pays(PAIR_PAYS),
        },
    ),
    Case(
        "banker pair and a standing player 7 over 0 by 7",
        "6C AD", "5H 5S KC", (7, 0), B_LOSE,
        {
            W.PLAYER: pays(1), W.DRAGON_BONUS_PLAYER: "Win by 7 points",
            W.HOUSE_MONEY: pays(HOUSE_MONEY_EITHER), W.BANKER_PAIR: pays(PAIR_PAYS),
        },
    ),
    Case(
        "ten and king are no pair and player 5 over 2 by 3",
        "TH KH 5C", "6D 4S 2C", (5, 2), B_LOSE, {W.PLAYER: pays(1)},
    ),
    Case(
        "tie on 6",
        "6C KD", "6H QS", (6, 6), B_TIE, {W.TIE: pays(TIE_PAYS), W.PLAYER: PUSH},
    ),
    Case(
        "tie on a three card 7 with a player pair",
        "AC AD 5H", "AH 2S 4D", (7, 7), B_TIE,
        {
            W.TIE: pays(TIE_PAYS), W.PLAYER: PUSH,
            W.HOUSE_MONEY: pays(HOUSE_MONEY_EITHER), W.PLAYER_PAIR: pays(PAIR_PAYS),
        },
    ),
    Case(
        "player 9 over 0 by 9",
        "3C KD 6H", "KS QH KC", (9, 0), B_LOSE,
        {W.PLAYER: pays(1), W.DRAGON_BONUS_PLAYER: "Win by 9 points"},
    ),
    Case(
        "banker three card 8 over 0 by 8",
        "KC QD JH", "AS 2H 5C", (0, 8), B_WIN,
        {W.DRAGON_BONUS_BANKER: "Win by 8 points"},
    ),
    Case(
        "standing player 7 over a three card 1 by 6",
        "4C 3D", "AH KS KD", (7, 1), B_LOSE,
        {W.PLAYER: pays(1), W.DRAGON_BONUS_PLAYER: "Win by 6 points"},
    ),
]  # fmt: skip

CASE_BY_NAME = {case.name: case for case in CASES}


def outcome_of(player: str, banker: str) -> Outcome:
    return Outcome.of(Coup.from_hands(parse_cards(player.split()), parse_cards(banker.split())))


def expected(case: Case, wager: W, rules: RulesSubmission) -> Odds:
    if wager is W.BANKER:
        worked = case.banker_wager[rules.commission]
    else:
        worked = case.decided.get(wager, LOSE)
    if worked == VIG:
        return Odds(Result.WIN, Fraction(1), Fraction(rules.commission_rate))
    if isinstance(worked, str):
        return DRAGON_BONUS[rules.dragon_bonus_paytable.value][worked]
    return worked


# --- every offered wager of every bundled profile -------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name.replace(" ", "_"))
@pytest.mark.parametrize("profile", list(PROFILES))
def test_every_wager_the_table_offers_is_decided_as_the_texts_say(profile: str, case: Case) -> None:
    rules = PROFILES[profile]
    result = outcome_of(case.player, case.banker)
    assert (result.player_total, result.banker_total) == case.totals
    wrong = {}
    for wager in sorted(rules.wagers - {W.ROYAL9}, key=lambda w: w.value):
        got, want = odds(wager, result, rules), expected(case, wager, rules)
        if got != want:
            wrong[wager.label] = (got, want)
    assert wrong == {}, wrong


def test_the_worked_cases_cover_every_wager_decided_by_odds() -> None:
    offered = set().union(*(p.wagers for p in PROFILES.values())) - {W.ROYAL9}
    won_somewhere = {w for case in CASES for w, o in case.decided.items() if o != LOSE}
    assert offered - {W.BANKER} <= won_somewhere


# --- Player, Banker, Tie --------------------------------------------------------------------------


def test_a_dragon_7_pushes_the_banker_wager_and_loses_the_player_wager_at_ez_baccarat() -> None:
    rules = PROFILES["ma-mini-ez"]
    result = outcome_of("2C 3D KH", "3H KS 4S")
    assert odds(W.BANKER, result, rules) == PUSH
    assert odds(W.PLAYER, result, rules) == LOSE
    assert odds(W.DRAGON7, result, rules) == pays(40)


def test_a_dragon_7_is_an_ordinary_banker_win_with_commission_where_ez_is_not_played() -> None:
    rules = PROFILES["ma-mini"]
    result = outcome_of("2C 3D KH", "3H KS 4S")
    assert odds(W.BANKER, result, rules) == Odds(Result.WIN, Fraction(1), Fraction(1, 20))
    assert resolve(Decimal("10"), odds(W.BANKER, result, rules), rules) == Resolution(
        Result.WIN, Decimal("10.00"), Decimal("0.50")
    )


def test_a_panda_8_wins_the_player_wager_at_even_money_at_ez_baccarat() -> None:
    rules = PROFILES["ma-mini-ez"]
    result = outcome_of("2C AD 5H", "4S 3H")
    assert odds(W.PLAYER, result, rules) == pays(1)
    assert odds(W.PANDA8, result, rules) == pays(25)
    assert odds(W.BANKER, result, rules) == LOSE


@pytest.mark.parametrize(
    ("profile", "amount", "commission"),
    [
        ("ma-mini", "10", "0.50"),  # 5 % of $10
        ("ma-mini", "15", "0.75"),
        ("ma-mini", "17", "1.00"),  # 0.85 rounded up to the next 25¢
        ("ma-mini", "1", "0.25"),  # 0.05 rounded up to 25¢
        ("ma-mini", "20", "1.00"),
        ("ma-big", "17", "1.00"),
        ("s42-mini", "17", "0.85"),  # 5¢ rounding: already a multiple of 5¢
        ("s42-mini", "13", "0.65"),
        ("s42-mini", "7.30", "0.40"),  # 0.365 up to 0.40
        ("s42-mini-4", "13", "0.55"),  # 4 %: 0.52 up to 0.55
        ("s42-mini-4", "10", "0.40"),
    ],
)
def test_a_winning_banker_wager_pays_1_to_1_less_the_commission_rounded_up(
    profile: str, amount: str, commission: str
) -> None:
    rules = PROFILES[profile]
    result = outcome_of("4C 3D", "5H 3S")  # Banker Natural 8 over 7
    assert resolve(Decimal(amount), odds(W.BANKER, result, rules), rules) == Resolution(
        Result.WIN, Decimal(amount).quantize(Decimal("0.01")), Decimal(commission)
    )


def test_without_rounding_the_commission_is_the_exact_share() -> None:
    rules = rules_submission("ma-mini", {"vigorish_rounding": None})
    won = odds(W.BANKER, outcome_of("4C 3D", "5H 3S"), rules)
    assert resolve(Decimal("17"), won, rules).vigorish == Decimal("0.85")
    rules = rules_submission("s42-mini-4", {"vigorish_rounding": None})
    won = odds(W.BANKER, outcome_of("4C 3D", "5H 3S"), rules)
    assert resolve(Decimal("13"), won, rules).vigorish == Decimal("0.52")


@pytest.mark.parametrize("profile", ["ma-mini-ez", "ma-big-ez", "s42-mini-tievig"])
def test_a_banker_win_owes_no_commission_at_ez_or_tie_commission_tables(profile: str) -> None:
    rules = PROFILES[profile]
    won = odds(W.BANKER, outcome_of("4C 3D", "5H 3S"), rules)
    assert resolve(Decimal("10"), won, rules) == Resolution(
        Result.WIN, Decimal("10.00"), Decimal("0.00")
    )


@pytest.mark.parametrize(
    ("amount", "owed"), [("10", "2.50"), ("7", "1.75"), ("100", "25.00"), ("4", "1.00")]
)
def test_a_tie_pushes_the_banker_wager_and_charges_25_percent_of_it_at_a_tie_commission_table(
    amount: str, owed: str
) -> None:
    rules = PROFILES["s42-mini-tievig"]
    tie = odds(W.BANKER, outcome_of("6C KD", "6H QS"), rules)
    assert resolve(Decimal(amount), tie, rules) == Resolution(
        Result.PUSH, Decimal("0.00"), Decimal(owed)
    )


@pytest.mark.parametrize("profile", ["ma-mini", "ma-mini-ez", "s42-mini", "ca-commission-free"])
def test_a_tie_returns_player_and_banker_wagers_without_commission(profile: str) -> None:
    rules = PROFILES[profile]
    tie = outcome_of("6C KD", "6H QS")
    for wager in (W.PLAYER, W.BANKER):
        assert resolve(Decimal("10"), odds(wager, tie, rules), rules) == Resolution(
            Result.PUSH, Decimal("0.00"), Decimal("0.00")
        )


@pytest.mark.parametrize("profile", ["s42-mini-nocommission", "ca-commission-free", "mini-pairs"])
@pytest.mark.parametrize(
    ("player", "banker"),
    [("2C 3D KH", "4H 2S"), ("AC 2D 2H", "3S KH 3C")],
    ids=["two_card_6", "three_card_6"],
)
def test_a_banker_win_on_6_pays_1_to_2_without_commission(
    profile: str, player: str, banker: str
) -> None:
    rules = PROFILES[profile]
    won = odds(W.BANKER, outcome_of(player, banker), rules)
    assert resolve(Decimal("10"), won, rules) == Resolution(
        Result.WIN, Decimal("5.00"), Decimal("0.00")
    )
    assert resolve(Decimal("5.05"), won, rules).payout == Decimal("2.52")  # down to the cent


@pytest.mark.parametrize("profile", ["s42-mini-nocommission", "ca-commission-free", "mini-pairs"])
def test_a_banker_win_on_any_other_count_pays_1_to_1_without_commission(profile: str) -> None:
    rules = PROFILES[profile]
    for player, banker in (("4C 3D", "5H 3S"), ("KC QD JH", "AS 2H 5C"), ("2C 3D KH", "3H KS 4S")):
        won = odds(W.BANKER, outcome_of(player, banker), rules)
        assert resolve(Decimal("10"), won, rules) == Resolution(
            Result.WIN, Decimal("10.00"), Decimal("0.00")
        )


def test_a_player_win_pays_1_to_1_and_never_owes_commission() -> None:
    for rules in PROFILES.values():
        won = odds(W.PLAYER, outcome_of("9C KD", "4H 3S"), rules)
        assert resolve(Decimal("25"), won, rules) == Resolution(
            Result.WIN, Decimal("25.00"), Decimal("0.00")
        )


def test_a_losing_wager_is_collected_with_nothing_paid_and_no_commission() -> None:
    rules = PROFILES["ma-mini"]
    lost = odds(W.BANKER, outcome_of("9C KD", "4H 3S"), rules)
    assert resolve(Decimal("25"), lost, rules) == Resolution(
        Result.LOSE, Decimal("0.00"), Decimal("0.00")
    )


@pytest.mark.parametrize("profile", list(PROFILES))
def test_a_winning_tie_wager_pays_8_to_1(profile: str) -> None:
    rules = PROFILES[profile]
    tie = odds(W.TIE, outcome_of("6C KD", "6H QS"), rules)
    assert resolve(Decimal("10"), tie, rules) == Resolution(
        Result.WIN, Decimal("80.00"), Decimal("0.00")
    )


def test_a_table_may_pay_the_tie_at_9_to_1() -> None:
    rules = rules_submission("s42-mini", {"tie_odds": 9})
    tie = odds(W.TIE, outcome_of("6C KD", "6H QS"), rules)
    assert tie == pays(9)
    assert resolve(Decimal("10"), tie, rules).payout == Decimal("90.00")
    assert odds(W.TIE, outcome_of("9C KD", "4H 3S"), rules) == LOSE


# --- side wagers in money -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "wager", "player", "banker", "payout"),
    [
        ("ma-mini-ez", W.DRAGON7, "2C 3D KH", "3H KS 4S", "200.00"),  # 40 to 1 on $5
        ("ma-mini-ez", W.PANDA8, "2C AD 5H", "4S 3H", "125.00"),  # 25 to 1 on $5
        ("ma-mini", W.HOUSE_MONEY, "QC QD 9H", "7H 7S", "75.00"),  # both pairs 15 to 1
        ("ma-mini", W.HOUSE_MONEY, "6C AD", "5H 5S KC", "15.00"),  # either pair 3 to 1
        ("mini-pairs", W.PLAYER_PAIR, "QC QD 9H", "7H 7S", "55.00"),  # 11 to 1
        ("mini-pairs", W.BANKER_PAIR, "6C AD", "5H 5S KC", "55.00"),
        ("ma-mini", W.DRAGON_BONUS_PLAYER, "3C KD 6H", "KS QH KC", "150.00"),  # A: by 9, 30 to 1
        ("ma-mini", W.DRAGON_BONUS_PLAYER, "9C KD", "4H 3S", "5.00"),  # Natural winner 1 to 1
    ],
)
def test_a_winning_side_wager_of_5_dollars_is_paid_at_its_odds_without_commission(
    profile: str, wager: W, player: str, banker: str, payout: str
) -> None:
    rules = PROFILES[profile]
    won = odds(wager, outcome_of(player, banker), rules)
    assert resolve(Decimal("5"), won, rules) == Resolution(
        Result.WIN, Decimal(payout), Decimal("0.00")
    )


def test_house_money_loses_when_neither_hand_has_a_pair_even_a_ten_and_a_king() -> None:
    rules = PROFILES["ma-mini"]
    assert odds(W.HOUSE_MONEY, outcome_of("TH KH 5C", "6D 4S 2C"), rules) == LOSE


@pytest.mark.parametrize("wager", [W.PLAYER_PAIR, W.BANKER_PAIR])
def test_a_pair_wager_loses_on_a_ten_and_a_king(wager: W) -> None:
    rules = PROFILES["mini-pairs"]
    assert odds(wager, outcome_of("TH KH 5C", "JD QS 2C"), rules) == LOSE


# --- Dragon Bonus, every pay table ----------------------------------------------------------------

MARGIN_COUPS = {
    9: ("3C KD 6H", "KS QH KC", W.DRAGON_BONUS_PLAYER),
    8: ("KC QD JH", "AS 2H 5C", W.DRAGON_BONUS_BANKER),
    7: ("6C AD", "5H 5S KC", W.DRAGON_BONUS_PLAYER),
    6: ("4C 3D", "AH KS KD", W.DRAGON_BONUS_PLAYER),
    5: ("QC QD 9H", "7H 7S", W.DRAGON_BONUS_PLAYER),
    4: ("2C KD KH", "4S 2H", W.DRAGON_BONUS_BANKER),
}
OTHER_SIDE = {
    W.DRAGON_BONUS_PLAYER: W.DRAGON_BONUS_BANKER,
    W.DRAGON_BONUS_BANKER: W.DRAGON_BONUS_PLAYER,
}


@pytest.mark.parametrize("paytable", ["A", "B", "C"])
@pytest.mark.parametrize("margin", [9, 8, 7, 6, 5, 4])
def test_a_dragon_bonus_on_a_hand_that_wins_by_4_or_more_pays_the_pay_table(
    paytable: str, margin: int
) -> None:
    rules = rules_submission("ma-mini", {"dragon_bonus_paytable": paytable})
    player, banker, winning_side = MARGIN_COUPS[margin]
    result = outcome_of(player, banker)
    assert abs(result.player_total - result.banker_total) == margin
    assert not (result.player_natural or result.banker_natural)
    assert odds(winning_side, result, rules) == DRAGON_BONUS[paytable][f"Win by {margin} points"]
    assert odds(OTHER_SIDE[winning_side], result, rules) == LOSE


def test_the_three_pay_tables_read_as_printed() -> None:
    by_9 = [DRAGON_BONUS[t]["Win by 9 points"].pays for t in "ABC"]
    by_7 = [DRAGON_BONUS[t]["Win by 7 points"].pays for t in "ABC"]
    by_4 = [DRAGON_BONUS[t]["Win by 4 points"].pays for t in "ABC"]
    assert by_9 == [30, 20, 30]
    assert by_7 == [6, 7, 4]
    assert by_4 == [1, 1, 2]


@pytest.mark.parametrize("paytable", ["A", "B", "C"])
def test_a_dragon_bonus_on_a_natural_winner_pays_1_to_1_and_on_a_natural_tie_pushes(
    paytable: str,
) -> None:
    rules = rules_submission("ma-mini", {"dragon_bonus_paytable": paytable})
    natural_9_over_0 = outcome_of("9C KD", "KH QS")
    assert odds(W.DRAGON_BONUS_PLAYER, natural_9_over_0, rules) == pays(1)
    assert odds(W.DRAGON_BONUS_BANKER, natural_9_over_0, rules) == LOSE
    banker_natural = outcome_of("4C 3D", "5H 3S")
    assert odds(W.DRAGON_BONUS_BANKER, banker_natural, rules) == pays(1)
    natural_tie = outcome_of("8C KD", "3H 5S")
    assert odds(W.DRAGON_BONUS_PLAYER, natural_tie, rules) == PUSH
    assert odds(W.DRAGON_BONUS_BANKER, natural_tie, rules) == PUSH
    nine_tie = outcome_of("9C KD", "4H 5S")
    assert odds(W.DRAGON_BONUS_PLAYER, nine_tie, rules) == PUSH


@pytest.mark.parametrize("paytable", ["A", "B", "C"])
def test_a_dragon_bonus_natural_9_beats_a_natural_8_and_a_natural_8_loses_to_a_natural_9(
    paytable: str,
) -> None:
    rules = rules_submission("ma-mini", {"dragon_bonus_paytable": paytable})
    result = outcome_of("4C 5D", "8H KS")  # Player Natural 9, Banker Natural 8
    assert odds(W.DRAGON_BONUS_PLAYER, result, rules) == pays(1)
    assert odds(W.DRAGON_BONUS_BANKER, result, rules) == LOSE
    result = outcome_of("8H KS", "4C 5D")  # Player Natural 8, Banker Natural 9
    assert odds(W.DRAGON_BONUS_PLAYER, result, rules) == LOSE
    assert odds(W.DRAGON_BONUS_BANKER, result, rules) == pays(1)


@pytest.mark.parametrize("paytable", ["A", "B", "C"])
@pytest.mark.parametrize(
    ("player", "banker", "side"),
    [
        ("2C AD 5H", "4S 3H", W.DRAGON_BONUS_PLAYER),  # 8 over 7, by 1
        ("2C 3D KH", "3H KS 4S", W.DRAGON_BONUS_BANKER),  # 7 over 5, by 2
        ("TH KH 5C", "6D 4S 2C", W.DRAGON_BONUS_PLAYER),  # 5 over 2, by 3
        ("6C KD", "6H QS", W.DRAGON_BONUS_PLAYER),  # a tie that is not a Natural tie
        ("6C KD", "6H QS", W.DRAGON_BONUS_BANKER),
    ],
)
def test_a_dragon_bonus_on_a_hand_that_is_not_a_natural_loses_unless_it_wins_by_4(
    paytable: str, player: str, banker: str, side: W
) -> None:
    rules = rules_submission("ma-mini", {"dragon_bonus_paytable": paytable})
    assert odds(side, outcome_of(player, banker), rules) == LOSE


def test_a_winning_dragon_bonus_owes_no_commission_at_a_commission_table() -> None:
    rules = PROFILES["ma-mini"]
    won = odds(W.DRAGON_BONUS_BANKER, outcome_of("KC QD JH", "AS 2H 5C"), rules)
    assert resolve(Decimal("10"), won, rules) == Resolution(
        Result.WIN, Decimal("100.00"), Decimal("0.00")
    )


# --- the unit odds used by the game math ----------------------------------------------------------


def test_the_net_per_unit_is_the_payout_less_the_exact_commission() -> None:
    banker_natural = outcome_of("4C 3D", "5H 3S")
    assert odds(W.BANKER, banker_natural, PROFILES["ma-mini"]).net == Fraction(19, 20)
    assert odds(W.BANKER, banker_natural, PROFILES["s42-mini-4"]).net == Fraction(24, 25)
    assert odds(W.PLAYER, banker_natural, PROFILES["ma-mini"]).net == -1
    tie = outcome_of("6C KD", "6H QS")
    assert odds(W.BANKER, tie, PROFILES["s42-mini-tievig"]).net == Fraction(-1, 4)
    assert odds(W.BANKER, tie, PROFILES["ma-mini"]).net == 0


# --- payouts are rounded down to the cent ---------------------------------------------------------


@pytest.mark.parametrize(
    ("amount", "ratio", "payout"),
    [
        ("5.05", Fraction(1, 2), "2.52"),
        ("0.01", Fraction(1, 2), "0.00"),
        ("3.33", Fraction(1, 2), "1.66"),
        ("10", Fraction(40), "400.00"),
        ("2.50", Fraction(25), "62.50"),
    ],
)
def test_the_house_never_pays_a_fraction_of_a_cent(
    amount: str, ratio: Fraction, payout: str
) -> None:
    rules = PROFILES["s42-mini-nocommission"]
    assert resolve(Decimal(amount), Odds(Result.WIN, ratio), rules).payout == Decimal(payout)
