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

from collections.abc import Mapping

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


def ratings_changed(changed: set[int], tables: Mapping[int, Table]) -> None:
    """Tell the consoles of the pits of ``changed`` (tables, as ``tables`` has them) that their
    ratings moved, after commit. Run in the follower's transaction."""
    pits: dict[int, set[int]] = {}
    for table_id in changed:
        table = tables.get(table_id)
        if table is not None:
            pits.setdefault(table.pit_id, set()).add(table_id)
    if pits:
        panels.changed(PANEL.name, pits)
