"""The unit of work: how every action writes, and keeps the state in play it changed.

A dealer's tap is the table's lock, the read of its state in play (``tablegame.live``), and the
write (each command's statements are counted in ``tests/api/test_query_budgets.py``). That write
is this unit's: inside a command of the API (``tablegame.actions.common.command``) the actions'
writes wait in the command's unit, and :meth:`Work.flush` runs them with the command's record in
one statement (``casino.rows``, the SQL underneath). Outside a command (tests, the console,
management commands) :func:`work` is a unit that writes at once, so an action run there behaves
as it always did.

The actions reach their unit through :func:`work` alone:

- ``add(row)``: a new row whose key the command does not read back (waits);
  ``add_now(row)``: a new row whose key it needs (written now);
- ``save(row, fields)``: a row's fields changed (waits; fields merged per row, written as they
  stand at the flush), ``save_many(rows, fields)``: one statement for many rows;
  ``add_up(...)``: figures added to tallies (``rows.upsert_add``, waits);
- ``delete(found)``: the rows of a queryset gone (a wager withdrawn, seats taken away; waits);
- ``add_to``, ``drop_from``, ``keep``, ``forget``, ``relate``: the caches of the state in play
  (the round's wagers, cards and steps, a row's related rows) kept as the writes leave them, so
  that nothing reads them back;
- ``changed(game=, shoe=, cards=)``: the round, shoe and cards in play the command changed, for
  its answer.

The rule that makes waiting safe, a write may wait only if nothing reads its table before the
flush, is checked in the tests: a database wrapper (``tests/conftest.py``) fails any statement
that reads a table of :meth:`Work.tables` while the unit holds writes to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Any, TypeVar

from django.db import connection, models
from django.db.models.sql import DeleteQuery

from casino import rows

M = TypeVar("M", bound=models.Model)

#: A write waiting: a row and the fields to update (written as they stand at the flush), or a
#: statement made already.
_Waiting = tuple[models.Model, tuple[str, ...]] | rows.Statement
_ADDED_AND_GONE = "rows of one table added and deleted in one unit: delete them now"


class Work:
    """The writes of one command and the state in play they leave (one per command; ``work``)."""

    def __init__(self, *, waits: bool) -> None:
        self.waits = waits
        """Inside a command: writes wait for ``flush``. Otherwise they are written at once."""
        self._new: list[models.Model] = []
        self._waiting: list[_Waiting] = []
        self._tables: set[str] = set()
        self._deleted: set[str] = set()
        self.flushing = False
        """While ``flush`` runs its statement (the one statement that may name the tables)."""
        self.game: Any = None
        """The round in play the command changed and saved, when it stays the one in play."""
        self.shoe: Any = None
        """Likewise the shoe in play."""
        self.cards: list[Any] | None = None
        """The round's cards, in dealing order, when the command has them all."""

    # Writes.

    def add(self, row: M) -> M:
        """A new row whose key nobody reads back before the command ends (an event, a card, a
        settlement step): written with the command's record; outside a command, now."""
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
        """A new row whose key the command needs (a round that rows will refer to): now."""
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
        """Figures added to rows by key (``rows.upsert_add``: the day's tallies)."""
        additions = tuple(a for a in additions if a.rows)
        if not additions:
            return
        if not self._updates_wait():
            rows.upsert_add(*additions, sql=sql)
            return
        self._tables.update(a.model._meta.db_table for a in additions)
        self._waiting.extend(rows.upsert_add_statements(*additions, sql=sql))

    def delete(self, found: models.QuerySet[Any], *, now: bool = False) -> None:
        """The rows of ``found`` gone: inside a command on PostgreSQL, deleted with its record
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

    # The state in play.

    def changed(
        self, *, game: Any = None, shoe: Any = None, cards: list[Any] | None = None
    ) -> None:
        """The round and shoe in play the action changed and saved (and the round's cards), so
        that the answer does not read them again."""
        self.game, self.shoe, self.cards = game, shoe, cards

    def add_to(
        self,
        parent: models.Model,
        name: str,
        row: models.Model,
        order: Callable[[Any], Any] | None = None,
    ) -> None:
        """A row made under ``parent``: into its kept list ``name`` (if kept), sorted by
        ``order`` (else at the end)."""
        kept = prefetched(parent, name)
        if kept is not None:
            kept.append(row)
            if order is not None:
                kept.sort(key=order)

    def drop_from(self, parent: models.Model, name: str, gone: Callable[[Any], bool]) -> None:
        """Rows deleted under ``parent``: out of its kept list ``name`` (if kept)."""
        kept = prefetched(parent, name)
        if kept is not None:
            kept[:] = [row for row in kept if not gone(row)]

    def keep(self, parent: models.Model, name: str, found: Iterable[Any]) -> None:
        """The whole list ``name`` of a row (a round's steps, a table's meters) as it now
        stands, written or waiting: nothing reads it again."""
        prefetch(parent, name, list(found))

    def forget(self, parent: models.Model, *names: str) -> None:
        """Lists of a row changed in the database behind their cache (an ``update()``, a
        delete): read again when next asked for."""
        kept: dict[str, Any] = getattr(parent, "_prefetched_objects_cache", {})
        for name in names:
            kept.pop(name, None)

    def relate(self, row: models.Model, name: str, other: models.Model) -> None:
        """``row.<name>`` is ``other`` (a foreign key's row, known already): not read again."""
        relate(row, name, other)


_current: ContextVar[Work | None] = ContextVar("tablegame_work", default=None)


def work() -> Work:
    """The unit of the command in progress; outside a command, a unit that writes at once."""
    current = _current.get()
    return current if current is not None else Work(waits=False)


def current() -> Work | None:
    """The unit of the command in progress, if any (the tests' database wrapper asks)."""
    return _current.get()


@contextmanager
def unit() -> Iterator[Work]:
    """A command's unit of work: its writes wait for ``flush`` (the caller's), and whatever
    is left is flushed as the block ends without an error."""
    made = Work(waits=True)
    token = _current.set(made)
    try:
        yield made
        made.flush()
    finally:
        _current.reset(token)


def relate(row: models.Model, name: str, other: models.Model) -> None:
    """``row.<name>`` is ``other``, as the ORM keeps a foreign key's row once read."""
    row._state.fields_cache[name] = other


def prefetched(parent: models.Model, name: str) -> list[Any] | None:
    """The row's kept (prefetched) list ``name``, None when not kept."""
    queryset = getattr(parent, "_prefetched_objects_cache", {}).get(name)
    return None if queryset is None else queryset._result_cache


def prefetch(parent: models.Model, name: str, found: list[Any]) -> None:
    """Set ``found`` as the row's prefetched relation ``name`` (as ``prefetch_related`` does):
    the queryset the related manager would make, without making the manager. Its filter on the
    row is Django's deferred one, as the manager leaves it: applied only if a call chains on
    it (``game.wagers.filter(...)``), which then reads the database for this row alone."""
    model, field = _relation(type(parent), name)
    queryset: Any = model._default_manager.get_queryset()  # its private parts are set here
    queryset._hints = {"instance": parent}
    queryset._deferred_filter = (False, (), {field.name: parent})
    queryset._known_related_objects = {field: {parent.pk: parent}}
    queryset._result_cache = found
    queryset._prefetch_done = True
    kept: dict[str, Any] = parent.__dict__.setdefault("_prefetched_objects_cache", {})
    kept[name] = queryset


@cache
def _relation(parent: type[models.Model], name: str) -> tuple[type[models.Model], Any]:
    """The model of the row's relation ``name`` and its foreign key to the row."""
    relation = parent._meta.get_field(name)
    assert isinstance(relation, models.ManyToOneRel)
    model = relation.related_model
    assert isinstance(model, type)
    return model, relation.field
