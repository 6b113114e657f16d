"""The floor assigns dealers to tables and relieves them (``tablegame.play.staff``), run the one
way (``tablegame.commands``)."""

from __future__ import annotations

from typing import Any

from tablegame.actions.run import command
from tablegame.commands import Done
from tablegame.models import DealerAssignment


def _assigned(done: Done, _: dict[str, Any]) -> DealerAssignment:
    assert done.state is not None
    return DealerAssignment.objects.filter(table_id=done.state.table.key).latest("pk")


def _relieved(done: Done, _: dict[str, Any]) -> DealerAssignment:
    assert done.state is not None
    return (
        DealerAssignment.objects.filter(table_id=done.state.table.key, relieved_at__isnull=False)
        .select_related("dealer")
        .latest("relieved_at", "pk")
    )


assign_dealer = command("assign_dealer", _assigned)
relieve_dealer = command("relieve_dealer", _relieved)
