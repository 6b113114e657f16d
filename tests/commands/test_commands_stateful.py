"""The tablet's commands at random, through the API, on every bundled profile: each answer is what
was committed, on PostgreSQL and on SQLite.

A Hypothesis state machine deals a table of each profile (readied once for its test; every
example runs in a savepoint rolled back after it) as a dealer's tablet does: one POST per tap,
logged in as the table's dealer, each with an Idempotency-Key, a floorperson's approval where
the command needs one. It seats players and lets them leave, offers the shoe and
the player-dealer position, places, raises and withdraws wagers (some under or over the limits,
some after no more bets), sets the player-dealer's bank, calls no more bets, deals the cards of
a real shuffled shoe (some keyed wrong and corrected, some no card at all or not due), reports
irregularities (a simulated round among their remedies), relinquishes the cards, settles House
Money and lets it ride, settles or voids rounds (Royal 9 wagers dealt their awards, a must-hit
meter one wager from its hit), calls the cut card, ends shoes and brings new decks or the old
again, spreads an idle shoe again, closes and opens the table, and sends commands again with
their key.

After every command (``tests.commands.tablet``): its answer equals a fresh read of the table, its
notice equals the answer less what the broadcast withholds (no notice for a refusal), the
table's record verifies, and a refusal changed nothing; the wagers the table holds are those
tapped (``tests.commands.money.Books``), and a settled round is what the rules engine makes of
its cards and wagers, as the tablet previewed it, with the day's tallies grown by it. After every
example the gaming day verifies against the record (``tablegame.verification.check_day``).

For each of the ten profiles, ``EXAMPLES`` (8) examples of ``STEPS`` (25) steps: 2,000 steps
on each database, about 3,500 commands (a whole round, or a new shoe from receipt to burn, is
one step); 2 to 3 minutes on each database on two cores. The profiles' runs together must have
done each thing the machine is written to do (``test_the_profiles_together_cover_the_tablet``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
    run_state_machine_as_test,
)
from rest_framework.test import APIClient

from baccarat.cards import Card, parse_cards
from baccarat.drawing import Coup, IllegalDeal
from baccarat.errors import RulesError
from baccarat.irregularities import (
    Disposition,
    IrregularityKind,
    Remedy,
    card_drawn_in_error,
    card_found_face_up,
    unauthorized_player_third,
)
from baccarat.profiles import PROFILES, DeckChange
from baccarat.settlement import PlayerDealer, check_wagers
from baccarat.settlement import Wager as EngineWager
from baccarat.shoe import check_decks
from baccarat.wagertypes import WagerType
from tablegame import actions
from tablegame.broadcast import Notice, notices
from tablegame.models import DealerAssignment, MustHitProgressive, Shoe, Table
from tablegame.play.parts import table_state_now
from tablegame.progressives.actions import configure_must_hit
from tablegame.verification import check_day
from tests.commands.money import Books, Placed, Spot, check_settled, check_void
from tests.commands.shoe import CODES, PhysicalShoe
from tests.commands.tablet import Capture, CheckedTablet
from tests.tablegame.conftest import ready_table, shuffle_steps, table_for

#: Also on the embedded demo's SQLite (make test's second pass); slow, as every test of hundreds
#: of Hypothesis examples is (``tests/conftest.py`` finds those by their ``@settings``, which a
#: state machine run inside a test does not carry).
pytestmark = [pytest.mark.sqlite, pytest.mark.slow]

#: Per profile: examples, and the steps of each (2,000 steps over the ten profiles).
EXAMPLES, STEPS = 8, 25
SETTINGS = settings(
    max_examples=EXAMPLES,
    stateful_step_count=STEPS,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: Cards dealt from each table's first shoe before its cut card shows: two or three rounds.
FIRST_SHOE = 12
#: The password of every demo user (``seed_demo``).
PASSWORD = "baccarat"
ACTIVE = ("betting", "dealing", "house_money", "complete")
MAINS = ("player", "banker", "tie")
BANKS = ("50.00", "500.00", "2000.00", "10000.00")
RIDES = (None, "player", "banker")
HOUSE_MONEY = WagerType.HOUSE_MONEY.value


@dataclass
class World:
    """What every example of a profile shares: its table, readied for the test, the dealer the
    demo assigned to it and their tablet, the floorperson's tablet, the notices queued for the
    screens, and what the examples covered."""

    profile: str
    table: Table
    dealer: str
    clients: dict[str, APIClient]
    capture: Capture
    notices: list[Notice]
    covered: Counter[str] = field(default_factory=Counter)
    commands: int = 0


def make_world(profile: str, capture: Capture, queued: list[Notice]) -> World:
    """The profile's table readied by the dealer the demo assigned to it: open, seats 1, 2 and
    5 taken, a short shoe in play (its cut card about ``FIRST_SHOE`` cards in); at a Royal 9
    table, a must-hit meter it feeds one Royal 9 wager away from its hit."""
    floor = User.objects.get(username="floor")
    table = table_for(profile)
    dealer = DealerAssignment.objects.current().get(table=table).dealer
    ready_table(profile, dealer, floor)
    actions.end_shoe(table, actor=dealer)
    actions.receive_decks(table, decks=8, actor=dealer)
    actions.inspect_decks(table, actor=dealer)
    actions.verify_inspection(table, actor=floor)
    actions.spread_decks(table, actor=dealer)
    actions.wash_decks(table, actor=dealer)
    actions.shuffle_decks(table, steps=shuffle_steps(table), actor=dealer)
    if "feather" in shuffle_steps(table):
        actions.verify_shuffle(table, actor=floor)
    state = table_state_now(table.pk)
    assert state is not None
    cover = 8 * 52 - 11 - FIRST_SHOE
    offer = state["shoe"]["cut_offer"]
    actions.cut_cards(
        table, seat=None, declined=offer, position=120, cover_from_back=cover, actor=dealer
    )
    actions.burn_cards(table, first_card="5H", actor=dealer)
    if PROFILES[profile].royal9 is not None:
        meter = configure_must_hit(
            table.pit, name="Stax", configuration=3, tables=[table], actor=floor
        )
        meter.refresh_from_db()  # no contribution yet: the house may still set it up
        close = max(meter.reset, meter.hit_value - Decimal("0.05"))
        MustHitProgressive.objects.filter(pk=meter.pk).update(amount=close)
    clients = {"dealer": APIClient(), "floor": APIClient()}
    clients["dealer"].force_login(dealer)
    clients["floor"].force_login(floor)
    return World(profile, table, dealer.username, clients, capture, queued)


class Dealing(RuleBasedStateMachine):
    """One table dealt at random (module docstring); every command checked as it is sent."""

    def __init__(self, world: World) -> None:
        super().__init__()
        self.world = world
        self.kept = transaction.atomic()
        self.kept.__enter__()  # rolled back after the example (``teardown``)
        self.books = Books()
        self.keyed_wrong: dict[int, dict[int, str]] = {}
        """By round id: the position of a card keyed wrong, and the card dealt."""

    @initialize(seed=st.integers(0, 2**32 - 1))
    def shuffle_the_shoe(self, seed: int) -> None:
        """The physical cards of the shoe in play: the unseen cards, in an order of the seed's
        (the cut card where the table's cut put it)."""
        world = self.world
        self.submission = PROFILES[world.profile]
        self.rng = random.Random(f"{world.profile} {seed}")  # each profile's own shuffles
        self.tablet = CheckedTablet(world.table, world.clients, world.notices, world.capture)
        shoe = Shoe.objects.get(table=world.table, state="in_play")
        self.shoe: PhysicalShoe | None = PhysicalShoe.resumed(
            shoe.remaining,
            self.state["shoe"]["cards_left"],
            self.rng,
            cover=shoe.cover_from_back or 14,
        )
        self.check_model()

    def teardown(self) -> None:
        try:
            if hasattr(self, "tablet"):
                self.world.commands += self.tablet.sent
                casino = self.tablet.table.pit.casino
                day = check_day(casino, casino.gaming_day(timezone.now()))
                assert day.ok, day.discrepancies
        finally:
            transaction.set_rollback(True)
            self.kept.__exit__(None, None, None)

    # -- what the table shows, and the test's own model --------------------------------------

    @property
    def state(self) -> dict[str, Any]:
        return self.tablet.state

    @property
    def game(self) -> dict[str, Any] | None:
        """The round in play, if any."""
        game: dict[str, Any] | None = self.state["round"]
        return game if game is not None and game["state"] in ACTIVE else None

    def in_state(self, *states: str) -> bool:
        game = self.game
        return game is not None and game["state"] in states

    @property
    def shoe_in_play(self) -> bool:
        shoe = self.state["shoe"]
        return shoe is not None and shoe["state"] == "in_play"

    @property
    def between_rounds(self) -> bool:
        return self.shoe_in_play and self.game is None

    @property
    def seats(self) -> list[int]:
        return [s["number"] for s in self.state["seats"] if s["player"] or s["card"]]

    @property
    def empty_seats(self) -> list[int]:
        return [s["number"] for s in self.state["seats"] if not (s["player"] or s["card"])]

    @property
    def book(self) -> dict[Spot, Placed]:
        """The wagers tapped in the round in play."""
        game = self.game
        assert game is not None
        return self.books.of(game["id"])

    def coup(self) -> Coup:
        game = self.game
        assert game is not None
        return Coup(parse_cards(game["player"]), parse_cards(game["banker"]))

    def card_due(self) -> bool:
        return self.in_state("dealing") and not self.coup().is_complete

    def limits(self, kind: str) -> tuple[Decimal, Decimal] | None:
        span = self.state["limits"].get(kind)
        return None if span is None else (Decimal(span["minimum"]), Decimal(span["maximum"]))

    def send(
        self, route: str, body: dict[str, Any] | None = None, *, by: str = "dealer", **kw: Any
    ) -> bool:
        """Send a command (checked by the tablet); whether it was done."""
        sent = self.tablet.send(route, body, by=by, **kw)
        self.world.covered[f"{route} {'done' if sent.done else sent.status}"] += 1
        return sent.done

    def check_model(self) -> None:
        """What the test knows is what the table holds: the wagers tapped, and the count and
        the cards of the physical shoe."""
        self.books.check(self.state, self.tablet.rows)
        shoe = self.shoe
        if shoe is None or not self.shoe_in_play:
            return
        (row,) = [s for s in self.tablet.rows["shoes"] if s["state"] == "in_play"]
        assert row["remaining"] == dict(shoe.counted), "the shoe's count is not the cards seen"
        assert self.state["shoe"]["cards_left"] == len(shoe.cards), "the cards left in the shoe"
        assert (row["held_card"] or None) == shoe.held, "the card held for the next hand"

    # -- seats and positions ------------------------------------------------------------------

    @rule(data=st.data())
    def seat_or_leave(self, data: st.DataObject) -> None:
        """A player sits down, by name or card number (at a seat taken: refused); or one leaves
        (while three or more sit), their wagers withdrawn while wagers are open (with wagers
        in play after no more bets: refused)."""
        if len(self.seats) > 2 and data.draw(st.booleans()):
            self.a_player_leaves(data.draw(st.sampled_from(self.seats)))
            return
        empty = self.empty_seats
        taken = not empty or data.draw(st.integers(0, 3)) == 0
        seat = data.draw(st.sampled_from(self.seats if taken else empty))
        who = data.draw(st.sampled_from([{"player": f"Player {seat}"}, {"card": f"{seat}-4711"}]))
        self.send(f"seats/{seat}/sit/", who, expect=not taken)

    def a_player_leaves(self, seat: int) -> None:
        playing = [
            r["id"]
            for r in self.tablet.rows["rounds"]
            if r["state"] in ACTIVE and any(s == seat for s, _kind in self.books.of(r["id"]))
        ]
        game = self.game
        withdrawn = game is not None and game["state"] == "betting" and playing == [game["id"]]
        if self.send(f"seats/{seat}/leave/", expect=not playing or withdrawn) and withdrawn:
            book = self.book
            for spot in [spot for spot in book if spot[0] == seat]:
                del book[spot]
        self.check_model()

    @precondition(
        lambda self: (
            (self.submission.has_curator or self.submission.player_dealer)
            and (self.game is None or self.in_state("betting"))
        )
    )
    @rule(data=st.data())
    def offer_a_position(self, data: st.DataObject) -> None:
        """Big table: the shoe offered in order, taken by a seat once those before it declined
        (or by the dealer when all decline), or passed by its curator. California: the
        player-dealer position offered clockwise from its holder (to anyone seated, the first
        time), taken once those before declined, between rounds; during one, refused."""
        table = self.state["table"]
        if self.submission.has_curator and table["curator_seat"] is not None:
            self.send("curator/pass/", expect=True)
        elif self.submission.has_curator:
            order = table["curator_offer"]
            taking = data.draw(st.integers(0, len(order)))
            seat = order[taking] if taking < len(order) else None
            self.send("curator/", {"seat": seat, "declined": order[:taking]}, expect=True)
        else:
            offer = table["player_dealer"]
            order = [*offer["offer"], *([offer["again"]] if offer["again"] else [])]
            if not order:
                return
            taking = data.draw(st.integers(0, len(order) - 1))
            declined = [] if offer["first"] else order[:taking]
            body = {"seat": order[taking], "declined": declined}
            self.send("player-dealer/", body, expect=self.game is None)

    # -- wagers -------------------------------------------------------------------------------

    @precondition(lambda self: self.between_rounds)
    @rule()
    def open_a_round(self) -> None:
        """A round opened for wagers: refused after the last hand, or while nobody holds the
        shoe or the player-dealer position."""
        table = self.state["table"]
        refused = (
            self.state["shoe"]["call"] == "shoe_over"
            or (self.submission.has_curator and table["curator_seat"] is None)
            or (self.submission.player_dealer and table["player_dealer_seat"] is None)
        )
        self.send("round/open/", expect=not refused)
        self.check_model()

    @precondition(lambda self: self.in_state("betting"))
    @rule(data=st.data())
    def place_a_wager(self, data: st.DataObject) -> None:
        """A wager placed or raised, done when the engine takes the layout with it within the
        limits; at an empty seat, of a wager the table does not offer, under the minimum or
        over the maximum, refused."""
        offered = self.state["rules"]["wagers"]
        other = next(t.value for t in WagerType if t.value not in offered)
        kind = data.draw(st.sampled_from([*offered, other]))
        empty = bool(self.empty_seats) and data.draw(st.integers(0, 9)) == 0
        seat = data.draw(st.sampled_from(self.empty_seats if empty else self.seats))
        ride = data.draw(st.sampled_from(RIDES)) if kind == HOUSE_MONEY else None
        self.wager(seat, kind, self._amount(data, kind), ride)

    def _amount(self, data: st.DataObject, kind: str) -> Decimal:
        low, high = self.limits(kind) or (Decimal(5), Decimal(100))
        how = data.draw(st.sampled_from(["within"] * 6 + ["cents", "under", "over"]))
        if how == "under":
            return max(low - Decimal("0.01"), Decimal("0.01"))
        if how == "over":
            return high + data.draw(st.sampled_from([Decimal("0.01"), high]))
        if how == "cents":
            return min(high, low + Decimal(data.draw(st.integers(1, 99))) / 100)
        return min(high, low * data.draw(st.integers(1, 20)))

    def wager(self, seat: int, kind: str, amount: Decimal, ride: str | None = None) -> bool:
        """Send a wager; it must be done exactly when wagers are open, the seat taken, the
        amount within the limits, and the engine takes the layout with it."""
        game = self.game
        assert game is not None
        book = self.book
        limits = self.limits(kind)
        legal = (
            game["state"] == "betting"
            and seat in self.seats
            and (limits is None or limits[0] <= amount <= limits[1])
            and self._layout_allowed({**book, (seat, kind): Placed(amount, ride)})
        )
        body: dict[str, Any] = {"seat": seat, "type": kind, "amount": str(amount)}
        if ride is not None:
            body["ride"] = ride
        done = self.send("round/wagers/", body, expect=legal)
        if done:
            self.world.covered["raised" if (seat, kind) in book else "placed"] += 1
            book[(seat, kind)] = Placed(amount, ride)
        self.check_model()
        return done

    def _layout_allowed(self, layout: dict[Spot, Placed]) -> bool:
        """Whether the rules engine takes these wagers together (``check_wagers``)."""
        game = self.game
        assert game is not None
        player_dealer = None
        if game["player_dealer_seat"] is not None:
            bank = Decimal(game["player_dealer_bank"] or 0)
            player_dealer = PlayerDealer(game["player_dealer_seat"], bank)
        wagers = [
            EngineWager(seat, WagerType(kind), p.amount, WagerType(p.ride) if p.ride else None)
            for (seat, kind), p in layout.items()
        ]
        try:
            check_wagers(wagers, self.submission, player_dealer)
        except RulesError:
            return False
        return True

    @precondition(lambda self: self.in_state("betting"))
    @rule(data=st.data())
    def withdraw_a_wager(self, data: st.DataObject) -> None:
        """A wager taken back while wagers are open; one not on the layout, or one another
        wager needs (a pair wager's main wager, the wager House Money rides on), refused."""
        book = self.book
        on_layout = bool(book) and data.draw(st.integers(0, 3)) > 0
        spots = sorted(book) if on_layout else [(self.seats[-1], "tie")]
        spot = data.draw(st.sampled_from(spots))
        left = {other: placed for other, placed in book.items() if other != spot}
        legal = spot in book and self._layout_allowed(left)
        seat, kind = spot
        if self.send("round/wagers/withdraw/", {"seat": seat, "type": kind}, expect=legal):
            del book[spot]
        self.check_model()

    @precondition(lambda self: self.submission.player_dealer and self.in_state("betting"))
    @rule(bank=st.sampled_from(BANKS))
    def set_the_bank(self, bank: str) -> None:
        """California: the player-dealer's bank for the hand."""
        self.send("round/player-dealer-bank/", {"bank": bank}, expect=True)

    @precondition(lambda self: self.in_state("betting"))
    @rule()
    def no_more_bets(self) -> None:
        """No more bets (at California, once the player-dealer's bank is recorded)."""
        game = self.game
        assert game is not None
        self.send(
            "round/no-more-bets/",
            expect=not self.submission.player_dealer or bool(game["player_dealer_bank"]),
        )

    # -- cards --------------------------------------------------------------------------------

    @precondition(lambda self: self.card_due())
    @rule(pick=st.integers(0, 7))
    def deal_a_card(self, pick: int) -> None:
        """One of the top cards of the shoe (the shoe could have been shuffled so)."""
        self.deal(pick)

    def deal(self, pick: int = 0) -> bool:
        """Deal a card the shoe holds (the card held from the last hand first); done exactly
        while a card is due."""
        shoe = self.shoe
        assert shoe is not None
        due = self.card_due()
        held = shoe.held is not None and due and not self.coup().dealt
        if held:
            assert shoe.held is not None
            card = shoe.held
        else:
            countable = [c for c in shoe.cards[:8] if shoe.left(c) > 0]
            if not countable:
                return False
            card = countable[pick % len(countable)]
        done = self.send("round/cards/", {"card": card}, expect=due)
        if done and held:
            shoe.held = None
        elif done:
            shoe.take(shoe.cards.index(card))
        self.check_model()
        return done

    @precondition(lambda self: self.card_due())
    @rule(data=st.data())
    def key_a_card_wrong(self, data: st.DataObject) -> None:
        """The dealer keys another card than the one dealt: the table takes it (the shoe holds
        one), and the floor may have it corrected later."""
        shoe = self.shoe
        assert shoe is not None
        if shoe.held and not self.coup().dealt:
            return  # the held card is the one dealt
        dealt = shoe.cards[0]
        keyed = data.draw(st.sampled_from([c for c in CODES if c != dealt and shoe.left(c) > 0]))
        position = len(self.state["round"]["cards"]) + 1
        round_id = self.state["round"]["id"]
        if self.send("round/cards/", {"card": keyed}, expect=True):
            del shoe.cards[0]
            shoe.counted[keyed] -= 1
            self.keyed_wrong.setdefault(round_id, {})[position] = dealt
            self.world.covered["keyed wrong"] += 1
        self.check_model()
        if data.draw(st.booleans()):  # the floorperson is called at once
            self.correct_a_card(data)

    @precondition(lambda self: self.game is not None)
    @rule(data=st.data())
    def key_an_impossible_card(self, data: st.DataObject) -> None:
        """A card refused: no card at all (400), none due (wagers open, House Money first, the
        coup complete), not the card held from the last hand, or one the shoe no longer
        holds."""
        shoe = self.shoe
        assert shoe is not None
        choices = ["1X", "ZZ", *[c for c in CODES if shoe.left(c) <= 0][:1]]
        due = self.card_due()
        if due and shoe.held and not self.coup().dealt:
            choices.append(next(c for c in CODES if c != shoe.held and shoe.left(c) > 0))
        elif not due:
            choices.append(next(c for c in CODES if shoe.left(c) > 0))
        self.send("round/cards/", {"card": data.draw(st.sampled_from(choices))}, expect=False)

    @precondition(lambda self: bool(self.game and self.keyed_wrong.get(self.game["id"])))
    @rule(data=st.data())
    def correct_a_card(self, data: st.DataObject) -> None:
        """A card keyed wrong corrected, a floorperson approving at the tablet: done unless the
        right card would change which hand draws, or House Money was settled on the cards; with
        a wrong password, or the dealer approving it, refused."""
        game, shoe = self.game, self.shoe
        assert game is not None and shoe is not None
        wrong = self.keyed_wrong[game["id"]]
        position = data.draw(st.sampled_from(sorted(wrong)))
        right = wrong[position]
        how = data.draw(st.sampled_from(["approved", "approved", "wrong", "self"]))
        body = {"position": position, "card": right, "reason": "keyed wrong", **self.approval(how)}
        entered = next(c["card"] for c in game["cards"] if c["position"] == position)
        legal = (
            how == "approved"
            and not game["steps"]
            and shoe.left(right) > 0
            and self._deals_alike(position, right)
        )
        if self.send("round/corrections/", body, expect=legal):
            shoe.counted[entered] += 1
            shoe.counted[right] -= 1
            del wrong[position]
        self.check_model()

    def _deals_alike(self, position: int, right: str) -> bool:
        """Whether the round's cards, the one at ``position`` corrected, go to the same hands."""
        game = self.game
        assert game is not None
        coup = Coup()
        for card in game["cards"]:
            if card["hand"] not in ("player", "banker"):
                continue
            was = coup.expected.hand
            code = right if card["position"] == position else card["card"]
            try:
                coup = coup.deal(Card.parse(code))
            except IllegalDeal:
                return False
            if was != card["hand"]:
                return False
        return True

    def approval(self, how: str) -> dict[str, str]:
        """A floorperson's approval at the tablet: theirs, with a wrong password, or the
        dealer's own."""
        return {
            "approved": {"floorperson": "floor", "password": PASSWORD},
            "wrong": {"floorperson": "floor", "password": "not-it"},
            "self": {"floorperson": self.world.dealer, "password": PASSWORD},
        }[how]

    @precondition(lambda self: self.in_state("dealing", "house_money"))
    @rule(hand=st.sampled_from(["player", "banker"]))
    def relinquish_the_cards(self, hand: str) -> None:
        """The player turning a hand's cards gives up the right (the dealer's: refused)."""
        game = self.game
        assert game is not None
        self.send("round/relinquish/", {"hand": hand}, expect=game[f"{hand}_turner"] is not None)

    @precondition(lambda self: self.in_state("dealing", "complete"))
    @rule(data=st.data())
    def report_an_irregularity(self, data: st.DataObject) -> None:
        """A card drawn in error, a Player third card not due, or a card found face up: the
        rules' remedy done (the card held for the next hand, cards burned, a simulated round,
        the Banker's third card); a Player third card that was due, refused."""
        shoe = self.shoe
        assert shoe is not None
        kind = data.draw(st.sampled_from([k.value for k in IrregularityKind]))
        disclosed = data.draw(st.booleans())
        index = data.draw(st.integers(0, 3))
        card = shoe.cards[index]
        try:
            remedy: Remedy | None = self._remedy(kind, Card.parse(card), disclosed)
        except ValueError:
            remedy = None  # the Player's third card was due: no irregularity
        if remedy and remedy.disposition is Disposition.NEXT_HAND_FIRST and shoe.held:
            return  # one card is held at a time
        body = {"kind": kind, "card": card, "disclosed": disclosed}
        if self.send("round/irregularities/", body, expect=remedy is not None):
            assert remedy is not None
            shoe.take(index)
            shoe.burn_unseen(remedy.extra_burn)
            if remedy.disposition is Disposition.NEXT_HAND_FIRST:
                shoe.held = card
            recorded = self.tablet.rows["irregularities"][-1]
            assert recorded["disposition"] == remedy.disposition.value, recorded
            self.world.covered[f"irregularity {remedy.disposition.value}"] += 1
        self.check_model()
        game = self.game
        if game is not None and game["simulated"] and data.draw(st.booleans()):
            self.finish(data, simulated_only=True)  # the simulated round dealt and settled

    def _remedy(self, kind: str, card: Card, disclosed: bool) -> Remedy:
        if kind == IrregularityKind.CARD_FACE_UP.value:
            return card_found_face_up(card, rules=self.submission)
        if kind == IrregularityKind.CARD_DRAWN_IN_ERROR.value:
            return card_drawn_in_error(card, disclosed=disclosed, rules=self.submission)
        return unauthorized_player_third(
            self.coup(), card, disclosed=disclosed, rules=self.submission
        )

    @precondition(
        lambda self: (
            self.shoe is not None
            and self.shoe.cut_card_due
            and self.shoe_in_play
            and self.state["shoe"]["cut_card_round"] is None
        )
    )
    @rule()
    def the_cut_card_comes_out(self) -> None:
        """The cut card shows: this hand completes, then one more, the last."""
        assert self.shoe is not None
        if self.send("shoe/cut-card/", expect=True):
            self.shoe.cover = None

    # -- the end of a round -------------------------------------------------------------------

    @precondition(lambda self: self.in_state("house_money"))
    @rule(data=st.data())
    def settle_house_money(self, data: st.DataObject) -> None:
        """House Money settled on the first four cards, a winning payout let ride on the seat's
        Player or Banker wager (on one the seat does not have: refused)."""
        self.house_money(data)

    def house_money(self, data: st.DataObject) -> bool:
        book = self.book
        seats = sorted(seat for seat, kind in book if kind == HOUSE_MONEY)
        rides = {seat: data.draw(st.sampled_from(RIDES)) for seat in seats}
        legal = all(ride is None or (seat, ride) in book for seat, ride in rides.items())
        body = {"rides": {str(seat): ride for seat, ride in rides.items()}}
        done = self.send("round/house-money/", body, expect=legal)
        if done:
            for seat, ride in rides.items():
                book[(seat, HOUSE_MONEY)] = Placed(book[(seat, HOUSE_MONEY)].amount, ride)
            self.world.covered["house money ridden"] += any(rides.values())
        self.check_model()
        return done

    @precondition(lambda self: self.in_state("complete"))
    @rule()
    def settle_the_round(self) -> None:
        self.settle()

    def settle(self) -> None:
        """Settle the complete coup, and check its settlement (``money.check_settled``)."""
        game = self.game
        assert game is not None
        before = self.tablet.rows
        self.send("round/settle/", expect=True)
        casino = self.tablet.table.pit.casino
        book = self.books.of(game["id"])
        after = self.tablet.rows
        check_settled(game["id"], self.submission, book, before, after, game["preview"], casino)
        covered = self.world.covered
        covered["settled simulated" if game["simulated"] else "settled"] += 1
        for w in after["wagers"]:
            if w["round_id"] == game["id"] and w["award"]:
                covered["royal 9 award"] += 1
                covered[f"royal 9 {w['award']}"] += 1
        if any(r["round_id"] == game["id"] for r in after["must_hit_wins"]):
            covered["must-hit hit"] += 1
        self.check_model()

    @precondition(lambda self: self.in_state("dealing", "house_money"))
    @rule(how=st.sampled_from(["approved", "approved", "floor", "alone", "wrong"]))
    def void_the_round(self, how: str) -> None:
        """The round void, every wager returned: by a floorperson, or by the dealer with one's
        approval; by the dealer alone while the shoe holds cards, with a wrong password, or
        once House Money was settled, refused."""
        game = self.game
        assert game is not None
        authority = how in ("approved", "floor") or (
            how == "alone" and self.state["shoe"]["cards_left"] < 6
        )
        body = {"reason": "the floor decides"}
        if how in ("approved", "wrong"):
            body.update(self.approval(how))
        before = self.tablet.rows
        by = "floor" if how == "floor" else "dealer"
        if self.send("round/void/", body, by=by, expect=authority and not game["steps"]):
            self.world.covered["void"] += 1
            check_void(game["id"], before, self.tablet.rows, self.tablet.table.pit.casino)
        self.check_model()

    @precondition(lambda self: self.game is not None)
    @rule(data=st.data())
    def tap_out_of_turn(self, data: st.DataObject) -> None:
        """A tap the round is not at, refused: a wager, its withdrawal, the bank or no more
        bets after no more bets; a card, the cards relinquished or the round void while wagers
        are open; House Money but at its turn; settle before the coup is complete; the round
        void once it is; the shoe ended, the shoe or the player-dealer position taken during a
        round."""
        game = self.game
        assert game is not None
        state, taps = game["state"], []
        if state != "betting":
            kind = self.state["rules"]["wagers"][0]
            limits = self.limits(kind)
            assert limits is not None
            taps.append(
                ("round/wagers/", {"seat": self.seats[0], "type": kind, "amount": str(limits[0])})
            )
            for seat, kind in list(self.book)[:1]:
                taps.append(("round/wagers/withdraw/", {"seat": seat, "type": kind}))
            taps.append(("round/no-more-bets/", {}))
            if self.submission.player_dealer:
                taps.append(("round/player-dealer-bank/", {"bank": "100.00"}))
            if self.submission.has_curator:
                taps.append(("curator/pass/", {}))
        else:
            taps.append(("round/relinquish/", {"hand": "player"}))
            taps.append(("round/void/", {"reason": "too soon", **self.approval("approved")}))
        if state != "house_money":
            taps.append(("round/house-money/", {"rides": {}}))
        if state != "complete":
            taps.append(("round/settle/", {}))
        else:
            taps.append(("round/void/", {"reason": "too late", **self.approval("approved")}))
        taps.append(("shoe/end/", {}))
        if self.submission.player_dealer:
            taps.append(("player-dealer/", {"seat": self.seats[0], "declined": []}))
        route, body = data.draw(st.sampled_from(taps))
        self.send(route, body, expect=False)

    # -- the shoe -----------------------------------------------------------------------------

    @precondition(
        lambda self: (
            self.between_rounds
            and (self.state["shoe"]["rounds"] >= 2 or self.state["shoe"]["call"] != "continue")
        )
    )
    @rule(data=st.data())
    def change_the_shoe(self, data: st.DataObject) -> None:
        """Between rounds: the shoe ends (the table perhaps closed and opened again) and a new
        one is brought, or the idle shoe is spread again and shuffled anew."""
        if data.draw(st.integers(0, 3)) == 0:
            self.send("shoe/respread/", {"face_up": data.draw(st.booleans())}, expect=True)
            self.shoe = None
            self._ready_shoe(data)
            return
        self.send("shoe/end/", expect=True)
        self.shoe = None
        self.check_model()
        if data.draw(st.integers(0, 2)) == 0:
            self.send("close/", expect=True)
            self.send("open/", expect=True)
        self.bring_a_new_shoe(data)

    @precondition(lambda self: self.state["shoe"] is None)
    @rule(data=st.data())
    def bring_a_new_shoe(self, data: st.DataObject) -> None:
        """New decks (or the last shoe's again, where the rules allow it: not at a big table)
        received, inspected, verified, spread, then readied (``_ready_shoe``)."""
        rules = self.submission
        if data.draw(st.integers(0, 3)) == 0:
            every_shoe = rules.deck_change is DeckChange.EVERY_SHOE
            if self.send("shoe/receive/", {"new_decks": False}, expect=not every_shoe):
                self.world.covered["decks reshuffled"] += 1
                self._ready_shoe(data)
                return
        while True:  # the decks the dealer says came: done if the rules allow them
            shuffler = rules.shuffler_decks is not None and data.draw(st.integers(0, 3)) == 0
            decks = data.draw(st.integers(5, 17 if shuffler else 9))
            try:
                check_decks(rules, decks, automatic_shuffler=shuffler)
            except RulesError:
                allowed = False
            else:
                allowed = True
            body = {"decks": decks, "automatic_shuffler": shuffler}
            if self.send("shoe/receive/", body, expect=allowed):
                break
        self.send("shoe/inspect/", expect=True)
        self.send("shoe/verify/", by="floor", expect=True)
        self.send("shoe/spread/", expect=True)
        self._ready_shoe(data)

    def _ready_shoe(self, data: st.DataObject) -> None:
        """From spread (or shuffled in the shuffler) to burned: washed, shuffled by the table's
        procedure, the shuffle verified, cut (perhaps recut on the floor's order), the first card
        exposed and as many burned; the physical shoe shuffled, its cut card often early."""
        shoe = self.state["shoe"]
        if shoe["state"] in ("spread", "washed"):
            if shoe["state"] == "spread":
                self.send("shoe/wash/", expect=True)
            if self.state["shoe"]["automatic_shuffler"]:
                self.send("shoe/shuffle/", {"machine": True}, expect=True)
            else:
                steps = shuffle_steps(self.tablet.table)
                self.send("shoe/shuffle/", {"steps": steps}, expect=True)
        if self.state["shoe"]["needs_shuffle_verification"]:
            self.send("shoe/verify-shuffle/", by="floor", expect=True)
        decks = self.state["shoe"]["decks"]
        stack = decks * 52
        if data.draw(st.booleans()):  # a short shoe: the cut card after 30 to 90 cards
            cover = stack - 11 - data.draw(st.integers(30, 90))
        else:
            cover = data.draw(st.integers(14, 40))
        self._cut(data, stack, cover)
        if data.draw(st.integers(0, 4)) == 0:
            self.send("shoe/recut/", {"reason": "the cut card was seen"}, by="floor", expect=True)
            self._cut(data, stack, cover)
        first, self.shoe = PhysicalShoe.shuffled(decks, self.rng, cover=cover)
        self.send("shoe/burn/", {"first_card": first}, expect=True)
        self.world.covered[f"shoe of {decks} decks"] += 1
        self.check_model()

    def _cut(self, data: st.DataObject, stack: int, cover: int) -> None:
        """The cut offered in order, taken by a seat once those before it declined, or by the
        dealer when all decline."""
        offer = self.state["shoe"]["cut_offer"]
        cutting = data.draw(st.integers(0, len(offer)))
        least = self.submission.cut_min_from_end
        body = {
            "seat": offer[cutting] if cutting < len(offer) else None,
            "declined": offer[:cutting],
            "position": data.draw(st.integers(least, stack - least)),
            "cover_from_back": cover,
        }
        self.send("shoe/cut/", body, expect=True)

    @precondition(lambda self: self.game is None)
    @rule(data=st.data())
    def set_a_limit(self, data: st.DataObject) -> None:
        """The floor sets a wager's minimum and maximum (a maximum under the minimum: refused)."""
        kind = data.draw(st.sampled_from(self.state["rules"]["wagers"]))
        low = data.draw(st.sampled_from([Decimal(5), Decimal(10), Decimal(25), Decimal(100)]))
        high = low * data.draw(st.sampled_from([Decimal("0.5"), Decimal(1), Decimal(20)]))
        body = {"wager": kind, "minimum": str(low), "maximum": str(high), "reason": "the pit"}
        self.send("limits/", body, by="floor", expect=high >= low)

    # -- whole rounds, and keys sent again ------------------------------------------------------

    @precondition(lambda self: self.between_rounds and self.state["shoe"]["call"] != "shoe_over")
    @rule(data=st.data(), until=st.sampled_from(["wagers", "cards", "settled", "settled"]))
    def play_a_round(self, data: st.DataObject, until: str) -> None:
        """A round as a dealer taps it: the shoe or the bank taken if nobody holds it, the
        round opened, wagers of the kinds the table offers, perhaps a Royal 9 stacked; then, up
        to ``until``, no more bets and a few cards, or the round to its settlement."""
        table = self.state["table"]
        if self.submission.has_curator and table["curator_seat"] is None:
            order = table["curator_offer"]
            body: dict[str, Any] = {"seat": order[0] if order else None, "declined": []}
            self.send("curator/", body, expect=True)
        if self.submission.player_dealer and table["player_dealer_seat"] is None:
            offer = table["player_dealer"]
            order = [*offer["offer"], *([offer["again"]] if offer["again"] else [])]
            self.send("player-dealer/", {"seat": order[0], "declined": []}, expect=True)
        self.send("round/open/", expect=True)
        game = self.game
        assert game is not None
        if self.submission.player_dealer and game["player_dealer_bank"] is None:
            bank = data.draw(st.sampled_from(BANKS))
            self.send("round/player-dealer-bank/", {"bank": bank}, expect=True)
        for seat in self.seats:
            if seat == game["player_dealer_seat"]:
                continue
            for kind in self.state["rules"]["wagers"]:
                if data.draw(st.integers(0, 2 if kind in (*MAINS, HOUSE_MONEY) else 7)):
                    continue
                low, high = self.limits(kind) or (Decimal(5), Decimal(100))
                amount = min(high, low * data.draw(st.integers(1, 8)))
                ride = data.draw(st.sampled_from(RIDES)) if kind == HOUSE_MONEY else None
                if self._layout_allowed({**self.book, (seat, kind): Placed(amount, ride)}):
                    self.wager(seat, kind, amount, ride)
        placed = sorted(self.book)
        if placed and data.draw(st.integers(0, 3)) == 0:  # another chip on a wager: raised
            seat, kind = data.draw(st.sampled_from(placed))
            low, _high = self.limits(kind) or (Decimal(5), Decimal(100))
            self.wager(
                seat, kind, self.book[(seat, kind)].amount + low, self.book[(seat, kind)].ride
            )
        if self.submission.royal9 is not None and data.draw(st.booleans()):
            royal9 = self.submission.royal9
            chair = data.draw(
                st.sampled_from([s for s in self.seats if s <= len(royal9.personal_combinations)])
            )
            if (chair, WagerType.ROYAL9.value) not in self.book:
                self.wager(chair, WagerType.ROYAL9.value, royal9.wager)
            self._stack_a_royal9(data, chair)
        if until == "settled":
            self.finish(data)
        elif until == "cards":
            self.no_more_bets()
            for _ in range(data.draw(st.integers(0, 3))):
                if self.card_due():
                    self.deal()

    @precondition(lambda self: self.game is not None)
    @rule(data=st.data())
    def finish_the_round(self, data: st.DataObject) -> None:
        """The round in play (and any simulated round) taken to its settlement."""
        self.finish(data)

    def finish(self, data: st.DataObject, *, simulated_only: bool = False) -> None:
        """No more bets, the cards the rules call for (the cut card when it shows), House Money
        at its turn, settle; until no round is in play (``simulated_only``: until no simulated
        round is)."""
        for _ in range(60):
            game = self.game
            if game is None or (simulated_only and not game["simulated"]):
                return
            if game["state"] == "betting":
                if self.submission.player_dealer and not game["player_dealer_bank"]:
                    self.send("round/player-dealer-bank/", {"bank": "2000.00"}, expect=True)
                self.send("round/no-more-bets/", expect=True)
            elif game["state"] == "house_money":
                self.house_money(data)
            elif game["state"] == "complete":
                self.settle()
            else:
                assert self.shoe is not None
                if self.shoe.cut_card_due and self.state["shoe"]["cut_card_round"] is None:
                    self.the_cut_card_comes_out()
                if not self.deal():
                    return
        raise AssertionError("a round that never ends")

    def _stack_a_royal9(self, data: st.DataObject, chair: int) -> None:
        """The next four cards put the chair's Personal King-9 to the Player, the Banker or
        both (the shoe could have been shuffled so)."""
        shoe, rules = self.shoe, self.submission
        assert shoe is not None and rules.royal9 is not None
        personal = [str(c) for c in rules.royal9.personal_combinations[chair - 1]]
        hands = data.draw(st.sampled_from(["player", "banker", "both"]))
        wanted = personal * (2 if hands == "both" else 1)
        if shoe.held or any(wanted.count(c) > shoe.cards.count(c) for c in wanted):
            return
        for code in wanted:
            shoe.cards.remove(code)
        if hands == "both":  # dealt Player, Banker, Player, Banker
            top = [wanted[0], wanted[2], wanted[1], wanted[3]]
        else:
            other = [shoe.cards.pop(0), shoe.cards.pop(0)]
            pairs = zip(wanted, other, strict=True)
            top = [card for p, b in pairs for card in ((p, b) if hands == "player" else (b, p))]
        shoe.cards[:0] = top
        self.world.covered[f"royal 9 stacked for the {hands}"] += 1

    @precondition(lambda self: self.tablet.last is not None)
    @rule(reuse=st.booleans())
    def send_the_last_key_again(self, reuse: bool) -> None:
        """A double tap: the last command again with its key, answered the same; or another
        command with it (once the key was spent on a command done or refused), refused."""
        if reuse and self.tablet.last is not None and self.tablet.last.status in (200, 409):
            self.tablet.reuse_key()
            self.world.covered["key reused"] += 1
        else:
            self.tablet.resend()
            self.world.covered["sent again"] += 1


@pytest.fixture
def queued() -> Iterator[list[Notice]]:
    """Every notice queued for the screens, kept here instead of sent."""
    kept: list[Notice] = []
    with mock.patch.object(notices, "put", kept.append):
        yield kept


#: What the examples of every profile do, at least once, on each database.
EVERY_PROFILE = ("settled", "sent again", "key reused")
#: What the examples of the profiles together do, at least once, on each database.
ALL_PROFILES = (
    *EVERY_PROFILE,
    "void",
    "keyed wrong",
    "round/corrections/ done",
    "round/corrections/ 403",
    "round/irregularities/ done",
    "round/irregularities/ 409",
    "settled simulated",
    "irregularity next_hand_first",
    "round/house-money/ done",
    "house money ridden",
    "round/relinquish/ done",
    "round/player-dealer-bank/ done",
    "player-dealer/ done",
    "curator/ done",
    "curator/pass/ done",
    "shoe/cut-card/ done",
    "round/open/ 409",
    "shoe/respread/ done",
    "decks reshuffled",
    "close/ done",
    "royal 9 award",
    "must-hit hit",
    "raised",
    "round/wagers/withdraw/ done",
)
#: What the examples of each profile covered (``test_the_profiles_together_cover_the_tablet``).
COVERED: dict[str, Counter[str]] = {}


@pytest.mark.parametrize("profile", list(PROFILES))
def test_every_command_answers_what_it_committed(
    profile, db, seeded, django_capture_on_commit_callbacks, queued
):
    world = make_world(profile, django_capture_on_commit_callbacks, queued)
    machine = lambda: Dealing(world)  # noqa: E731 (a factory, as Hypothesis takes one)
    run_state_machine_as_test(machine, settings=SETTINGS)  # type: ignore[arg-type]
    world.covered["commands"] = world.commands
    COVERED[profile] = world.covered
    print(f"\n{profile}: {world.commands} commands; {sorted(world.covered.items())}")
    missed = [what for what in EVERY_PROFILE if not world.covered[what]]
    assert not missed, f"never done: {missed}"


def test_the_profiles_together_cover_the_tablet():
    """The machine did, on some profile, every command and outcome it is written for (it
    cannot pass by refusing to act); checked after every profile's test ran."""
    if set(COVERED) != set(PROFILES):
        pytest.skip("not every profile's test ran")
    covered = sum(COVERED.values(), Counter())
    missed = [what for what in ALL_PROFILES if not covered[what]]
    assert not missed, f"never done: {missed}"
    assert covered["commands"] >= 2000, covered["commands"]
