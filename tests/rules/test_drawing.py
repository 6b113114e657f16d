"""The third-card rule and the dealing order of a coup, against the texts' own tables.

The tables below are transcribed from the rules texts in ``shared/rules`` by hand, independently of
``baccarat/drawing.py``: 002 §(i) Table 1 and Table 2, 001's H/S chart, 000 §10 Table 1 and 003's
drawing table. The first tests check that the texts agree with one another; the rest check the
engine against them for every Player two-card total 0-9, times Banker two-card total 0-9, times
Player third card 0-9 or none.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.cards import Card, parse_cards
from baccarat.drawing import Coup, Expect, IllegalDeal, banker_draws, player_draws

TOTALS = range(10)
THIRDS: tuple[int | None, ...] = (None, *range(10))

# --- 002 §(i)(2) Table 1: the Player's Hand (when the Banker's Hand is 0 to 7) -------------------

TABLE_1_002 = {
    "0 to 5": "Draws",
    "6 to 9": "Stays",
}

# --- 002 §(i)(3) Table 2: the Banker's Hand ------------------------------------------------------
# Rows: Point Count of the Banker's Hand. Columns: "If No 3rd Card", then the value of the third
# card drawn by the Player's Hand, 0 to 9. Rows 0-2 and 7-9 are one spanning cell in the text.

TABLE_2_002_COLUMNS = "If No 3rd Card | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9"
TABLE_2_002 = {
    "0": "BANKER'S HAND DRAWS",
    "1": "BANKER'S HAND DRAWS",
    "2": "BANKER'S HAND DRAWS",
    "3": "D D D D D D D D D S D",
    "4": "D S S D D D D D D S S",
    "5": "D S S S S D D D D S S",
    "6": "S S S S S S S D D S S",
    "7": "BANKER'S HAND STAYS",
    "8": "BANKER'S HAND STAYS",
    "9": "BANKER'S HAND STAYS",
}

# --- 001: "The following chart shows when the banker hits (H) or stands (S)" --------------------
# (The text prints some H's as Cyrillic or Greek capitals; they are written as plain H here.)

CHART_001 = """
Banker's Score | 0 1 2 3 4 5 6 7 8 9
7              | S S S S S S S S S S
6              | S S S S S S H H S S
5              | S S S S H H H H S S
4              | S S H H H H H H S S
3              | H H H H H H H H S H
2              | H H H H H H H H H H
1              | H H H H H H H H H H
0              | H H H H H H H H H H
"""
# 001: "If the player's hand stands, then the dealer hand hits on a total of 5 or less."
CA_BANKER_HITS_WHEN_PLAYER_STANDS_UP_TO = 5

# --- 000 §10(c)(2)(iii) Table 1 (the same table is 004 §11 Table 1) ------------------------------

TABLE_1_000 = (
    ("0, 1, 2", "Banker hand always draws"),
    ("3", "Banker hand draws unless Player's third card is 8"),
    ("4", "2 \N{EN DASH} 7"),
    ("5", "4 \N{EN DASH} 7"),
    ("6", "6 \N{EN DASH} 7"),
    ("7", "Banker hand stands"),
    ("8, 9", "Natural \N{EN DASH} Neither hand draws"),
)
# 000 §10(c)(1): "If the Player's Hand does not receive a third card, the Banker's Hand shall be
# dealt a third card if the Point Count of the Banker's Hand is 5 or less."
MA_BANKER_DRAWS_WHEN_PLAYER_STANDS_UP_TO = 5

# --- 003: "Banker Having | Draws When player's Third Card Is | Does Not Draw When ..." -----------

TABLE_003 = {
    "3": ("1,2,3,4,5,6,7,9,0", "8"),
    "4": ("2,3,4,5,6,7", "1,8,9,0"),
    "5": ("4,5,6,7", "1,2,3,8,9,0"),
    "6": ("6,7", "1,2,3,4,5,8,9,0"),
}
# 003: "When the player stands on 6 or 7, the Banker will always draw on totals of 0,1,2,3,4,
# and 5, and stand on 6,7,8, and 9. When the player does not have a natural, the Banker shall
# always draw on the totals of 0,1 or 2" ... "7 Stands", "8,9 Natural stands".
TABLE_003_ALWAYS_DRAWS = "0,1,2"
TABLE_003_WHEN_PLAYER_STANDS_DRAWS = "0,1,2,3,4,5"


# --- reading the transcriptions -------------------------------------------------------------------


def table_1_002_player_draws(player_total: int) -> bool:
    for span, verdict in TABLE_1_002.items():
        low, high = (int(n) for n in span.split(" to "))
        if low <= player_total <= high:
            return verdict == "Draws"
    raise AssertionError(f"Table 1 has no row for {player_total}")


def table_2_002_banker_draws(banker_total: int, player_third: int | None) -> bool:
    row = TABLE_2_002[str(banker_total)]
    if row == "BANKER'S HAND DRAWS":
        return True
    if row == "BANKER'S HAND STAYS":
        return False
    letters = row.split()
    assert len(letters) == len(TABLE_2_002_COLUMNS.split(" | "))
    column = 0 if player_third is None else player_third + 1
    return letters[column] == "D"


def chart_001_banker_hits(banker_total: int, player_third: int) -> bool:
    lines = [line for line in CHART_001.strip().splitlines()]
    header = lines[0].split("|")[1].split()
    for line in lines[1:]:
        score, marks = (part.strip() for part in line.split("|"))
        if int(score) == banker_total:
            return dict(zip(header, marks.split(), strict=True))[str(player_third)] == "H"
    raise AssertionError(f"the 001 chart has no row for {banker_total}")


def table_1_000_banker_draws(banker_total: int, player_third: int) -> bool:
    for totals, rule in TABLE_1_000:
        if str(banker_total) not in totals.split(", "):
            continue
        if rule == "Banker hand always draws":
            return True
        if rule in ("Banker hand stands", "Natural \N{EN DASH} Neither hand draws"):
            return False
        unless = re.fullmatch(r"Banker hand draws unless Player's third card is (\d)", rule)
        if unless:
            return player_third != int(unless.group(1))
        low, high = (int(n) for n in rule.split(" \N{EN DASH} "))
        return low <= player_third <= high
    raise AssertionError(f"Table 1 has no row for {banker_total}")


def table_003_banker_draws(banker_total: int, player_third: int) -> bool:
    if str(banker_total) in TABLE_003_ALWAYS_DRAWS.split(","):
        return True
    if str(banker_total) not in TABLE_003:
        return False  # "7 Stands", "8,9 Natural stands"
    draws, does_not = (set(column.split(",")) for column in TABLE_003[str(banker_total)])
    assert draws.isdisjoint(does_not)
    assert draws | does_not == {str(n) for n in range(10)}
    return str(player_third) in draws


# --- the rule as the texts state it (the oracle) --------------------------------------------------


def is_a_natural(total: int) -> bool:
    return total in (8, 9)  # 000 §1: "a Point Count of 8 or 9 on the first two cards dealt"


def rule_player_draws(player_total: int, banker_total: int) -> bool:
    """002 (i)(1)-(2): no card after a Natural; otherwise Table 1."""
    if is_a_natural(player_total) or is_a_natural(banker_total):
        return False
    return table_1_002_player_draws(player_total)


def rule_banker_draws(banker_total: int, player_third: int | None, player_total: int) -> bool:
    """002 (i)(1), (3): no card after a Natural; otherwise Table 2."""
    if is_a_natural(player_total) or is_a_natural(banker_total):
        return False
    return table_2_002_banker_draws(banker_total, player_third)


VALUE_TEXT = dict(zip("A23456789TJQK", (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0), strict=True))


def value_of(code: str) -> int:
    return VALUE_TEXT[code[0]]


def count_of(codes: list[str]) -> int:
    return sum(value_of(c) for c in codes) % 10


def legal_by_the_texts(player: list[str], banker: list[str]) -> bool:
    """Whether two hands of card codes follow the third-card rule, worked from the texts alone."""
    if not (2 <= len(player) <= 3 and 2 <= len(banker) <= 3):
        return False  # two initial cards each, "in no event" more than one more (000 §9(d))
    p_total, b_total = count_of(player[:2]), count_of(banker[:2])
    player_drew = rule_player_draws(p_total, b_total)
    if (len(player) == 3) != player_drew:
        return False
    third = value_of(player[2]) if player_drew else None
    return (len(banker) == 3) == rule_banker_draws(b_total, third, p_total)


# --- the texts agree with one another -------------------------------------------------------------


@pytest.mark.parametrize("banker_total", range(8))
def test_the_four_texts_give_the_same_banker_rule_after_a_player_third_card(
    banker_total: int,
) -> None:
    for third in range(10):
        by_002 = table_2_002_banker_draws(banker_total, third)
        assert chart_001_banker_hits(banker_total, third) == by_002, (banker_total, third)
        assert table_1_000_banker_draws(banker_total, third) == by_002, (banker_total, third)
        assert table_003_banker_draws(banker_total, third) == by_002, (banker_total, third)


def test_the_texts_agree_that_banker_draws_on_0_to_5_when_player_stands() -> None:
    for banker_total in range(8):
        by_002 = table_2_002_banker_draws(banker_total, None)
        assert (banker_total <= MA_BANKER_DRAWS_WHEN_PLAYER_STANDS_UP_TO) == by_002
        assert (banker_total <= CA_BANKER_HITS_WHEN_PLAYER_STANDS_UP_TO) == by_002
        assert (str(banker_total) in TABLE_003_WHEN_PLAYER_STANDS_DRAWS.split(",")) == by_002


def test_the_texts_agree_that_banker_never_draws_on_8_or_9() -> None:
    for banker_total in (8, 9):
        for third in THIRDS:
            assert not table_2_002_banker_draws(banker_total, third)
        for third in range(10):
            assert not table_1_000_banker_draws(banker_total, third)
            assert not table_003_banker_draws(banker_total, third)


def test_table_2_example_banker_5_draws_when_player_third_card_is_4() -> None:
    # 002 (i)(7): "if the Point Count of the Banker's Hand after two cards is 5 and the value of the
    # third card drawn by the Player's Hand is 4, the table shows that the Banker's Hand shall draw"
    assert table_2_002_banker_draws(5, 4)
    assert banker_draws(5, 4, player_total=3)


# --- the engine's two questions, exhaustively -----------------------------------------------------


PAIRS_OF_TOTALS = [(p, b) for p in TOTALS for b in TOTALS]


def totals_id(pair: tuple[int, int]) -> str:
    return f"player{pair[0]}-banker{pair[1]}"


@pytest.mark.parametrize("totals", PAIRS_OF_TOTALS, ids=totals_id)
def test_player_draws_on_0_to_5_and_stands_on_6_to_9_unless_a_natural_is_showing(
    totals: tuple[int, int],
) -> None:
    player_total, banker_total = totals
    assert player_draws(player_total, banker_total) == rule_player_draws(player_total, banker_total)


@pytest.mark.parametrize("totals", PAIRS_OF_TOTALS, ids=totals_id)
def test_banker_draws_exactly_where_table_2_says_d_for_every_player_third_card_or_none(
    totals: tuple[int, int],
) -> None:
    player_total, banker_total = totals
    wrong = [
        third
        for third in THIRDS
        if banker_draws(banker_total, third, player_total)
        != rule_banker_draws(banker_total, third, player_total)
    ]
    assert wrong == [], f"Banker on {banker_total}, Player on {player_total}: wrong for {wrong}"


@pytest.mark.parametrize(
    ("banker_total", "third", "draws"),
    [
        (6, 5, False),
        (6, 6, True),
        (6, 7, True),
        (6, 8, False),
        (6, None, False),
        (5, 3, False),
        (5, 4, True),
        (5, None, True),
        (4, 1, False),
        (4, 2, True),
        (4, 8, False),
        (3, 8, False),
        (3, 9, True),
        (2, 8, True),
        (7, 6, False),
        (7, None, False),
    ],
)
def test_the_banker_rules_a_dealer_quotes(
    banker_total: int, third: int | None, draws: bool
) -> None:
    assert banker_draws(banker_total, third, player_total=5 if third is not None else 6) is draws


def test_banker_stands_on_6_when_player_third_card_is_5() -> None:
    assert not banker_draws(6, 5, player_total=2)


def test_banker_stands_on_3_when_player_third_card_is_8() -> None:
    assert not banker_draws(3, 8, player_total=4)


def test_no_hand_draws_when_player_has_a_natural_even_on_banker_0() -> None:
    assert not player_draws(8, 0)
    assert not banker_draws(0, None, player_total=8)
    assert not banker_draws(0, None, player_total=9)


def test_no_hand_draws_when_banker_has_a_natural_even_on_player_0() -> None:
    assert not player_draws(0, 8)
    assert not player_draws(0, 9)
    assert not banker_draws(9, None, player_total=0)


# --- whole coups: every Player total, Banker total and Player third card or none -----------------

RANK_FOR_VALUE = {0: "K", 1: "A", **{v: str(v) for v in range(2, 10)}}


def code(value: int, suit: str) -> str:
    return RANK_FOR_VALUE[value] + suit


def player_two(total: int) -> list[str]:
    return [code((total + 7) % 10, "C"), code(3, "D")]


def banker_two(total: int) -> list[str]:
    return [code((total + 4) % 10, "H"), code(6, "S")]


BANKER_THIRD = "9D"


def names(message: str, hand: str) -> bool:
    return f"{hand}'s hand" in message.lower()


COMBINATIONS = [(p, b, t) for p in TOTALS for b in TOTALS for t in THIRDS]


def combination_id(combination: tuple[int, int, int | None]) -> str:
    p, b, t = combination
    return f"player{p}-banker{b}-" + ("no-third" if t is None else f"third{t}")


LEGAL = [c for c in COMBINATIONS if rule_player_draws(c[0], c[1]) == (c[2] is not None)]
ILLEGAL = [c for c in COMBINATIONS if c not in LEGAL]


def test_the_grid_of_combinations_is_complete() -> None:
    assert len(COMBINATIONS) == 10 * 10 * 11
    # Player draws on 0-5 unless a Natural shows (6 by 8 totals, 10 thirds each); else no third.
    assert len(LEGAL) == 6 * 8 * 10 + (100 - 6 * 8)


@pytest.mark.parametrize("combination", LEGAL, ids=combination_id)
def test_dealing_one_card_at_a_time_follows_the_third_card_rule(
    combination: tuple[int, int, int | None],
) -> None:
    p_total, b_total, third = combination
    player, banker = player_two(p_total), banker_two(b_total)
    if third is not None:
        player.append(code(third, "H"))
    banker_drew = rule_banker_draws(b_total, third, p_total)
    if banker_drew:
        banker.append(BANKER_THIRD)

    shoe = [player[0], banker[0], player[1], banker[1]]
    calls = [Expect.PLAYER_FIRST, Expect.BANKER_FIRST, Expect.PLAYER_SECOND, Expect.BANKER_SECOND]
    if third is not None:
        shoe.append(player[2])
        calls.append(Expect.PLAYER_THIRD)
    if banker_drew:
        shoe.append(banker[2])
        calls.append(Expect.BANKER_THIRD)

    coup = Coup()
    for card, call in zip(parse_cards(shoe), calls, strict=True):
        assert coup.expected is call
        assert not coup.is_complete
        coup = coup.deal(card)
    assert coup.expected is Expect.NONE
    assert coup.is_complete
    assert coup.player == parse_cards(player)
    assert coup.banker == parse_cards(banker)
    assert Coup.from_dealing_order(parse_cards(shoe)) == coup
    assert Coup.from_hands(parse_cards(player), parse_cards(banker)) == coup

    with pytest.raises(IllegalDeal, match="No card is due"):
        coup.deal(Card.parse("2C"))


@pytest.mark.parametrize("combination", LEGAL, ids=combination_id)
def test_from_hands_refuses_a_wrong_banker_hand_naming_the_banker(
    combination: tuple[int, int, int | None],
) -> None:
    p_total, b_total, third = combination
    player = player_two(p_total) + ([] if third is None else [code(third, "H")])
    banker = banker_two(b_total)
    if rule_banker_draws(b_total, third, p_total):
        wrong_hands = [banker, [*banker, BANKER_THIRD, "2C"]]  # missing third; a fourth card
    else:
        wrong_hands = [[*banker, BANKER_THIRD]]  # a third card when the Banker stands
    for wrong in wrong_hands:
        with pytest.raises(IllegalDeal) as refused:
            Coup.from_hands(parse_cards(player), parse_cards(wrong))
        assert names(str(refused.value), "banker"), str(refused.value)


@pytest.mark.parametrize("combination", ILLEGAL, ids=combination_id)
def test_from_hands_refuses_a_player_hand_against_the_rule_naming_the_player(
    combination: tuple[int, int, int | None],
) -> None:
    p_total, b_total, third = combination
    player = player_two(p_total) + ([] if third is None else [code(third, "H")])
    banker = banker_two(b_total)
    # With or without a Banker third card, the Player's hand is what is wrong.
    for wrong_banker in (banker, [*banker, BANKER_THIRD]):
        with pytest.raises(IllegalDeal) as refused:
            Coup.from_hands(parse_cards(player), parse_cards(wrong_banker))
        assert names(str(refused.value), "player"), str(refused.value)


def test_from_hands_refuses_a_fourth_player_card() -> None:
    with pytest.raises(IllegalDeal) as refused:
        Coup.from_hands(parse_cards(["2C", "3D", "KH", "4S"]), parse_cards(["KD", "7S"]))
    assert names(str(refused.value), "player")


def test_from_hands_refuses_a_player_third_card_when_player_stands_on_6() -> None:
    with pytest.raises(IllegalDeal) as refused:
        Coup.from_hands(parse_cards(["3C", "3D", "KH"]), parse_cards(["KD", "7S"]))
    assert names(str(refused.value), "player")
    assert "6" in str(refused.value)


def test_from_hands_refuses_a_banker_third_card_after_a_natural() -> None:
    with pytest.raises(IllegalDeal) as refused:
        Coup.from_hands(parse_cards(["4C", "5D"]), parse_cards(["KD", "KS", "5H"]))
    assert names(str(refused.value), "banker")
    assert "natural" in str(refused.value).lower()


@pytest.mark.parametrize(
    ("player", "banker"),
    [
        ([], ["KD", "7S"]),
        (["2C"], ["KD", "7S"]),
        (["2C", "3D"], ["KD"]),
        (["2C", "3D"], []),
        ([], []),
    ],
)
def test_from_hands_refuses_a_hand_of_fewer_than_two_cards(
    player: list[str], banker: list[str]
) -> None:
    with pytest.raises(IllegalDeal, match="two"):
        Coup.from_hands(parse_cards(player), parse_cards(banker))


@pytest.mark.parametrize(
    ("player", "banker", "short"),
    [(["2C"], ["KD", "7S"], "player"), (["2C", "3D"], ["KD"], "banker")],
)
def test_from_hands_names_the_hand_that_has_fewer_than_two_cards(
    player: list[str], banker: list[str], short: str
) -> None:
    with pytest.raises(IllegalDeal) as refused:
        Coup.from_hands(parse_cards(player), parse_cards(banker))
    assert names(str(refused.value), short), str(refused.value)


# --- any hands at all: the engine accepts exactly what the texts allow ----------------------------

CARD_CODES = [rank + suit for rank in "A23456789TJQK" for suit in "CDHS"]
card_codes = st.sampled_from(CARD_CODES)
some_hand = st.one_of(
    st.lists(card_codes, min_size=2, max_size=3),
    st.lists(card_codes, min_size=0, max_size=5),
)


@settings(max_examples=1500, deadline=None)
@given(some_hand, some_hand)
def test_from_hands_accepts_a_pair_of_hands_exactly_when_the_texts_allow_it(
    player: list[str], banker: list[str]
) -> None:
    legal = legal_by_the_texts(player, banker)
    try:
        coup = Coup.from_hands(parse_cards(player), parse_cards(banker))
    except IllegalDeal:
        assert not legal, "a legal coup was refused"
    else:
        assert legal, "an illegal coup was accepted"
        assert coup.player == parse_cards(player)
        assert coup.banker == parse_cards(banker)
        assert coup.is_complete


@settings(max_examples=500, deadline=None)
@given(st.lists(card_codes, min_size=6, max_size=6))
def test_dealing_from_a_shoe_takes_the_cards_the_texts_call_for_and_no_more(
    shoe: list[str],
) -> None:
    coup = Coup()
    taken = 0
    while not coup.is_complete:
        coup = coup.deal(Card.parse(shoe[taken]))
        taken += 1
    player = [shoe[0], shoe[2]]
    banker = [shoe[1], shoe[3]]
    rest = shoe[4:]
    if rule_player_draws(count_of(player), count_of(banker)):
        player.append(rest.pop(0))
    third = value_of(player[2]) if len(player) == 3 else None
    if rule_banker_draws(count_of(banker), third, count_of(player[:2])):
        banker.append(rest.pop(0))
    assert taken == len(player) + len(banker)
    assert coup.player == parse_cards(player)
    assert coup.banker == parse_cards(banker)
    assert legal_by_the_texts(player, banker)


# --- what comes next, one card at a time ----------------------------------------------------------


def test_the_first_and_third_cards_go_to_player_and_the_second_and_fourth_to_banker() -> None:
    coup = Coup.from_dealing_order(parse_cards(["2C", "3D", "4H", "5S"]))  # 000 §8(c)
    assert coup.player == parse_cards(["2C", "4H"])
    assert coup.banker == parse_cards(["3D", "5S"])


def test_a_new_coup_calls_for_player_banker_player_banker() -> None:
    coup = Coup()
    seen = []
    for text in ("2C", "3D", "4H", "5S"):
        seen.append((coup.expected, coup.expected.hand))
        coup = coup.deal(Card.parse(text))
    assert seen == [
        (Expect.PLAYER_FIRST, "player"),
        (Expect.BANKER_FIRST, "banker"),
        (Expect.PLAYER_SECOND, "player"),
        (Expect.BANKER_SECOND, "banker"),
    ]


def test_after_the_player_third_card_the_banker_third_card_is_due_when_table_2_says_d() -> None:
    coup = Coup.from_dealing_order(parse_cards(["AC", "2D", "AH", "KS"]))  # Player 2, Banker 2
    assert coup.expected is Expect.PLAYER_THIRD
    coup = coup.deal(Card.parse("8C"))
    assert coup.expected is Expect.BANKER_THIRD
    assert coup.expected.hand == "banker"
    coup = coup.deal(Card.parse("5C"))
    assert coup.expected is Expect.NONE
    assert coup.expected.hand is None


def test_when_player_stands_banker_on_5_is_due_a_third_card() -> None:
    coup = Coup.from_dealing_order(parse_cards(["6C", "2D", "KH", "3S"]))  # Player 6, Banker 5
    assert coup.expected is Expect.BANKER_THIRD


def test_it_refuses_a_card_after_a_natural_and_says_why() -> None:
    coup = Coup.from_dealing_order(parse_cards(["9C", "2D", "KH", "3S"]))  # Player Natural 9
    with pytest.raises(IllegalDeal) as refused:
        coup.deal(Card.parse("4D"))
    message = str(refused.value)
    assert "No card is due" in message
    assert "Natural 9" in message


def test_it_refuses_a_card_when_both_hands_stand_and_says_on_what() -> None:
    coup = Coup.from_dealing_order(parse_cards(["4C", "3D", "3H", "3S"]))  # Player 7, Banker 6
    with pytest.raises(IllegalDeal) as refused:
        coup.deal(Card.parse("4D"))
    message = str(refused.value)
    assert "No card is due" in message
    assert "Player" in message
    assert "7" in message
    assert "Banker" in message
    assert "6" in message


def test_it_refuses_a_fourth_card_to_either_hand_when_dealing() -> None:
    coup = Coup.from_dealing_order(parse_cards(["AC", "2D", "AH", "KS", "8C", "5C"]))
    assert len(coup.player) == 3
    assert len(coup.banker) == 3
    with pytest.raises(IllegalDeal, match="No card is due"):
        coup.deal(Card.parse("4D"))
