"""Settlement of a round in the legal order, with exact amounts.

Order of a round (000 §8(c)(3), §11(b); 002 (j)(2); 004 §12(b); 001):
1. California collection fees, fixed amounts, before the action (001).
2. House Money, once the first four cards are face up and before any third card: from the dealer's
   right counterclockwise, losing wagers collected, winners paid or let ride.
3. Every losing wager collected, from the highest seat down.
4. Winning wagers paid and commission collected or marked, by the table's procedure (002 (j)(2)
   (i)-(iv)); at a California table instead: Player line, Banker line, Tie, each from the
   player-dealer's left clockwise, as far as the player-dealer's bank covers, the rest returned.
5. Wagers that push are returned.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_DOWN, Decimal
from fractions import Fraction

from baccarat.drawing import Coup
from baccarat.errors import RulesError
from baccarat.money import CENT, MOST, ZERO, times
from baccarat.outcome import Outcome, first_two_pairs
from baccarat.profiles import RulesSubmission, SettlementProcedure
from baccarat.royal9 import royal9_award, royal9_prize
from baccarat.seating import california_action_order
from baccarat.wagers import Odds, Resolution, Result, house_money, odds, resolve
from baccarat.wagertypes import WagerType


@dataclass(frozen=True, slots=True)
class Wager:
    """A wager on the layout at a seat. ``ride``: let a winning House Money payout ride on it."""

    seat: int
    type: WagerType
    amount: Decimal
    ride: WagerType | None = None


@dataclass(frozen=True, slots=True)
class PlayerDealer:
    """The California player-dealer: the seat, and the bank it puts up to cover the action."""

    seat: int
    bank: Decimal


class Action(enum.Enum):
    """A dealer's settlement step."""

    COLLECT_FEE = "collect_fee"
    COLLECT = "collect"
    PAY = "pay"
    RIDE = "ride"
    COLLECT_VIGORISH = "collect_vigorish"
    MARK_VIGORISH = "mark_vigorish"
    RETURN = "return"

    @property
    def label(self) -> str:
        """What the dealer does, as the tablet and the round review say it."""
        return _ACTION_LABELS[self]


_ACTION_LABELS = {
    Action.COLLECT_FEE: "Collect the collection fee",
    Action.COLLECT: "Collect",
    Action.PAY: "Pay",
    Action.RIDE: "Let ride",
    Action.COLLECT_VIGORISH: "Collect commission",
    Action.MARK_VIGORISH: "Mark commission",
    Action.RETURN: "Return",
}


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the settlement: what the dealer does, at which seat, with how much."""

    action: Action
    seat: int
    wager: WagerType | None
    amount: Decimal
    phase: str = "round"
    """``fees``, ``house_money`` (before any third card) or ``round``."""


@dataclass(frozen=True, slots=True)
class SettledWager:
    """A wager as decided and settled."""

    seat: int
    type: WagerType
    amount: Decimal
    """The amount as wagered (with any House Money ride added)."""
    result: Result
    payout: Decimal
    """Amount won; the covered stake is returned on top."""
    vigorish: Decimal
    returned: Decimal = ZERO
    """Part of the stake returned uncovered by the player-dealer's bank (001)."""
    ridden: Decimal = ZERO
    """Part of a House Money payout let ride on the seat's Player or Banker wager."""
    fee: Decimal = ZERO
    award: str | None = None
    """The Royal 9 award, if any."""


@dataclass(frozen=True, slots=True)
class Settlement:
    """A round's settlement: each wager decided, and the dealer's steps in legal order."""

    outcome: Outcome
    wagers: tuple[SettledWager, ...]
    steps: tuple[Step, ...]
    player_dealer_net: Decimal | None = None


def player_dealer_result(steps: Iterable[Step]) -> Decimal:
    """The player-dealer's result of a hand, recounted from its settlement steps (001): the
    losing wagers it collected less the winning wagers it paid (``Settlement.player_dealer_net``).
    The collection fees are not in it: they are collected apart, before the action, and the whole
    bank covers the wagers; nor are the wagers returned, which it neither won nor paid."""
    net = ZERO
    for s in steps:
        if s.phase == "round" and s.action is Action.COLLECT:
            net += s.amount
        elif s.phase == "round" and s.action is Action.PAY:
            net -= s.amount
    return net


def check_wagers(
    wagers: Sequence[Wager], rules: RulesSubmission, player_dealer: PlayerDealer | None = None
) -> None:
    """Refuse wagers the table does not take, before any card is dealt."""
    seen: set[tuple[int, WagerType]] = set()
    by_seat: dict[int, set[WagerType]] = {}
    for w in wagers:
        if not 1 <= w.seat <= rules.max_seats:
            raise RulesError(
                f"There is no seat {w.seat} at this table (seats 1-{rules.max_seats})."
            )
        if not rules.offers(w.type):
            raise RulesError(f"This table does not offer the {w.type.label} wager.")
        if not Decimal(w.amount).is_finite() or w.amount > MOST:
            raise RulesError(
                f"A wager is an amount of money up to {MOST} (seat {w.seat}, {w.type.label})."
            )
        if w.amount <= 0:
            raise RulesError(f"A wager must be more than zero (seat {w.seat}, {w.type.label}).")
        if (w.seat, w.type) in seen:
            raise RulesError(f"Seat {w.seat} already has a {w.type.label} wager.")
        seen.add((w.seat, w.type))
        by_seat.setdefault(w.seat, set()).add(w.type)
        if w.ride is not None and w.type is not WagerType.HOUSE_MONEY:
            raise RulesError("Only a House Money payout may ride on another wager.")
        if rules.royal9 and w.type is WagerType.ROYAL9 and w.amount != rules.royal9.wager:
            raise RulesError(f"The Royal 9 wager is a fixed ${rules.royal9.wager}.")
    for w in wagers:
        if w.ride is not None and w.ride not in by_seat[w.seat] & {
            WagerType.PLAYER,
            WagerType.BANKER,
        }:
            raise RulesError(
                f"Seat {w.seat} has no Player or Banker wager for the House Money payout "
                "to ride on."
            )
        pair = w.type in (WagerType.PLAYER_PAIR, WagerType.BANKER_PAIR)
        if pair and rules.pair_requires_main_wager and not any(t.is_main for t in by_seat[w.seat]):
            raise RulesError(
                f"Seat {w.seat}: a pair wager needs a Banker, Player or Tie wager beside it."
            )
    _check_player_dealer(wagers, rules, player_dealer)


def _check_player_dealer(
    wagers: Sequence[Wager], rules: RulesSubmission, pd: PlayerDealer | None
) -> None:
    if not rules.player_dealer:
        if pd is not None:
            raise RulesError("This table has no player-dealer position.")
        return
    if pd is None:
        raise RulesError("This game needs a player-dealer: give the seat and the bank.")
    if not 1 <= pd.seat <= rules.max_seats:
        raise RulesError("The player-dealer needs a seat at the table.")
    if any(w.seat == pd.seat for w in wagers):
        raise RulesError(f"The player-dealer at seat {pd.seat} banks the game and cannot wager.")


def settle(
    coup: Coup,
    wagers: Sequence[Wager],
    rules: RulesSubmission,
    *,
    player_dealer: PlayerDealer | None = None,
    meters: Mapping[str, Decimal] | None = None,
) -> Settlement:
    """Decide every wager on a complete coup and list the settlement steps in legal order."""
    check_wagers(wagers, rules, player_dealer)
    if player_dealer is not None and player_dealer.bank <= 0:
        raise RulesError("The player-dealer needs a bank above zero to cover the action.")
    outcome = Outcome.of(coup)
    steps: list[Step] = list(_fee_steps(wagers, rules, player_dealer))
    hm = settle_house_money(coup, wagers, rules)
    steps += hm.steps
    house_money = list(hm.wagers)
    rest = [_with_ride(w, hm.rides) for w in wagers if w.type is not WagerType.HOUSE_MONEY]
    if rules.player_dealer:
        assert player_dealer is not None
        settled, round_steps, net = _california(rest, outcome, rules, player_dealer)
    else:
        settled = [_decide(w, coup, outcome, rules, meters or {}) for w in rest]
        round_steps, net = _round_steps(settled, rules), None
    fees = {(s.seat, s.wager): s.amount for s in steps if s.action is Action.COLLECT_FEE}
    placed = {(w.seat, w.type): i for i, w in enumerate(wagers)}
    everything = sorted(
        (replace(s, fee=fees.get((s.seat, s.type), ZERO)) for s in house_money + settled),
        key=lambda s: placed[(s.seat, s.type)],
    )
    return Settlement(outcome, tuple(everything), tuple(steps + round_steps), net)


def _fee_steps(
    wagers: Sequence[Wager], rules: RulesSubmission, pd: PlayerDealer | None
) -> Iterable[Step]:
    """California collection fees: a fixed fee per bet and one per hand from the player-dealer."""
    fees = rules.collection_fees
    if fees is None or pd is None:
        return
    yield Step(Action.COLLECT_FEE, pd.seat, None, fees.player_dealer_per_hand, "fees")
    for seat in california_action_order(pd.seat, {w.seat for w in wagers}):
        for w in sorted((w for w in wagers if w.seat == seat), key=_type_order):
            yield Step(Action.COLLECT_FEE, seat, w.type, fees.per_bet(w.type), "fees")


@dataclass(frozen=True, slots=True)
class HouseMoneySettlement:
    """House Money settled on the first four cards, before any third card (000 §8(c)(3))."""

    wagers: tuple[SettledWager, ...]
    steps: tuple[Step, ...]
    rides: Mapping[tuple[int, WagerType], Decimal]
    """(seat, Player or Banker) -> the payout added to that wager."""


def house_money_ride(payout: Decimal, rules: RulesSubmission) -> Decimal:
    """The part of a winning House Money payout that may ride on the seat's wager: all of it, or
    the Rules Submission's portion, rounded down to the cent."""
    return (payout * rules.house_money_ride_portion).quantize(CENT, ROUND_DOWN)


def settle_house_money(
    coup: Coup, wagers: Sequence[Wager], rules: RulesSubmission
) -> HouseMoneySettlement:
    """Settle the House Money wagers once the first four cards are face up.

    From the dealer's right counterclockwise: losing wagers collected, then winners paid; a winner
    may let all, or the Rules Submission's portion, of the payout ride on the seat's wager.
    """
    player_pair, banker_pair = first_two_pairs(coup)
    decided_odds = house_money(player_pair, banker_pair)
    hm = sorted((w for w in wagers if w.type is WagerType.HOUSE_MONEY), key=lambda w: w.seat)
    decided = [(w, resolve(w.amount, decided_odds, rules)) for w in hm]
    rides: dict[tuple[int, WagerType], Decimal] = {}
    steps = [
        Step(Action.COLLECT, w.seat, w.type, w.amount, "house_money")
        for w, r in decided
        if r.result is Result.LOSE
    ]
    settled = []
    for w, r in decided:
        ridden = ZERO
        if r.result is Result.WIN:
            if w.ride is not None:
                ridden = house_money_ride(r.payout, rules)
                rides[(w.seat, w.ride)] = ridden
            if r.payout - ridden > 0:
                steps.append(Step(Action.PAY, w.seat, w.type, r.payout - ridden, "house_money"))
            if ridden:
                steps.append(Step(Action.RIDE, w.seat, w.ride, ridden, "house_money"))
        settled.append(
            SettledWager(w.seat, w.type, w.amount, r.result, r.payout, r.vigorish, ridden=ridden)
        )
    return HouseMoneySettlement(tuple(settled), tuple(steps), rides)


def _with_ride(w: Wager, rides: Mapping[tuple[int, WagerType], Decimal]) -> Wager:
    return replace(w, amount=w.amount + rides.get((w.seat, w.type), ZERO))


def _decide(
    w: Wager, coup: Coup, outcome: Outcome, rules: RulesSubmission, meters: Mapping[str, Decimal]
) -> SettledWager:
    if w.type is WagerType.ROYAL9:
        assert rules.royal9 is not None
        award = royal9_award(coup.player, coup.banker, seat=w.seat, options=rules.royal9)
        if award is None:
            return SettledWager(w.seat, w.type, w.amount, Result.LOSE, ZERO, ZERO)
        prize = royal9_prize(award, rules.royal9, meters)
        return SettledWager(w.seat, w.type, w.amount, Result.WIN, prize, ZERO, award=award.value)
    r = resolve(w.amount, odds(w.type, outcome, rules), rules)
    return SettledWager(w.seat, w.type, w.amount, r.result, r.payout, r.vigorish)


def _type_order(w: Wager | SettledWager) -> int:
    return list(WagerType).index(w.type)


def _round_steps(settled: Sequence[SettledWager], rules: RulesSubmission) -> list[Step]:
    """Losers collected, then winners paid and commission taken by the table's procedure."""
    by_seat = sorted(settled, key=lambda s: (-s.seat, _type_order(s)))
    steps = [
        Step(Action.COLLECT, s.seat, s.type, s.amount) for s in by_seat if s.result is Result.LOSE
    ]
    pays: dict[int, list[Step]] = {}
    vigs: dict[int, list[Step]] = {}
    for s in by_seat:
        if s.result is Result.WIN and s.payout > 0:
            pays.setdefault(s.seat, []).append(_pay(s))
        if s.vigorish > 0:
            vigs.setdefault(s.seat, []).append(_vig(s, rules))
    seats = sorted(set(pays) | set(vigs), reverse=True)
    procedure = rules.settlement
    if procedure is SettlementProcedure.PAY_ALL_THEN_VIGORISH:
        steps += [p for seat in seats for p in pays.get(seat, [])]
        steps += [v for seat in seats for v in vigs.get(seat, [])]
    elif procedure is SettlementProcedure.VIGORISH_ALL_THEN_PAY:
        steps += [v for seat in seats for v in vigs.get(seat, [])]
        steps += [p for seat in seats for p in pays.get(seat, [])]
    else:
        vig_first = procedure is SettlementProcedure.VIGORISH_THEN_PAY_BY_SEAT
        for seat in seats:
            first, second = (vigs, pays) if vig_first else (pays, vigs)
            steps += first.get(seat, []) + second.get(seat, [])
    steps += [
        Step(Action.RETURN, s.seat, s.type, s.amount) for s in by_seat if s.result is Result.PUSH
    ]
    return steps


def _pay(s: SettledWager) -> Step:
    return Step(Action.PAY, s.seat, s.type, s.payout)


def _vig(s: SettledWager, rules: RulesSubmission) -> Step:
    """Commission on a win is marked when deferred; 25 % tie commission is always collected."""
    mark = rules.marks_vigorish and s.result is Result.WIN
    return Step(
        Action.MARK_VIGORISH if mark else Action.COLLECT_VIGORISH, s.seat, s.type, s.vigorish
    )


_LINES = (WagerType.PLAYER, WagerType.BANKER, WagerType.TIE)


def _california(
    wagers: Sequence[Wager], outcome: Outcome, rules: RulesSubmission, pd: PlayerDealer
) -> tuple[list[SettledWager], list[Step], Decimal]:
    """Player line, Banker line, Tie, each from the player-dealer's left clockwise (001).

    The player-dealer may neither win nor lose more than its bank: each wager is covered as far as
    that allows, and the part not covered is returned to the player.
    """
    order = california_action_order(pd.seat, {w.seat for w in wagers})
    net = ZERO  # the player-dealer's result so far
    settled: list[SettledWager] = []
    steps: list[Step] = []
    for line in _LINES:
        for seat in order:
            for w in (w for w in wagers if w.seat == seat and w.type is line):
                decided = odds(w.type, outcome, rules)
                s, step_list, net = _cover(w, decided, rules, pd.bank, net)
                settled.append(s)
                steps += step_list
    return settled, steps, net


def _cover(
    w: Wager, decided: Odds, rules: RulesSubmission, bank: Decimal, net: Decimal
) -> tuple[SettledWager, list[Step], Decimal]:
    if decided.result is Result.PUSH:
        step = Step(Action.RETURN, w.seat, w.type, w.amount)
        return SettledWager(w.seat, w.type, w.amount, Result.PUSH, ZERO, ZERO), [step], net
    if decided.result is Result.LOSE:
        covered = min(w.amount, bank - net)
        r = Resolution(Result.LOSE, ZERO, ZERO)
        net += covered
        steps = [Step(Action.COLLECT, w.seat, w.type, covered)] if covered > 0 else []
    else:
        room = bank + net
        covered = min(w.amount, _stake_for(room, decided.pays))
        r = resolve(covered, decided, rules)
        net -= r.payout
        steps = [Step(Action.PAY, w.seat, w.type, r.payout)] if r.payout > 0 else []
    returned = w.amount - covered
    if returned > 0:
        steps.append(Step(Action.RETURN, w.seat, w.type, returned))
    result = r.result if covered > 0 else Result.PUSH
    settled = SettledWager(
        w.seat, w.type, w.amount, result, r.payout, r.vigorish, returned=returned
    )
    return settled, steps, net


def _stake_for(room: Decimal, pays: Fraction) -> Decimal:
    """The largest stake, to the cent, whose payout at ``pays`` to 1 fits in ``room``."""
    if room <= 0:
        return ZERO
    stake = (room * pays.denominator / pays.numerator).quantize(CENT, ROUND_DOWN)
    while times(stake, pays) > room:
        stake -= CENT
    return stake
