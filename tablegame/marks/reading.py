"""The open marks of tables, for the wall's tiles and the pit's console (one query)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from tablegame.marks.models import TableMark


def open_marks(table_ids: Iterable[int] | None) -> dict[int, list[TableMark]]:
    """Each table's open marks (every table's: None), newest first; a table with none is
    absent."""
    out: dict[int, list[TableMark]] = defaultdict(list)
    found = TableMark.objects.filter(cleared_at__isnull=True)
    if table_ids is not None:
        found = found.filter(table_id__in=list(table_ids))
    for mark in found.order_by("-raised_at", "-pk"):
        out[mark.table_id].append(mark)
    return dict(out)
