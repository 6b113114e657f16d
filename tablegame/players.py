"""Who sat at a table lately: the players the tablet offers to seat again.

The players seated at the table during its previous shoe and the current one (between shoes:
the last), as the record tells their sittings (``PlayerSeated``, ``PlayerLeft``), without those
who sit there now, the latest first. A player seated before that shoe who left during it is
found by their ``PlayerLeft``.

A sitting is named as it ended (or stands): the pit may change the name or card of a player
already seated (a ``PlayerSeated`` with ``change``: the same sitting), so a player renamed is
offered by their new name only, never the old one. A player is one per card number where they
gave one (the latest sitting's name for that card), else per name. One query (the seat events
of the shoes, in the order recorded); no command of the round reads it.
"""

from __future__ import annotations

import dataclasses
import datetime
from typing import Any, TypedDict

from django.db.models import DateTimeField, Subquery, Value
from django.db.models.functions import Coalesce

from casino.events import event_lookup
from casino.models import Event
from tablegame.events import PlayerLeft, PlayerSeated
from tablegame.models import Shoe, Table

#: The most players offered.
OFFERED = 30
_EVER = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)


class SeatEvent(TypedDict):
    """A ``PlayerSeated`` or ``PlayerLeft`` as stored."""

    action: str
    data: Any
    created_at: datetime.datetime


@dataclasses.dataclass
class Sitting:
    """One player's time at a seat, named as last recorded."""

    name: str
    """The player's name or a description; blank when known by card number only."""
    card: str
    """The players' club card number; blank when none was given."""
    at: datetime.datetime
    """When it was last recorded (sat down, renamed, left)."""
    ended: bool = False
    """The player left; False while they sit there still."""

    @property
    def player(self) -> tuple[str, str]:
        """Who the player is: their card number where they gave one, else their name."""
        return ("card", self.card) if self.card else ("name", self.name)


def recent_players(table_id: int, *, limit: int = OFFERED) -> list[dict[str, str | None]]:
    """The players seated at the table since its last finished shoe was received, not seated
    now, the latest first: ``{"player": name or None, "card": number or None}``."""
    latest: dict[tuple[str, str], Sitting] = {}
    for sitting in sittings(_seat_events(table_id)):
        if sitting.player not in latest or latest[sitting.player].at <= sitting.at:
            latest[sitting.player] = sitting
    offered = sorted((s for s in latest.values() if s.ended), key=lambda s: s.at, reverse=True)[
        :limit
    ]
    return [{"player": s.name or None, "card": s.card or None} for s in offered]


def sittings(seat_events: list[SeatEvent]) -> list[Sitting]:
    """The sittings that ``seat_events`` (``PlayerSeated`` and ``PlayerLeft``, as stored, in
    the order recorded) tell, each named as last recorded. A sitting that began before the
    first event is found by its later ones."""
    found: list[Sitting] = []
    at_seat: dict[int, Sitting] = {}  # the sitting in progress at each seat
    for event in seat_events:
        data, at = event["data"], event["created_at"]
        seat, name, card = data["seat"], data["player"] or "", data.get("card") or ""
        sitting = at_seat.get(seat)
        sits_down = event["action"] == PlayerSeated.kind.value and not data.get("change")
        if sits_down or sitting is None:
            sitting = at_seat[seat] = Sitting(name, card, at)
            found.append(sitting)
        sitting.name, sitting.card, sitting.at = name, card, at
        if event["action"] == PlayerLeft.kind.value:
            sitting.ended = True
            del at_seat[seat]
    return found


def _seat_events(table_id: int) -> list[SeatEvent]:
    """The table's seat events since its last finished shoe was received, in order."""
    since = (
        Shoe.objects.filter(table=table_id, state=Shoe.State.FINISHED)
        .order_by("-number")
        .values("received_at")[:1]
    )
    return list(
        Event.objects.filter(
            chain=Subquery(Table.objects.filter(pk=table_id).values("chain")[:1]),
            created_at__gte=Coalesce(Subquery(since), Value(_EVER, output_field=DateTimeField())),
            **event_lookup(PlayerSeated, PlayerLeft),
        )
        .order_by("sequence")
        .values("action", "data", "created_at")
    )
