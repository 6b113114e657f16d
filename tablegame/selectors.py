"""Reads: the state of a table as plain-data documents (what every screen shows), whole or the
parts a command changed. Selectors never refuse."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from functools import cached_property
from typing import Any

from django.db.models import F, IntegerField, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from baccarat.cards import SUIT_SYMBOLS, parse_cards, point_count
from baccarat.cutcard import ShoeCall, after_round
from baccarat.drawing import Coup, Expect
from baccarat.errors import RulesError
from baccarat.irregularities import IrregularityKind
from baccarat.profiles import RulesSubmission
from baccarat.settlement import Action
from baccarat.wagertypes import WagerType
from casino.record import chain_head, head_of
from fastpath.related import prefetched
from tablegame import tablet
from tablegame.events import RoundSettled, TableEvent, TablePayload, event_data
from tablegame.live import live
from tablegame.models import (
    Card,
    DeckChange,
    ProgressiveMeter,
    Round,
    Seat,
    SettlementStep,
    Shoe,
    Table,
    VigorishMarker,
)
from tablegame.models.rounds import ACTIVE_ROUND_STATES


def table_state(table: Table) -> dict[str, Any]:
    """Everything a dealer, the floor or surveillance needs to draw the table now."""
    reads = _Reads(table)
    return {"sequence": last_sequence(table), **{name: reads.part(name) for name in PARTS}}


#: The parts of the table state, in the order of the document.
PARTS = (
    "table",
    "rules",
    "limits",
    "seats",
    "markers",
    "shoe",
    "round",
    "deck_change",
    "meters",
    "repeat",
)

_K = TableEvent
#: The parts of the table state that each kind of event changes: what a command answers with.
CHANGES: dict[TableEvent, tuple[str, ...]] = {
    _K.TABLE_OPENED: PARTS,
    _K.TABLE_CLOSED: ("table",),
    # The table part says whom to offer the shoe or the player-dealer position: who sits matters.
    _K.PLAYER_SEATED: ("seats", "table"),
    _K.PLAYER_LEFT: ("seats", "round", "markers", "table"),
    _K.RULES_FILED: ("rules",),
    _K.RULES_RESTATED: (),  # rules still to take effect: when they do, ``RULES_IN_FORCE``
    # Who is offered the shoe or the player-dealer position follows the rules.
    _K.RULES_IN_FORCE: ("rules", "table"),
    _K.NOTICE_ACKNOWLEDGED: (),  # the notice, not the table state: the console reads it
    _K.LIMIT_SET: ("limits",),
    _K.SEATS_SET: ("seats", "table"),  # set by the pit (no command answers it): the seat count
    _K.CURATOR_TAKEN: ("table", "shoe"),
    _K.SHOE_PASSED: ("table", "shoe"),
    _K.PLAYER_DEALER_TAKEN: ("table",),
    _K.PLAYER_DEALER_ROTATES: ("table",),
    _K.DECKS_RECEIVED: ("shoe", "deck_change", "round"),
    _K.DECK_SCHEDULE_SET: ("deck_change",),
    _K.DECKS_INSPECTED: ("shoe",),
    _K.INSPECTION_VERIFIED: ("shoe",),
    _K.DECKS_SPREAD: ("shoe",),
    _K.DECKS_WASHED: ("shoe",),
    _K.SHUFFLED: ("shoe",),
    _K.SHUFFLE_VERIFIED: ("shoe",),
    _K.IDLE_RESPREAD: ("shoe", "round"),
    _K.CUT: ("shoe",),
    _K.RECUT_ORDERED: ("shoe",),
    _K.BURNED: ("shoe",),
    _K.CUT_CARD_OUT: ("shoe",),
    _K.SHOE_CALL: ("shoe",),
    _K.SHOE_ENDED: ("shoe", "round", "deck_change"),
    _K.ROUND_OPENED: ("round", "shoe"),
    _K.WAGER_PLACED: ("round",),
    _K.WAGER_CHANGED: ("round",),
    _K.WAGER_WITHDRAWN: ("round",),
    _K.PLAYER_DEALER_BANK: ("round",),
    _K.NO_MORE_BETS: ("round",),
    _K.CARDS_RELINQUISHED: ("round",),
    _K.CARD_DEALT: ("round", "shoe"),
    _K.CARD_CORRECTED: ("round", "shoe"),
    _K.IRREGULARITY: ("round", "shoe"),
    _K.HOUSE_MONEY_SETTLED: ("round",),
    # The meters' changes at settlement have events of their own (contributed, hit, reset);
    # the markers change only where vigorish is marked (``_changed_by``).
    _K.ROUND_SETTLED: ("round", "shoe", "markers", "table", "repeat"),
    _K.PROGRESSIVE_HIT: ("round", "meters"),
    _K.PROGRESSIVE_CONTRIBUTED: ("meters",),
    _K.PROGRESSIVE_RESET: ("meters",),
    _K.PROGRESSIVE_PARAMETERS: ("meters",),
    _K.MUST_HIT_WON: (),  # the pit's meter, not the table state: /progressives/ shows it
    _K.MUST_HIT_LINKED: (),
    _K.MUST_HIT_PAID: (),
    _K.DEALER_ASSIGNED: (),
    _K.DEALER_RELIEVED: (),
    _K.ROUND_VOID: ("round", "shoe"),
    _K.VIGORISH_COLLECTED: ("markers",),
    _K.VIGORISH_FORM_REQUESTED: ("markers",),
}


#: Events that change only these lists of the round besides its core (cards, state, totals): the
#: answer sends the round patched (its core and these lists), not whole.
ROUND_PATCHES: dict[TableEvent, tuple[str, ...]] = {
    _K.WAGER_PLACED: ("wagers",),
    _K.WAGER_CHANGED: ("wagers",),
    _K.WAGER_WITHDRAWN: ("wagers",),
    _K.PLAYER_DEALER_BANK: (),
    _K.NO_MORE_BETS: (),
    _K.CARDS_RELINQUISHED: (),
    _K.CARD_DEALT: (),
}


def command_answer(
    table: Table,
    events: Sequence[tuple[int, TablePayload]],
    *,
    game: Round | None = None,
    shoe: Shoe | None = None,
    cards: Sequence[Card] | None = None,
) -> dict[str, Any]:
    """What a command answers: its events, and the parts of the table state they changed.

    ``changed`` names the parts sent whole, as ``table_state`` has them: a screen puts them in
    place of its own. ``patched`` names the parts sent in part (only ``round``, when the events
    touch only its core and some of its lists): a screen updates those keys of the round it has.
    ``game`` and ``shoe``, when the action hands them over, are the round and shoe it changed
    (saved), so that they are not read again.
    """
    kinds = [TableEvent(payload.kind) for _, payload in events]
    names = {name for _, payload in events for name in _changed_by(payload)}
    reads = _Reads(table, game=game, shoe=shoe, seats_changed="seats" in names)
    answer: dict[str, Any] = {
        "sequence": events[-1][0] if events else last_sequence(table),
        "events": [event_data(sequence, payload) for sequence, payload in events],
        "changed": [],
        "patched": [],
    }
    patch = kinds and all(kind in ROUND_PATCHES for kind in kinds)
    if "repeat" in names and _repeats_nothing(reads.game):
        names.discard("repeat")  # a simulated round is not repeated: the last stays
    for name in PARTS:
        if name not in names:
            continue
        if name == "round" and patch and reads.game is not None:
            lists = {item for kind in kinds for item in ROUND_PATCHES[kind]}
            listed = [n for n in ROUND_LISTS if n in lists]
            answer["round"] = _round(reads.game, listed, cards if game is not None else None)
            answer["patched"].append(name)
        else:
            answer[name] = reads.part(name)
            answer["changed"].append(name)
    return answer


def _repeats_nothing(game: Round | None) -> bool:
    """Whether what "repeat" places stays as it was whatever the events: the round shown is a
    simulated one, or one in play (a simulated round's settlement answers with the round it
    interrupted, which goes on)."""
    return game is not None and (game.simulated or game.state in ACTIVE_ROUND_STATES)


def _changed_by(payload: TablePayload) -> tuple[str, ...]:
    """The parts of the table state an event changed: ``CHANGES``, less the markers for a
    settlement that marked no vigorish (the open markers stand as they were)."""
    names = CHANGES[TableEvent(payload.kind)]
    if isinstance(payload, RoundSettled) and not any(
        step.action is Action.MARK_VIGORISH for step in payload.steps
    ):
        return tuple(name for name in names if name != "markers")
    return names


def last_sequence(table: Table) -> int:
    """The number of the table's last event (0 before its first)."""
    return chain_head(table.chain_id).sequence


def last_sequence_of_tables() -> Coalesce:
    """Annotation: the number of each table's last event (0 before its first), an index lookup."""
    return Coalesce(head_of()["head_sequence"], Value(0), output_field=IntegerField())


class _Reads:
    """The parts of one table's state, each read when first asked for."""

    def __init__(
        self,
        table: Table,
        *,
        game: Round | None = None,
        shoe: Shoe | None = None,
        seats_changed: bool = True,
    ) -> None:
        self.table = table
        self.seats_changed = seats_changed
        # Already read by the action: set where the cached properties below would keep them.
        if game is not None:
            self.__dict__["game"] = game
        if shoe is not None:
            self.__dict__["shoe"] = shoe

    @cached_property
    def shoe(self) -> Shoe | None:
        """The shoe in play."""
        return self.table.current_shoe()

    @cached_property
    def game(self) -> Round | None:
        """The round in play, else the shoe's last."""
        return self.table.active_round() or _last_round(self.shoe)

    @cached_property
    def seat_rows(self) -> list[Seat]:
        return list(self.table.seats.all())

    @cached_property
    def occupied(self) -> list[int]:
        """Numbers of the seats taken: as the command read them, unless it changed them."""
        if self.seats_changed:
            return [seat.number for seat in self.seat_rows if seat.is_occupied]
        return live(self.table).seats

    @cached_property
    def rules(self) -> RulesSubmission:
        """The rules the helps follow: the round's, when the command read or made it with its
        record, else the record in force."""
        game = self.__dict__.get("game")  # not read for this: handed over, or read already
        if game is not None and Round._meta.get_field("rules").is_cached(game):
            return self.table.submission(game.rules)
        return live(self.table).rules_in_force

    def part(self, name: str) -> Any:
        return getattr(self, f"_{name}")()

    def _table(self) -> dict[str, Any]:
        table = self.table
        rules = self.rules
        return {
            "id": table.pk,
            "name": table.name,
            "pit": str(table.pit),
            "status": table.status,
            "seat_count": table.seat_count,
            "curator_seat": table.curator_seat,
            "player_dealer_seat": table.player_dealer_seat,
            "curator_offer": tablet.curator_offer(table, self.occupied)
            if rules.has_curator
            else None,
            "player_dealer": tablet.player_dealer(table, rules, self.occupied)
            if rules.player_dealer
            else None,
        }

    def _rules(self) -> dict[str, Any]:
        """The rules in force now, and when filed rules next take effect (``changes_at``: the
        kept state is read again then, ``tablegame.snapshots``)."""
        rules = self.table.rules
        changes_at = (
            self.table.rules_history.filter(effective_at__gt=timezone.now())
            .order_by("effective_at")
            .values_list("effective_at", flat=True)
            .first()
        )
        return {
            "profile": rules.name,
            "title": rules.title,
            "source": rules.source,
            "wagers": [w.value for w in rules.offered_wagers],
            "commission": rules.commission.value,
            "commission_rate": str(rules.commission_rate),
            "vigorish_collection": rules.vigorish_collection.value,
            "settlement": rules.settlement.value,
            "tie_odds": rules.tie_odds,
            "shuffle": rules.shuffle.value,
            "decks": list(rules.decks),
            "shuffler_decks": list(rules.shuffler_decks) if rules.shuffler_decks else None,
            "shuffler_batches": rules.shuffler_batches,
            "royal9": tablet.royal9(rules, self.table.seat_count),
            "changes_at": changes_at.isoformat() if changes_at else None,
        }

    def _limits(self) -> dict[str, Any]:
        return {
            limit.wager_type: {"minimum": str(limit.minimum), "maximum": str(limit.maximum)}
            for limit in self.table.limits.all()
        }

    def _seats(self) -> list[dict[str, Any]]:
        return [seat.as_data() for seat in self.seat_rows]

    def _markers(self) -> list[dict[str, Any]]:
        markers = self.table.markers.filter(status=VigorishMarker.Status.OPEN).order_by("-seat")
        return [_marker(m) for m in markers]

    def _shoe(self) -> dict[str, Any] | None:
        return _shoe(self.shoe, self.table)

    def _round(self) -> dict[str, Any] | None:
        return _round(self.game) if self.game else None

    def _deck_change(self) -> dict[str, Any] | None:
        return _deck_change(self.table)

    def _meters(self) -> dict[str, str]:
        return {m.name: str(m.amount) for m in self.table.meters.all()}

    def _repeat(self) -> list[dict[str, Any]]:
        """The last settled round's wagers, for the tablet's "repeat" (simulated rounds are not
        repeated: a settled simulated round leaves it as it was)."""
        game = self.game
        if game is not None and game.state == Round.State.SETTLED and not game.simulated:
            return tablet.repeat(game.wagers.all())
        settled = self.table.rounds.filter(state=Round.State.SETTLED, simulated=False)
        last = settled.order_by("-settled_at", "-pk").first()
        return [] if last is None else tablet.repeat(last.wagers.all())


def labels() -> dict[str, Any]:
    """The engine's labels by the words the API uses: what the tablet shows for a wager type,
    a settlement step's action and an irregularity, and each suit's symbol by its letter, in the
    order of the tablet's card keys (one definition, in ``baccarat``)."""
    return {
        "wagers": {t.value: t.label for t in WagerType},
        "wagers_short": {t.value: t.short_label for t in WagerType},
        "marks": {t.value: t.mark for t in WagerType},
        "main": [t.value for t in WagerType if t.is_main],
        "steps": {a.value: a.label for a in Action},
        "irregularities": {k.value: k.label for k in IrregularityKind},
        "suits": dict(SUIT_SYMBOLS),
    }


def _last_round(shoe: Shoe | None) -> Round | None:
    """The shoe's round that ended last (none is in play): by the number, a simulated round
    would come after the round it interrupted, which ended after it."""
    if shoe is None:
        return None
    return shoe.rounds.order_by(F("settled_at").desc(nulls_last=True), "-number").first()


def _marker(m: VigorishMarker) -> dict[str, Any]:
    return {"id": m.pk, "seat": m.seat, "amount": str(m.amount), "player": m.player_name}


def _shoe(shoe: Shoe | None, table: Table) -> dict[str, Any] | None:
    if shoe is None:
        return None
    rounds = shoe.last_round_number()
    call = after_round(rounds, shoe.cut_card_round) if rounds else ShoeCall.CONTINUE
    return {
        "number": shoe.number,
        "state": shoe.state,
        "state_label": shoe.get_state_display(),
        "decks": shoe.decks,
        "automatic_shuffler": shoe.automatic_shuffler,
        "back_colour": shoe.back_colour,
        "cards_left": shoe.physical_cards_left,
        "rounds": rounds,
        "cut_card_round": shoe.cut_card_round,
        "held_card": shoe.held_card or None,
        "call": call.value,
        "needs_shuffle_verification": "feather" in shoe.shuffle
        and shoe.shuffle_verified_by_id is None,
        "cut_offer": _cut_offer(shoe) if shoe.state == Shoe.State.SHUFFLED else [],
    }


def _cut_offer(shoe: Shoe) -> list[int]:
    """Who is offered the cut; nobody when a recut has nobody to go to."""
    try:
        return shoe.cut_offer()
    except RulesError:
        return []


#: The lists of a round document, each read with a query of its own.
ROUND_LISTS = ("wagers", "steps", "irregularities")


def _round(
    game: Round, lists: Iterable[str] = ROUND_LISTS, cards: Sequence[Card] | None = None
) -> dict[str, Any]:
    """The round as a document: its cards and what they make, and the ``lists`` asked for
    (``cards``: the round's cards in dealing order, if already read)."""
    cards = list(game.cards.all()) if cards is None else list(cards)
    player = [c.code for c in cards if c.hand == "player"]
    banker = [c.code for c in cards if c.hand == "banker"]
    coup = Coup(parse_cards(player), parse_cards(banker))
    document = {
        "id": game.pk,
        "number": game.number,
        "state": game.state,
        "state_label": game.get_state_display(),
        "simulated": game.simulated,
        "expected": expected_next(game, coup),
        "drawing": coup.why_complete() if coup.dealt >= 4 and coup.is_complete else "",
        "cards": [{"position": c.position, "card": c.code, "hand": c.hand} for c in cards],
        "player": player,
        "banker": banker,
        "player_total": point_count(coup.player) if player else None,
        "banker_total": point_count(coup.banker) if banker else None,
        "winner": game.winner or None,
        "tags": game.tags,
        "announcement": game.announcement,
        "player_turner": game.player_turner,
        "banker_turner": game.banker_turner,
        "curator_seat": game.curator_seat,
        "player_dealer_seat": game.player_dealer_seat,
        "player_dealer_bank": str(game.player_dealer_bank) if game.player_dealer_bank else None,
        "void_reason": game.void_reason or None,
        "bank": _bank(game),
        "preview": _preview(game, cards) if game.state == Round.State.COMPLETE else None,
        "house_money": tablet.house_money(
            game.rules.submission, cards=cards, wagers=game.wagers.all()
        )
        if game.state == Round.State.HOUSE_MONEY
        else None,
    }
    for name in lists:
        document[name] = _ROUND_LIST[name](game)
    return document


def _bank(game: Round) -> dict[str, Any] | None:
    """California: what the wagers commit of the player-dealer's bank (``tablet.bank``)."""
    if game.player_dealer_seat is None:
        return None
    return tablet.bank(game, game.rules.submission, game.wagers.all())


def _preview(game: Round, cards: Sequence[Card]) -> list[dict[str, Any]]:
    """A complete coup's settlement before Settle (``tablet.preview``): the table's Royal 9
    meters are read where a Royal 9 wager is staked, House Money's steps where one was made."""
    rules = game.rules.submission
    wagers = list(game.wagers.all())
    meters: dict[str, Decimal] = {}
    if rules.royal9 is not None and any(w.type == WagerType.ROYAL9.value for w in wagers):
        meters = dict(
            ProgressiveMeter.objects.filter(table_id=game.table_id).values_list("name", "amount")
        )
    done: list[SettlementStep] = []
    if any(w.type == WagerType.HOUSE_MONEY.value for w in wagers):
        kept = prefetched(game, "steps")
        # Not kept: read by the round's key alone (the models' order of steps joins the round,
        # whose row the command's unit of work may hold a write to).
        done = kept if kept is not None else list(game.steps.order_by("index"))
    return tablet.preview(game, rules, cards=cards, wagers=wagers, meters=meters, done=done)


def _wagers(game: Round) -> list[dict[str, Any]]:
    return [
        {
            "seat": w.seat,
            "type": w.type,
            "amount": str(w.amount),
            "ride": w.ride or None,
            "result": w.result or None,
            "payout": str(w.payout),
            "vigorish": str(w.vigorish),
            "returned": str(w.returned),
        }
        for w in game.wagers.all()
    ]


def _steps(game: Round) -> list[dict[str, Any]]:
    return [
        {
            "index": s.index,
            "phase": s.phase,
            "action": s.action,
            "seat": s.seat,
            "type": s.wager_type or None,
            "amount": str(s.amount),
        }
        for s in game.steps.all()
    ]


def _irregularities(game: Round) -> list[dict[str, Any]]:
    return [
        {"kind": i.kind, "card": i.card, "disposition": i.disposition, "instruction": i.instruction}
        for i in game.irregularities.all()
    ]


_ROUND_LIST: dict[str, Callable[[Round], list[dict[str, Any]]]] = {
    "wagers": _wagers,
    "steps": _steps,
    "irregularities": _irregularities,
}


def _deck_change(table: Table) -> dict[str, Any] | None:
    schedule = DeckChange.objects.filter(table=table).first()
    if schedule is None:
        return None
    return {
        "changed_at": schedule.changed_at.isoformat(),
        "due_at": schedule.due_at.isoformat() if schedule.due_at else None,
        "every_shoe": schedule.every_shoe,
        "due": schedule.is_due(timezone.now()),
        "decks": schedule.decks,
        "automatic_shuffler": schedule.automatic_shuffler,
    }


NEXT_CARD = {
    Expect.PLAYER_FIRST: "Player's first card",
    Expect.BANKER_FIRST: "Banker's first card",
    Expect.PLAYER_SECOND: "Player's second card",
    Expect.BANKER_SECOND: "Banker's second card",
    Expect.PLAYER_THIRD: "Player draws",
    Expect.BANKER_THIRD: "Banker draws",
    Expect.NONE: "",
}


def expected_next(game: Round, coup: Coup | None = None) -> str:
    """What the dealer does next, in words (``coup``: the round's cards, if already read)."""
    if game.state == Round.State.BETTING:
        return "Take wagers, then call no more bets."
    if game.state == Round.State.HOUSE_MONEY:
        return "Settle House Money before any third card."
    if game.state == Round.State.COMPLETE:
        return "Settle the round."
    if game.state != Round.State.DEALING:
        return ""
    return NEXT_CARD[(coup or game.coup()).expected]
