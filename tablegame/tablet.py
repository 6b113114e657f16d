"""What the dealer's tablet shows beside the bare state, as parts of the table state itself (so a
command's answer and its notice carry them when they change, and no tap reads anything more):
whom to offer the shoe or the player-dealer position (in the ``table`` part), how much of the
player-dealer's bank the wagers commit and the settlement of a complete coup before it is settled
(in the ``round`` document), each chair's Royal 9 combination (in ``rules``), and last round's
wagers to repeat (the ``repeat`` part). Pure functions of facts the caller read; the engine
decides every figure."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from baccarat.cards import parse_cards
from baccarat.drawing import Coup
from baccarat.errors import RulesError
from baccarat.money import MOST, ZERO
from baccarat.profiles import RulesSubmission
from baccarat.royal9 import contribute
from baccarat.seating import california_action_order, curator_offer_order
from baccarat.settlement import PlayerDealer, house_money_ride, settle, settle_house_money
from baccarat.settlement import Wager as EngineWager
from baccarat.wagertypes import WagerType
from tablegame.models import Card, Round, SettlementStep, Table, Wager

if TYPE_CHECKING:
    from tablegame.play.rows import CardRow, RoundRow, StepRow, TableRow, WagerRow

    # A row as the ORM made it, or as the state in play holds it: read alike.
    AnyTable = Table | TableRow
    AnyRound = Round | RoundRow
    AnyCard = Card | CardRow
    AnyWager = Wager | WagerRow
    AnyStep = SettlementStep | StepRow

#: A coup of each kind the player-dealer's bank can meet: Player wins, Banker wins with 7 and
#: with 6 (paid half at a commission-free table), a tie.
SAMPLE_COUPS = {
    "Player wins": (["9S", "KD"], ["TS", "KC"]),
    "Banker wins": (["TS", "7C"], ["8S", "KD"]),
    "Banker wins with 6": (["2S", "3C", "TD"], ["6S", "KD"]),
    "Tie": (["8S", "KC"], ["8D", "KH"]),
}


def royal9(rules: RulesSubmission, seat_count: int) -> dict[str, Any] | None:
    """The fixed Royal 9 wager and each chair's Personal King-9 combination (004 §13)."""
    if rules.royal9 is None:
        return None
    options = rules.royal9
    chairs = range(1, min(seat_count, len(options.personal_combinations)) + 1)
    return {
        "wager": str(options.wager),
        "personal": {n: [str(c) for c in options.personal_combinations[n - 1]] for n in chairs},
    }


def curator_offer(table: AnyTable, seats: Sequence[int]) -> list[int]:
    """The order the shoe is offered in (004 §7(b), §14(b)): right of the curator who held it."""
    previous = table.curator_seat or table.previous_curator_seat
    return curator_offer_order(seats, previous=previous)


def player_dealer(table: AnyTable, rules: RulesSubmission, seats: Sequence[int]) -> dict[str, Any]:
    """The hands banked, and the order the player-dealer position is offered in (001)."""
    last = table.player_dealer_seat or table.previous_player_dealer_seat
    fees = rules.collection_fees
    return {
        "hands": table.player_dealer_hands,
        "rotation": rules.player_dealer_rotation_hands,
        "first": last is None,
        "offer": list(seats) if last is None else california_action_order(last, seats),
        # Offered continuously around the table (001): once every other seat declined, the
        # position comes back to the player-dealer whose two hands ended.
        "again": last if table.player_dealer_seat is None and last in seats else None,
        "fees": None
        if fees is None
        else {
            "player": str(fees.player_line),
            "banker": str(fees.banker_line),
            "tie": str(fees.tie),
            "player_dealer": str(fees.player_dealer_per_hand),
        },
    }


def _coup(cards: Sequence[AnyCard]) -> Coup:
    """The coup of the cards dealt to the Player's and the Banker's hands."""
    return Coup(
        parse_cards([c.code for c in cards if c.hand == "player"]),
        parse_cards([c.code for c in cards if c.hand == "banker"]),
    )


def _engine_wagers(wagers: Iterable[AnyWager]) -> list[EngineWager]:
    return [
        EngineWager(w.seat, WagerType(w.type), w.amount, WagerType(w.ride) if w.ride else None)
        for w in wagers
    ]


def bank(game: AnyRound, rules: RulesSubmission, wagers: Iterable[AnyWager]) -> dict[str, Any]:
    """The bank, what the wagers would take from it at worst, and the collection fees due.

    Each sample coup is settled by the engine against an unlimited bank; the most the
    player-dealer would pay is what the wagers commit (never more than the bank).
    """
    staked = _engine_wagers(wagers)
    held = game.player_dealer_bank or ZERO
    worst, worst_when = ZERO, ""
    fees = ZERO
    for when, (player, banker) in SAMPLE_COUPS.items():
        coup = Coup(parse_cards(player), parse_cards(banker))
        try:
            result = settle(
                coup, staked, rules, player_dealer=PlayerDealer(game.player_dealer_seat or 0, MOST)
            )
        except RulesError:
            continue
        loss = -(result.player_dealer_net or ZERO)
        if loss > worst:
            worst, worst_when = loss, when
        fees = sum((s.amount for s in result.steps if s.phase == "fees"), ZERO)
    committed = min(worst, held)
    return {
        "bank": str(held) if game.player_dealer_bank else None,
        "committed": str(committed),
        "at_worst": str(worst),
        "worst_when": worst_when,
        "free": str(held - committed),
        "short": str(max(worst - held, ZERO)),
        "fees": str(fees),
    }


def house_money(
    rules: RulesSubmission, *, cards: Sequence[AnyCard], wagers: Iterable[AnyWager]
) -> list[dict[str, Any]]:
    """The House Money step, once the first four cards are out (000 §8(c)(3)): each wager, from
    the dealer's right, won or lost on the pairs, what a win pays, how much of it may ride
    (the Rules Submission's portion) and on which of the seat's wagers (its Player or Banker
    wager: the payout is added to the seat's original wager)."""
    coup = _coup(cards)
    taken = list(wagers)
    try:
        settled = settle_house_money(coup, _engine_wagers(taken), rules)
    except RulesError:
        return []
    hands = {(w.seat, w.type) for w in taken}
    shown = []
    for w in settled.wagers:
        won = w.result.value == "win"
        may_ride = won and rules.house_money_ride_portion > 0
        shown.append(
            {
                "seat": w.seat,
                "amount": str(w.amount),
                "result": w.result.value,
                "payout": str(w.payout) if won else "0.00",
                "may_ride": str(house_money_ride(w.payout, rules)) if may_ride else "0.00",
                "ride_on": [t for t in ("player", "banker") if may_ride and (w.seat, t) in hands],
            }
        )
    return shown


def preview(
    game: AnyRound,
    rules: RulesSubmission,
    *,
    cards: Sequence[AnyCard],
    wagers: Iterable[AnyWager],
    meters: Mapping[str, Decimal],
    done: Sequence[AnyStep],
) -> list[dict[str, Any]]:
    """The settlement steps of the complete coup, in legal order, as Settle will record them:
    the steps ``done`` already (House Money's), then the engine's (``meters``: the table's Royal
    9 meters before this round's contributions)."""
    coup = _coup(cards)
    staked = _engine_wagers(wagers)
    royal = sum((w.amount for w in staked if w.type is WagerType.ROYAL9), ZERO)
    if rules.royal9 is not None and royal:
        meters = {n: contribute(a, royal, rules.royal9.progressive(n)) for n, a in meters.items()}
    pd = None
    if game.player_dealer_seat is not None:
        pd = PlayerDealer(game.player_dealer_seat, game.player_dealer_bank or ZERO)
    try:
        result = settle(coup, staked, rules, player_dealer=pd, meters=dict(meters))
    except RulesError:
        return []
    return [
        {"action": s.action, "seat": s.seat, "type": s.wager_type or None, "amount": str(s.amount)}
        for s in done
    ] + [
        {
            "action": s.action.value,
            "seat": s.seat,
            "type": s.wager.value if s.wager else None,
            "amount": str(s.amount),
        }
        for s in result.steps
        if s.phase != "house_money"
    ]


def repeat(wagers: Iterable[AnyWager]) -> list[dict[str, Any]]:
    """A settled round's wagers as "repeat" places them again (the tablet leaves out the seats
    no longer taken, the player-dealer's, and wagers already on the layout)."""
    return [
        {"seat": w.seat, "type": w.type, "amount": str(w.amount)}
        for w in sorted(wagers, key=lambda w: (w.seat, w.pk or 0))
    ]
