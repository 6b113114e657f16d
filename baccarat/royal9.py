"""Royal 9 Baccarat multi-level progressive and the must-hit progressive (004 §13(i)-(j)).

A Royal 9 is a 9 and a picture (J, Q or K) as a hand's first two cards. Every chair has one
pre-printed, unique, non-suited "Personal King-9" combination. The $5 wager is decided by the first
four cards; only the highest award applies.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

from baccarat.cards import Card, Rank, Suit
from baccarat.errors import RulesError

CENT = Decimal("0.01")


class Royal9Award(enum.Enum):
    """Awards of Paytable 1, highest first."""

    PERSONAL_VS_PERSONAL = "personal_vs_personal"  # 100 % of the Star progressive
    BANKER_PERSONAL = "banker_personal"  # 100 % of the Spade progressive
    PLAYER_PERSONAL = "player_personal"  # 100 % of the Heart progressive
    OTHER_PERSONAL_VS_IDENTICAL = "other_personal_vs_identical"
    SUITED_VS_SUITED = "suited_vs_suited"
    ROYAL_VS_ROYAL = "royal_vs_royal"
    ANY_SUITED = "any_suited"
    ANY = "any"

    @property
    def meter(self) -> str | None:
        """The progressive meter this award pays in full, if any."""
        return _METER.get(self)


_METER = {
    Royal9Award.PERSONAL_VS_PERSONAL: "star",
    Royal9Award.BANKER_PERSONAL: "spade",
    Royal9Award.PLAYER_PERSONAL: "heart",
}


@dataclass(frozen=True, slots=True)
class Progressive:
    """A progressive meter's reseed value and the share of each wager it receives."""

    reseed: Decimal
    contribution: Decimal


@dataclass(frozen=True, slots=True)
class MustHit:
    """A must-hit progressive configuration (004 §13(j), Table 1)."""

    reset: Decimal
    maximum: Decimal
    increment_rate: Decimal


MUST_HIT_CONFIGURATIONS: Mapping[int, MustHit] = {
    1: MustHit(Decimal(250), Decimal(1000), Decimal("0.05")),
    2: MustHit(Decimal(100), Decimal(500), Decimal("0.05")),
    3: MustHit(Decimal(100), Decimal(200), Decimal("0.02")),
}

STAR_OPTIONS: Mapping[int, Progressive] = {
    1: Progressive(Decimal(25000), Decimal("0.06")),
    2: Progressive(Decimal(50000), Decimal("0.06")),
}


def default_personal_combinations(seats: int = 14) -> tuple[tuple[Card, Card], ...]:
    """One unique non-suited picture-9 combination per chair: the twelve King-9s, then Queen-9s."""
    suits = list(Suit)
    combos = [
        (Card(picture, a), Card(Rank.NINE, b))
        for picture in (Rank.KING, Rank.QUEEN, Rank.JACK)
        for a in suits
        for b in suits
        if a != b
    ]
    return tuple(combos[:seats])


@dataclass(frozen=True, kw_only=True)
class Royal9Options:
    """A licensee's Royal 9 configuration; chair ``n`` has ``personal_combinations[n - 1]``."""

    wager: Decimal = Decimal(5)
    star: Progressive = STAR_OPTIONS[2]
    spade: Progressive = Progressive(Decimal(450), Decimal("0.05"))
    heart: Progressive = Progressive(Decimal(450), Decimal("0.05"))
    fixed_prizes: Mapping[Royal9Award, Decimal] = field(
        default_factory=lambda: {
            Royal9Award.OTHER_PERSONAL_VS_IDENTICAL: Decimal(5000),
            Royal9Award.SUITED_VS_SUITED: Decimal(1500),
            Royal9Award.ROYAL_VS_ROYAL: Decimal(250),
            Royal9Award.ANY_SUITED: Decimal(50),
            Royal9Award.ANY: Decimal(25),
        }
    )
    personal_combinations: tuple[tuple[Card, Card], ...] = field(
        default_factory=default_personal_combinations
    )
    must_hit: MustHit | None = None

    def __post_init__(self) -> None:
        seen = [frozenset(c) for c in self.personal_combinations]
        if len(set(seen)) != len(seen):
            raise RulesError("Every chair's Personal King-9 combination must be unique.")
        for a, b in self.personal_combinations:
            if not _is_royal9((a, b)) or a.suit == b.suit:
                raise RulesError(f"{a}{b} is not a non-suited picture-9 combination.")

    def __hash__(self) -> int:
        """Hashable as the other options are (the fixed prizes are a mapping): rules are keys
        of caches, e.g. accounting's house edge of each wager."""
        prizes = tuple(sorted((a.value, v) for a, v in self.fixed_prizes.items()))
        return hash(
            (
                self.wager,
                self.star,
                self.spade,
                self.heart,
                prizes,
                self.personal_combinations,
                self.must_hit,
            )
        )

    def progressive(self, meter: str) -> Progressive:
        """The Star, Spade or Heart progressive."""
        return {"star": self.star, "spade": self.spade, "heart": self.heart}[meter]

    def personal(self, seat: int) -> frozenset[Card]:
        """The Personal King-9 combination pre-printed at ``seat``."""
        if not 1 <= seat <= len(self.personal_combinations):
            raise RulesError(f"Seat {seat} has no Personal King-9 combination.")
        return frozenset(self.personal_combinations[seat - 1])


def _is_royal9(cards: Sequence[Card]) -> bool:
    ranks = sorted(c.rank for c in cards[:2])
    return len(ranks) == 2 and ranks[0] == Rank.NINE and ranks[1] >= Rank.JACK


def _is_suited(cards: Sequence[Card]) -> bool:
    return _is_royal9(cards) and cards[0].suit == cards[1].suit


def royal9_award(
    player: Sequence[Card], banker: Sequence[Card], *, seat: int, options: Royal9Options
) -> Royal9Award | None:
    """The award for the Royal 9 wager at ``seat`` on these first two cards of each hand."""
    p, b = frozenset(player[:2]), frozenset(banker[:2])
    mine = options.personal(seat)
    others = {frozenset(c) for c in options.personal_combinations} - {mine}
    if p == mine and b == mine:
        return Royal9Award.PERSONAL_VS_PERSONAL
    if b == mine:
        return Royal9Award.BANKER_PERSONAL
    if p == mine:
        return Royal9Award.PLAYER_PERSONAL
    if p == b and p in others:
        return Royal9Award.OTHER_PERSONAL_VS_IDENTICAL
    if _is_suited(player) and _is_suited(banker):
        return Royal9Award.SUITED_VS_SUITED
    if _is_royal9(player) and _is_royal9(banker):
        return Royal9Award.ROYAL_VS_ROYAL
    if _is_suited(player) or _is_suited(banker):
        return Royal9Award.ANY_SUITED
    if _is_royal9(player) or _is_royal9(banker):
        return Royal9Award.ANY
    return None


def royal9_prize(
    award: Royal9Award, options: Royal9Options, meters: Mapping[str, Decimal]
) -> Decimal:
    """What the award pays, to the cent: a fixed amount, or the whole of its progressive
    meter."""
    meter = award.meter
    if meter is None:
        return options.fixed_prizes[award].quantize(CENT)
    return meters.get(meter, options.progressive(meter).reseed).quantize(CENT)


def contribute(meter: Decimal, wagered: Decimal, progressive: Progressive) -> Decimal:
    """The meter after its share of ``wagered`` is added (to the cent, rounded down)."""
    return meter + (wagered * progressive.contribution).quantize(CENT, rounding=ROUND_DOWN)


def must_hit_point(config: MustHit, rng: random.Random) -> Decimal:
    """Where the must-hit meter will hit, drawn uniformly to the cent in (reset, maximum]."""
    cents = int((config.maximum - config.reset) / CENT)
    return config.reset + CENT * rng.randint(1, cents)


def must_hit_advance(
    meter: Decimal, wagered: Decimal, config: MustHit, hit_point: Decimal
) -> tuple[Decimal, bool]:
    """The meter after a round's wagers and whether it reached its hit point (never past max)."""
    raised = min(meter + (wagered * config.increment_rate).quantize(CENT), config.maximum)
    if raised >= hit_point:
        return hit_point, True
    return raised, False


def must_hit_winner(participants: Sequence[int], rng: random.Random) -> int:
    """The random winner among the seats that made the Royal 9 wager this round."""
    if not participants:
        raise RulesError("No seat made the Royal 9 wager; the must-hit cannot be awarded.")
    return rng.choice(sorted(participants))
