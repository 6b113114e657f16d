"""``ws/surveillance/``: live notices of every table on the floor (protocol in
tablegame.consumers)."""

from __future__ import annotations

from typing import Any

from tablegame.broadcast import SURVEILLANCE_GROUP
from tablegame.consumers import Watch, sequences


class SurveillanceConsumer(Watch):
    """Every table on the floor, for the surveillance room."""

    access = "socket:surveillance"

    async def groups_to_join(self) -> list[str]:
        return [SURVEILLANCE_GROUP]

    async def hello(self) -> dict[str, Any] | None:
        return {"tables": await sequences(None)}
