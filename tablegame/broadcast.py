"""After a change commits, tell the screens watching the table: a hint to reload, never the truth.

Channels delivers at most once, so a message carries only the table and its event sequence number;
a screen that sees a gap reloads the table state over HTTP.

Three kinds of group hear about a table (``tablegame/consumers.py`` puts sockets in them): the
table's own, its pit's, and surveillance's, which hears every table.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tablegame.models import Table

log = logging.getLogger(__name__)

#: The channel-layer group of the surveillance room: every table's notices.
SURVEILLANCE_GROUP = "surveillance"


def table_group(table_id: int) -> str:
    """The channel-layer group of screens watching one table."""
    return f"table.{table_id}"


def pit_group(pit_id: int) -> str:
    """The channel-layer group of screens watching every table of one pit."""
    return f"pit.{pit_id}"


def announce_change(
    table_id: int, sequence: int, action: str, *, pit_id: int | None = None
) -> None:
    """Send the change notice; a lost message costs a reload, so failures are only logged.

    Called after commit (``transaction.on_commit``). Without ``pit_id`` the table's pit is looked
    up by primary key (one indexed query); a caller holding the table passes ``table.pit_id``.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "table.changed", "table": table_id, "sequence": sequence, "action": action}
    groups = [table_group(table_id)]
    try:
        if pit_id is None:
            pit_id = _pit_of(table_id)
        if pit_id is not None:
            groups.append(pit_group(pit_id))
    except Exception:  # no pit screen this time; the table and surveillance still hear it
        log.warning("could not find the pit of table %s", table_id, exc_info=True)
    groups.append(SURVEILLANCE_GROUP)
    try:
        async_to_sync(_send)(layer, groups, message)
    except Exception:  # the record is committed; screens resync on the next message or reload
        log.warning("could not announce change %s of table %s", sequence, table_id, exc_info=True)


def _pit_of(table_id: int) -> int | None:
    pit_id: int | None = Table.objects.filter(pk=table_id).values_list("pit_id", flat=True).first()
    return pit_id


async def _send(layer: Any, groups: list[str], message: dict[str, Any]) -> None:
    for group in groups:
        await layer.group_send(group, message)
