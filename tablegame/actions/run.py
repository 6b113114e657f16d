"""A table's commands as the pit's pages, management commands, the console and the tests call
them: each runs the one way (``tablegame.commands.run``: the lock, the state in play, the
command's function, the one writer, the notice after commit) and gives back the row it changed
as the database now holds it (a model instance, read after the command: not on the tablet's
path, which answers from the state in play).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from casino.roles import Actor
from tablegame import commands
from tablegame.commands import Done
from tablegame.models import Round, Shoe, Table

M = TypeVar("M")


def run(table: Table | int, actor: Actor | None, name: str, **inputs: Any) -> Done:
    """Run the command ``name`` at ``table`` by ``actor`` (None: the rules, no person)."""
    table_id = table.pk if isinstance(table, Table) else table
    return commands.run(table_id, actor, name, inputs)


def command(name: str, returns: Callable[[Done, dict[str, Any]], M]) -> Callable[..., M]:
    """The command ``name`` as a function of the table, the actor and its inputs, giving back
    ``returns(done, inputs)``."""

    def call(table: Table | int, *, actor: Actor, **inputs: Any) -> M:
        return returns(run(table, actor, name, **inputs), inputs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = commands.COMMANDS[name].__doc__
    return call


def the_round(done: Done, _: dict[str, Any]) -> Round:
    """The round the command acted on: the one in play before it (a simulated round settled,
    not the one it interrupted), else the one it opened."""
    before, after = done.before, done.state
    game = before.in_play if before is not None else None
    if game is None and after is not None:
        game = after.round
    assert game is not None, "the command acted on a round"
    return Round.objects.select_related("rules", "shoe").get(pk=game.id or 0)


def the_shoe(done: Done, _: dict[str, Any]) -> Shoe:
    """The shoe the command acted on (the one in play before it: an ended shoe too)."""
    shoe = done.before.shoe if done.before is not None else None
    assert shoe is not None, "the command acted on a shoe"
    return Shoe.objects.get(pk=shoe.id or 0)


def the_new_shoe(done: Done, _: dict[str, Any]) -> Shoe:
    """The shoe the command brought in."""
    assert done.state is not None and done.state.shoe is not None
    return Shoe.objects.get(pk=done.state.shoe.id or 0)


def the_table(done: Done, _: dict[str, Any]) -> Table:
    assert done.state is not None
    return Table.objects.select_related("pit").get(pk=done.state.table.id or 0)


def nothing(done: Done, _: dict[str, Any]) -> None:
    return None
