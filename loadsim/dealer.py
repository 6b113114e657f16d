"""A dealer bot: plays one table's rounds over the API, as a tablet would, at a dealer's pace.

The bot is the dealer. It draws cards from a simulated shoe of its own, which holds the cards the
table's shoe holds, and asks the rules engine (``baccarat.drawing.Coup``) whether a third card
comes; it knows what follows a round (the curator passes when Banker loses, the player-dealer
rotates, the cut card makes the next hand the last) from the engine too. It reads nothing from a
command's answer but its HTTP status, so the answers may change shape; the one read is
``GET /api/tables/<id>/`` at start, for the table's wagers and limits.

Wagers are random, of every type the table offers, within its limits (Royal 9 at its fixed
amount, a pair bet beside a main wager, House Money settled after the fourth card). Kept out of
the random choices: riding a House Money payout, withdrawing or changing a wager, relinquishing
the cards, irregularities, voids and recuts; and vigorish markers, which no bundled profile makes
(they collect at payout; a marker found at start is collected).
"""

from __future__ import annotations

import asyncio
import random
import re
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import Any, Protocol

from baccarat.cards import Card, burn_count, full_deck
from baccarat.cutcard import may_deal_round
from baccarat.drawing import Coup
from baccarat.outcome import Outcome
from baccarat.profiles import PROFILES, ShuffleProcedure
from baccarat.seating import (
    california_action_order,
    curator_must_pass,
    curator_offer_order,
)
from baccarat.wagertypes import WagerType
from loadsim.floor import ShoeSituation, SimTable, Situation
from tablegame.models.tables import default_limits

FLOOR = "sim-floor"

#: A round's length at real pace: 200 rounds an hour, the dealer's pauses included.
ROUNDS_PER_HOUR = 200.0
#: Before each try of one command, as the tablet waits (``post`` in static/js/dealer.js): sent
#: again with the same Idempotency-Key only when no answer came, so that it lands once.
RETRY_WAITS = (0.0, 0.3, 1.0, 2.5)
#: A bot that lost track of its table this many times in a row stops.
MOST_RESYNCS = 5

MANUAL_SHUFFLE = ["plug", "riffle", "riffle", "turn", "strip", "cut"]
SHUFFLES: dict[ShuffleProcedure, list[str]] = {
    ShuffleProcedure.FEATHERED: [*MANUAL_SHUFFLE, "feather"],
    ShuffleProcedure.LACED: [*MANUAL_SHUFFLE, "lace"],
    ShuffleProcedure.LACED_THEN_RESHUFFLED: [*MANUAL_SHUFFLE, "lace", "reshuffle"],
    ShuffleProcedure.WASH_AND_THREE_DEALERS: ["wash", *["dealer_shuffle"] * 3, *MANUAL_SHUFFLE],
}
MAINS = (WagerType.PLAYER, WagerType.BANKER, WagerType.TIE)
MAIN_WEIGHTS = (45, 45, 10)
PAIRS = (WagerType.PLAYER_PAIR, WagerType.BANKER_PAIR)
STAKES = (1, 1, 2, 2, 3, 4, 5, 10, 20)


@dataclass(frozen=True)
class Answer:
    status: int
    """The HTTP status; 0 when no answer came."""
    error: str = ""
    """The body of a refusal (cut short), or why no answer came."""
    body: bytes = b""
    """The answer of a command done (what the tablet puts in place)."""


class Transport(Protocol):
    """How the bot reaches the API: over HTTP to a server, or in-process (query counts)."""

    async def get(self, path: str, *, user: str) -> tuple[int, Any]: ...

    async def post(self, path: str, body: dict[str, Any], *, user: str, key: str) -> Answer: ...


@dataclass(slots=True)
class Sent:
    """One command as the bot saw it."""

    table: int
    route: str
    """The command's route, e.g. ``round/cards/`` (a seat's or marker's number: ``<n>``)."""
    sent: float
    """``time.monotonic()`` of the first try."""
    took: float
    """Seconds to the last answer."""
    status: int
    measured: bool
    """Sent while the run was measured (not while the tables were made ready)."""
    key: str = ""
    """Its Idempotency-Key."""
    tries: int = 1


@dataclass
class CommandLog:
    """Every command of every bot, and what went wrong."""

    sent: list[Sent] = field(default_factory=list)
    measuring: bool = False
    refusals: list[str] = field(default_factory=list)
    resyncs: int = 0
    gave_up: int = 0

    def refused(self, text: str) -> None:
        if len(self.refusals) < 50:
            self.refusals.append(text)


@lru_cache(maxsize=1024)
def route_label(route: str) -> str:
    """``seats/<n>/sit/`` for ``seats/3/sit/``: the command, whatever seat or marker (kept:
    the bots send a few dozen routes, each thousands of times, beside the server)."""
    return re.sub(r"(^|/)\d+/", r"\1<n>/", route)


class Diverged(Exception):
    """The server did not do what the bot expected: it must read where the table stands."""


class Pace:
    """When the bot sends each step of a round: at real pace, spread over the round's length
    (with some jitter from round to round); at max pace, at once."""

    def __init__(self, rng: random.Random, *, real: bool, rounds_per_hour: float) -> None:
        self.rng, self.real = rng, real
        self.idle = True
        """Making the table ready, or finishing: no pauses."""
        self.mean = 3600.0 / rounds_per_hour
        self.start, self.length = time.monotonic(), self.mean

    def begin(self) -> None:
        self.start = time.monotonic()
        self.length = self.mean * self.rng.uniform(0.85, 1.15)

    async def at(self, fraction: float, *, until: float | None = None) -> None:
        """Wait until ``fraction`` of the round has gone (never past ``until``)."""
        if not self.real or self.idle:
            return
        moment = self.start + fraction * self.length
        if until is not None:
            moment = min(moment, until)
        delay = moment - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)


class SimShoe:
    """The cards physically in the shoe, top first, and where the cut card lies."""

    def __init__(self, cards: list[Card], *, cut_at: int | None) -> None:
        self.cards, self.position, self.cut_at = cards, 0, cut_at

    @property
    def left(self) -> int:
        return len(self.cards) - self.position

    def draw(self) -> Card:
        card = self.cards[self.position]
        self.position += 1
        return card

    @property
    def cut_card_due(self) -> bool:
        """The next card lies behind the cut card."""
        return self.cut_at is not None and self.position >= self.cut_at

    @classmethod
    def resumed(cls, shoe: ShoeSituation, rng: random.Random) -> SimShoe:
        """A shoe in play found at start: its physical cards drawn from the unseen ones."""
        unseen = [Card.parse(code) for code, n in shoe.remaining.items() for _ in range(n)]
        cards = rng.sample(unseen, max(0, shoe.physical_cards_left))
        cut_at = None
        if shoe.cut_card_round is None and shoe.cover_from_back is not None:
            cut_at = max(0, len(cards) - shoe.cover_from_back)
        return cls(cards, cut_at=cut_at)


class Dealer:
    """One table's dealer."""

    def __init__(
        self,
        table: SimTable,
        transport: Transport,
        log: CommandLog,
        rng: random.Random,
        *,
        pace: Pace,
        resync: Callable[[int], Awaitable[Situation]],
        cards_per_shoe: int | None = None,
    ) -> None:
        self.table, self.http, self.log, self.rng, self.pace = table, transport, log, rng, pace
        self.resync_from = resync
        self.cards_per_shoe = cards_per_shoe
        self.rules = PROFILES[table.profile]
        self.path = f"/api/tables/{table.id}/"
        self.limits: dict[WagerType, tuple[Decimal, Decimal]] = dict(default_limits(self.rules))
        self.offered: list[WagerType] = list(self.rules.offered_wagers)
        self.learned = False
        self.answered: Callable[[Answer], None] | None = None
        """Told each command's last answer (the table's tablet page puts it in place)."""
        self._forget()

    def _forget(self) -> None:
        self.seats: list[int] = []
        self.curator: int | None = None
        self.previous_curator: int | None = None
        self.player_dealer: int | None = None
        self.previous_player_dealer: int | None = None
        self.player_dealer_hands = 0
        self.shoe: SimShoe | None = None
        self.round_number = 0
        self.cut_card_round: int | None = None

    # -- commands -------------------------------------------------------------------------

    async def command(
        self, route: str, body: dict[str, Any] | None = None, *, user: str = ""
    ) -> None:
        """Send one command, again with the same key while no answer comes, as the tablet
        does; refuse to go on unless it was done."""
        key = uuid.uuid4().hex
        sent = time.monotonic()
        answer = Answer(0)
        tries = 0
        for wait in RETRY_WAITS:
            if wait:
                await asyncio.sleep(wait)
            tries += 1
            answer = await self.http.post(
                self.path + route, body or {}, user=user or self.table.dealer, key=key
            )
            if answer.status:
                break
        self.log.sent.append(
            Sent(
                table=self.table.id,
                route=route_label(route),
                sent=sent,
                took=time.monotonic() - sent,
                status=answer.status,
                measured=self.log.measuring,
                key=key,
                tries=tries,
            )
        )
        if self.answered is not None:
            self.answered(answer)
        if answer.status != 200:
            self.log.refused(f"{self.table.name} {route} {answer.status}: {answer.error}")
            raise Diverged(f"{route} {answer.status}: {answer.error}")

    async def seat(self, seat: int) -> None:
        """Seat a player, as the tablet's seat dialog does: it opens, reading the players who
        sat at the table lately (``players/recent/``, which the bot does not pick from: its
        players are new), and the player is seated by name."""
        status, _ = await self.http.get(self.path + "players/recent/", user=self.table.dealer)
        if status != 200:
            self.log.refused(f"{self.table.name} players/recent/ {status}")
        await self.command(f"seats/{seat}/sit/", {"player": f"Player {seat}"})
        self.seats.append(seat)

    async def learn(self) -> None:
        """The table's wagers and limits, from the one read of the table's state."""
        status, state = await self.http.get(self.path, user=self.table.dealer)
        if status != 200 or not isinstance(state, dict):
            raise Diverged(f"GET {self.path} answered {status}")
        rules, limits = state.get("rules"), state.get("limits")
        if isinstance(rules, dict) and isinstance(rules.get("wagers"), list):
            self.offered = [WagerType(w) for w in rules["wagers"]]
        if isinstance(limits, dict):
            for name, span in limits.items():
                self.limits[WagerType(name)] = (Decimal(span["minimum"]), Decimal(span["maximum"]))
        self.learned = True

    # -- the table's day ------------------------------------------------------------------

    async def get_ready(self, where: Situation) -> None:
        """From where the table stands to between rounds with a shoe in play (finishing a round
        left in play)."""
        self._forget()
        if not where.is_open:
            await self.command("open/")
        if not self.learned:
            await self.learn()
        self.seats = list(where.seats)
        wanted = self.rng.randint(3, min(7, self.table.seat_count))
        free = [n for n in range(1, self.table.seat_count + 1) if n not in self.seats]
        for seat in sorted(self.rng.sample(free, max(0, wanted - len(self.seats)))):
            await self.seat(seat)
        self.seats.sort()
        self.curator, self.previous_curator = where.curator_seat, where.previous_curator_seat
        self.player_dealer = where.player_dealer_seat
        self.previous_player_dealer = where.previous_player_dealer_seat
        self.player_dealer_hands = where.player_dealer_hands
        shoe = where.shoe
        if shoe and shoe.state == "in_play" and not shoe.held_card:
            self.shoe = SimShoe.resumed(shoe, self.rng)
            self.round_number, self.cut_card_round = shoe.rounds, shoe.cut_card_round
        game = where.round
        if game is not None:
            if self.shoe is None:
                raise Diverged(f"a round in play on a shoe the bot cannot follow: {shoe}")
            self.round_number = game.number
            await self._finish_round(game.state, game.cards, game.house_money, game.bank_set)
        for marker in where.open_markers:
            await self.command(f"markers/{marker}/collect/")
        if self.shoe is None or self._shoe_over():
            await self.change_shoe(end=shoe is not None)

    async def play(self, until: float) -> None:
        """Deal rounds until ``until``, finishing the round in play; start again from the
        database when the table was not where the bot thought."""
        if self.pace.real:  # tables do not all start their rounds at the same moment
            spread = max(0.0, min(self.pace.mean, until - time.monotonic()))
            await asyncio.sleep(self.rng.uniform(0, spread))
        self.pace.idle = False
        resyncs = 0
        while time.monotonic() < until:
            try:
                self.pace.begin()
                await self.deal_round()
                resyncs = 0
                await self.pace.at(1.0, until=until)
            except Diverged:
                resyncs += 1
                self.log.resyncs += 1
                if resyncs > MOST_RESYNCS:
                    self.log.gave_up += 1
                    return
                await asyncio.sleep(1.0)
                self.pace.idle = True
                try:
                    await self.get_ready(await self.resync_from(self.table.id))
                except Diverged:
                    continue
                finally:
                    self.pace.idle = False

    def _shoe_over(self) -> bool:
        shoe = self.shoe
        return (
            shoe is None
            or not may_deal_round(self.round_number + 1, self.cut_card_round)
            or shoe.left < 6 + 14
        )

    async def change_shoe(self, *, end: bool) -> None:
        """End the shoe (if any), then a new one from receipt to burn."""
        if end:
            await self.command("shoe/end/")
        self.shoe, self.round_number, self.cut_card_round = None, 0, None
        rules = self.rules
        decks = rules.decks[1]
        await self.command("shoe/receive/", {"decks": decks})
        await self.command("shoe/inspect/")
        await self.command("shoe/verify/", user=FLOOR)
        await self.command("shoe/spread/")
        await self.command("shoe/wash/")
        steps = SHUFFLES[rules.shuffle]
        await self.command("shoe/shuffle/", {"steps": steps})
        if "feather" in steps:
            await self.command("shoe/verify-shuffle/", user=FLOOR)
        stack = decks * 52
        least = rules.cut_min_from_end
        if self.cards_per_shoe is None:
            cover = self.rng.randint(rules.second_cover_min_from_back, 30)
        else:
            cover = stack - 11 - self.cards_per_shoe
        cover = max(rules.second_cover_min_from_back, min(stack - 1, cover))
        cut = {
            "seat": None,  # every seat declines the cut: the dealer cuts (000 §5(b))
            "declined": self.seats,
            "position": self.rng.randint(least, stack - least),
            "cover_from_back": cover,
        }
        await self.command("shoe/cut/", cut)
        cards = [card for _ in range(decks) for card in full_deck()]
        self.rng.shuffle(cards)
        first = cards[0]
        await self.command("shoe/burn/", {"first_card": str(first)})
        physical = cards[1 + burn_count(first) :]
        self.shoe = SimShoe(physical, cut_at=len(physical) - cover)

    # -- a round --------------------------------------------------------------------------

    async def deal_round(self) -> None:
        """Offer the shoe or the bank if nobody holds it, then one round, open to settled; then
        a new shoe if that was the shoe's last round."""
        await self._offer_positions()
        await self.command("round/open/")
        self.round_number += 1
        await self._finish_round("betting", (), house_money=False, bank_set=False)
        if self.shoe is None or self._shoe_over():
            await self.change_shoe(end=True)

    async def _offer_positions(self) -> None:
        rules = self.rules
        if rules.has_curator and self.curator is None:
            seat = curator_offer_order(self.seats, previous=self.previous_curator)[0]
            await self.command("curator/", {"seat": seat, "declined": []})
            self.curator = seat
        if rules.player_dealer and self.player_dealer is None:
            last = self.previous_player_dealer
            seat = self.seats[0] if last is None else california_action_order(last, self.seats)[0]
            await self.command("player-dealer/", {"seat": seat, "declined": []})
            self.player_dealer, self.player_dealer_hands = seat, 0

    async def _finish_round(
        self, state: str, cards: Sequence[str], house_money: bool, bank_set: bool
    ) -> None:
        """The round from ``state`` to settled."""
        pace = self.pace
        if state == "betting":
            if self.rules.player_dealer and not bank_set:
                await pace.at(0.05)
                bank = self.rng.choice(("2000.00", "5000.00", "10000.00"))
                await self.command("round/player-dealer-bank/", {"bank": bank})
            wagers = self._wagers()
            times = sorted(self.rng.uniform(0.05, 0.45) for _ in wagers)
            for moment, wager in zip(times, wagers, strict=True):
                await pace.at(moment)
                await self.command("round/wagers/", wager)
            house_money = house_money or any(w["type"] == "house_money" for w in wagers)
            await pace.at(0.5)
            await self.command("round/no-more-bets/")
            state = "dealing"
        coup = Coup.from_dealing_order(Card.parse(c) for c in cards)
        house_money_due = house_money and (
            state == "house_money" or (state in ("betting", "dealing") and coup.dealt < 4)
        )
        shoe = self.shoe
        assert shoe is not None
        step = 0
        while True:
            step += 1
            if house_money_due and coup.dealt == 4:
                await pace.at(0.5 + 0.05 * step)
                await self.command("round/house-money/", {"rides": {}})
                house_money_due = False
                continue
            if coup.is_complete:
                break
            if shoe.cut_card_due:
                await self.command("shoe/cut-card/")
                shoe.cut_at, self.cut_card_round = None, self.round_number
            card = shoe.draw()
            await pace.at(0.5 + 0.05 * step)
            await self.command("round/cards/", {"card": str(card)})
            coup = coup.deal(card)
        await pace.at(0.9)
        await self.command("round/settle/")
        self._after_settlement(coup)

    def _wagers(self) -> list[dict[str, Any]]:
        """Random wagers of the seated players (not the player-dealer), within the limits."""
        offered = set(self.offered)
        mains = [t for t in MAINS if t in offered]
        weights = [w for t, w in zip(MAINS, MAIN_WEIGHTS, strict=True) if t in offered]
        sides = [t for t in self.offered if t not in MAINS]
        out: list[dict[str, Any]] = []
        for seat in self.seats:
            if seat == self.player_dealer:
                continue
            has_main = False
            if mains and self.rng.random() < 0.75:
                kind = self.rng.choices(mains, weights)[0]
                out.append(self._wager(seat, kind))
                has_main = True
            for kind in sides:
                if self.rng.random() >= 0.12:
                    continue
                if kind in PAIRS and self.rules.pair_requires_main_wager and not has_main:
                    continue
                out.append(self._wager(seat, kind))
        return out

    def _wager(self, seat: int, kind: WagerType) -> dict[str, Any]:
        low, high = self.limits[kind]
        amount = min(high, low * self.rng.choice(STAKES))
        return {"seat": seat, "type": kind.value, "amount": f"{amount:.2f}"}

    def _after_settlement(self, coup: Coup) -> None:
        """What the table does after settling, as the rules say (actions.rounds)."""
        rules, outcome = self.rules, Outcome.of(coup)
        if rules.has_curator and self.curator and curator_must_pass(outcome):
            self.previous_curator, self.curator = self.curator, None
        if rules.player_dealer and self.player_dealer is not None:
            self.player_dealer_hands += 1
            if self.player_dealer_hands >= rules.player_dealer_rotation_hands:
                self.previous_player_dealer, self.player_dealer = self.player_dealer, None
                self.player_dealer_hands = 0
