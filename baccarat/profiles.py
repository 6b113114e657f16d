"""Rules Submissions: every option of the five rules texts as data, with bundled presets by name.

A ``RulesSubmission`` is what a licensee files for a table: which wagers it offers, how
commission is charged and collected, the settlement procedure, the pay tables, the shoe procedures
and the irregularity procedures. Each field cites the text it comes from (000, 001, 002, 003, 004
are the files in ``shared/rules``). Presets are found by name in ``PROFILES``;
``rules_submission()`` applies and validates overrides.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from baccarat.errors import RulesError
from baccarat.royal9 import Royal9Options
from baccarat.wagertypes import WagerType


class TableType(enum.Enum):
    """Minibaccarat (a house dealer deals, ≤ 9 seats) or big-table Baccarat (10-14 seats)."""

    MINI = "mini"
    BIG = "big"


class Commission(enum.Enum):
    """How the house is paid on Banker wagers."""

    ON_BANKER_WIN = "on_banker_win"  # 000 §12(c), 002 (c)(3): a share of each Banker win
    EZ = "ez"  # 000 §1, §7(a)(1): none; a Banker win with a Dragon 7 pushes
    BANKER_SIX_PAYS_HALF = (
        "banker_six_pays_half"  # 002 (c)(6), 001, 003: a Banker win on 6 pays 1:2
    )
    ON_TIE = "on_tie"  # 002 (c)(4): 25 % of every Banker wager when the hand ties, none on wins


class VigorishCollection(enum.Enum):
    """When commission is taken (000 §12(d))."""

    AT_PAYOUT = "at_payout"
    DEFERRED = "deferred"  # a marker on the seat number, collected before the reshuffle


class SettlementProcedure(enum.Enum):
    """Order of payment and commission after the losing wagers are collected (002 (j)(2))."""

    PAY_ALL_THEN_VIGORISH = "pay_all_then_vigorish"  # (i)
    VIGORISH_ALL_THEN_PAY = "vigorish_all_then_pay"  # (ii)
    PAY_THEN_VIGORISH_BY_SEAT = "pay_then_vigorish_by_seat"  # (iii); 004 §12(b)
    VIGORISH_THEN_PAY_BY_SEAT = "vigorish_then_pay_by_seat"  # (iv); 000 §11(b)
    CALIFORNIA_LINES = "california_lines"  # 001: Player line, Banker line, Tie, clockwise


class DragonBonusPaytable(enum.Enum):
    """The three Dragon Bonus pay tables (000 §12(e))."""

    A = "A"
    B = "B"
    C = "C"


class Dealing(enum.Enum):
    """Who deals and who turns the cards."""

    DEALER_FACE_UP = "dealer_face_up"  # 002 (g)(3)(i)
    BANKER_UNDER_SHOE = "banker_under_shoe"  # 002 (g)(3)(ii)
    PLAYERS_TURN = "players_turn"  # 000 §8(c), 002 (g)(3)(iii): highest wagers turn the cards
    CURATOR = "curator"  # 004 §9(c): a player curator deals, the dealer turns
    CURATOR_PLAYERS_TURN = "curator_players_turn"  # 004 §9(d)
    DEALER_FACE_UP_ROTATING = "dealer_face_up_rotating"  # 001: house dealer, player-dealer banks


class CutOffer(enum.Enum):
    """Who is offered the cut, and in which direction (000 §5(b), 004 §5(c))."""

    HIGHEST_SEAT_CLOCKWISE = "highest_seat_clockwise"
    HIGHEST_SEAT_OR_LAST_CURATOR_COUNTERCLOCKWISE = "highest_seat_or_last_curator_counterclockwise"
    DEALER_CUTS = "dealer_cuts"  # 004 §5(c): "at the casino's discretion"


class Recut(enum.Enum):
    """Who recuts on a supervisor's order (000 §5(e); 002 (e)(7) and 004 §5(f) give a choice)."""

    NEXT_ENTITLED = "next_entitled"
    LAST_CUTTER = "last_cutter"


class ShuffleProcedure(enum.Enum):
    """How the shuffled stack is left for verification (000 §5(a), 002 (e)(2), 004 §5(a))."""

    FEATHERED = "feathered"
    LACED = "laced"
    LACED_THEN_RESHUFFLED = "laced_then_reshuffled"  # surveillance notified 30 min before change
    WASH_AND_THREE_DEALERS = "wash_and_three_dealers"  # 004 §5(a)(2)


class DeckChange(enum.Enum):
    """How often the decks in use are replaced (000 §3(c), 004 §3(b))."""

    EVERY_24_HOURS = "every_24_hours"
    EVERY_SHOE = "every_shoe"


class DisclosedUnauthorizedThird(enum.Enum):
    """A disclosed Player third card not due, when Banker stands (000 §13(c), 002 (k)(1))."""

    BURN_WITH_ONE_MORE = "burn_with_one_more"  # 000 §13(c)(1)
    SIMULATED_ROUND = "simulated_round"  # 000 §13(c)(2)
    BURN_BY_VALUE = "burn_by_value"  # 002 (k)(1): plus as many cards as its value, face up


class DisclosedCard(enum.Enum):
    """A card disclosed when dealt or found face up in the shoe (000 §13(d), 002 (k)(2)-(3))."""

    SIMULATED_ROUND = "simulated_round"
    BURN_BY_VALUE = "burn_by_value"


@dataclass(frozen=True, kw_only=True)
class CollectionFees:
    """California collection fees: fixed amounts, never a share of a wager (001)."""

    player_line: Decimal = Decimal("1.00")
    banker_line: Decimal = Decimal("1.00")
    tie: Decimal = Decimal("1.00")
    player_dealer_per_hand: Decimal = Decimal("1.00")

    def per_bet(self, wager: WagerType) -> Decimal:
        """The fee for one bet of this type."""
        return {
            WagerType.PLAYER: self.player_line,
            WagerType.BANKER: self.banker_line,
            WagerType.TIE: self.tie,
        }[wager]


_MINI_WAGERS = frozenset({WagerType.PLAYER, WagerType.BANKER, WagerType.TIE})


@dataclass(frozen=True, kw_only=True)
class RulesSubmission:
    """The options a licensee filed for a table; see the module docstring for the sources."""

    name: str
    """Preset name, e.g. ``ma-mini``."""
    title: str
    """What the floor calls the game."""
    source: str
    """The rules text it follows (000-004)."""
    table_type: TableType = TableType.MINI
    min_seats: int = 1
    """Fewest numbered seats (big table: 10, 004 §2(a))."""
    max_seats: int = 9
    """Most numbered seats (mini 9, 000 §2(a); big 14; California 8 or 14 incl. player-dealer)."""
    decks: tuple[int, int] = (6, 8)
    """Fewest and most decks in a manual shoe (000 §3(a); 002 (a)(1) at least six; 001 eight)."""
    shuffler_decks: tuple[int, int] | None = (12, 16)
    """Decks with an automatic shuffler (000 §3(b)); None where not allowed."""
    shuffler_batches: bool = True
    """The shuffler's decks form two equal batches of different backs, used alternately."""
    deck_change: DeckChange = DeckChange.EVERY_24_HOURS
    wagers: frozenset[WagerType] = _MINI_WAGERS
    """The wagers the table offers."""
    commission: Commission = Commission.ON_BANKER_WIN
    commission_rate: Decimal = Decimal("0.05")
    """Share of a Banker win (5 % in 000/004; 4 % or 5 % in 002)."""
    tie_commission_rate: Decimal = Decimal("0.25")
    """Share of a Banker wager charged on a tie when ``commission`` is ``ON_TIE`` (002 (c)(4))."""
    vigorish_rounding: Decimal | None = Decimal("0.25")
    """Commission is rounded up to a multiple of this (25¢ in 000, 5¢ in 002), or not at all."""
    vigorish_collection: VigorishCollection = VigorishCollection.AT_PAYOUT
    settlement: SettlementProcedure = SettlementProcedure.VIGORISH_THEN_PAY_BY_SEAT
    tie_odds: int = 8
    """A winning Tie Wager pays at least 8 to 1 (000 §12(b))."""
    dragon_bonus_paytable: DragonBonusPaytable = DragonBonusPaytable.A
    house_money_ride_portion: Decimal = Decimal("1")
    """Share of a winning House Money payout a player may let ride (1 = all; 000 §8(c)(3)(i)a)."""
    pair_odds: int = 11
    """Player Pair / Banker Pair pay 11 to 1 (003)."""
    pair_requires_main_wager: bool = True
    """A pair wager only beside a Banker, Player or Tie wager (003)."""
    dealing: Dealing = Dealing.PLAYERS_TURN
    cut_offer: CutOffer = CutOffer.HIGHEST_SEAT_CLOCKWISE
    recut: Recut = Recut.NEXT_ENTITLED
    cut_min_from_end: int = 10
    """The cover card goes at least this many cards in from either end (10; big table a deck)."""
    second_cover_min_from_back: int = 14
    shuffle: ShuffleProcedure = ShuffleProcedure.FEATHERED
    disclosed_unauthorized_third: DisclosedUnauthorizedThird = (
        DisclosedUnauthorizedThird.BURN_WITH_ONE_MORE
    )
    disclosed_card: DisclosedCard = DisclosedCard.SIMULATED_ROUND
    player_dealer: bool = False
    """A player-dealer banks the game and rotates clockwise (001)."""
    player_dealer_rotation_hands: int = 2
    collection_fees: CollectionFees | None = None
    royal9: Royal9Options | None = None
    procedure_change_notice_minutes: int = 30
    """Surveillance is told this long before a settlement or reshuffle procedure changes (002)."""

    @property
    def is_ez(self) -> bool:
        """EZ Baccarat: no commission, Banker push on a Dragon 7 (000 §1)."""
        return self.commission is Commission.EZ

    @property
    def has_curator(self) -> bool:
        """A player curator deals the shoe (004 §7)."""
        return self.dealing in (Dealing.CURATOR, Dealing.CURATOR_PLAYERS_TURN)

    @property
    def players_turn_cards(self) -> bool:
        """The highest wager on each hand is handed its cards to turn (000 §8(c)(1)-(2))."""
        return self.dealing in (Dealing.PLAYERS_TURN, Dealing.CURATOR_PLAYERS_TURN)

    @property
    def marks_vigorish(self) -> bool:
        """Commission is deferred as a marker on the seat number."""
        return self.vigorish_collection is VigorishCollection.DEFERRED

    def offers(self, wager: WagerType) -> bool:
        """Whether the table takes this wager."""
        return wager in self.wagers

    @property
    def offered_wagers(self) -> tuple[WagerType, ...]:
        """The wagers the table offers, in the order of the layout (the order of ``WagerType``)."""
        return tuple(t for t in WagerType if t in self.wagers)

    def validate(self) -> RulesSubmission:
        """Refuse a combination of options the texts do not allow; returns self."""
        problems = list(_problems(self))
        if problems:
            raise RulesError(f"Rules Submission '{self.name}': " + "; ".join(problems) + ".")
        return self


@dataclass(frozen=True, kw_only=True)
class DeckLimits:
    """The numbers of decks a rules text allows: in a manual shoe, and with an automatic
    shuffler (all its decks, both batches)."""

    fewest: int
    most: int | None
    """None: the text sets no maximum."""
    shuffler_fewest: int | None
    """None: the text allows no shuffler."""
    shuffler_most: int | None
    said: str
    """What the text says, in its words, for a refusal or a hint."""

    def allows(self, low: int, high: int) -> bool:
        """Whether every count from ``low`` to ``high`` is allowed in a manual shoe."""
        return _within(low, high, self.fewest, self.most)

    def allows_shuffler(self, low: int, high: int) -> bool:
        """Whether every count from ``low`` to ``high`` is allowed with a shuffler."""
        if self.shuffler_fewest is None:
            return False
        return _within(low, high, self.shuffler_fewest, self.shuffler_most)


def _within(low: int, high: int, fewest: int, most: int | None) -> bool:
    return fewest <= low <= high and (most is None or high <= most)


#: The deck counts of each rules text. 002 sets only a least number; 003 says nothing, so the
#: least of the others holds; 004 §4(e) leaves a batch shuffle machine to the Rules Submission,
#: its shoe (one batch) holding the six to eight decks of §3(a).
DECK_LIMITS: Mapping[str, DeckLimits] = {
    "000": DeckLimits(
        fewest=6,
        most=8,
        shuffler_fewest=12,
        shuffler_most=16,
        said="six to eight decks; 12 to 16 with an automated shuffler (000 §3(a)-(b))",
    ),
    "001": DeckLimits(
        fewest=8,
        most=8,
        shuffler_fewest=8,
        shuffler_most=8,
        said="eight decks, in a shoe or an automated shuffler (001)",
    ),
    "002": DeckLimits(
        fewest=6,
        most=None,
        shuffler_fewest=12,
        shuffler_most=None,
        said="at least six decks; at least 12 with an automated shuffler; no maximum "
        "(002 (a)(1), (a)(4))",
    ),
    "003": DeckLimits(
        fewest=6,
        most=None,
        shuffler_fewest=12,
        shuffler_most=None,
        said="at least six decks; at least 12 with an automated shuffler (003 sets no number)",
    ),
    "004": DeckLimits(
        fewest=6,
        most=8,
        shuffler_fewest=12,
        shuffler_most=16,
        said="six to eight decks (004 §3(a)); with a batch shuffle machine two batches of six "
        "to eight, 12 to 16 decks (004 §4(e))",
    ),
}


def deck_limits(rules: RulesSubmission) -> DeckLimits:
    """The deck counts the rules text of ``rules`` allows."""
    return DECK_LIMITS[rules.source]


def _deck_problems(p: RulesSubmission) -> list[str]:
    limits = DECK_LIMITS.get(p.source)
    if limits is None:
        return [] if 6 <= p.decks[0] <= p.decks[1] else ["a shoe holds at least six decks"]
    out = []
    if not limits.allows(*p.decks):
        low, high = p.decks
        out.append(f"the text allows {limits.said}, not {low}-{high} decks")
    if p.shuffler_decks is not None:
        low, high = p.shuffler_decks
        if not limits.allows_shuffler(low, high):
            allowed = limits.said if limits.shuffler_fewest else "no automated shuffler"
            out.append(f"the text allows {allowed}, not {low}-{high} decks with the shuffler")
        elif p.shuffler_batches and low == high and low % 2:
            out.append("the shuffler's decks form two equal batches: an even number of decks")
    return out


def _problems(p: RulesSubmission) -> list[str]:
    out = []
    if p.tie_commission_rate != Decimal("0.25"):
        out.append("the commission on a tie is 25 % of the Banker wager")
    out.extend(_deck_problems(p))
    if p.player_dealer and (p.decks != (8, 8) or p.shuffler_decks not in (None, (8, 8))):
        out.append("the California game uses eight decks, in a shoe or a shuffler")
    if p.tie_odds < 8:
        out.append("a winning Tie Wager pays at least 8 to 1")
    if p.commission is Commission.ON_BANKER_WIN and p.commission_rate not in _RATES:
        out.append("commission is 4 % or 5 % of the amount won")
    if p.vigorish_rounding is not None and p.vigorish_rounding not in VIGORISH_ROUNDINGS:
        out.append("commission is rounded up to 5¢ or 25¢, or not rounded")
    if not Decimal(0) < p.house_money_ride_portion <= 1:
        out.append("the House Money ride portion is a share between 0 and 1")
    ez_only = {WagerType.DRAGON7, WagerType.PANDA8} & p.wagers
    if ez_only and not p.is_ez:
        out.append("Dragon 7 and Panda 8 are offered only at an EZ Baccarat table")
    if p.is_ez and p.marks_vigorish:
        out.append("an EZ Baccarat table collects no vigorish to mark")
    if (WagerType.ROYAL9 in p.wagers) != (p.royal9 is not None):
        out.append("the Royal 9 wager needs its progressive options, and only with the wager")
    if p.player_dealer != (p.settlement is SettlementProcedure.CALIFORNIA_LINES):
        out.append("the California settlement order goes with a player-dealer, and only with one")
    if not 1 <= p.min_seats <= p.max_seats:
        out.append("seat limits are out of order")
    if p.table_type is TableType.MINI and p.max_seats > 9 and not p.player_dealer:
        out.append("a Minibaccarat table has at most nine seats")
    if p.table_type is TableType.BIG and not 10 <= p.min_seats <= p.max_seats <= 14:
        out.append("a Baccarat table has 10 to 14 seats")
    return out


_RATES = (Decimal("0.04"), Decimal("0.05"))
#: The steps commission may be rounded up to (000 §12(c), 002 (c)(3)(i)); None: not rounded.
VIGORISH_ROUNDINGS = (Decimal("0.05"), Decimal("0.25"))

_MA_SIDE = frozenset({WagerType.DRAGON_BONUS_PLAYER, WagerType.DRAGON_BONUS_BANKER})
_MA_MINI = RulesSubmission(
    name="ma-mini",
    title="Massachusetts Minibaccarat",
    source="000",
    wagers=_MINI_WAGERS | _MA_SIDE | {WagerType.HOUSE_MONEY},
)
_MA_BIG = dataclasses.replace(
    _MA_MINI,
    name="ma-big",
    title="Massachusetts Baccarat (big table)",
    source="004",
    table_type=TableType.BIG,
    min_seats=10,
    max_seats=14,
    shuffler_decks=None,
    deck_change=DeckChange.EVERY_SHOE,
    wagers=_MA_MINI.wagers | {WagerType.ROYAL9},
    royal9=Royal9Options(),
    settlement=SettlementProcedure.PAY_THEN_VIGORISH_BY_SEAT,
    dealing=Dealing.CURATOR,
    cut_offer=CutOffer.HIGHEST_SEAT_OR_LAST_CURATOR_COUNTERCLOCKWISE,
    cut_min_from_end=52,
    shuffle=ShuffleProcedure.LACED,
)
_EZ = {"commission": Commission.EZ, "vigorish_rounding": None}
_S42 = RulesSubmission(
    name="s42-mini",
    title="Mini-Baccarat, 5 % commission",
    source="002",
    vigorish_rounding=Decimal("0.05"),
    settlement=SettlementProcedure.PAY_THEN_VIGORISH_BY_SEAT,
    disclosed_unauthorized_third=DisclosedUnauthorizedThird.BURN_BY_VALUE,
    disclosed_card=DisclosedCard.BURN_BY_VALUE,
)


def _preset(base: RulesSubmission, **changes: Any) -> RulesSubmission:
    return dataclasses.replace(base, **changes).validate()


PROFILES: Mapping[str, RulesSubmission] = {
    p.name: p
    for p in (
        _MA_MINI.validate(),
        _preset(
            _MA_MINI,
            name="ma-mini-ez",
            title="Massachusetts EZ Baccarat (mini)",
            wagers=_MA_MINI.wagers | {WagerType.DRAGON7, WagerType.PANDA8},
            **_EZ,
        ),
        _MA_BIG.validate(),
        _preset(
            _MA_BIG,
            name="ma-big-ez",
            title="Massachusetts EZ Baccarat (big table)",
            wagers=_MA_BIG.wagers | {WagerType.DRAGON7, WagerType.PANDA8},
            **_EZ,
        ),
        _S42.validate(),
        _preset(
            _S42,
            name="s42-mini-4",
            title="Mini-Baccarat, 4 % commission",
            commission_rate=Decimal("0.04"),
        ),
        _preset(
            _S42,
            name="s42-mini-tievig",
            title="Mini-Baccarat, 25 % commission on ties",
            commission=Commission.ON_TIE,
        ),
        _preset(
            _S42,
            name="s42-mini-nocommission",
            title="Mini-Baccarat, no commission",
            commission=Commission.BANKER_SIX_PAYS_HALF,
            vigorish_rounding=None,
        ),
        RulesSubmission(
            name="ca-commission-free",
            title="California Commission-Free Baccarat",
            source="001",
            max_seats=14,
            decks=(8, 8),
            shuffler_decks=(8, 8),
            shuffler_batches=False,
            commission=Commission.BANKER_SIX_PAYS_HALF,
            vigorish_rounding=None,
            settlement=SettlementProcedure.CALIFORNIA_LINES,
            dealing=Dealing.DEALER_FACE_UP_ROTATING,
            player_dealer=True,
            collection_fees=CollectionFees(),
        ).validate(),
        RulesSubmission(
            name="mini-pairs",
            title="Mini Baccarat with pair bets",
            source="003",
            wagers=_MINI_WAGERS | {WagerType.PLAYER_PAIR, WagerType.BANKER_PAIR},
            commission=Commission.BANKER_SIX_PAYS_HALF,
            vigorish_rounding=None,
            dealing=Dealing.DEALER_FACE_UP,
        ).validate(),
    )
}


def rules_submission(name: str, overrides: Mapping[str, Any] | None = None) -> RulesSubmission:
    """The preset ``name`` with JSON-style ``overrides`` (option -> value) applied and checked."""
    try:
        base = PROFILES[name]
    except KeyError:
        known = ", ".join(PROFILES)
        raise RulesError(f"Unknown rules profile '{name}'. Known profiles: {known}.") from None
    if not overrides:
        return base
    fields = {f.name: f for f in dataclasses.fields(RulesSubmission)}
    changes: dict[str, Any] = {}
    for key, raw in overrides.items():
        if key not in fields or key in ("name", "title", "source"):
            raise RulesError(f"'{key}' is not an option of a Rules Submission.")
        changes[key] = _coerce(key, raw, getattr(base, key))
    return dataclasses.replace(base, **changes).validate()


_MOST_COUNT = 10_000
"""No count an option holds (odds, seats, decks, cards, minutes, hands) comes near this."""


def _count(raw: Any) -> int:
    """A count option: a whole number from 0 to ``_MOST_COUNT``, its size checked before Python
    makes an int of it (``int(Decimal("1e999999"))`` would take minutes)."""
    if isinstance(raw, bool) or not isinstance(raw, int | float | Decimal):
        raise TypeError
    if not 0 <= raw <= _MOST_COUNT or raw != int(raw):
        raise ValueError
    return int(raw)


def _coerce(key: str, raw: Any, current: Any) -> Any:
    """Turn a JSON value into the type of the option it overrides."""
    try:
        if isinstance(current, enum.Enum):
            return type(current)(raw)
        if isinstance(current, bool):
            if not isinstance(raw, bool):
                raise TypeError
            return raw
        if isinstance(current, int):
            return _count(raw)
        if key == "shuffler_decks" and raw is None:
            return None  # no automatic shuffler
        if key == "shuffler_decks" and current is None:
            current = (0, 0)  # a shuffler where the preset has none (004 §4(e))
        if isinstance(current, Decimal) or key == "vigorish_rounding":
            if raw is None and key == "vigorish_rounding":
                return None  # not rounded
            if not isinstance(raw, str | int | float | Decimal) or isinstance(raw, bool):
                raise TypeError
            value = Decimal(str(raw))
            if not value.is_finite():
                raise ValueError
            return value
        if key == "collection_fees":
            return _collection_fees(raw)
        if isinstance(current, frozenset | tuple) and not isinstance(raw, list | tuple):
            raise TypeError
        if isinstance(current, frozenset):
            return frozenset(WagerType(w) for w in raw)
        if isinstance(current, tuple):
            if len(raw) != len(current):
                raise ValueError
            return tuple(_count(Decimal(x) if isinstance(x, str) else x) for x in raw)
    except (ValueError, TypeError, ArithmeticError):
        raise RulesError(f"'{raw}' is not a valid value for the option '{key}'.") from None
    raise RulesError(f"The option '{key}' cannot be overridden here.")


def _collection_fees(raw: Any) -> CollectionFees | None:
    """California collection fees, as the cardroom sets them (001 leaves the amounts to it, per
    table limit): fixed amounts of at least zero; unnamed ones keep their default."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise TypeError
    names = {f.name for f in dataclasses.fields(CollectionFees)}
    if not set(raw) <= names:
        raise ValueError
    fees: dict[str, Decimal] = {}
    for name, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, str | int | Decimal):
            raise TypeError
        amount = Decimal(str(value))
        if not amount.is_finite() or amount < 0 or amount != amount.quantize(Decimal("0.01")):
            raise ValueError
        fees[name] = amount
    return CollectionFees(**fees)


__all__ = [
    "DECK_LIMITS",
    "PROFILES",
    "VIGORISH_ROUNDINGS",
    "CollectionFees",
    "Commission",
    "CutOffer",
    "Dealing",
    "DeckChange",
    "DeckLimits",
    "DisclosedCard",
    "DisclosedUnauthorizedThird",
    "DragonBonusPaytable",
    "Recut",
    "RulesSubmission",
    "SettlementProcedure",
    "ShuffleProcedure",
    "TableType",
    "VigorishCollection",
    "deck_limits",
    "rules_submission",
]
