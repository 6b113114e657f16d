"""Who sits, and what they owe, as functions of the state in play: a player seated (by name,
players' club card number or both), named anew, leaving; deferred vigorish collected or turned
into a Complimentary Vigorish Form request (000 §12(d)(2), 002 (c)(3)(ii)-(iv)).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from baccarat.wagertypes import WagerType
from tablegame import events
from tablegame.errors import ActionError
from tablegame.models import Round, Table, VigorishMarker, Wager
from tablegame.models.rounds import ACTIVE_ROUND_STATES
from tablegame.models.tables import CARD_MAX_LENGTH, NAME_MAX_LENGTH
from tablegame.play import changes as c
from tablegame.play.changes import Changes
from tablegame.play.command import Command, check_text
from tablegame.play.rows import MarkerRow, SeatRow
from tablegame.play.state import InPlay

#: Typed into a card number for reading ease, and dropped: "1234 5678" is card 12345678.
CARD_SEPARATORS = str.maketrans("", "", " -")


def check_player_name(player: str) -> str:
    """The player's name or description, trimmed (blank: none given), or a refusal."""
    name = check_text(player, field="player's name", limit=NAME_MAX_LENGTH)
    if any(unicodedata.category(ch) == "Cc" for ch in name):
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


def _seat(state: InPlay, number: int) -> SeatRow:
    found = state.seat(number)
    if found is None:
        raise ActionError(f"There is no seat {number} at {state.table.name}.")
    return found


def seat_player(
    state: InPlay,
    command: Command,
    *,
    seat: int,
    player: str = "",
    card: str = "",
    change: bool = False,
) -> Changes:
    """A player sits at a seat, known by name (or a description), card number or both.

    With ``change``, the player already at the seat is named anew (a card given after they sat
    down, a name mistyped): the same sitting, recorded as such; the policy says who may
    (``authority:change_seated_player``).
    """
    if state.table.status != Table.Status.OPEN:
        raise ActionError(f"{state.table.name} is closed.")
    place = _seat(state, seat)
    name, number = check_player_name(player), check_card(card)
    if not name and not number:
        raise ActionError("Give the player's name (or a description) or their card number.")
    if change:
        command.require("authority:change_seated_player")
        if not place.is_occupied:
            raise ActionError(f"Seat {seat} is empty: seat the player there instead.")
        if (name, number) == (place.player_name, place.player_card):
            raise ActionError(f"Seat {seat} is {place.who} already: nothing to change.")
    elif place.is_occupied:
        raise ActionError(f"Seat {seat} is taken by {place.who}.")
    if change:
        done = c.update(place, player_name=name, player_card=number)[1]
    else:
        done = c.update(place, player_name=name, player_card=number, occupied_since=command.at)[1]
    return done + c.event(
        command.actor_id,
        events.PlayerSeated(
            seat=seat, player=name, card=number or None, change=True if change else None
        ),
    )


def refuse_open_markers(state: InPlay, doing: str, seat: int | None = None) -> None:
    """Refuse while vigorish is marked (at ``seat``, or anywhere at the table)."""
    seats = sorted({m.seat for m in state.markers if seat is None or m.seat == seat}, reverse=True)
    if seats:
        listed = ", ".join(str(s) for s in seats)
        raise ActionError(
            f"Vigorish is still marked at seat {listed}: collect it or request a Complimentary "
            f"Vigorish Form before {doing}."
        )


def interrupted_wagers(state: InPlay, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Before a player leaves during a simulated round (000 §13(d)): whether the seat has wagers
    in the round it interrupted (one statement; nothing to read otherwise)."""
    game = state.in_play
    if game is None or not game.simulated:
        return {"interrupted": False}
    found = Wager.objects.filter(
        round__table_id=state.table.key,
        round__state__in=ACTIVE_ROUND_STATES,
        seat=int(inputs.get("seat") or 0),
    ).exists()
    return {"interrupted": found}


def leave_seat(state: InPlay, command: Command, *, seat: int, interrupted: bool = False) -> Changes:
    """A player leaves; marked vigorish is settled first (000 §12(d)(2)(i)); not with wagers in
    play, in the round dealt or in the round a simulated round interrupted (``interrupted``:
    ``interrupted_wagers``)."""
    place = _seat(state, seat)
    if not place.is_occupied:
        raise ActionError(f"Seat {seat} is empty.")
    refuse_open_markers(state, "the player leaves", seat=seat)
    game = state.in_play
    placed = [w for w in state.wagers if w.seat == seat] if game else []
    if (game and game.state != Round.State.BETTING and placed) or interrupted:
        raise ActionError(f"Seat {seat} has wagers in play: settle the round first.")
    done = c.NONE
    if game and placed:
        for w in placed:
            done += c.delete(w) + c.event(
                command.actor_id,
                events.WagerWithdrawn(round=game.number, seat=seat, wager=WagerType(w.type)),
            )
    left = events.PlayerLeft(seat=seat, player=place.player_name, card=place.player_card or None)
    done += c.update(place, player_name="", player_card="", occupied_since=None)[1]
    return done + c.event(command.actor_id, left)


def marker_of(state: InPlay, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Before a marker's command: the marker asked for, whatever its status (one statement),
    so that a refusal says what became of it."""
    marker_id, table_id = int(inputs.get("marker_id") or 0), state.table.id or 0
    found = (
        VigorishMarker.objects.filter(pk=marker_id, table_id=table_id)
        .values_list("seat", "status")
        .first()
    )
    return {"found": found}


def _open_marker(state: InPlay, marker_id: int, found: tuple[int, str] | None) -> MarkerRow:
    marker = next((m for m in state.markers if m.id == marker_id), None)
    if marker is not None:
        return marker
    if found is None:
        raise ActionError(f"{state.table.name} has no vigorish marker {marker_id}.")
    seat, status = found
    label = str(VigorishMarker.Status(status).label).lower()
    raise ActionError(f"The marker at seat {seat} is already {label}.")


def collect_marker(
    state: InPlay, command: Command, *, marker_id: int, found: tuple[int, str] | None = None
) -> Changes:
    """The vigorish marked at a seat is collected; the marker comes off the layout
    (``found``: the marker's seat and status, ``marker_of``)."""
    marker = _open_marker(state, marker_id, found)
    _, done = c.update(
        marker,
        status=VigorishMarker.Status.COLLECTED,
        resolved_at=command.at,
        resolved_by_id=command.actor_id,
    )
    return done + c.event(
        command.actor_id,
        events.VigorishCollected(seat=marker.seat, amount=marker.amount, marker=marker_id),
    )


def request_vigorish_form(
    state: InPlay,
    command: Command,
    *,
    marker_id: int,
    reason: str,
    found: tuple[int, str] | None = None,
) -> Changes:
    """The vigorish will not be collected: the pit prepares a Complimentary Vigorish Form."""
    marker = _open_marker(state, marker_id, found)
    reason = check_text(reason, field="reason", limit=200)
    if not reason:
        raise ActionError("Say why the vigorish was not collected (it goes on the form).")
    _, done = c.update(
        marker,
        status=VigorishMarker.Status.FORM_REQUESTED,
        resolved_at=command.at,
        resolved_by_id=command.actor_id,
        reason=reason,
    )
    return done + c.event(
        command.actor_id,
        events.VigorishFormRequested(
            seat=marker.seat, amount=marker.amount, marker=marker_id, reason=reason
        ),
    )
