"""Settlement properties over random legal coups and random wagers on every profile.

Each round is dealt card by card from random cards (a multi-deck shoe, so any card may repeat), and
each wager is checked against the texts independently of the engine: Player, Banker and Tie by the
Point Counts (000 §7(a), §12; 002 (b)-(c); 001; 003), House Money by the first two cards
(000 §7(a)(7), §12(h)); then every wager's money is followed through the dealer's steps.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from decimal import ROUND_CEILING, ROUND_DOWN, Decimal
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baccarat.cards import Card, Rank, Suit
from baccarat.drawing import Coup
from baccarat.outcome import Outcome
from baccarat.profiles import (
    PROFILES,
    Commission,
    RulesSubmission,
    SettlementProcedure,
    VigorishCollection,
)
from baccarat.settlement import (
    Action,
    PlayerDealer,
    SettledWager,
    Settlement,
    Step,
    Wager,
    player_dealer_result,
    settle,
)
from baccarat.wagers import Result
from baccarat.wagertypes import WagerType

CENT = Decimal("0.01")
P, B, T, HM = WagerType.PLAYER, WagerType.BANKER, WagerType.TIE, WagerType.HOUSE_MONEY
PAIRS = (WagerType.PLAYER_PAIR, WagerType.BANKER_PAIR)
VIG_ACTIONS = (Action.COLLECT_VIGORISH, Action.MARK_VIGORISH)
PHASES = ("fees", "house_money", "round")

cards = st.builds(Card, st.sampled_from(list(Rank)), st.sampled_from(list(Suit)))


@st.composite
def dealt(draw: st.DrawFn) -> Coup:
    """A legal coup from random cards in the order they leave the shoe, as many as the rule uses.

    Half the time a hand's second card takes the rank of its first, so that pairs (House Money,
    Player Pair, Banker Pair) come up often.
    """
    shoe = draw(st.lists(cards, min_size=6, max_size=6))
    for second, first in ((2, 0), (3, 1)):  # Player's and Banker's second cards
        if draw(st.booleans()):
            shoe[second] = Card(shoe[first].rank, shoe[second].suit)
    coups = (Coup.from_dealing_order(shoe[:n]) for n in (4, 5, 6))
    return next(c for c in coups if c.is_complete)


# Corners that random cards reach only rarely, dealt in order: ties, a Dragon 7, a Panda 8, a Banker
# win on 6, Naturals against Naturals, both pairs.
CORNERS = [
    "3C 2H 4D 5S",  # tie, 7 to 7
    "AC KH 2D KS 4C 7H",  # tie, three-card 7 to three-card 7, Banker pair
    "4C 4D 4H 4S",  # tie, Natural 8 to Natural 8, both pairs
    "2H 3C 3S KS KD 4H",  # Dragon 7
    "AC KH 2D KS 5C 5D",  # Panda 8
    "2C KH 3D 6S TC",  # Banker wins on 6 over 5
    "9C 8D KH KS",  # Natural 9 over Natural 8
    "9C 9D KH KS",  # tie, Natural 9 to Natural 9
]
corner_coups = st.sampled_from(CORNERS).map(
    lambda text: Coup.from_dealing_order(Card.parse(c) for c in text.split())
)
coups = st.one_of(dealt(), corner_coups)


amounts = st.integers(min_value=1, max_value=500_000).map(lambda cents: Decimal(cents) * CENT)


@st.composite
def tables(draw: st.DrawFn) -> RulesSubmission:
    """A profile, with the commission and House Money options a licensee may choose."""
    rules = PROFILES[draw(st.sampled_from(sorted(PROFILES)))]
    if rules.player_dealer:
        return rules
    procedures = [p for p in SettlementProcedure if p is not SettlementProcedure.CALIFORNIA_LINES]
    collection = VigorishCollection.AT_PAYOUT
    if not rules.is_ez:  # an EZ table has no vigorish to mark
        collection = draw(st.sampled_from(list(VigorishCollection)))
    return dataclasses.replace(
        rules,
        settlement=draw(st.sampled_from(procedures)),
        vigorish_collection=collection,
        house_money_ride_portion=Decimal(draw(st.sampled_from(["1", "0.5", "0.25", "0.33"]))),
    ).validate()


@st.composite
def layouts(draw: st.DrawFn, rules: RulesSubmission) -> tuple[list[Wager], PlayerDealer | None]:
    """Legal wagers at random seats, and the player-dealer where the game has one."""
    pd = None
    seats = list(range(1, rules.max_seats + 1))
    if rules.player_dealer:
        pd = PlayerDealer(draw(st.sampled_from(seats)), draw(amounts))
        seats.remove(pd.seat)
    wagers: list[Wager] = []
    offered = sorted(rules.wagers, key=list(WagerType).index)
    for seat in draw(st.lists(st.sampled_from(seats), unique=True, max_size=6)):
        kinds = draw(st.lists(st.sampled_from(offered), unique=True, min_size=1, max_size=5))
        if any(k in PAIRS for k in kinds) and not any(k.is_main for k in kinds):
            kinds.append(draw(st.sampled_from([P, B, T])))
        lines = [k for k in kinds if k in (P, B)]
        for kind in kinds:
            amount = rules.royal9.wager if kind is WagerType.ROYAL9 and rules.royal9 else None
            ride = None
            if kind is HM and lines:
                ride = draw(st.sampled_from([None, *lines]))
            wagers.append(Wager(seat, kind, amount or draw(amounts), ride))
    return draw(st.permutations(wagers)), pd


def times(amount: Decimal, ratio: Fraction) -> Decimal:
    return (amount * ratio.numerator / ratio.denominator).quantize(CENT, rounding=ROUND_DOWN)


def round_up(amount: Decimal, step: Decimal | None) -> Decimal:
    step = step or CENT
    return ((amount / step).to_integral_value(rounding=ROUND_CEILING) * step).quantize(CENT)


def expected_main(
    kind: WagerType, amount: Decimal, out: Outcome, rules: RulesSubmission
) -> tuple[Result, Decimal, Decimal]:
    """Player, Banker, Tie as the texts decide them: result, amount won, commission owed."""
    ties = out.player_total == out.banker_total
    if kind is T:
        return (
            (Result.WIN, amount * rules.tie_odds, Decimal(0))
            if ties
            else (Result.LOSE, Decimal(0), Decimal(0))
        )
    if ties:
        if kind is B and rules.commission is Commission.ON_TIE:
            return (
                Result.PUSH,
                Decimal(0),
                round_up(amount * Decimal("0.25"), rules.vigorish_rounding),
            )
        return Result.PUSH, Decimal(0), Decimal(0)
    player_wins = out.player_total > out.banker_total
    if kind is P:
        return (
            (Result.WIN, amount, Decimal(0))
            if player_wins
            else (Result.LOSE, Decimal(0), Decimal(0))
        )
    if player_wins:
        return Result.LOSE, Decimal(0), Decimal(0)
    dragon7 = out.banker_cards == 3 and out.banker_total == 7 and out.player_total < 7
    match rules.commission:
        case Commission.EZ if dragon7:
            return Result.PUSH, Decimal(0), Decimal(0)
        case Commission.ON_BANKER_WIN:
            vig = round_up(amount * rules.commission_rate, rules.vigorish_rounding)
            return Result.WIN, amount, vig
        case Commission.BANKER_SIX_PAYS_HALF if out.banker_total == 6:
            return Result.WIN, times(amount, Fraction(1, 2)), Decimal(0)
    return Result.WIN, amount, Decimal(0)


def steps_by_wager(result: Settlement) -> dict[tuple[int, WagerType], list[Step]]:
    """Each wager's own steps; a ride is part of the House Money payout it comes from."""
    mine: dict[tuple[int, WagerType], list[Step]] = defaultdict(list)
    for s in result.steps:
        if s.phase == "fees":
            continue
        assert s.wager is not None, s
        mine[(s.seat, HM if s.action is Action.RIDE else s.wager)].append(s)
    return mine


def total(steps: list[Step], *actions: Action) -> Decimal:
    return sum((s.amount for s in steps if s.action in actions), Decimal(0))


def what_the_player_ends_with(w: SettledWager, steps: list[Step]) -> Decimal:
    """Stake back plus winnings minus commission, from the steps alone (fees aside)."""
    kept = w.amount - total(steps, Action.COLLECT)
    return kept + total(steps, Action.PAY, Action.RIDE) - total(steps, *VIG_ACTIONS)


def check_common(result: Settlement, wagers: list[Wager]) -> None:
    # every wager settled exactly once, nothing invented
    assert sorted((w.seat, w.type.value) for w in result.wagers) == sorted(
        (w.seat, w.type.value) for w in wagers
    )
    # every step moves money, and phases come in order: fees, House Money, the round
    assert all(s.amount > 0 for s in result.steps), result.steps
    phases = [PHASES.index(s.phase) for s in result.steps]
    assert phases == sorted(phases)
    # a ride goes onto the same seat's Player or Banker wager, and that wager is settled with it
    rides = {(s.seat, s.wager): s.amount for s in result.steps if s.action is Action.RIDE}
    for w in wagers:
        ridden = rides.get((w.seat, w.type), Decimal(0))
        got = next(s for s in result.wagers if (s.seat, s.type) == (w.seat, w.type))
        assert got.amount == w.amount + ridden
    for (seat, kind), amount in rides.items():
        assert kind in (P, B)
        hm = next(w for w in wagers if w.seat == seat and w.type is HM)
        assert hm.ride is kind
        assert amount > 0


def check_house_money(result: Settlement, rules: RulesSubmission, coup: Coup) -> None:
    out = Outcome.of(coup)
    hm_steps = [s for s in result.steps if s.phase == "house_money"]
    assert all(s.wager is HM or s.action is Action.RIDE for s in hm_steps)
    # from the dealer's right counterclockwise (ascending seats); losers collected, winners paid
    collects = [s.seat for s in hm_steps if s.action is Action.COLLECT]
    payments = [s.seat for s in hm_steps if s.action is not Action.COLLECT]
    assert collects == sorted(collects) and payments == sorted(payments)
    collected_first = [s.action is Action.COLLECT for s in hm_steps]
    assert collected_first == sorted(collected_first, reverse=True)
    mine = steps_by_wager(result)
    for w in (w for w in result.wagers if w.type is HM):
        pair_count = int(out.player_pair) + int(out.banker_pair)
        odds = {0: 0, 1: 3, 2: 15}[pair_count]
        steps = mine[(w.seat, HM)]
        assert all(s.phase == "house_money" for s in steps)
        if odds:
            assert (w.result, w.payout) == (Result.WIN, w.amount * odds)
            assert total(steps, Action.PAY, Action.RIDE) == w.payout
            portion = rules.house_money_ride_portion
            rode = total(steps, Action.RIDE)
            assert rode == w.ridden
            if w.ridden:
                assert abs(w.ridden - w.payout * portion) < CENT
        else:
            assert w.result is Result.LOSE
            assert [(s.action, s.amount) for s in steps] == [(Action.COLLECT, w.amount)]


def check_commission_tables(result: Settlement, rules: RulesSubmission, coup: Coup) -> None:
    out = Outcome.of(coup)
    mine = steps_by_wager(result)
    round_steps = [s for s in result.steps if s.phase == "round"]
    # the losing wagers first, highest seat down (000 §11(b), 002 (j)(2), 004 §12(b))
    n = sum(1 for s in round_steps if s.action is Action.COLLECT)
    assert all(s.action is Action.COLLECT for s in round_steps[:n])
    assert [s.seat for s in round_steps[:n]] == sorted(
        (s.seat for s in round_steps[:n]), reverse=True
    )
    # winners then paid and commission taken from the highest seat down (for each pass)
    middle = [s for s in round_steps[n:] if s.action is not Action.RETURN]
    per_seat = rules.settlement in (
        SettlementProcedure.PAY_THEN_VIGORISH_BY_SEAT,
        SettlementProcedure.VIGORISH_THEN_PAY_BY_SEAT,
    )
    passes = (
        [middle]
        if per_seat
        else [
            [s for s in middle if s.action is Action.PAY],
            [s for s in middle if s.action in VIG_ACTIONS],
        ]
    )
    for part in passes:
        assert [s.seat for s in part] == sorted((s.seat for s in part), reverse=True)
    if per_seat:  # (iii) pay then vigorish, (iv) vigorish then pay, at each seat
        vig_first = rules.settlement is SettlementProcedure.VIGORISH_THEN_PAY_BY_SEAT
        for seat in {s.seat for s in middle}:
            at_seat = [s.action in VIG_ACTIONS for s in middle if s.seat == seat]
            assert at_seat == sorted(at_seat, reverse=vig_first)
    if rules.settlement is SettlementProcedure.PAY_ALL_THEN_VIGORISH:
        assert middle == passes[0] + passes[1]
    if rules.settlement is SettlementProcedure.VIGORISH_ALL_THEN_PAY:
        assert middle == passes[1] + passes[0]
    # then the pushes
    assert all(s.action is Action.RETURN for s in round_steps[n + len(middle) :])
    for w in result.wagers:
        if w.type is HM:
            continue
        steps = mine[(w.seat, w.type)]
        assert all(s.phase == "round" for s in steps)
        if w.type in (P, B, T):
            assert (w.result, w.payout, w.vigorish) == expected_main(w.type, w.amount, out, rules)
        if rules.is_ez or rules.commission is not Commission.ON_BANKER_WIN:
            assert not any(s.action is Action.MARK_VIGORISH for s in steps)
        if w.result is Result.LOSE:
            assert [(s.action, s.amount) for s in steps] == [(Action.COLLECT, w.amount)]
            assert what_the_player_ends_with(w, steps) == 0
        elif w.result is Result.WIN:
            assert total(steps, Action.PAY) == w.payout
            assert total(steps, *VIG_ACTIONS) == w.vigorish
            assert not any(s.action in (Action.COLLECT, Action.RETURN) for s in steps)
            assert what_the_player_ends_with(w, steps) == w.amount + w.payout - w.vigorish
            if w.vigorish:
                wanted = Action.MARK_VIGORISH if rules.marks_vigorish else Action.COLLECT_VIGORISH
                assert {s.action for s in steps if s.action in VIG_ACTIONS} == {wanted}
        else:
            assert total(steps, Action.RETURN) == w.amount
            assert not any(s.action in (Action.PAY, Action.COLLECT) for s in steps)
            # a tie commission is collected, never marked (002 (c)(4))
            assert total(steps, Action.COLLECT_VIGORISH) == w.vigorish
            assert not any(s.action is Action.MARK_VIGORISH for s in steps)
            assert what_the_player_ends_with(w, steps) == w.amount - w.vigorish


def check_california(
    result: Settlement, rules: RulesSubmission, coup: Coup, pd: PlayerDealer, wagers: list[Wager]
) -> None:
    out = Outcome.of(coup)
    from baccarat.seating import california_action_order

    order = california_action_order(pd.seat, {w.seat for w in wagers})
    fees = [s for s in result.steps if s.phase == "fees"]
    assert rules.collection_fees is not None
    assert fees[0].seat == pd.seat and fees[0].wager is None
    assert fees[0].amount == rules.collection_fees.player_dealer_per_hand
    assert sorted((s.seat, s.wager.value) for s in fees[1:] if s.wager) == sorted(
        (w.seat, w.type.value) for w in wagers
    )
    round_steps = [s for s in result.steps if s.phase == "round"]
    # Player line, Banker line, Tie; each from the player-dealer's left, clockwise
    keys = [([P, B, T].index(s.wager), order.index(s.seat)) for s in round_steps if s.wager]
    assert keys == sorted(keys)
    # the player-dealer's result is what it collected less what it paid, within its bank
    collected = total(round_steps, Action.COLLECT)
    paid = total(round_steps, Action.PAY)
    assert result.player_dealer_net == collected - paid
    # recounted from the steps, as the next hand's carried bank is (001)
    assert player_dealer_result(result.steps) == result.player_dealer_net
    assert -pd.bank <= collected - paid <= pd.bank
    # follow the bank step by step: a wager is only partly covered once the bank is exhausted
    net = Decimal(0)
    mine = steps_by_wager(result)
    for s in round_steps:
        net += s.amount if s.action is Action.COLLECT else 0
        net -= s.amount if s.action is Action.PAY else 0
        assert -pd.bank <= net <= pd.bank
        if s.action is not Action.RETURN:
            continue
        w = next(x for x in result.wagers if (x.seat, x.type) == (s.seat, s.wager))
        expected, _, _ = expected_main(w.type, w.amount, out, rules)
        if expected is Result.LOSE:
            assert net == pd.bank
        elif expected is Result.WIN:
            unit = (
                Fraction(1, 2)
                if w.type is B and out.banker_total == 6
                else Fraction(rules.tie_odds if w.type is T else 1)
            )
            covered, room = w.amount - w.returned, pd.bank + net
            # the bank is exhausted, or not one more cent of the stake could be paid from it
            assert room == 0 or times(covered + CENT, unit) > room
    for w in result.wagers:
        steps = mine[(w.seat, w.type)]
        expected, _, _ = expected_main(w.type, w.amount, out, rules)
        covered = w.amount - w.returned
        assert Decimal(0) <= covered <= w.amount
        assert w.vigorish == 0
        assert total(steps, Action.RETURN) == w.returned + (
            w.amount if expected is Result.PUSH else 0
        )
        if expected is Result.PUSH:
            assert [(s.action, s.amount) for s in steps] == [(Action.RETURN, w.amount)]
        elif expected is Result.LOSE:
            # the covered part collected and the rest returned add up to the stake
            assert total(steps, Action.COLLECT) == covered
            assert total(steps, Action.COLLECT) + total(steps, Action.RETURN) == w.amount
            assert what_the_player_ends_with(w, steps) == w.returned
        else:
            _, payout, _ = expected_main(w.type, covered, out, rules)
            assert total(steps, Action.PAY) == payout == w.payout
            assert what_the_player_ends_with(w, steps) == w.amount + payout


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), coup=coups)
def test_every_random_round_settles_each_wager_once_and_conserves_money(
    data: st.DataObject, coup: Coup
) -> None:
    rules = data.draw(tables())
    wagers, pd = data.draw(layouts(rules))
    result = settle(coup, wagers, rules, player_dealer=pd)
    check_common(result, wagers)
    check_house_money(result, rules, coup)
    if pd is None:
        assert result.player_dealer_net is None
        assert not [s for s in result.steps if s.phase == "fees"]
        check_commission_tables(result, rules, coup)
    else:
        check_california(result, rules, coup, pd, wagers)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), coup=coups)
def test_a_california_player_dealer_never_wins_or_loses_more_than_its_bank(
    data: st.DataObject, coup: Coup
) -> None:
    rules = PROFILES["ca-commission-free"]
    # small banks against big wagers, so that the bank runs out often
    bank = data.draw(st.integers(1, 20_000).map(lambda c: Decimal(c) * CENT))
    pd = PlayerDealer(data.draw(st.integers(1, rules.max_seats)), bank)
    seats = [s for s in range(1, rules.max_seats + 1) if s != pd.seat]
    wagers = [
        Wager(seat, kind, data.draw(amounts))
        for seat in data.draw(st.lists(st.sampled_from(seats), unique=True, min_size=1))
        for kind in data.draw(st.lists(st.sampled_from([P, B, T]), unique=True, min_size=1))
    ]
    result = settle(coup, wagers, rules, player_dealer=pd)
    check_common(result, wagers)
    check_california(result, rules, coup, pd, wagers)
