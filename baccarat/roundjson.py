"""One round as JSON in, its settlement as JSON out: what ``manage.py settle`` reads and prints."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from baccarat.cards import parse_cards
from baccarat.drawing import Coup
from baccarat.errors import RulesError
from baccarat.money import parse_amount
from baccarat.profiles import rules_submission
from baccarat.settlement import PlayerDealer, Settlement, Wager, settle
from baccarat.wagertypes import WagerType


def settle_round(data: Any) -> dict[str, Any]:
    """Settle the round described by ``data`` (parsed JSON); RulesError says what is wrong."""
    if not isinstance(data, Mapping):
        raise RulesError("The round must be a JSON object.")
    rules = rules_submission(_required(data, "profile", str), _object(data, "options"))
    coup = Coup.from_hands(_cards(data, "player"), _cards(data, "banker"))
    wagers = [_wager(i, w) for i, w in enumerate(_required(data, "wagers", list), start=1)]
    pd = _player_dealer(data.get("player_dealer"))
    meters = {str(k): parse_amount(v) for k, v in _object(data, "progressives").items()}
    return settlement_json(settle(coup, wagers, rules, player_dealer=pd, meters=meters), coup)


def settlement_json(result: Settlement, coup: Coup) -> dict[str, Any]:
    """A settlement as plain JSON-ready data, amounts as strings with two decimals."""
    out = result.outcome
    body: dict[str, Any] = {
        "player": [str(c) for c in coup.player],
        "banker": [str(c) for c in coup.banker],
        "player_total": out.player_total,
        "banker_total": out.banker_total,
        "winner": out.winner.value,
        "tags": list(out.tags),
        "wagers": [],
        "order": [],
    }
    for w in result.wagers:
        row: dict[str, Any] = {
            "seat": w.seat,
            "type": w.type.value,
            "amount": _money(w.amount),
            "outcome": w.result.value,
            "payout": _money(w.payout),
            "vigorish": _money(w.vigorish),
        }
        for extra in ("returned", "ridden", "fee"):
            if getattr(w, extra):
                row[extra] = _money(getattr(w, extra))
        if w.award:
            row["award"] = w.award
        body["wagers"].append(row)
    for s in result.steps:
        body["order"].append(
            {
                "phase": s.phase,
                "action": s.action.value,
                "seat": s.seat,
                "type": s.wager.value if s.wager else None,
                "amount": _money(s.amount),
            }
        )
    if result.player_dealer_net is not None:
        body["player_dealer_net"] = _money(result.player_dealer_net)
    return body


def _money(amount: Decimal) -> str:
    return f"{amount:.2f}"


def _required(data: Mapping[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        noun = "a list" if kind is list else "a name"
        raise RulesError(f"'{key}' is required and must be {noun}.")
    return value


def _object(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise RulesError(f"'{key}' must be a JSON object.")
    return value


def _cards(data: Mapping[str, Any], hand: str) -> tuple[Any, ...]:
    cards = _required(data, hand, list)
    if not all(isinstance(c, str) for c in cards):
        raise RulesError(f'The {hand} cards must be card codes such as "KH" or "10D".')
    return parse_cards(cards)


def _wager(number: int, raw: Any) -> Wager:
    if not isinstance(raw, Mapping):
        raise RulesError(f"Wager {number} must be an object with seat, type and amount.")
    seat = raw.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RulesError(f"Wager {number} needs a seat number.")
    kind = _wager_type(raw.get("type"), number)
    if raw.get("amount") is None:
        raise RulesError(f"Wager {number} needs an amount.")
    ride = raw.get("ride")
    return Wager(
        seat=seat,
        type=kind,
        amount=parse_amount(raw.get("amount")),
        ride=None if ride is None else _wager_type(ride, number),
    )


def _wager_type(raw: Any, number: int) -> WagerType:
    try:
        return WagerType(raw)
    except ValueError:
        known = ", ".join(t.value for t in WagerType)
        raise RulesError(f"Wager {number}: '{raw}' is not a wager type ({known}).") from None


def _player_dealer(raw: Any) -> PlayerDealer | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or not isinstance(raw.get("seat"), int):
        raise RulesError("'player_dealer' must give the seat and the bank.")
    return PlayerDealer(seat=raw["seat"], bank=parse_amount(raw.get("bank")))
