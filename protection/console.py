"""The pit console's ratings panel: the players seated now at a pit's tables, rated live.

The console is the pit's (``pit/``), which may not import game protection; this app registers
the panel with the console's seam (``tablegame.panels``) when it is ready (``apps``): the view
that draws it for a pit (``views.pit_ratings``, ``protection/_seated.html``) and who may read it,
the rule of the ratings page (``page:protection:ratings``: the pit's supervisors, surveillance,
accounting; not the pit clerk, whose console shows no such panel).

It is read again when the follower (``follower.follow``) commits a batch that seated, changed or
ended a session, or rated a wager of one, at the pit's tables (:func:`ratings_changed`): one
notice per pit per batch. Not on the round-settled notice the console already hears: the
follower rates a round after the fact (a batch a second at most, ``worker``), so a panel read on
that notice would show the ratings as they were before it; and a player seated shows only once
the follower has read the seating.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from tablegame import panels
from tablegame.models import Table

#: The panel, as the console knows it.
PANEL = panels.Panel(
    name="ratings",
    title="Players' ratings",
    url_name="protection:pit-ratings",
    access="page:protection:ratings",
)


def register() -> None:
    """Add the panel to the pit console (``ProtectionConfig.ready``)."""
    panels.register(PANEL)


class Pacer:
    """How often a pit's consoles are told their ratings moved, at most (the worker's): a
    console reads its panel again on each notice, and a full pit settles a round every few
    seconds, but a rating a few seconds old serves the pit as well. A pit told less than
    ``every`` seconds ago is told again once that time is up (``due``), of every table that
    moved meanwhile; direct calls of the follower (tests, ``manage.py protect --once``) pass
    none and tell at once."""

    def __init__(self, every: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.every, self.clock = every, clock
        self.told: dict[int, float] = {}
        self.waiting: dict[int, set[int]] = {}

    def add(self, pits: Mapping[int, set[int]]) -> None:
        for pit, tables in pits.items():
            self.waiting.setdefault(pit, set()).update(tables)

    def due(self) -> dict[int, set[int]]:
        """The pits to tell now, taken from those waiting."""
        now = self.clock()
        ready = {
            pit: tables
            for pit, tables in self.waiting.items()
            if pit not in self.told or now - self.told[pit] >= self.every
        }
        for pit in ready:
            self.told[pit] = now
            del self.waiting[pit]
        return ready


def ratings_changed(
    changed: set[int], tables: Mapping[int, Table], pacer: Pacer | None = None
) -> None:
    """Tell the consoles of the pits of ``changed`` (tables, as ``tables`` has them) that their
    ratings moved, after commit (paced by ``pacer``, if any). Run in the follower's
    transaction."""
    pits: dict[int, set[int]] = {}
    for table_id in changed:
        table = tables.get(table_id)
        if table is not None:
            pits.setdefault(table.pit_id, set()).add(table_id)
    if pacer is not None:
        pacer.add(pits)
        pits = pacer.due()
    if pits:
        panels.changed(PANEL.name, pits)


def tell_waiting(pacer: Pacer) -> None:
    """Tell the pits whose time is up of the ratings that moved while they waited (the
    worker's loop, between batches: outside a transaction, at once)."""
    pits = pacer.due()
    if pits:
        panels.changed(PANEL.name, pits)
