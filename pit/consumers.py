"""``ws/pits/<id>/``: live notices of every table of one pit (protocol in tablegame.consumers)."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from casino.models import Pit
from tablegame.broadcast import pit_group
from tablegame.consumers import Watch, sequences


@database_sync_to_async
def _pit_exists(pit_id: int) -> bool:
    return Pit.objects.filter(pk=pit_id).exists()


class PitConsumer(Watch):
    """Every table of one pit, for the floor, the pit and the back office."""

    access = "socket:pit"

    @property
    def pit_id(self) -> int:
        return int(self.scope["url_route"]["kwargs"]["pit_id"])

    async def groups_to_join(self) -> list[str]:
        return [pit_group(self.pit_id)]

    async def hello(self) -> dict[str, Any] | None:
        if not await _pit_exists(self.pit_id):
            return None
        return {"pit": self.pit_id, "tables": await sequences(self.pit_id)}

    async def hello_again(self) -> dict[str, Any] | None:
        """The heartbeat's hello: the sequences alone, one query (the pit was there on connect)."""
        return {"pit": self.pit_id, "tables": await sequences(self.pit_id)}

    async def pit_alert(self, event: dict[str, Any]) -> None:
        """An alert raised or acknowledged (``pit.alerts``): the console reloads its panel."""
        await self.send_json({"type": "alert", **{k: v for k, v in event.items() if k != "type"}})

    async def pit_forms(self, event: dict[str, Any]) -> None:
        """A Complimentary Vigorish Form changed (``tablegame.actions.forms``): the forms page
        reloads its register."""
        await self.send_json({"type": "forms", **{k: v for k, v in event.items() if k != "type"}})
