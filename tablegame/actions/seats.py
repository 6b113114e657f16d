"""A player seated, named anew or leaving (``tablegame.play.seats``), run the one way
(``tablegame.commands``)."""

from __future__ import annotations

from typing import Any

from tablegame.actions.run import command
from tablegame.commands import Done
from tablegame.models import Seat
from tablegame.play.seats import CARD_SEPARATORS, check_card, check_player_name


def _seat(done: Done, inputs: dict[str, Any]) -> Seat:
    assert done.state is not None
    return Seat.objects.get(table_id=done.state.table.key, number=inputs["seat"])


seat_player = command("seat_player", _seat)
leave_seat = command("leave_seat", _seat)

__all__ = ["CARD_SEPARATORS", "check_card", "check_player_name", "leave_seat", "seat_player"]
