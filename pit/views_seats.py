"""A table's players from the pit console: seat a player known by name, card number or both, or
change the name or card of the player at a seat (``tablegame.actions.seat_player``)."""

from __future__ import annotations

from typing import Any

from casino.page_commands import Body, page_command
from casino.roles import Actor
from tablegame.actions import ActionError, NotAllowed, seat_player
from tablegame.models import Table


class BadInput(ActionError):
    """What the form sent cannot be meant (answered 400, nothing changed)."""


def _text(body: Body, key: str, what: str) -> str:
    value: Any = body.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadInput(f"Type the {what} as text.")
    return value


def _seat_number(body: Body) -> int:
    seat: Any = body.get("player_seat")
    if isinstance(seat, str) and seat.strip().isascii() and seat.strip().isdigit():
        seat = int(seat) if len(seat.strip()) < 6 else None  # no table has so many
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise ActionError("Choose the seat.")
    return seat


@page_command("command:seat_player", forbidden=(NotAllowed,), bad_input=(BadInput,))
def seat_at_table(body: Body, actor: Actor, table_id: int) -> dict[str, Any]:
    """Seat a player at ``player_seat`` (``change``: name anew the player who sits there); the
    seat as it is now."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise ActionError("There is no such table.")
    change = body.get("change", False)
    if not isinstance(change, bool):
        raise BadInput("Say whether the player sits down or their name or card changes.")
    place = seat_player(
        table,
        seat=_seat_number(body),
        player=_text(body, "player", "player's name"),
        card=_text(body, "card", "card number"),
        change=change,
        actor=actor,
    )
    return {"seat": place.as_data()}
