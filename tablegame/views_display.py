"""The table display: the scoreboard roads of the table's shoe, for a TV at the table.

The page embeds the scoreboard as JSON (``scoreboard``): the shoe shown, its results (each with
its round number), the roads, and the table's sequence when it was read. ``static/js/display.js``
computes the roads from the results itself (``static/js/roads.js``, a port of
``baccarat.roads``) and keeps them current from the table's notices: the settled round's notice
(``round_settled``, with the round and shoe the API's notices carry) adds its result, a new
shoe's (``decks_received``) starts an empty board, and any other notice fetches nothing. It reads
the same document again at ``roads.json`` only when it cannot know what changed: a reconnect
after changes, a gap in the notices, the safety refresh, a notice without its change, or while
its socket is down (the poll).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

from baccarat.outcome import Winner
from baccarat.roads import Result, roads
from casino import access
from tablegame.dealers import dealer_refusal
from tablegame.models import Round, Shoe, Table
from tablegame.progressives.screens import has_progressives
from tablegame.selectors import last_sequence

LIVE_SCRIPT = "js/live.js"


def display_shoe(table: Table) -> Shoe | None:
    """The shoe the display shows: the one in play, else the table's most recent."""
    return table.current_shoe() or table.shoes.order_by("-number").first()


def shoe_rounds(shoe: Shoe | None) -> list[tuple[int, Result]]:
    """The shoe's results in order, each with its round's number: settled rounds only (decided,
    never void), never simulated ones. A round is on the board from its settlement, as the
    display adds it from the settlement's notice (a complete coup can still be corrected)."""
    if shoe is None:
        return []
    rounds = (
        shoe.rounds.filter(simulated=False, state=Round.State.SETTLED)
        .exclude(winner="")
        .order_by("number")
        .values_list("number", "winner", "tags", "player_total", "banker_total")
    )
    return [
        (
            number,
            Result(
                winner=Winner(winner),
                player_pair="player_pair" in tags,
                banker_pair="banker_pair" in tags,
                natural="player_natural" in tags or "banker_natural" in tags,
                player_total=player_total,
                banker_total=banker_total,
            ),
        )
        for number, winner, tags, player_total, banker_total in rounds
    ]


def shoe_results(shoe: Shoe | None) -> list[Result]:
    """The shoe's results in order (``shoe_rounds`` without the numbers)."""
    return [result for _, result in shoe_rounds(shoe)]


def result_data(number: int, result: Result) -> dict[str, Any]:
    """One result as display.js holds it: ``baccarat.roads.Result``'s fields and the round."""
    return {
        "round": number,
        "winner": result.winner.value,
        "player_pair": result.player_pair,
        "banker_pair": result.banker_pair,
        "natural": result.natural,
        "player_total": result.player_total,
        "banker_total": result.banker_total,
    }


def scoreboard(table: Table) -> dict[str, Any]:
    """Everything the display draws, as plain data, with the table's sequence when read."""
    # The sequence first: the shoe and rounds read after it hold every change up to it, so a
    # notice numbered after it is one the board may not show yet, and one up to it is shown.
    sequence = last_sequence(table)
    shoe = display_shoe(table)
    rounds = shoe_rounds(shoe)
    return {
        "table": {"id": table.pk, "name": table.name},
        "game": table.rules.title,
        "shoe": shoe.number if shoe else None,
        "sequence": sequence,
        "results": [result_data(number, result) for number, result in rounds],
        "roads": roads(result for _, result in rounds).as_data(),
    }


@access.page("page:display")
def table_display(request: HttpRequest, table_id: int) -> HttpResponse:
    """The scoreboard page; it follows the table through ``Live`` or by polling."""
    table = get_object_or_404(Table, pk=table_id)
    board = scoreboard(table)
    # The table's socket carries the round in play, wagers and all: a dealer follows only the
    # table they may deal (``tablegame.consumers``). Another table's display, opened under a
    # dealer's account, shows the scoreboard from its roads, read every few seconds.
    user = request.user
    assert isinstance(user, User)  # signed in (``access.page``)
    live_script = LIVE_SCRIPT if finders.find(LIVE_SCRIPT) else None
    if dealer_refusal(user, table) is not None:
        live_script = None
    return render(
        request,
        "display.html",
        {
            "table": table,
            "has_progressives": has_progressives(table),
            "board": board,
            "counts": board["roads"]["counts"],
            "live_script": live_script,
        },
    )


@never_cache
@access.page("page:display-roads", json=True)
def table_display_roads(request: HttpRequest, table_id: int) -> JsonResponse:
    """The scoreboard as JSON (``scoreboard``): what display.js reads when it cannot know."""
    return JsonResponse(scoreboard(get_object_or_404(Table, pk=table_id)))
