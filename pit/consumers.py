"""``ws/pits/<id>/``: live notices of every table of one pit; ``ws/pits/<id>/meters/``: of its
tables with progressive meters only (protocol in tablegame.consumers)."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from casino.models import Pit
from tablegame.broadcast import pit_group
from tablegame.consumers import LINKED, Watch, sequences
from tablegame.models import MustHitProgressive, ProgressiveMeter


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
        """A Complimentary Vigorish Form changed (``tablegame.vigorish_forms.actions``): the
        forms page reloads its register."""
        await self.send_json({"type": "forms", **{k: v for k, v in event.items() if k != "type"}})


@database_sync_to_async
def _metered(pit_id: int) -> set[int]:
    """The pit's tables with progressive meters: Royal 9's, or a link to a must-hit meter."""
    royal9 = ProgressiveMeter.objects.filter(table__pit_id=pit_id).values_list("table", flat=True)
    linked = MustHitProgressive.objects.filter(pit_id=pit_id).values_list("links__table", flat=True)
    return {t for t in [*royal9, *linked] if t is not None}


class PitMetersConsumer(PitConsumer):
    """The notices of a pit's tables with progressive meters, for the progressives page: a
    notice of another table is not sent (most of a pit's notices are wagers and cards at tables
    with no meter). Its hellos list only those tables; a link or unlink is followed."""

    _metered: set[int] | frozenset[int] = frozenset()  # until the hello reads them

    async def hello(self) -> dict[str, Any] | None:
        self._metered = await _metered(self.pit_id)
        hello = await super().hello()
        return None if hello is None else self._only_metered(hello)

    async def hello_again(self) -> dict[str, Any] | None:
        hello = await super().hello_again()
        return None if hello is None else self._only_metered(hello)

    def _only_metered(self, hello: dict[str, Any]) -> dict[str, Any]:
        return {**hello, "tables": [t for t in hello["tables"] if t["table"] in self._metered]}

    async def table_changed(self, event: dict[str, Any]) -> None:
        if event["action"] == LINKED:  # a table linked to a must-hit meter, or unlinked
            self._metered = await _metered(self.pit_id)
        if event["table"] in self._metered:
            await super().table_changed(event)
