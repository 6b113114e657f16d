"""Live notices over WebSockets: who may listen, and the hints they hear.

A consumer only authenticates, joins groups and forwards; it never changes a table and never sends
table data. What a screen hears (protocol also in ``static/js/live.js``):

- on connect, ``{"type": "hello", "table": 7, "sequence": 41}`` on a table socket, or
  ``{"type": "hello", "pit": 1, "tables": [{"table": 7, "sequence": 41}, ...]}`` on a pit socket
  (the surveillance socket: the same without ``"pit"``, every table): the last event sequence of
  each table, so a screen that reconnects knows whether it missed something;
- after a change commits, ``{"type": "changed", "table": 7, "sequence": 42, "action": "..."}``,
  with ``"change"`` (the event and what changed) when the action gives it. Every member of staff
  may follow a table, another table's dealer included, so a change never carries the tablet's
  helps about players (``repeat``, the last round's wagers, which only the table's own dealer
  and the floor may read over HTTP): it names them in ``"withheld"`` instead
  (``broadcast.notice_change``), and the table's tablet reads the state again;
- the hello again, the same shape, about every ``HELLO_EVERY`` seconds (each socket's beat
  jittered by ``HELLO_JITTER``, so a floor's sockets do not read at once): the heartbeat, read
  from the database (one query per socket), so a screen that lost a notice, the last of a table
  included, learns it within that time without polling. A hello never says less than the
  notices already sent on the socket, and waits up to ``HELLO_GRACE`` for those still on their
  way (committed, not yet here): it differs from what the screen heard only when something was
  missed. Screens no longer reload every 30 s for safety (live.js' reason "refresh" is gone);
- on a pit or the surveillance socket, ``{"type": "refused", "table": 7, "kind": "card_not_in_shoe",
  "words": "...", ...}`` when a dealer's command was refused for a reason surveillance must see,
  and kept (``tablegame.refusals.refusal_frame``); it changed nothing, so it has no sequence;
- on a table socket, ``{"type": "meter", "meter": "Stax", "amount": "250.75", "read": false}``
  when a must-hit meter the table is linked to moves with another table's round (``read``: a
  win, a payment or new parameters: read it again);
- on a pit or surveillance socket, ``{"type": "mark", "table": 7}`` when a table's marks
  (``tablegame.marks``: game protection's alerts) were raised, restated or cleared: read them;
- on a pit socket, ``{"type": "panel", "panel": "ratings", "pit": 1, "tables": [7]}`` when a
  panel of the pit console that another app draws (``tablegame.panels``: game protection's
  ratings) changed for those tables: read it again;
- the hello, when the screen asks for one with ``{"type": "hello"}`` (a second watcher on the
  page's socket, ``live.js``), at most once a second; anything else a screen sends is ignored;
- to a frame that is binary or not JSON, ``{"type": "error", "error": "..."}``; the socket stays
  open.

Refusals accept the socket and close it at once with a code the script understands (a close before
accepting reaches the browser only as a failed handshake): 4401 not logged in, 4403 the role may
not watch this (``casino.access``), or a dealer another table than theirs (the close reason
says why; the refusal is kept in the record of sign-ins and refusals, ``casino.refusals``), 4404
no such table or pit (or no socket at that path: ``no_such_socket``). A socket opened while
notices cannot be had (Redis away) is closed with 1013, "try again later": live.js reconnects,
and the hello it then gets brings the screen up to date from the database.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import Any, ClassVar, cast

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import DataError
from redis.exceptions import RedisError

from casino import access, refusals
from casino.roles import Actor
from tablegame.broadcast import meter_group, table_group
from tablegame.dealers import dealer_refusal
from tablegame.models import MustHitProgressive, Table
from tablegame.selectors import last_sequence_of_tables

log = logging.getLogger(__name__)

NOT_LOGGED_IN = 4401
FORBIDDEN = 4403
NOT_FOUND = 4404
TRY_AGAIN_LATER = 1013
#: The channel layer's failures when Redis is away (``TimeoutError`` is an ``OSError``).
NOTICES_AWAY = (RedisError, OSError)
NOTICES_AWAY_REASON = "Live notices are unavailable for a moment: reconnecting."

#: Seconds between two hellos of one socket (the heartbeat), on average.
HELLO_EVERY = 30.0
#: Each wait is drawn between (1 - HELLO_JITTER) and (1 + HELLO_JITTER) times ``HELLO_EVERY``.
HELLO_JITTER = 0.2
#: Seconds a repeated hello waits for the notices of changes it reads that are still on their way
#: (committed a moment ago, not yet forwarded here), so as not to send a screen reloading for them.
HELLO_GRACE = 2.0
#: Seconds between two looks while it waits.
HELLO_GRACE_STEP = 0.05
#: A hello a screen asks for is answered at most this often, in seconds.
HELLO_ASKED_EVERY = 1.0
#: Seconds between two log lines about hellos that could not be read, at least (every socket
#: would say so every beat while the database is away).
HELLO_LOG_INTERVAL = 60.0
_hello_failed_logged_at = -HELLO_LOG_INTERVAL  # time.monotonic() of the last such line

#: Messages sent on as their text, unread: a dealer's refusal kept (``tablegame.refusals``), a
#: pit console's panel changed (``tablegame.panels``).
FORWARDED = frozenset({"table.refused", "pit.panel"})

#: WebSocket close reasons are at most 123 bytes of UTF-8.
CLOSE_REASON_BYTES = 123


def close_reason(reason: str) -> str:
    """The refusal as a close reason: whole if it fits, else its first clause."""
    if len(reason.encode()) > CLOSE_REASON_BYTES:
        reason = reason.split(": ", 1)[0].rstrip(".") + "."
    return reason.encode()[:CLOSE_REASON_BYTES].decode(errors="ignore")


async def no_such_socket(scope: Any, receive: Any, send: Any) -> None:
    """The socket of a path that matches no route (the last route of ``config.asgi``): accepted
    and closed with 4404, as live.js takes a refusal; logged as a warning, not a failure."""
    log.warning("no socket at %r", scope.get("path"))
    await _accept_and_close(receive, send, NOT_FOUND, "There is no socket at this address.")


async def _accept_and_close(receive: Any, send: Any, code: int, reason: str) -> None:
    """Answer the handshake and close at once (a close before accepting reaches the browser only
    as a failed handshake)."""
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code, "reason": close_reason(reason)})


@database_sync_to_async
def _decide(user: access.Person, what: str) -> access.Decision:
    return access.decide(user, what)


@database_sync_to_async
def _dealer_refusal(user: access.Person, table_id: int) -> str | None:
    return dealer_refusal(cast(Actor, user), table_id)


@database_sync_to_async
def _refused(user: access.Person, what: str, scope: Any) -> None:
    """Keep the refusal (4403) in the record of sign-ins and refusals (``casino.refusals``)."""
    path, address = str(scope.get("path", "")), refusals.scope_address(scope)
    refusals.refused(user, what, channel="socket", path=path, address=address)


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


def _log_hello_failed(path: str | None) -> None:
    """Say that a heartbeat's hello could not be read, at most once every HELLO_LOG_INTERVAL."""
    global _hello_failed_logged_at
    now = time.monotonic()
    if now - _hello_failed_logged_at >= HELLO_LOG_INTERVAL:
        _hello_failed_logged_at = now
        log.warning("could not read the hello of %s again; next beat", path, exc_info=True)


def _rows(hello: dict[str, Any]) -> list[dict[str, Any]]:
    """The table rows of a hello: its ``tables``, or the hello itself on a table socket."""
    rows: list[dict[str, Any]] = hello.get("tables", [hello])
    return rows


class Watch(AsyncJsonWebsocketConsumer):
    """Authenticate, ask the policy, join the groups, say hello, then forward notices, and say
    hello again every ``HELLO_EVERY`` seconds or so until the socket closes."""

    access: ClassVar[str]
    """What listening is, in ``casino.access.RULES`` (``"socket:table"``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._told: dict[int, int] = {}
        """Table -> the highest sequence sent on this socket (by a notice or a hello)."""
        self._sending = asyncio.Lock()
        """Held while a frame is sent: a hello says at least what went before it."""
        self._heartbeat: asyncio.Task[None] | None = None
        self._asked = -HELLO_ASKED_EVERY
        """When the screen last asked for a hello (``receive_json``)."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        except NOTICES_AWAY as error:  # the socket's own channel not subscribed: no handshake yet
            log.warning("socket %s closed, notices unavailable: %r", scope.get("path"), error)
            await _accept_and_close(receive, send, TRY_AGAIN_LATER, NOTICES_AWAY_REASON)
        finally:  # however the consumer ends, its heartbeat ends with it
            self._stop_heartbeat()

    async def connect(self) -> None:
        await self.accept()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=NOT_LOGGED_IN)
            return
        # Channels' lazy user object stands for the session's User.
        decision = await _decide(cast(access.Person, user), self.access)
        if not decision.allowed:
            await self.refuse(user, decision.reason)
            return
        # Join before reading the sequences: a change committed in between is then either in the
        # hello or arrives as a notice after it (messages wait until connect() has returned).
        try:
            for group in await self.groups_to_join():
                await self.channel_layer.group_add(group, self.channel_name)
                self.groups.append(group)  # left again on disconnect
            hello = await self.hello()
        except NOTICES_AWAY as error:
            log.warning("socket %s closed, notices unavailable: %r", self.scope.get("path"), error)
            await self.close(code=TRY_AGAIN_LATER, reason=NOTICES_AWAY_REASON)
            return
        except DataError:  # an id no table or pit can have (past PostgreSQL's bigint)
            hello = None
        if hello is None:
            await self.close(code=NOT_FOUND)
            return
        reason = await self.refusal(user)  # once the table is known to exist
        if reason is not None:
            await self.refuse(user, reason)  # the groups joined are left on disconnect
            return
        await self.say_hello(hello)
        self._heartbeat = asyncio.create_task(self._beat(), name=f"hello {self.channel_name}")

    async def disconnect(self, code: int) -> None:
        self._stop_heartbeat()

    async def refuse(self, user: Any, reason: str) -> None:
        """Close 4403 saying why, the refusal kept in the record."""
        await _refused(cast(access.Person, user), self.access, self.scope)
        await self.close(code=FORBIDDEN, reason=close_reason(reason))

    async def refusal(self, user: Any) -> str | None:
        """Why this person, whom the policy lets follow such sockets, may not follow this one
        (None: they may)."""
        return None

    async def groups_to_join(self) -> list[str]:
        raise NotImplementedError

    async def hello(self) -> dict[str, Any] | None:
        """What the hello says besides its type; None when the table or pit does not exist."""
        raise NotImplementedError

    async def hello_again(self) -> dict[str, Any] | None:
        """The heartbeat's hello: the same, in one query (the socket's own is known to exist)."""
        return await self.hello()

    async def say_hello(self, hello: dict[str, Any]) -> None:
        """Send the hello, each table's sequence at least the last one sent on this socket."""
        async with self._sending:
            for row in _rows(hello):
                table, sequence = row["table"], row["sequence"]
                row["sequence"] = max(sequence, self._told.get(table, sequence))
                self._told[table] = row["sequence"]
            await self.send_json({"type": "hello", **hello})

    async def _beat(self) -> None:
        """Say hello again and again, until cancelled (``_stop_heartbeat``)."""
        while True:
            spread = random.uniform(1 - HELLO_JITTER, 1 + HELLO_JITTER)
            await asyncio.sleep(HELLO_EVERY * spread)
            try:
                hello = await self.hello_again()
            except Exception:  # the database away: the next beat tries again
                _log_hello_failed(self.scope.get("path"))
                continue
            try:
                if hello is None:  # the table is gone
                    await self.close(code=NOT_FOUND)
                    return
                await self._wait_for_notices_on_their_way(hello)
                await self.say_hello(hello)
            except Exception:  # the socket closed meanwhile; its disconnect stops this task too
                log.debug("hello not sent on %s", self.scope.get("path"), exc_info=True)
                return

    async def _wait_for_notices_on_their_way(self, hello: dict[str, Any]) -> None:
        """Wait (up to ``HELLO_GRACE``) until every table's sequence read for the hello was sent
        on this socket by its notice: a change commits before its notice leaves, so a busy table
        is nearly always a little ahead of its notices."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + HELLO_GRACE
        while any(
            row["table"] in self._told and row["sequence"] > self._told[row["table"]]
            for row in _rows(hello)
        ):
            if loop.time() >= deadline:
                return
            await asyncio.sleep(HELLO_GRACE_STEP)

    def _stop_heartbeat(self) -> None:
        task, self._heartbeat = self._heartbeat, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

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
        """Screens listen; the one thing they may say is ``{"type": "hello"}``: a watcher that
        joined the page's socket after its hello asks for one (``live.js``), answered at most
        once every ``HELLO_ASKED_EVERY`` seconds. Anything else is ignored."""
        if not (isinstance(content, dict) and content.get("type") == "hello"):
            return
        now = time.monotonic()
        if now - self._asked < HELLO_ASKED_EVERY or self._heartbeat is None:
            return
        self._asked = now
        try:
            hello = await self.hello_again()
        except Exception:  # the database away: the heartbeat says it later
            _log_hello_failed(self.scope.get("path"))
            return
        if hello is not None:
            await self._wait_for_notices_on_their_way(hello)
            await self.say_hello(hello)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """A notice goes straight to ``table_changed``: Channels' own dispatch would first close
        stale database connections in a worker thread, for every notice of every socket, and a
        notice needs no database."""
        if message["type"] == "table.changed":
            await self.table_changed(message)
        elif message["type"] == "table.marked":
            await self.table_marked(message)
        elif message["type"] in FORWARDED:
            await self.send(text_data=message["text"])
        else:
            await super().dispatch(message)

    async def table_marked(self, event: dict[str, Any]) -> None:
        """A table's marks changed (``broadcast.announce_mark``): the screen reads them again."""
        await self.send(text_data=event["text"])

    async def table_changed(self, event: dict[str, Any]) -> None:
        """Forward the notice as written once for every screen (``broadcast.notice_frame``)."""
        async with self._sending:
            table, sequence = event["table"], event["sequence"]
            if sequence > self._told.get(table, -1):
                self._told[table] = sequence
            await self.send(text_data=event["text"])


class TableConsumer(Watch):
    """``ws/tables/<id>/``: one table's notices, for anyone who works or reads tables."""

    access = "socket:table"

    @property
    def table_id(self) -> int:
        return int(self.scope["url_route"]["kwargs"]["table_id"])

    async def refusal(self, user: Any) -> str | None:
        """A dealer follows only the table they may deal, as they read only its state over HTTP
        (``tablegame.dealers``): its notices carry the round in play, wagers and all."""
        return await _dealer_refusal(user, self.table_id)

    async def groups_to_join(self) -> list[str]:
        return [table_group(self.table_id), *[meter_group(m) for m in await _meters(self.table_id)]]

    async def hello(self) -> dict[str, Any] | None:
        sequence = await _table_sequence(self.table_id)
        return None if sequence is None else {"table": self.table_id, "sequence": sequence}

    async def table_changed(self, event: dict[str, Any]) -> None:
        await super().table_changed(event)
        if event["action"] == LINKED:  # linked to a must-hit meter, or unlinked: follow it
            await self._follow_meters()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """A meter's notice, like a table's, needs no database (``Watch.dispatch``)."""
        if message["type"] == "meter.changed":
            await self.meter_changed(message)
        else:
            await super().dispatch(message)

    async def meter_changed(self, event: dict[str, Any]) -> None:
        """A must-hit meter this table is linked to moved (``broadcast.announce_meter``)."""
        await self.send(text_data=event["text"])

    async def pit_forms(self, event: dict[str, Any]) -> None:
        """A Complimentary Vigorish Form of this table changed (``broadcast.announce_pit_forms``):
        a dealer's forms page reads its register again."""
        await self.send_json({"type": "forms", **{k: v for k, v in event.items() if k != "type"}})

    async def _follow_meters(self) -> None:
        wanted = {meter_group(m) for m in await _meters(self.table_id)}
        for group in [g for g in self.groups if g.startswith("musthit.") and g not in wanted]:
            await self.channel_layer.group_discard(group, self.channel_name)
            self.groups.remove(group)
        for group in sorted(wanted - set(self.groups)):
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups.append(group)


#: The event that links a table to a must-hit meter or unlinks it.
LINKED = "must_hit_linked"


@database_sync_to_async
def _meters(table_id: int) -> list[int]:
    """The must-hit meters a table is linked to (a table feeds one at most)."""
    return list(
        MustHitProgressive.objects.filter(links__table_id=table_id).values_list("pk", flat=True)
    )
