"""Raise, restate and clear marks; the screens of the table's pit and surveillance hear of it
after commit (``broadcast.announce_mark``) and read the table's marks again."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from tablegame.broadcast import announce_mark
from tablegame.marks.models import TableMark


@dataclass(frozen=True, slots=True)
class Raise:
    """A mark to raise (or restate, if one with its key is open) on a table."""

    key: str
    words: str
    shoe: int | None = None
    round: int | None = None
    link: str = ""


def settle_marks(
    table_id: int, pit_id: int | None, source: str, wanted: list[Raise], *, within: set[str]
) -> bool:
    """Make the table's open marks of ``source`` whose keys are in ``within`` exactly ``wanted``:
    raise the new ones, restate those whose words or round changed, clear the others. Returns
    whether anything changed (the screens are told after commit if so). Run in a transaction."""
    now = timezone.now()
    open_marks = {
        m.key: m
        for m in TableMark.objects.select_for_update().filter(
            table_id=table_id, source=source, key__in=within, cleared_at__isnull=True
        )
    }
    changed = False
    for mark in wanted:
        current = open_marks.pop(mark.key, None)
        if current is None:
            TableMark.objects.create(
                table_id=table_id,
                source=source,
                key=mark.key,
                shoe=mark.shoe,
                round=mark.round,
                words=mark.words[:300],
                link=mark.link[:200],
                raised_at=now,
                restated_at=now,
            )
            changed = True
        elif (current.words, current.round, current.shoe) != (
            mark.words[:300],
            mark.round,
            mark.shoe,
        ):
            current.words, current.round, current.shoe = mark.words[:300], mark.round, mark.shoe
            current.link, current.restated_at = mark.link[:200], now
            current.restated += 1
            current.save(
                update_fields=["words", "round", "shoe", "link", "restated_at", "restated"]
            )
            changed = True
    if open_marks:
        TableMark.objects.filter(pk__in=[m.pk for m in open_marks.values()]).update(cleared_at=now)
        changed = True
    if changed:
        transaction.on_commit(lambda: announce_mark(table_id, pit_id))
    return changed
