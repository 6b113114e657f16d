"""A dealer's command refused for a reason surveillance must see (``ActionError.kind``,
``tablegame.errors``) is kept (``TableRefusal``) and told to surveillance and the table's pit
(issue 30: "the significant events reach surveillance as they happen, not as refusals that
vanish"). The command's transaction was rolled back; the refusal is written after it, in one
insert of its own, and announced once that commits (``broadcast.announce_refusal``).

Bounded as the access policy's refusals are, by the same counts (``casino.refusals``): a person
refused the same kind at the same table more than ``KEPT_PER_MINUTE`` times in one minute has
the first kept one by one, the rest counted on the last one kept (``TableRefusal.more``: one
UPDATE, nothing inserted). An accepted command costs nothing; a refusal of another kind,
nothing. Never raises: the dealer is
answered whether or not the refusal could be kept (a failure is logged).

A card code that is no card at all is refused by the API's input (400) before any transaction,
lock or read: ``mistyped`` keeps it, reading the table, its round and shoe (and, for a dealer,
whether they may act there: one not assigned to the table is not its dealer) for it alone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from casino.refusals import counted_on_last, keep_last, minute_count
from casino.roles import Actor
from tablegame.broadcast import announce_refusal
from tablegame.dealers import dealer_refusal
from tablegame.errors import ActionError, RefusalKind
from tablegame.models import Round, Shoe, Table, TableRefusal
from tablegame.play.rows import columns_of
from tablegame.play.state import InPlay as PlayState

log = logging.getLogger(__name__)

#: Inputs never kept (an approver's password goes nowhere: ``tablegame.api.approvals``).
SECRET = frozenset({"password"})


def kept_in(
    state: PlayState,
    error: ActionError,
    *,
    actor: Actor,
    command: str,
    given: Mapping[str, Any],
) -> TableRefusal | None:
    """``kept``, for a command refused in ``state`` (the table's state in play it read)."""
    if error.kind is None:
        return None
    table_id = state.table.id or 0

    def where() -> InPlay:
        table = Table(**columns_of(state.table))
        table._state.adding = False
        game = state.in_play
        round_row = Round(id=game.id, number=game.number) if game is not None else None
        shoe = Shoe(id=state.shoe.id, number=state.shoe.number) if state.shoe else None
        return table, round_row, shoe

    try:
        return _keep(table_id, error.kind, str(error), actor, command, given, where)
    except Exception:
        log.warning("refusal of %s at table %s not kept", command, table_id, exc_info=True)
        return None


def mistyped(
    table_id: int, words: str, *, actor: Actor, command: str, given: Mapping[str, Any]
) -> TableRefusal | None:
    """Keep a card code that is no card (``given``: the field and the text as typed; ``words``:
    what the dealer was told), refused by ``command``'s input at the table ``table_id``; the row
    kept, or None (no such table, or a dealer who may not act there)."""
    try:
        return _keep(
            table_id,
            RefusalKind.MISTYPED_CARD,
            words,
            actor,
            command,
            given,
            lambda: _read_in_play(table_id, actor),
        )
    except Exception:
        log.warning("mistyped card of %s at table %s not kept", command, table_id, exc_info=True)
        return None


#: Where a refusal happened: the table, and the round and shoe in play if known.
InPlay = tuple[Table, Round | None, Shoe | None]


def _read_in_play(table_id: int, actor: Actor) -> InPlay | None:
    """The table, its round in play (with its shoe) or else its current shoe, read for a refusal
    no command read them for; None for no such table or a dealer who may not act there."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or dealer_refusal(actor, table.pk) is not None:
        return None
    game = table.active_round()
    return table, game, game.shoe if game is not None else table.current_shoe()


def _keep(
    table_id: int,
    kind: RefusalKind,
    words: str,
    actor: Actor,
    command: str,
    given: Mapping[str, Any],
    where: Callable[[], InPlay | None],
) -> TableRefusal | None:
    """Count the refusal in its minute; keep it (``where`` it happened, asked only then) while
    the minute's bound allows, else count it on the last one kept."""
    now = timezone.now()
    key = f"table-refusals:{actor.pk}:{table_id}:{kind}:{now:%Y%m%d%H%M}"
    count = minute_count(key)
    if counted_on_last(TableRefusal.objects.all(), key, count):
        return None
    found = where()
    if found is None:
        return None
    table, game, shoe = found
    row = TableRefusal(
        at=now,
        table=table,
        round=game,
        round_number=game.number if game is not None else None,
        shoe_number=shoe.number if shoe is not None else None,
        user=actor,
        username=actor.get_username(),
        command=command[:40],
        kind=kind.value,
        words=words[:300],
        given={
            name: _plain(value)
            for name, value in given.items()
            if name not in SECRET and value is not None
        },
    )
    with transaction.atomic():
        row.save(force_insert=True)
        frame = refusal_frame(row, table_name=table.name)
        pit_id = table.pit_id
        transaction.on_commit(lambda: announce_refusal(row.table_id, frame, pit_id=pit_id))
    keep_last(key, count, row.pk)
    return row


def refusal_frame(row: TableRefusal, *, table_name: str) -> dict[str, Any]:
    """What the pit's and surveillance's screens hear of a refusal kept (``static/js``)."""
    return {
        "type": "refused",
        "table": row.table_id,
        "table_name": table_name,
        "id": row.pk,
        "at": row.at.isoformat(),
        "kind": row.kind,
        "label": RefusalKind(row.kind).label,
        "words": row.words,
        "who": row.username,
        "round": row.round_number,
        "shoe": row.shoe_number,
        "round_id": row.round_id,
        "given": row.given,
    }


def _plain(value: Any) -> Any:
    """An input as plain JSON: money and anything else not a number, text or flag as text."""
    return value if isinstance(value, bool | int | str) or value is None else str(value)
