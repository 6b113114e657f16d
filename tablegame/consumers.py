"""Live notices over WebSockets: who may listen, and the hints they hear.

A consumer only authenticates, joins groups and forwards; it never changes a table and never sends
table data. What a screen hears (protocol also in ``static/js/live.js``):

- on connect, ``{"type": "hello", "table": 7, "sequence": 41}`` on a table socket, or
  ``{"type": "hello", "pit": 1, "tables": [{"table": 7, "sequence": 41}, ...]}`` on a pit socket
  (the surveillance socket: the same without ``"pit"``, every table): the last event sequence of
  each table, so a screen that reconnects knows whether it missed something;
- after a change commits, ``{"type": "changed", "table": 7, "sequence": 42, "action": "..."}``,
  with ``"change"`` (the event and what changed) when the action gives it;
- to a frame that is binary or not JSON, ``{"type": "error", "error": "..."}``; the socket stays
  open.

Refusals accept the socket and close it at once with a code the script understands (a close before
accepting reaches the browser only as a failed handshake): 4401 not logged in, 4403 the role may
not watch this (``casino.access``; the close reason says why), 4404 no such table or pit.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from casino import access
from tablegame.broadcast import table_group
from tablegame.models import Table
from tablegame.selectors import last_sequence_of_tables

NOT_LOGGED_IN = 4401
FORBIDDEN = 4403
NOT_FOUND = 4404

#: WebSocket close reasons are at most 123 bytes of UTF-8.
CLOSE_REASON_BYTES = 123


def close_reason(reason: str) -> str:
    """The refusal as a close reason: whole if it fits, else its first clause."""
    if len(reason.encode()) > CLOSE_REASON_BYTES:
        reason = reason.split(": ", 1)[0].rstrip(".") + "."
    return reason.encode()[:CLOSE_REASON_BYTES].decode(errors="ignore")


@database_sync_to_async
def _decide(user: access.Person, what: str) -> access.Decision:
    return access.decide(user, what)


@database_sync_to_async
def _table_sequence(table_id: int) -> int | None:
    """The table's last event sequence (0 before its first event); None if there is no table."""
    last: int | None = (
        Table.objects.filter(pk=table_id)
        .annotate(last=last_sequence_of_tables())
        .values_list("last", flat=True)
        .first()
    )
    return last


@database_sync_to_async
def sequences(pit_id: int | None) -> list[dict[str, int]]:
    """The last event sequence of each table (of one pit, or of the floor), in one query."""
    tables = Table.objects.all() if pit_id is None else Table.objects.filter(pit_id=pit_id)
    rows = tables.annotate(last=last_sequence_of_tables()).order_by("pk").values_list("pk", "last")
    return [{"table": pk, "sequence": last} for pk, last in rows]


class Watch(AsyncJsonWebsocketConsumer):
    """Authenticate, ask the policy, join the groups, say hello, then forward notices."""

    access: ClassVar[str]
    """What listening is, in ``casino.access.RULES`` (``"socket:table"``)."""

    async def connect(self) -> None:
        await self.accept()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=NOT_LOGGED_IN)
            return
        # Channels' lazy user object stands for the session's User.
        decision = await _decide(cast(access.Person, user), self.access)
        if not decision.allowed:
            await self.close(code=FORBIDDEN, reason=close_reason(decision.reason))
            return
        # Join before reading the sequences: a change committed in between is then either in the
        # hello or arrives as a notice after it (messages wait until connect() has returned).
        for group in await self.groups_to_join():
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups.append(group)  # left again on disconnect
        hello = await self.hello()
        if hello is None:
            await self.close(code=NOT_FOUND)
            return
        await self.send_json({"type": "hello", **hello})

    async def groups_to_join(self) -> list[str]:
        raise NotImplementedError

    async def hello(self) -> dict[str, Any] | None:
        """What the hello says besides its type; None when the table or pit does not exist."""
        raise NotImplementedError

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """A frame from the screen: JSON text goes to ``receive_json``; a binary frame or text
        that is not JSON is answered ``{"type": "error", "error": "..."}``, and the socket stays
        open (Channels' own ``receive`` would end it with 1011)."""
        if text_data is None:
            await self.send_error("Send JSON in text frames; a binary frame is not read.")
            return
        try:
            content = await self.decode_json(text_data)
        except RecursionError:
            await self.send_error("The frame is not JSON: it is nested too deeply.")
            return
        except ValueError as error:
            await self.send_error(f"The frame is not JSON: {error}.")
            return
        await self.receive_json(content, **kwargs)

    async def send_error(self, error: str) -> None:
        await self.send_json({"type": "error", "error": error})

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Screens only listen; anything they send is ignored."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        """A notice goes straight to ``table_changed``: Channels' own dispatch would first close
        stale database connections in a worker thread, for every notice of every socket, and a
        notice needs no database."""
        if message["type"] == "table.changed":
            await self.table_changed(message)
        else:
            await super().dispatch(message)

    async def table_changed(self, event: dict[str, Any]) -> None:
        """Forward the notice as written once for every screen (``broadcast.notice_frame``)."""
        await self.send(text_data=event["text"])


class TableConsumer(Watch):
    """``ws/tables/<id>/``: one table's notices, for anyone who works or reads tables."""

    access = "socket:table"

    @property
    def table_id(self) -> int:
        return int(self.scope["url_route"]["kwargs"]["table_id"])

    async def groups_to_join(self) -> list[str]:
        return [table_group(self.table_id)]

    async def hello(self) -> dict[str, Any] | None:
        sequence = await _table_sequence(self.table_id)
        return None if sequence is None else {"table": self.table_id, "sequence": sequence}
