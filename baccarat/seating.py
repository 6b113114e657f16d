"""Seats around the table: directions, who turns the cards, the cut, the curator, the player-dealer.

Geometry, one convention for every text: seat 1 is at the dealer's right and the seat numbers rise
counterclockwise (the direction a player's right hand points). So "counterclockwise" is ascending
seat numbers, wrapping from the highest back to 1, and "clockwise" is descending. With it, each
text reads literally: the shoe passes from seat 1 to the right (004 §7(b), §14(b)); the cut is
offered from the highest seat clockwise (000 §5(b)); House Money is settled from the dealer's right
counterclockwise (000 §8(c)(3)); a tie for the cards goes to the player closest to the dealer
counterclockwise, the lowest seat (000 §8(c)(6)); California action starts at the player-dealer's
left, clockwise (001).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from decimal import Decimal

from baccarat.errors import RulesError
from baccarat.outcome import Outcome, Winner
from baccarat.profiles import CutOffer, Recut, RulesSubmission


def counterclockwise(occupied: Iterable[int], *, after: int) -> list[int]:
    """Occupied seats in counterclockwise order, starting with the first one after ``after``."""
    seats = sorted(set(occupied))
    return [s for s in seats if s > after] + [s for s in seats if s <= after]


def clockwise(occupied: Iterable[int], *, after: int) -> list[int]:
    """Occupied seats in clockwise order, starting with the first one after ``after``."""
    seats = sorted(set(occupied), reverse=True)
    return [s for s in seats if s < after] + [s for s in seats if s >= after]


def card_turner(
    wagers_on_hand: Mapping[int, Decimal],
    *,
    occupied: Iterable[int] = (),
    declined: Collection[int] = (),
) -> int | None:
    """The seat handed a hand's cards: the highest wager on it, ties to the lowest seat.

    000 §8(c)(1)-(2), (6). Seats in ``declined`` relinquished the right; it then passes to the
    player to the right of the previous holder and on counterclockwise among the ``occupied`` seats
    (§8(d)). None: nobody wagered on the hand or nobody accepts, and the dealer turns the cards.
    """
    live = {s: a for s, a in wagers_on_hand.items() if a > 0}
    if not live:
        return None
    first = min(live, key=lambda s: (-live[s], s))
    if first not in declined:
        return first
    for seat in relinquish_order(first, set(occupied) | set(live)):
        if seat not in declined:
            return seat
    return None


def relinquish_order(previous: int, occupied: Iterable[int]) -> list[int]:
    """Who is offered a relinquished right next: the player to the right, then counterclockwise."""
    return [s for s in counterclockwise(occupied, after=previous) if s != previous]


def cut_offer_order(
    rules: RulesSubmission,
    occupied: Iterable[int],
    *,
    last_curator: int | None = None,
) -> list[int]:
    """The order players are offered the cut; the dealer cuts if none accepts (000 §5(b))."""
    seats = sorted(set(occupied))
    if not seats or rules.cut_offer is CutOffer.DEALER_CUTS:
        return []
    if rules.cut_offer is CutOffer.HIGHEST_SEAT_CLOCKWISE:
        return clockwise(seats, after=seats[-1] + 1)
    start = last_curator if last_curator in seats else seats[-1]
    return counterclockwise(seats, after=start - 1)


def recut_order(
    rules: RulesSubmission, offer_order: list[int], last_cutter: int | None
) -> list[int]:
    """Who recuts on a supervisor's order: the last cutter, or the next entitled (000 §5(e))."""
    if last_cutter is None:
        return offer_order
    if rules.recut is Recut.LAST_CUTTER:
        return [last_cutter]
    if last_cutter not in offer_order:
        raise RulesError(f"Seat {last_cutter} was not offered the cut.")
    i = offer_order.index(last_cutter)
    return offer_order[i + 1 :] + offer_order[:i]


def curator_offer_order(occupied: Iterable[int], *, previous: int | None = None) -> list[int]:
    """Who is offered the shoe (004 §7(b), §14(b)): seat 1 first, or right of the last curator."""
    if previous is None:
        return counterclockwise(occupied, after=0)
    return relinquish_order(previous, occupied)


def curator_must_pass(outcome: Outcome) -> bool:
    """The curator passes the shoe whenever the Banker's hand loses (004 §14(a)(1))."""
    return outcome.winner is Winner.PLAYER


def next_player_dealer(current: int, occupied: Iterable[int]) -> int:
    """The next seat offered the player-dealer position: clockwise from the current one (001)."""
    order = [s for s in clockwise(occupied, after=current) if s != current]
    if not order:
        raise RulesError("No other player is seated to take the player-dealer position.")
    return order[0]


def california_action_order(player_dealer: int, occupied: Iterable[int]) -> list[int]:
    """Seats from the player-dealer's left, clockwise (001)."""
    return [s for s in clockwise(occupied, after=player_dealer) if s != player_dealer]
