"""The progressive page (``/progressives/``): every meter of the person's pits, live, and the
floor's work on them (the Star option, must-hit meters and their links, paying wins in order).

Reads come from ``tablegame.progressives.screens`` (never a hit value); each command is a POST of
JSON to its own URL (``casino.page_commands``) that runs an action of
``tablegame.progressives.actions``, answered ``{"done": true}`` or ``{"error": ...}`` (403 by the
policy, 409 by the rules). A table's own strip of meters (display and tablet) is the table's:
``tablegame.progressives.views``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import URLPattern, path
from django.views.decorators.cache import never_cache

from baccarat.royal9 import STAR_OPTIONS
from casino import access
from casino.models import Pit
from casino.page_commands import page_command
from casino.roles import Actor
from casino.supervision import pits_shown
from tablegame.actions.common import NotAllowed
from tablegame.errors import ActionError
from tablegame.models import Table
from tablegame.progressives import actions as do
from tablegame.progressives.models import MustHitProgressive, ProgressiveMeter
from tablegame.progressives.screens import (
    must_hit_view,
    pending_wins,
    royal9_chairs_and_prizes,
    royal9_view,
)
from tablegame.selectors import last_sequence_of_tables


def pits_progressives(pits: list[Pit]) -> list[dict[str, Any]]:
    """Each pit's must-hit meters (with their tables), Royal 9 tables and wins to pay, as plain
    data, with the last event sequence of each table shown (for the page's notices)."""
    return [_pit_progressives(pit) for pit in pits]


def _pit_progressives(pit: Pit) -> dict[str, Any]:
    must_hit = [
        {
            "id": m.pk,
            "configuration": m.configuration,
            **must_hit_view(m).as_data(),
            "tables": [t.name for t in m.tables.all()],
        }
        for m in MustHitProgressive.objects.filter(pit=pit).prefetch_related(
            Prefetch("tables", Table.objects.order_by("name"))
        )
    ]
    tables: dict[int, dict[str, Any]] = {}
    royal9 = ProgressiveMeter.objects.filter(table__pit=pit).select_related("table")
    for meter in royal9.order_by("table__name", "pk"):  # Star, Spade, Heart
        entry = tables.setdefault(
            meter.table_id,
            {"id": meter.table_id, "name": meter.table.name, "table": meter.table, "meters": []},
        )
        entry["meters"].append(
            {**royal9_view(meter).as_data(), "key": meter.name, "reseed": meter.reseed}
        )
    linked = dict(
        Table.objects.filter(pit=pit, must_hit_link__isnull=False).values_list(
            "pk", "must_hit_link__meter__name"
        )
    )
    sequences = dict(
        Table.objects.filter(pk__in=tables)
        .annotate(last=last_sequence_of_tables())
        .values_list("pk", "last")
    )
    for entry in tables.values():
        table = entry.pop("table")
        entry["must_hit"] = linked.get(entry["id"], "")
        entry["sequence"] = sequences[entry["id"]]
        entry["star_option"] = next(
            (n for n, o in STAR_OPTIONS.items() if entry["meters"][0]["reseed"] == o.reseed),
            None,
        )
        entry["personal"], entry["prizes"] = royal9_chairs_and_prizes(table)
    return {
        "id": pit.pk,
        "name": pit.name,
        "must_hit": must_hit,
        "tables": sorted(tables.values(), key=lambda t: t["name"]),
        "sequences_json": json.dumps({t["id"]: t["sequence"] for t in tables.values()}),
        "pending": pending_wins(MustHitProgressive.objects.filter(pit=pit)),
        "free_tables": [t["name"] for t in tables.values() if not t["must_hit"]],
    }


@access.page("page:progressives")
def progressives_page(request: HttpRequest) -> HttpResponse:
    """The meters of the person's pits (``?pits=`` as the console); supervisors also set them
    up and pay wins. ``progressives.js`` keeps the amounts from the tables' notices."""
    person = request.user
    assert isinstance(person, User)  # signed in (``access.page``)
    asked = request.GET.get("pits")
    if not asked and not access.decide(person, "page:floor").allowed:
        asked = "all"  # staff who supervise no pit (surveillance, accounting) see every pit
    shown = pits_shown(person, asked)
    return render(
        request,
        "pit/progressives.html",
        {"pits": pits_progressives(shown.pits), "shown": shown},
    )


@never_cache
@access.page("page:progressives")
def pit_progressives_part(request: HttpRequest, pit_id: int) -> HttpResponse:
    """One pit's section of the page: read when a notice cannot say what changed there."""
    pit = get_object_or_404(Pit, pk=pit_id)
    return render(request, "pit/_progressives_body.html", {"pits": pits_progressives([pit])})


@never_cache
@access.page("page:progressives-state", json=True)
def progressives_state(request: HttpRequest) -> JsonResponse:
    """What the page shows of every pit, as JSON."""
    return JsonResponse({"pits": pits_progressives(list(Pit.objects.order_by("pk")))})


# --- Commands ------------------------------------------------------------------------------------


Handler = Callable[[dict[str, Any], Actor], object]


def _int(body: dict[str, Any], key: str, what: str) -> int:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ActionError(f"Say which {what}.")
    try:
        return int(value)
    except ValueError:
        raise ActionError(f"Say which {what}.") from None


def _table(body: dict[str, Any]) -> Table:
    table = Table.objects.filter(pk=_int(body, "table", "table")).first()
    if table is None:
        raise ActionError("There is no such table.")
    return table


def _command(what: str, handler: Handler) -> Callable[..., HttpResponse]:
    def run(body: dict[str, Any], actor: Actor) -> None:
        handler(body, actor)  # what the action returns is not the page's

    run.__name__ = what.removeprefix("command:")
    return page_command(what, forbidden=(NotAllowed,))(run)


def _star(body: dict[str, Any], actor: Actor) -> object:
    return do.set_star_option(_table(body), option=_int(body, "option", "Star option"), actor=actor)


def _configure(body: dict[str, Any], actor: Actor) -> object:
    ids = body.get("tables")
    if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
        raise ActionError("Choose the table or tables that feed the meter.")
    tables = list(Table.objects.filter(pk__in=ids))
    if not tables:
        raise ActionError("Choose the table or tables that feed the meter.")
    pit = Pit.objects.get(pk=tables[0].pit_id)
    return do.configure_must_hit(
        pit,
        name=str(body.get("name", "")),
        configuration=_int(body, "configuration", "configuration (1, 2 or 3)"),
        tables=tables,
        actor=actor,
    )


def _configuration(body: dict[str, Any], actor: Actor) -> object:
    return do.set_must_hit_configuration(
        _int(body, "meter", "meter"),
        configuration=_int(body, "configuration", "configuration (1, 2 or 3)"),
        actor=actor,
    )


def _link(body: dict[str, Any], actor: Actor) -> object:
    do.link_must_hit(_int(body, "meter", "meter"), table=_table(body), actor=actor)
    return None


def _unlink(body: dict[str, Any], actor: Actor) -> object:
    do.unlink_must_hit(_table(body), actor=actor)
    return None


def _pay(body: dict[str, Any], actor: Actor) -> object:
    return do.pay_must_hit_win(_int(body, "win", "win"), actor=actor)


urlpatterns: list[URLPattern] = [
    path("", progressives_page, name="progressives"),
    path("pits/<int:pit_id>/", pit_progressives_part, name="progressives-pit"),
    path("state.json", progressives_state, name="progressives-state"),
    *(
        path(f"{route}/", _command(f"command:{name}", handler), name=name)
        for route, name, handler in (
            ("star-option", "set_star_option", _star),
            ("must-hit", "configure_must_hit", _configure),
            ("must-hit/configuration", "set_must_hit_configuration", _configuration),
            ("must-hit/link", "link_must_hit", _link),
            ("must-hit/unlink", "unlink_must_hit", _unlink),
            ("must-hit/pay", "pay_must_hit_win", _pay),
        )
    ),
]
