"""A unit of work's writes: held until one statement runs them all, or run at once.

A command's writes that nothing reads back before it ends (new rows whose keys it does not need,
fields changed, figures added to tallies, rows deleted) wait in a :class:`Writes` and
:meth:`Writes.flush` runs them with the command's last row (its record) in one statement
(``rows.insert_then``); a :class:`Writes` that does not wait writes each one at once. It also
keeps the caches of the rows it changed (their related rows and prefetched lists, ``related``)
as the writes leave them, so that nothing reads them back. Which unit is in force, and when it
flushes, is decided above (the tables' unit of work, ``tablegame.work``); nothing here knows
which models it writes.

The rule that makes waiting safe, a write may wait only if nothing reads its table before the
flush, is the caller's: :meth:`Writes.tables` names the tables whose writes wait, and
``flushing`` says when the one statement that may name them runs (the tests check it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from django.db import connection, models
from django.db.models.sql import DeleteQuery

from fastpath import related, rows

M = TypeVar("M", bound=models.Model)

#: A write waiting: a row and the fields to update (written as they stand at the flush), or a
#: statement made already.
_Waiting = tuple[models.Model, tuple[str, ...]] | rows.Statement
_ADDED_AND_GONE = "rows of one table added and deleted in one unit: delete them now"


class Writes:
    """Writes held for one statement (``waits``), or run at once, and the caches they keep."""

    def __init__(self, *, waits: bool) -> None:
        self.waits = waits
        """Writes wait for ``flush``. Otherwise they are written at once."""
        self._new: list[models.Model] = []
        self._waiting: list[_Waiting] = []
        self._tables: set[str] = set()
        self._deleted: set[str] = set()
        self.flushing = False
        """While ``flush`` runs its statement (the one statement that may name the tables)."""

    # Writes.

    def add(self, row: M) -> M:
        """A new row whose key nobody reads back before the command ends: written with the
        command's last row (``flush``); when not waiting, now."""
        if not self.waits:
            return rows.insert(row)
        assert row._meta.db_table not in self._deleted, _ADDED_AND_GONE
        self._new.append(row)
        self._tables.add(row._meta.db_table)
        return row

    def add_all(self, found: Sequence[models.Model], *, now: bool = False) -> None:
        """``add`` of each row (outside a command, or ``now``: read back before the command
        ends, one statement now)."""
        if now or not self.waits:
            rows.insert_then(found)
            return
        for row in found:
            self.add(row)

    def add_now(self, row: M) -> M:
        """A new row whose key the command needs (one that other rows will refer to): now."""
        return rows.insert(row)

    def save(self, row: models.Model, fields: Sequence[str]) -> None:
        """A row's fields changed: inside a command on PostgreSQL, written with its record as
        they stand then (one UPDATE per row, the fields merged); otherwise now."""
        if not self._updates_wait():
            rows.update(row, fields)
            return
        self._tables.add(row._meta.db_table)
        for index, item in enumerate(self._waiting):
            if item[0] is row:
                self._waiting[index] = (row, tuple(dict.fromkeys([*item[1], *fields])))
                return
        self._waiting.append((row, tuple(fields)))

    def save_now(self, row: models.Model, fields: Sequence[str] | None = None) -> None:
        """A row's fields changed that the command reads back (or outside a command): now.
        ``fields`` None: every field of the row (read from the database before)."""
        assert not row._state.adding, "a new row is added (add, add_now), not saved"
        if fields is None:
            fields = [f.attname for f in rows.fields(type(row)) if not f.primary_key]
        rows.update(row, fields)

    def save_many(
        self, found: Sequence[models.Model], fields: Sequence[str], *, now: bool = False
    ) -> None:
        """Rows of one model, the same fields changed: one statement, with the record when
        inside a command on PostgreSQL (their values as they stand now), else (or ``now``)
        now."""
        if not found:
            return
        if now or not self._updates_wait():
            rows.update_many(found, fields)
            return
        self._tables.add(found[0]._meta.db_table)
        self._waiting.append(rows.update_many_statement(found, fields))

    def add_up(self, *additions: rows.Addition, sql: rows.SqlValues | None = None) -> None:
        """Figures added to rows by key (``rows.upsert_add``: running totals)."""
        additions = tuple(a for a in additions if a.rows)
        if not additions:
            return
        if not self._updates_wait():
            rows.upsert_add(*additions, sql=sql)
            return
        self._tables.update(a.model._meta.db_table for a in additions)
        self._waiting.extend(rows.upsert_add_statements(*additions, sql=sql))

    def delete(self, found: models.QuerySet[Any], *, now: bool = False) -> None:
        """The rows of ``found`` gone: when waiting on PostgreSQL, deleted with the last row
        (one statement's parts run in no set order, so a unit adds no row to a table it deletes
        from: the new row might meet the old one's key); otherwise, or ``now`` (the command reads
        the table again), now. ``found`` filters its own table alone, and no row refers to its
        model's (nothing cascades; Django's ``delete()`` would collect them). Their kept lists:
        ``drop_from``."""
        model = found.model
        assert not model._meta.related_objects, f"rows refer to {model.__name__}: not deleted so"
        if now or not self._updates_wait():
            found.delete()
            return
        query = found.query.chain(DeleteQuery)
        used = [alias for alias in query.alias_map if query.alias_refcount[alias]]
        assert len(used) == 1, "a delete filters its own table alone"
        sql, values = query.get_compiler(found.db).as_sql()
        table = model._meta.db_table
        assert not any(type(row)._meta.db_table == table for row in self._new), _ADDED_AND_GONE
        self._tables.add(table)
        self._deleted.add(table)
        self._waiting.append((sql, list(values)))

    def _updates_wait(self) -> bool:
        return self.waits and connection.vendor == "postgresql"

    def tables(self) -> frozenset[str]:
        """The tables the writes waiting change (nothing may read them before ``flush``)."""
        return frozenset(self._tables)

    def flush(self, then: M | None = None) -> M | None:
        """Write what waits, then ``then`` (the command's record, its key read back), in one
        statement: the updates, tallies and deletes in the order asked, then the new rows by
        model."""
        made: list[rows.Statement] = []
        for first, second in self._waiting:
            if isinstance(first, models.Model):
                made.append(rows.update_statement(first, second))
            else:
                made.append((first, list(second)))
        new, self._new, self._waiting = self._new, [], []
        self.flushing = True
        try:
            return rows.insert_then(new, then, before=made)
        finally:
            self.flushing = False
            self._tables.clear()
            self._deleted.clear()

    # The caches of the rows written.

    def add_to(
        self,
        parent: models.Model,
        name: str,
        row: models.Model,
        order: Callable[[Any], Any] | None = None,
    ) -> None:
        """A row made under ``parent``: into its kept list ``name`` (if kept), sorted by
        ``order`` (else at the end)."""
        kept = related.prefetched(parent, name)
        if kept is not None:
            kept.append(row)
            if order is not None:
                kept.sort(key=order)

    def drop_from(self, parent: models.Model, name: str, gone: Callable[[Any], bool]) -> None:
        """Rows deleted under ``parent``: out of its kept list ``name`` (if kept)."""
        kept = related.prefetched(parent, name)
        if kept is not None:
            kept[:] = [row for row in kept if not gone(row)]

    def keep(self, parent: models.Model, name: str, found: Iterable[Any]) -> None:
        """The whole list ``name`` of a row as it now stands, written or waiting: nothing
        reads it again."""
        related.prefetch(parent, name, list(found))

    def forget(self, parent: models.Model, *names: str) -> None:
        """Lists of a row changed in the database behind their cache (an ``update()``, a
        delete): read again when next asked for."""
        related.forget(parent, *names)

    def relate(self, row: models.Model, name: str, other: models.Model) -> None:
        """``row.<name>`` is ``other`` (a foreign key's row, known already): not read again."""
        related.relate(row, name, other)
