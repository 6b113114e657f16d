"""Shoes played through the actions for the page tests: rounds chosen by their result."""

from __future__ import annotations

import itertools
from collections import Counter

from django.contrib.auth.models import User

from baccarat.cards import parse_cards
from baccarat.drawing import Coup
from baccarat.outcome import Outcome, Winner
from baccarat.roads import Result
from tablegame.models import Table
from tests.tablegame.conftest import dealer, floor, play, staff

# The demo staff fixtures, shared with the table tests.
__all__ = ["coup_cards", "dealer", "floor", "play_shoe", "staff"]

POINTS = {"A": 1, **{str(n): n for n in range(2, 10)}, "T": 0, "J": 0, "Q": 0, "K": 0}
SUITS = "CDHS"
WINS = {
    "B": lambda p, b: b > p,
    "P": lambda p, b: p > b,
    "T": lambda p, b: p == b,
}
# Both hands on 6 to 9 after two cards: nobody draws, so four cards make the coup. Naturals
# (8 and 9) only every fourth round, or when a pair needs one.
TOTALS = list(itertools.product(range(6, 10), repeat=2))
STANDING = [(p, b) for p, b in TOTALS if max(p, b) < 8]


def _two_cards(stock: Counter[str], total: int, *, pair: bool) -> list[str] | None:
    """Two cards left in ``stock`` making ``total``, of one rank exactly when ``pair``."""
    for a, b in itertools.product(POINTS, repeat=2):
        if (a == b) != pair or (POINTS[a] + POINTS[b]) % 10 != total:
            continue
        picked: list[str] = []
        for rank in (a, b):
            left = [f"{rank}{s}" for s in SUITS if stock[f"{rank}{s}"] > picked.count(f"{rank}{s}")]
            if not left:
                break
            picked.append(max(left, key=lambda code: stock[code] - picked.count(code)))
        if len(picked) == 2:
            return picked
    return None


def coup_cards(stock: Counter[str], token: str, turn: int) -> list[str]:
    """The four cards, in dealing order, of a coup with the result ``token`` (``B``, ``Pp``,
    ``Tb``...: winner, then ``p``/``b`` for the pairs), taken out of ``stock``."""
    winner, player_pair, banker_pair = token[0], "p" in token, "b" in token
    options = TOTALS[turn % len(TOTALS) :] + TOTALS[: turn % len(TOTALS)]
    for p, b in options if turn % 4 == 0 else STANDING + options:
        if not WINS[winner](p, b):
            continue
        player = _two_cards(stock, p, pair=player_pair)
        if player is None:
            continue
        stock.subtract(player)
        banker = _two_cards(stock, b, pair=banker_pair)
        if banker is not None:
            stock.subtract(banker)
            return [player[0], banker[0], player[1], banker[1]]
        stock.update(player)
    raise AssertionError(f"no cards left for {token}")


def play_shoe(table: Table, dealer: User, tokens: str) -> list[Result]:
    """Play one round per token (e.g. ``"B Pp T Bb"``) in the table's shoe; their results."""
    shoe = table.current_shoe()
    assert shoe is not None
    stock = Counter(shoe.remaining)
    results = []
    for turn, token in enumerate(tokens.split()):
        cards = coup_cards(stock, token, turn)
        play(table, dealer, [(1, "banker", "25")], cards)
        coup = Coup.from_hands(parse_cards(cards[0::2]), parse_cards(cards[1::2]))
        outcome = Outcome.of(coup)
        assert outcome.winner is {"B": Winner.BANKER, "P": Winner.PLAYER, "T": Winner.TIE}[token[0]]
        results.append(Result.of(outcome))
    return results
