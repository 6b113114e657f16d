"""How each wager is decided and what it pays, by the table's Rules Submission.

``odds`` gives the exact ratios (what a unit stake wins, and the commission it owes) so that
settlement and the game-math agree by construction; ``resolve`` applies them to an amount.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from baccarat.money import ZERO, times, vigorish
from baccarat.outcome import Hand, Outcome, Winner
from baccarat.profiles import Commission, DragonBonusPaytable, RulesSubmission
from baccarat.wagertypes import WagerType


class Result(enum.Enum):
    """A wager wins, loses, or ties and is returned (a push)."""

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"


@dataclass(frozen=True, slots=True)
class Odds:
    """A decided wager per unit staked: what it wins and the commission it owes."""

    result: Result
    pays: Fraction = Fraction(0)
    commission: Fraction = Fraction(0)

    @property
    def net(self) -> Fraction:
        """The player's net gain per unit staked (commission taken exactly, unrounded)."""
        if self.result is Result.LOSE:
            return Fraction(-1)
        return self.pays - self.commission


LOSE = Odds(Result.LOSE)
PUSH = Odds(Result.PUSH)


def win(pays: int | Fraction, commission: Fraction = Fraction(0)) -> Odds:
    """A winning wager paying ``pays`` to 1."""
    return Odds(Result.WIN, Fraction(pays), commission)


# Dragon Bonus: winning margin (4-9) -> odds, by pay table (000 §12(e)); a Natural winner pays 1:1.
DRAGON_BONUS_MARGIN: dict[DragonBonusPaytable, dict[int, int]] = {
    DragonBonusPaytable.A: {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1},
    DragonBonusPaytable.B: {9: 20, 8: 8, 7: 7, 6: 4, 5: 3, 4: 1},
    DragonBonusPaytable.C: {9: 30, 8: 10, 7: 4, 6: 4, 5: 2, 4: 2},
}
DRAGON7_ODDS = 40  # 000 §12(f)
PANDA8_ODDS = 25  # 000 §12(g)
HOUSE_MONEY_BOTH_PAIRS = 15  # 000 §12(h)
HOUSE_MONEY_EITHER_PAIR = 3


def odds(wager: WagerType, outcome: Outcome, rules: RulesSubmission) -> Odds:
    """How ``wager`` is decided on ``outcome`` at a table with ``rules`` (not the Royal 9)."""
    match wager:
        case WagerType.PLAYER:
            return _player(outcome)
        case WagerType.BANKER:
            return _banker(outcome, rules)
        case WagerType.TIE:
            return win(rules.tie_odds) if outcome.winner is Winner.TIE else LOSE
        case WagerType.DRAGON_BONUS_PLAYER:
            return _dragon_bonus(outcome, Hand.PLAYER, rules.dragon_bonus_paytable)
        case WagerType.DRAGON_BONUS_BANKER:
            return _dragon_bonus(outcome, Hand.BANKER, rules.dragon_bonus_paytable)
        case WagerType.DRAGON7:
            return win(DRAGON7_ODDS) if outcome.is_dragon7 else LOSE
        case WagerType.PANDA8:
            return win(PANDA8_ODDS) if outcome.is_panda8 else LOSE
        case WagerType.HOUSE_MONEY:
            return house_money(outcome.player_pair, outcome.banker_pair)
        case WagerType.PLAYER_PAIR:
            return win(rules.pair_odds) if outcome.player_pair else LOSE
        case WagerType.BANKER_PAIR:
            return win(rules.pair_odds) if outcome.banker_pair else LOSE
    raise ValueError(f"{wager.label} is not decided by odds")


def _player(outcome: Outcome) -> Odds:
    """000 §7(a)(2): 1 to 1; a tie pushes (a Dragon 7 is a Banker win, so it loses)."""
    return {Winner.PLAYER: win(1), Winner.BANKER: LOSE, Winner.TIE: PUSH}[outcome.winner]


def _banker(outcome: Outcome, rules: RulesSubmission) -> Odds:
    """000 §7(a)(1), §12(c); 002 (b)(1)(i), (c)(3)-(6); 001; 003."""
    if outcome.winner is Winner.PLAYER:
        return LOSE
    if outcome.winner is Winner.TIE:
        if rules.commission is Commission.ON_TIE:
            return Odds(Result.PUSH, commission=Fraction(rules.tie_commission_rate))
        return PUSH
    match rules.commission:
        case Commission.ON_BANKER_WIN:
            return win(1, Fraction(rules.commission_rate))
        case Commission.EZ:
            return PUSH if outcome.is_dragon7 else win(1)
        case Commission.BANKER_SIX_PAYS_HALF:
            return win(Fraction(1, 2) if outcome.banker_total == 6 else 1)
        case Commission.ON_TIE:
            return win(1)


def _dragon_bonus(outcome: Outcome, hand: Hand, table: DragonBonusPaytable) -> Odds:
    """000 §7(a)(4), §12(e): Naturals, or a non-Natural win by four points or more."""
    other = Hand.BANKER if hand is Hand.PLAYER else Hand.PLAYER
    mine, theirs = outcome.total(hand), outcome.total(other)
    if outcome.natural(hand):
        if outcome.natural(other) and mine == theirs:
            return PUSH
        return win(1) if mine > theirs or not outcome.natural(other) else LOSE
    margin = mine - theirs
    return win(DRAGON_BONUS_MARGIN[table][margin]) if margin >= 4 else LOSE


def house_money(player_pair: bool, banker_pair: bool) -> Odds:
    """000 §7(a)(7), §12(h): both pairs 15 to 1, either pair 3 to 1."""
    if player_pair and banker_pair:
        return win(HOUSE_MONEY_BOTH_PAIRS)
    return win(HOUSE_MONEY_EITHER_PAIR) if player_pair or banker_pair else LOSE


@dataclass(frozen=True, slots=True)
class Resolution:
    """A wager decided in money: the amount won (stake returned on top) and commission due."""

    result: Result
    payout: Decimal
    vigorish: Decimal


def resolve(amount: Decimal, decided: Odds, rules: RulesSubmission) -> Resolution:
    """Apply decided odds to a stake: payouts to the cent down, commission rounded up."""
    payout = times(amount, decided.pays) if decided.result is Result.WIN else ZERO
    owed = vigorish(amount, decided.commission, rules.vigorish_rounding)
    return Resolution(decided.result, payout, owed)
