"""The money on the layout as the test saw it tapped, and a round's settlement checked by it.

``Books`` is the test's own record of every wager placed, raised and withdrawn, by round: the
table must hold exactly these, in its rows and in what its screens read. A round settled (or
void) is checked against it: every wager has a result, the rules engine settling the recorded
cards and the tapped wagers gives the recorded payouts and steps (as the tablet previewed them),
and the day's tallies grew by what the settlement says.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
from typing import Any

from baccarat.cards import parse_cards
from baccarat.drawing import Coup
from baccarat.profiles import RulesSubmission
from baccarat.settlement import PlayerDealer, settle
from baccarat.settlement import Wager as EngineWager
from baccarat.wagertypes import WagerType
from casino.models import Casino
from tablegame.tallies.figures import SUMS, SettledWager, round_figures, wager_groups
from tests.commands.tablet import Rows

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
#: A wager's figures that settlement writes.
SETTLED = ("result", "payout", "vigorish", "returned", "fee", "award", "ridden")

Spot = tuple[int, str]
"""A wager's place on the layout: its seat and type."""


@dataclass(frozen=True)
class Placed:
    """A wager as tapped: its amount, and what a House Money payout rides on."""

    amount: Decimal
    ride: str | None = None


@dataclass
class Books:
    """Every round's wagers as the test tapped them, by the round's id."""

    rounds: dict[int, dict[Spot, Placed]] = field(default_factory=dict)

    def of(self, round_id: int) -> dict[Spot, Placed]:
        return self.rounds.setdefault(round_id, {})

    def check(self, state: dict[str, Any], rows: Rows) -> None:
        """The wagers the table shows, and those of every round in its rows, are the tapped."""
        game = state["round"]
        if game is not None:
            shown = {(w["seat"], w["type"]): _placed(w) for w in game["wagers"]}
            assert shown == self.of(game["id"]), f"round {game['id']}: {shown}"
            spots = [(-w["seat"], w["type"]) for w in game["wagers"]]
            assert spots == sorted(spots), "the wagers are not in the layout's order"
        stored: dict[int, dict[Spot, Placed]] = {r["id"]: {} for r in rows["rounds"]}
        for w in rows["wagers"]:
            stored[w["round_id"]][(w["seat"], w["type"])] = Placed(w["amount"], w["ride"] or None)
        for round_id, wagers in stored.items():
            assert wagers == self.of(round_id), f"round {round_id}'s rows: {wagers}"


def _placed(w: dict[str, Any]) -> Placed:
    return Placed(Decimal(w["amount"]), w["ride"])


def _round_rows(rows: Rows, name: str, round_id: int) -> list[dict[str, Any]]:
    return [r for r in rows[name] if r["round_id"] == round_id]


def check_settled(
    round_id: int,
    rules: RulesSubmission,
    book: dict[Spot, Placed],
    before: Rows,
    after: Rows,
    preview: list[dict[str, Any]] | None,
    casino: Casino,
) -> None:
    """A round just settled: every wager has a result, the engine settling its cards and the
    tapped wagers gives what was recorded, step by step as previewed, and the tallies grew by
    it."""
    game = next(r for r in after["rounds"] if r["id"] == round_id)
    assert game["state"] == "settled", game
    wagers = sorted(_round_rows(after, "wagers", round_id), key=lambda w: (-w["seat"], w["type"]))
    steps = sorted(_round_rows(after, "steps", round_id), key=lambda s: s["index"])
    assert [s["index"] for s in steps] == list(range(1, len(steps) + 1)), steps
    assert all(w["result"] in ("win", "lose", "push") for w in wagers), wagers
    if game["simulated"]:  # dealt without wagers (000 §13(d)): nothing to pay, a round counted
        assert not wagers and not steps and not book, (wagers, steps)
        check_tallies(before, after, game, casino, [], round_figures(void=False, steps=()))
        return
    cards = sorted(_round_rows(after, "cards", round_id), key=lambda c: c["position"])
    coup = Coup(
        parse_cards([c["code"] for c in cards if c["hand"] == "player"]),
        parse_cards([c["code"] for c in cards if c["hand"] == "banker"]),
    )
    assert coup.is_complete, cards
    staked = [
        EngineWager(
            seat, WagerType(kind), placed.amount, WagerType(placed.ride) if placed.ride else None
        )
        for (seat, kind), placed in sorted(book.items(), key=lambda item: (-item[0][0], item[0][1]))
    ]
    player_dealer = None
    if game["player_dealer_seat"] is not None:
        player_dealer = PlayerDealer(game["player_dealer_seat"], game["player_dealer_bank"])
    engine = settle(coup, staked, rules, player_dealer=player_dealer, meters=_meters(before, book))
    by_spot = {(s.seat, s.type.value): s for s in engine.wagers}
    for w in wagers:
        s = by_spot[(w["seat"], w["type"])]
        expected = (
            s.result.value,
            s.payout,
            s.vigorish,
            s.returned,
            s.fee,
            s.award or "",
            s.ridden,
        )
        recorded = tuple(w[name] for name in SETTLED)
        assert recorded == expected, f"seat {w['seat']} {w['type']}: {recorded} != {expected}"
    legal = [s for s in engine.steps if s.phase == "house_money"]
    legal += [s for s in engine.steps if s.phase != "house_money"]  # House Money's went first
    expected_steps = [
        (s.action.value, s.seat, s.wager.value if s.wager else "", s.amount, s.phase) for s in legal
    ]
    recorded_steps = [
        (s["action"], s["seat"], s["wager_type"], s["amount"], s["phase"]) for s in steps
    ]
    assert recorded_steps == expected_steps, "the steps are not the engine's"
    if preview is not None:
        shown = [
            {"action": a, "seat": seat, "type": kind or None, "amount": str(amount)}
            for a, seat, kind, amount, _phase in recorded_steps
        ]
        assert shown == preview, "the settlement is not what the tablet previewed"
    settled = [
        SettledWager(
            seat=w["seat"],
            type=w["type"],
            result=w["result"],
            amount=w["amount"],
            payout=w["payout"],
            vigorish=w["vigorish"],
            returned=w["returned"],
            fee=w["fee"],
            award=w["award"],
            ride=w["ride"],
            ridden=w["ridden"],
        )
        for w in wagers
    ]
    fees = [(s["action"], s["wager_type"], s["amount"]) for s in steps]
    check_tallies(
        before, after, game, casino, wager_groups(settled), round_figures(void=False, steps=fees)
    )


def check_void(round_id: int, before: Rows, after: Rows, casino: Casino) -> None:
    """A round just void: every wager returned whole, a step each, counted as a void round."""
    game = next(r for r in after["rounds"] if r["id"] == round_id)
    assert game["state"] == "void", game
    wagers = sorted(_round_rows(after, "wagers", round_id), key=lambda w: (-w["seat"], w["type"]))
    steps = sorted(_round_rows(after, "steps", round_id), key=lambda s: s["index"])
    assert all(w["result"] == "push" and w["payout"] == ZERO for w in wagers), wagers
    assert [(s["action"], s["seat"], s["wager_type"], s["amount"]) for s in steps] == [
        ("return", w["seat"], w["type"], w["amount"]) for w in wagers
    ]
    check_tallies(before, after, game, casino, [], round_figures(void=True, steps=()))


def _meters(before: Rows, book: dict[Spot, Placed]) -> dict[str, Decimal]:
    """The Royal 9 meters the engine pays from: as they stood before, with the round's Royal 9
    wagers' contributions (each to the cent, rounded down)."""
    wagered = sum(
        (p.amount for (_seat, kind), p in book.items() if kind == WagerType.ROYAL9.value), ZERO
    )
    return {
        m["name"]: m["amount"] + (wagered * m["contribution"]).quantize(CENT, ROUND_DOWN)
        for m in before["meters"]
    }


def check_tallies(
    before: Rows,
    after: Rows,
    game: dict[str, Any],
    casino: Casino,
    groups: Iterable[dict[str, Any]],
    figures: dict[str, Any],
) -> None:
    """The day's tallies grew by the round's ``groups`` of wagers and its ``figures``, in the
    gaming day it was settled in, under its rules and decks, and nothing else."""
    day = casino.gaming_day(game["settled_at"])
    decks = next(s["decks"] for s in after["shoes"] if s["id"] == game["shoe_id"])
    expected: Counter[tuple[Any, ...]] = Counter()
    for g in groups:
        key = (day, game["rules_id"], decks, g["type"], g["result"], g["award"])
        for name in ("n", *SUMS):
            expected[(*key, name)] += g[name]
    assert _grown(before, after, "wager_tallies", WAGER_KEY, ("n", *SUMS)) == _nonzero(expected)
    expected = Counter()
    for name in ("rounds", "voids", "hand_fees"):
        expected[(day, game["shoe_id"], name)] += figures[name]
    assert _grown(before, after, "round_tallies", ROUND_KEY, ("rounds", "voids", "hand_fees")) == (
        _nonzero(expected)
    )


WAGER_KEY = ("day", "rules_id", "decks", "type", "result", "award")
ROUND_KEY = ("day", "shoe_id")


def _grown(
    before: Rows, after: Rows, name: str, key: tuple[str, ...], sums: tuple[str, ...]
) -> dict[tuple[Any, ...], Any]:
    grown: Counter[tuple[Any, ...]] = Counter()
    for sign, rows in ((-1, before[name]), (1, after[name])):
        for row in rows:
            for figure in sums:
                grown[(*(row[k] for k in key), figure)] += sign * row[figure]
    return _nonzero(grown)


def _nonzero(counts: Counter[tuple[Any, ...]]) -> dict[tuple[Any, ...], Any]:
    return {key: value for key, value in counts.items() if value}
