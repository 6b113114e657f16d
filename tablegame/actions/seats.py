"""Seat actions: a player sits down, known by name, players' club card number or both; the pit
changes who sits at a seat; a player leaves."""

from __future__ import annotations

import unicodedata

from django.utils import timezone

from baccarat.wagertypes import WagerType
from casino.roles import Actor
from tablegame import events
from tablegame.actions.common import ActionError, action, check_text, lock_table, record, require
from tablegame.actions.tables import refuse_open_markers
from tablegame.live import live
from tablegame.models import Round, Seat, Table, Wager
from tablegame.models.rounds import ACTIVE_ROUND_STATES
from tablegame.models.tables import CARD_MAX_LENGTH, NAME_MAX_LENGTH
from tablegame.work import work

#: Typed into a card number for reading ease, and dropped: "1234 5678" is card 12345678.
CARD_SEPARATORS = str.maketrans("", "", " -")


def _has_control(text: str) -> bool:
    return any(unicodedata.category(ch) == "Cc" for ch in text)


def check_player_name(player: str) -> str:
    """The player's name or description, trimmed (blank: none given), or a refusal."""
    name = check_text(player, field="player's name", limit=NAME_MAX_LENGTH)
    if _has_control(name):
        raise ActionError(
            "The player's name holds a control character (a line break, a tab or a NUL): "
            "type the name again."
        )
    return name


def check_card(card: str) -> str:
    """A players' club card number as kept: letters and digits, capitals, without the spaces
    and dashes typed in it (blank: none given), or a refusal."""
    number = card.strip().translate(CARD_SEPARATORS).upper()
    if len(number) > CARD_MAX_LENGTH:
        raise ActionError(f"A players' club card number is at most {CARD_MAX_LENGTH} characters.")
    if number and not (number.isascii() and number.isalnum()):
        raise ActionError(
            "A players' club card number is letters and digits only: type it as on the card."
        )
    return number


def _seat(table: Table, number: int) -> Seat:
    try:
        return table.seats.get(number=number)
    except Seat.DoesNotExist:
        raise ActionError(f"There is no seat {number} at {table}.") from None


@action
def seat_player(
    table: Table,
    *,
    seat: int,
    player: str = "",
    card: str = "",
    change: bool = False,
    actor: Actor,
) -> Seat:
    """A player sits at a seat, known by name (or a description), card number or both.

    With ``change``, the player already at the seat is named anew (a card given after they sat
    down, a name mistyped): the same sitting, recorded as such; the policy says who may
    (``authority:change_seated_player``).
    """
    table = lock_table(table)
    if table.status != Table.Status.OPEN:
        raise ActionError(f"{table} is closed.")
    place = _seat(table, seat)
    name, number = check_player_name(player), check_card(card)
    if not name and not number:
        raise ActionError("Give the player's name (or a description) or their card number.")
    if change:
        require(actor, "authority:change_seated_player")
        if not place.is_occupied:
            raise ActionError(f"Seat {seat} is empty: seat the player there instead.")
        if (name, number) == (place.player_name, place.player_card):
            raise ActionError(f"Seat {seat} is {place.who} already: nothing to change.")
    elif place.is_occupied:
        raise ActionError(f"Seat {seat} is taken by {place.who}.")
    place.player_name, place.player_card = name, number
    fields = ["player_name", "player_card"]
    if not change:
        place.occupied_since = timezone.now()
        fields.append("occupied_since")
    work().save_now(place, fields)
    record(
        table,
        actor,
        events.PlayerSeated(
            seat=seat, player=name, card=number or None, change=True if change else None
        ),
    )
    return place


@action
def leave_seat(table: Table, *, seat: int, actor: Actor) -> Seat:
    """A player leaves; marked vigorish is settled first (000 §12(d)(2)(i))."""
    table = lock_table(table)
    place = _seat(table, seat)
    if not place.is_occupied:
        raise ActionError(f"Seat {seat} is empty.")
    refuse_open_markers(table, "the player leaves", seat=seat)
    game = live(table).round
    placed = [w for w in game.wagers.all() if w.seat == seat] if game else []
    # A simulated round (000 §13(d)) interrupted a round whose wagers are in play too.
    in_play = bool(placed) and game is not None and game.state != Round.State.BETTING
    if in_play or (game is not None and game.simulated and _wagers_in_play(table, seat)):
        raise ActionError(f"Seat {seat} has wagers in play: settle the round first.")
    if game and placed:
        for w in placed:
            record(
                table,
                actor,
                events.WagerWithdrawn(round=game.number, seat=seat, wager=WagerType(w.type)),
            )
        work().delete(game.wagers.filter(seat=seat))
        work().drop_from(game, "wagers", lambda w: w.seat == seat)
        work().changed(game=game)  # its wagers as kept: the answer reads them not again
    left = events.PlayerLeft(seat=seat, player=place.player_name, card=place.player_card or None)
    place.player_name, place.player_card, place.occupied_since = "", "", None
    work().save_now(place, ["player_name", "player_card", "occupied_since"])
    record(table, actor, left)
    return place


def _wagers_in_play(table: Table, seat: int) -> bool:
    """Whether the seat has a wager in any round in play at the table."""
    return Wager.objects.filter(
        round__table=table, round__state__in=ACTIVE_ROUND_STATES, seat=seat
    ).exists()
