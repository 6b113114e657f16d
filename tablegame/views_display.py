"""The table display: the scoreboard roads of the table's shoe, for a TV at the table.

The page embeds the roads as JSON and ``static/js/display.js`` draws them; the same document is
served at ``roads.json`` for the script to fetch again whenever the table changes.
"""

from __future__ import annotations

from typing import Any

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

from baccarat.outcome import Winner
from baccarat.roads import Result, roads
from casino import access
from tablegame.models import Round, Shoe, Table

LIVE_SCRIPT = "js/live.js"


def display_shoe(table: Table) -> Shoe | None:
    """The shoe the display shows: the one in play, else the table's most recent."""
    return table.current_shoe() or table.shoes.order_by("-number").first()


def shoe_results(shoe: Shoe | None) -> list[Result]:
    """The shoe's results in order: decided rounds only, never simulated or void ones."""
    if shoe is None:
        return []
    rounds = (
        shoe.rounds.filter(simulated=False)
        .exclude(state=Round.State.VOID)
        .exclude(winner="")
        .order_by("number")
        .values_list("winner", "tags", "player_total", "banker_total")
    )
    return [
        Result(
            winner=Winner(winner),
            player_pair="player_pair" in tags,
            banker_pair="banker_pair" in tags,
            natural="player_natural" in tags or "banker_natural" in tags,
            player_total=player_total,
            banker_total=banker_total,
        )
        for winner, tags, player_total, banker_total in rounds
    ]


def scoreboard(table: Table) -> dict[str, Any]:
    """Everything the display draws, as plain data."""
    shoe = display_shoe(table)
    return {
        "table": {"id": table.pk, "name": table.name},
        "game": table.rules.title,
        "shoe": shoe.number if shoe else None,
        "roads": roads(shoe_results(shoe)).as_data(),
    }


@access.page("page:display")
def table_display(request: HttpRequest, table_id: int) -> HttpResponse:
    """The scoreboard page; it follows the table through ``Live`` or by polling."""
    table = get_object_or_404(Table, pk=table_id)
    board = scoreboard(table)
    return render(
        request,
        "display.html",
        {
            "table": table,
            "board": board,
            "counts": board["roads"]["counts"],
            "live_script": LIVE_SCRIPT if finders.find(LIVE_SCRIPT) else None,
        },
    )


@never_cache
@access.page("page:display-roads", json=True)
def table_display_roads(request: HttpRequest, table_id: int) -> JsonResponse:
    """The scoreboard as JSON: ``baccarat.roads`` for the shoe, with the table and game."""
    return JsonResponse(scoreboard(get_object_or_404(Table, pk=table_id)))
