"""The unit of work: how every action writes, and keeps the state in play it changed.

A dealer's tap is the table's lock, the read of its state in play (``tablegame.live``), and the
write (each command's statements are counted in ``tests/api/test_query_budgets.py``). That write
is this unit's: inside a command of the API
(``tablegame.actions.common.command``) the actions' writes wait in the command's unit, and
:meth:`Work.flush` runs them with the command's record in one statement. How writes wait and are
flushed, and how the caches are kept, is ``fastpath.writes`` (``fastpath.rows``, the SQL
underneath); this module adds what is the tables' own (the round, shoe and cards in play the
command changed) and which unit is in force: the actions' seam. Outside a command (tests, the
console, management commands) :func:`work` is a unit that writes at once, so an action run there
behaves as it always did.

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

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from fastpath.writes import Writes


class Work(Writes):
    """The writes of one command and the state in play they leave (one per command; ``work``):
    the writes and their caches as ``fastpath.writes`` holds them, and the round, shoe and
    cards in play the command changed, for its answer."""

    def __init__(self, *, waits: bool) -> None:
        """``waits``: inside a command, writes wait for ``flush``; otherwise written at once."""
        super().__init__(waits=waits)
        self.game: Any = None
        """The round in play the command changed and saved, when it stays the one in play."""
        self.shoe: Any = None
        """Likewise the shoe in play."""
        self.cards: list[Any] | None = None
        """The round's cards, in dealing order, when the command has them all."""

    def changed(
        self, *, game: Any = None, shoe: Any = None, cards: list[Any] | None = None
    ) -> None:
        """The round and shoe in play the action changed and saved (and the round's cards), so
        that the answer does not read them again."""
        self.game, self.shoe, self.cards = game, shoe, cards


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
