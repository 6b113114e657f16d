"""Cards dealt in error, each case of 000 §13 and 002 (k), and the cut-card calls."""

import pytest

from baccarat.cards import Card, parse_cards
from baccarat.cutcard import ShoeCall, after_round, may_deal_round
from baccarat.drawing import Coup
from baccarat.irregularities import (
    Disposition,
    card_drawn_in_error,
    card_found_face_up,
    enough_cards,
    unauthorized_player_third,
)
from baccarat.profiles import PROFILES, rules_submission

MA = PROFILES["ma-mini"]
S42 = PROFILES["s42-mini"]


def four(player: str, banker: str) -> Coup:
    p, b = parse_cards(player.split()), parse_cards(banker.split())
    return Coup(p, b)


def test_an_undisclosed_card_drawn_in_error_is_the_first_card_of_the_next_hand():
    remedy = card_drawn_in_error(Card.parse("5H"), disclosed=False, rules=MA)
    assert remedy.disposition is Disposition.NEXT_HAND_FIRST


def test_a_disclosed_card_starts_a_simulated_round_in_massachusetts():
    remedy = card_drawn_in_error(Card.parse("5H"), disclosed=True, rules=MA)
    assert remedy.disposition is Disposition.SIMULATED_ROUND
    assert "simulated round" in remedy.instruction


def test_a_disclosed_card_is_burned_with_as_many_cards_as_its_value_under_section_42():
    remedy = card_drawn_in_error(Card.parse("7C"), disclosed=True, rules=S42)
    assert (remedy.disposition, remedy.extra_burn) == (Disposition.BURN_BY_VALUE, 7)
    assert card_found_face_up(Card.parse("QS"), rules=S42).extra_burn == 10


def test_a_card_found_face_up_in_the_shoe_starts_a_simulated_round_in_massachusetts():
    assert card_found_face_up(Card.parse("QS"), rules=MA).disposition is Disposition.SIMULATED_ROUND


def test_an_unauthorized_player_third_card_becomes_the_banker_third_when_banker_must_draw():
    coup = four("6H 10S", "2C 3D")  # Player stands on 6, Banker 5 draws
    for disclosed in (False, True):
        remedy = unauthorized_player_third(coup, Card.parse("4S"), disclosed=disclosed, rules=MA)
        assert remedy.disposition is Disposition.BANKER_THIRD


def test_an_undisclosed_unauthorized_third_card_goes_to_the_next_hand_when_banker_stands():
    coup = four("6H 10S", "3C 3D")  # Banker 6 stands when the Player stood
    remedy = unauthorized_player_third(coup, Card.parse("4S"), disclosed=False, rules=MA)
    assert remedy.disposition is Disposition.NEXT_HAND_FIRST


@pytest.mark.parametrize(
    ("option", "disposition", "burn"),
    [
        ("burn_with_one_more", Disposition.BURN_WITH_ONE_MORE, 1),
        ("simulated_round", Disposition.SIMULATED_ROUND, 0),
        ("burn_by_value", Disposition.BURN_BY_VALUE, 4),
    ],
)
def test_a_disclosed_unauthorized_third_card_follows_the_table_option_when_banker_stands(
    option, disposition, burn
):
    rules = rules_submission("ma-mini", {"disclosed_unauthorized_third": option})
    coup = four("7H 10S", "3C 4D")  # Player 7 stands, Banker 7 stands
    remedy = unauthorized_player_third(coup, Card.parse("4S"), disclosed=True, rules=rules)
    assert (remedy.disposition, remedy.extra_burn) == (disposition, burn)


def test_a_natural_means_banker_never_takes_the_card_dealt_in_error():
    coup = four("9H 10S", "2C 3D")
    remedy = unauthorized_player_third(coup, Card.parse("4S"), disclosed=False, rules=MA)
    assert remedy.disposition is Disposition.NEXT_HAND_FIRST


def test_a_player_third_card_that_was_due_is_not_an_irregularity():
    with pytest.raises(ValueError):
        unauthorized_player_third(
            four("2H 3S", "3C KS"), Card.parse("4S"), disclosed=True, rules=MA
        )


def test_a_round_is_void_when_fewer_than_six_cards_remain():
    assert enough_cards(6)
    assert not enough_cards(5)


def test_the_cut_card_means_complete_the_hand_then_one_more_then_reshuffle():
    assert after_round(10, None) is ShoeCall.CONTINUE
    assert after_round(10, 12) is ShoeCall.CONTINUE
    assert after_round(12, 12) is ShoeCall.LAST_HAND
    assert after_round(13, 12) is ShoeCall.SHOE_OVER
    assert may_deal_round(13, 12)
    assert not may_deal_round(14, 12)
