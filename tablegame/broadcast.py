"""After a change commits, tell the screens watching the table: a hint to reload, never the truth.

Channels delivers at most once, so a message carries only the table and its event sequence number;
a screen that sees a gap reloads the table state over HTTP.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    """The channel-layer group of screens watching one table."""
    return f"table.{table_id}"


def announce_change(table_id: int, sequence: int, action: str) -> None:
    """Send the change notice; a lost message costs a reload, so failures are only logged."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "table.changed", "table": table_id, "sequence": sequence, "action": action}
    try:
        async_to_sync(layer.group_send)(table_group(table_id), message)
    except Exception:  # the record is committed; screens resync on the next message or reload
        log.warning("could not announce change %s of table %s", sequence, table_id, exc_info=True)
