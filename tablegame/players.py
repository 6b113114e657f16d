"""Who sat at a table lately: the players the tablet offers to seat again.

The players seated at the table during its previous shoe and the current one (between shoes:
the last), by name and card number as recorded (``PlayerSeated``, ``PlayerLeft``), without
those who sit there now, the latest first. A player seated before that shoe who left during it
is found by their ``PlayerLeft``. One query; no command of the round reads it.
"""

from __future__ import annotations

import datetime

from django.db.models import DateTimeField, Exists, Max, OuterRef, Subquery, TextField, Value
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce

from casino.events import event_lookup
from casino.models import Event
from tablegame.events import PlayerLeft, PlayerSeated
from tablegame.models import Seat, Shoe, Table

#: The most players offered.
OFFERED = 30
_EVER = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)


def recent_players(table_id: int, *, limit: int = OFFERED) -> list[dict[str, str | None]]:
    """The players seated at the table since its last finished shoe was received, not seated
    now, the latest first: ``{"player": name or None, "card": number or None}``."""
    since = (
        Shoe.objects.filter(table=table_id, state=Shoe.State.FINISHED)
        .order_by("-number")
        .values("received_at")[:1]
    )
    seated_now = Seat.objects.filter(
        table=table_id, player_name=OuterRef("name"), player_card=OuterRef("card")
    )
    rows = (
        Event.objects.filter(
            chain=Subquery(Table.objects.filter(pk=table_id).values("chain")[:1]),
            created_at__gte=Coalesce(Subquery(since), Value(_EVER, output_field=DateTimeField())),
            **event_lookup(PlayerSeated, PlayerLeft),
        )
        .annotate(
            name=KT("data__player"),
            card=Coalesce(KT("data__card"), Value(""), output_field=TextField()),
        )
        .filter(~Exists(seated_now))
        .values("name", "card")
        .annotate(last=Max("created_at"))
        .order_by("-last")[:limit]
    )
    return [{"player": row["name"] or None, "card": row["card"] or None} for row in rows]
