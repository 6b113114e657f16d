"""What the dealer's tablet shows beside the table state: whom to offer the shoe or the
player-dealer position, how much of the player-dealer's bank the wagers commit, the settlement of
a complete coup before it is settled, last round's wagers to repeat, and each chair's Royal 9
combination. Reads only; the engine decides every figure."""

from __future__ import annotations

from typing import Any

from baccarat.cards import parse_cards
from baccarat.drawing import Coup
from baccarat.errors import RulesError
from baccarat.money import MOST, ZERO
from baccarat.profiles import RulesSubmission
from baccarat.royal9 import contribute
from baccarat.seating import california_action_order, curator_offer_order
from baccarat.settlement import PlayerDealer, settle
from baccarat.settlement import Wager as EngineWager
from baccarat.wagertypes import WagerType
from tablegame.models import Round, Table

#: A coup of each kind the player-dealer's bank can meet: Player wins, Banker wins with 7 and
#: with 6 (paid half at a commission-free table), a tie.
SAMPLE_COUPS = {
    "Player wins": (["9S", "KD"], ["TS", "KC"]),
    "Banker wins": (["TS", "7C"], ["8S", "KD"]),
    "Banker wins with 6": (["2S", "3C", "TD"], ["6S", "KD"]),
    "Tie": (["8S", "KC"], ["8D", "KH"]),
}


def tablet_help(table: Table) -> dict[str, Any]:
    """The tablet's helps for ``table`` now (each None where it does not apply)."""
    rules = table.rules
    game = table.active_round()
    seats = table.occupied_seats()
    return {
        "curator": _curator(table, seats) if rules.has_curator else None,
        "player_dealer": _player_dealer(table, rules, seats) if rules.player_dealer else None,
        "bank": _bank(game) if game and game.player_dealer_seat is not None else None,
        "preview": _preview(table, game) if game and game.state == Round.State.COMPLETE else None,
        "repeat": _repeat(table, seats, game),
        "royal9": _royal9(rules, table.seat_count),
    }


def _royal9(rules: RulesSubmission, seat_count: int) -> dict[str, Any] | None:
    """The fixed Royal 9 wager and each chair's Personal King-9 combination (004 §13)."""
    if rules.royal9 is None:
        return None
    options = rules.royal9
    chairs = range(1, min(seat_count, len(options.personal_combinations)) + 1)
    return {
        "wager": str(options.wager),
        "personal": {n: [str(c) for c in options.personal_combinations[n - 1]] for n in chairs},
    }


def _curator(table: Table, seats: list[int]) -> dict[str, Any]:
    """Who holds the shoe (0: the dealer), and the order it is offered in (004 §7(b), §14(b))."""
    previous = table.curator_seat or table.previous_curator_seat
    return {"seat": table.curator_seat, "offer": curator_offer_order(seats, previous=previous)}


def _player_dealer(table: Table, rules: RulesSubmission, seats: list[int]) -> dict[str, Any]:
    """The player-dealer, the hands banked, and the order the position is offered (001)."""
    last = table.player_dealer_seat or table.previous_player_dealer_seat
    fees = rules.collection_fees
    return {
        "seat": table.player_dealer_seat,
        "hands": table.player_dealer_hands,
        "rotation": rules.player_dealer_rotation_hands,
        "first": last is None,
        "offer": seats if last is None else california_action_order(last, seats),
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


def _wagers(game: Round) -> list[EngineWager]:
    return [
        EngineWager(w.seat, WagerType(w.type), w.amount, WagerType(w.ride) if w.ride else None)
        for w in game.wagers.all()
    ]


def _bank(game: Round) -> dict[str, Any]:
    """The bank, what the wagers would take from it at worst, and the collection fees due.

    Each sample coup is settled by the engine against an unlimited bank; the most the
    player-dealer would pay is what the wagers commit (never more than the bank).
    """
    rules = game.rules.submission
    wagers = _wagers(game)
    bank = game.player_dealer_bank or ZERO
    worst, worst_when = ZERO, ""
    fees = ZERO
    for when, (player, banker) in SAMPLE_COUPS.items():
        coup = Coup(parse_cards(player), parse_cards(banker))
        try:
            result = settle(
                coup, wagers, rules, player_dealer=PlayerDealer(game.player_dealer_seat or 0, MOST)
            )
        except RulesError:
            continue
        loss = -(result.player_dealer_net or ZERO)
        if loss > worst:
            worst, worst_when = loss, when
        fees = sum((s.amount for s in result.steps if s.phase == "fees"), ZERO)
    committed = min(worst, bank)
    return {
        "bank": str(bank) if game.player_dealer_bank else None,
        "committed": str(committed),
        "at_worst": str(worst),
        "worst_when": worst_when,
        "free": str(bank - committed),
        "short": str(max(worst - bank, ZERO)),
        "fees": str(fees),
    }


def _preview(table: Table, game: Round) -> list[dict[str, Any]]:
    """The settlement steps of the complete coup, in legal order, as Settle will record them."""
    rules = game.rules.submission
    cards = list(game.cards.all())
    coup = Coup(
        parse_cards([c.code for c in cards if c.hand == "player"]),
        parse_cards([c.code for c in cards if c.hand == "banker"]),
    )
    wagers = _wagers(game)
    meters = {m.name: m.amount for m in table.meters.all()}
    staked = sum((w.amount for w in wagers if w.type is WagerType.ROYAL9), ZERO)
    if rules.royal9 is not None and staked:
        meters = {n: contribute(a, staked, rules.royal9.progressive(n)) for n, a in meters.items()}
    pd = None
    if game.player_dealer_seat is not None:
        pd = PlayerDealer(game.player_dealer_seat, game.player_dealer_bank or ZERO)
    try:
        result = settle(coup, wagers, rules, player_dealer=pd, meters=meters)
    except RulesError:
        return []
    done = [
        {"action": s.action, "seat": s.seat, "type": s.wager_type or None, "amount": str(s.amount)}
        for s in game.steps.all()
    ]
    return done + [
        {
            "action": s.action.value,
            "seat": s.seat,
            "type": s.wager.value if s.wager else None,
            "amount": str(s.amount),
        }
        for s in result.steps
        if s.phase != "house_money"
    ]


def _repeat(table: Table, seats: list[int], game: Round | None) -> list[dict[str, str | int]]:
    """Last settled round's wagers at seats still taken (not the player-dealer's, nor wagers
    already on the layout): what "repeat" places again."""
    settled = table.rounds.filter(state=Round.State.SETTLED, simulated=False)
    if game is not None:
        settled = settled.exclude(pk=game.pk)
    last = settled.order_by("-settled_at", "-pk").first()
    if last is None:
        return []
    taken = {(w.seat, w.type) for w in game.wagers.all()} if game else set()
    banker = game.player_dealer_seat if game else table.player_dealer_seat
    return [
        {"seat": w.seat, "type": w.type, "amount": str(w.amount)}
        for w in last.wagers.order_by("seat", "pk")
        if w.seat in seats and w.seat != banker and (w.seat, w.type) not in taken
    ]
