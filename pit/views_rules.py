"""Rules Submissions from the pit console: a table's options (every one the texts leave to the
licensee), filed to take effect at a stated time in the casino's time zone, and the pit's
settlement procedure, changed for all its tables at once (002 (j)(3))."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
from decimal import Decimal
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.csrf import ensure_csrf_cookie

from baccarat.profiles import (
    PROFILES,
    VIGORISH_ROUNDINGS,
    RulesSubmission,
    SettlementProcedure,
    TableType,
    deck_limits,
)
from baccarat.wagertypes import WagerType
from casino import access
from casino.bodies import json_text
from casino.models import Pit
from casino.page_commands import Body, page_command
from casino.roles import Actor
from pit.selectors import LATEST_SHOWN
from tablegame.actions import ActionError, NotAllowed, file_rules
from tablegame.actions.shoes import set_deck_schedule
from tablegame.actions.tables import file_pit_procedure, set_seat_count
from tablegame.models import Table
from tablegame.procedures import FURTHEST_AHEAD, PIT_SHUFFLES, PIT_WIDE

#: Options that are not the licensee's to choose here: what the preset is, and Royal 9's
#: progressive (configured with the progressives).
FIXED = frozenset({"name", "title", "source", "table_type", "royal9"})
#: The four settlement procedures of 002 (j)(2), for a pit of Mini-Baccarat tables.
PIT_PROCEDURES = [p for p in SettlementProcedure if p is not SettlementProcedure.CALIFORNIA_LINES]


def _kind(key: str, value: Any) -> str:
    if key == "collection_fees":
        return "fees"
    if key == "vigorish_rounding":
        return "rounding"
    if isinstance(value, enum.Enum):
        return "enum"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "count"
    if isinstance(value, Decimal):
        return "decimal"
    if isinstance(value, frozenset):
        return "wagers"
    return "range"


def _shown(kind: str, value: Any) -> str:
    """An option's value as the form shows it."""
    if value is None:
        return "none"
    if kind == "enum":
        return str(value.value)
    if kind == "bool":
        return "yes" if value else "no"
    if kind == "range":
        return f"{value[0]}-{value[1]}"
    if kind == "wagers":
        return ",".join(w.value for w in WagerType if w in value)
    if kind == "fees":
        return json.dumps({k: str(v) for k, v in dataclasses.asdict(value).items()})
    return str(value)


def _labels(rules: RulesSubmission) -> dict[str, tuple[str, str]]:
    """Options named and explained as the texts have them: label and hint."""
    limits = deck_limits(rules)
    big = rules.table_type is TableType.BIG
    shuffler = "batch shuffle machine, decks of both batches" if big else "automatic shuffler decks"
    fewest = limits.shuffler_fewest or 0
    most = limits.shuffler_most or 2 * fewest
    return {
        "decks": ("decks in a manual shoe", f"fewest-most: {limits.said}"),
        "shuffler_decks": (
            shuffler,
            "none: no machine"
            + (f"; e.g. {fewest}-{most}: two equal batches of different backs" if fewest else "")
            + (" (004 §4(e), per the Rules Submission)" if big else ""),
        ),
        "shuffler_batches": ("shuffler decks in two batches", ""),
    }


def option_rows(rules: RulesSubmission) -> list[dict[str, Any]]:
    """Every option of the Rules Submission with its value now, for the form."""
    labels = _labels(rules)
    rows = []
    for f in dataclasses.fields(RulesSubmission):
        if f.name in FIXED:
            continue
        value = getattr(rules, f.name)
        kind = _kind(f.name, value)
        choices: list[str] = []
        if kind == "enum":
            choices = [member.value for member in type(value)]
        elif kind == "bool":
            choices = ["yes", "no"]
        elif kind == "rounding":
            choices = [*(str(step) for step in VIGORISH_ROUNDINGS), "none"]
        rows.append(
            {
                "key": f.name,
                "label": labels.get(f.name, (f.name.replace("_", " "), ""))[0],
                "hint": labels.get(f.name, ("", ""))[1],
                "kind": kind,
                "value": _shown(kind, value),
                "choices": choices,
                "wagers": [w.value for w in WagerType] if kind == "wagers" else [],
            }
        )
    return rows


def _parsed(key: str, text: str, current: Any) -> Any:
    """The form's text for an option as the JSON value a Rules Submission takes."""
    kind = _kind(key, current)
    text = text.strip()
    try:
        if kind == "bool":
            return {"yes": True, "no": False}[text]
        if kind == "count":
            return int(text)
        if kind in ("decimal", "enum"):
            return text
        if kind == "rounding":
            return None if text == "none" else text
        if kind == "wagers":
            return [w for w in text.split(",") if w]
        if kind == "fees":
            return None if text == "none" else json_text(text)
        if text == "none":
            return None
        low, high = text.split("-")
        return [int(low), int(high)]
    except (KeyError, ValueError):
        raise ActionError(f"'{text}' is not a value for {key.replace('_', ' ')}.") from None


def _local_time(text: str, pit: Pit) -> datetime.datetime | None:
    """A time the supervisor typed, in the casino's time zone; blank is now."""
    text = text.strip()
    if not text:
        return None
    try:
        naive = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise BadInput("Give the time as YYYY-MM-DD HH:MM, in the casino's time.") from None
    when = naive if naive.tzinfo is not None else naive.replace(tzinfo=pit.casino.zone)
    if when > timezone.now() + FURTHEST_AHEAD:
        raise BadInput(
            f"{text} is too far ahead: rules are filed at most "
            f"{FURTHEST_AHEAD.days // 365} years ahead."
        )
    return when


class BadInput(ActionError):
    """What the form sent cannot be meant (answered 400, nothing filed)."""


@access.page("page:floor_table_rules")
@ensure_csrf_cookie
def table_rules(request: HttpRequest, table_id: int) -> HttpResponse:
    """A table's Rules Submission: every option now, what is filed for later, and the form."""
    table = Table.objects.select_related("pit__casino").filter(pk=table_id).first()
    if table is None:
        raise Http404("There is no such table.")
    record = table.rules_record()
    rules = table.rules
    pending = list(
        table.rules_history.filter(effective_at__gt=timezone.now())
        .select_related("filed_by", "notice__acknowledged_by")
        .order_by("effective_at")
    )
    for filing in pending:
        filing.effective_at = min(filing.effective_at, LATEST_SHOWN)
    return render(
        request,
        "pit/table_rules.html",
        {
            "table": table,
            "rules": rules,
            "profile": record.profile if record else table.profile,
            "profiles": [(name, p.title) for name, p in PROFILES.items()],
            "options": option_rows(rules),
            "pending": pending,
            "procedures": PIT_PROCEDURES,
            "pit_wide": PIT_WIDE.get(rules.source, ()),
            "shuffles": PIT_SHUFFLES.get(rules.source, ()),
            "zone": table.pit.casino.time_zone,
        },
    )


def _table(table_id: int) -> Table:
    """The table a form acts on, with its pit and casino, or a refusal."""
    table = Table.objects.select_related("pit__casino").filter(pk=table_id).first()
    if table is None:
        raise ActionError("There is no such table.")
    return table


@page_command("command:file_rules", forbidden=(NotAllowed,), bad_input=(BadInput,))
def file_table_rules(body: Body, actor: Actor, table_id: int) -> None:
    """File the options changed on the form, over the rules in force at the stated time."""
    table = _table(table_id)
    when = _local_time(str(body.get("effective_at") or ""), table.pit)
    now, then = table.rules_record(), table.rules_record(when)
    # The preset on the form, when changed from the one in force now; else the one in
    # force at the stated time (a preset filed for earlier stays).
    shown = now.profile if now else table.profile
    profile = str(body.get("profile") or shown)
    if profile == shown:
        profile = then.profile if then else table.profile
    if profile not in PROFILES:
        raise ActionError(f"Unknown rules profile '{profile}'.")
    changed = body.get("options") or {}
    if not isinstance(changed, dict):
        raise ActionError("The options are a list of option and value.")
    # Only what the form changed: the filing sets it over the rules in force at its time,
    # those filed for earlier included (``file_rules``).
    options = {}
    base = PROFILES[profile]
    for key, text in changed.items():
        if key in FIXED or not hasattr(base, key):
            raise ActionError(f"'{key}' is not an option here.")
        options[key] = _parsed(key, str(text), getattr(base, key))
    file_rules(table, profile=profile, options=options, effective_at=when, actor=actor)


@page_command("command:file_pit_procedure", forbidden=(NotAllowed,), bad_input=(BadInput,))
def pit_procedure(body: Body, actor: Actor) -> None:
    """Change the procedure every table of a pit dealt under one rules text keeps alike, at once:
    the settlement and shuffle procedures of Mini-Baccarat (002), the shuffle procedure of the
    big tables (004)."""
    try:
        number = int(body.get("pit", 0))
    except (TypeError, ValueError, ArithmeticError):  # not a number, or NaN and infinite ones
        number = 0
    pit = (
        Pit.objects.select_related("casino").filter(pk=number).first()
        if 0 < number < 2**31
        else None
    )
    if pit is None:
        raise ActionError("Choose a pit.")
    when = _local_time(str(body.get("effective_at") or ""), pit)
    if when is None:
        raise ActionError("Say when the new procedure takes effect (30 minutes on at least).")
    file_pit_procedure(
        pit,
        source=str(body.get("source") or "002"),
        settlement=str(body.get("settlement") or ""),
        shuffle=str(body.get("shuffle") or ""),
        effective_at=when,
        actor=actor,
    )


@page_command("command:set_seat_count", forbidden=(NotAllowed,), bad_input=(BadInput,))
def table_seats(body: Body, actor: Actor, table_id: int) -> None:
    """Set how many seats the table has, with the reason."""
    table = _table(table_id)
    seats = body.get("seats")
    if isinstance(seats, str) and seats.strip().isascii() and seats.strip().isdigit():
        seats = int(seats) if len(seats.strip()) < 10 else None  # no table has so many
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise ActionError("Give the number of seats.")
    set_seat_count(table, seats=seats, reason=str(body.get("reason") or ""), actor=actor)


@page_command("command:set_deck_schedule", forbidden=(NotAllowed,), bad_input=(BadInput,))
def table_decks(body: Body, actor: Actor, table_id: int) -> None:
    """Set when the table's decks must next be changed (the casino's time; blank: now), with
    the reason."""
    table = _table(table_id)
    set_deck_schedule(
        table,
        due_at=_local_time(str(body.get("due_at") or ""), table.pit),
        reason=str(body.get("reason") or ""),
        actor=actor,
    )
