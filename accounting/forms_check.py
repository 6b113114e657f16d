"""Complimentary Vigorish Form reconciliation for a gaming day (002 (c)(3)(ii)-(iv)).

Every form of the day is matched: its original, found in a drop box by the count team (the serial
numbers entered with the drop count), against its duplicate, forwarded by the pit clerk. Flagged:
an original missing from the drop, or found in another table's box; an original counted that no
form of the day accounts for (or a VOID form's); a duplicate not forwarded; a number counted
twice; and any number of a series used that day that has no form (a gap in the serials).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from accounting.models import DropCount
from casino.models import Casino
from tablegame.vigorish_forms.models import VigorishForm, VigorishFormSeries, form_number


@dataclass
class FormLine:
    number: str
    table: str
    amount: Decimal | None
    status: str
    original: str
    """Where the count found the original: the table's box, or "" when not found."""
    duplicate: bool
    """The pit clerk forwarded the duplicate."""
    flagged: bool = False


@dataclass
class Reconciliation:
    forms: list[FormLine] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    used: int = 0
    void: int = 0
    amount: Decimal = Decimal("0.00")


def reconcile(
    casino: Casino, day: datetime.date, start: datetime.datetime, end: datetime.datetime
) -> Reconciliation:
    """The day's forms against the drop's originals and the clerk's duplicates."""
    out = Reconciliation()
    forms = list(
        VigorishForm.objects.filter(pit__casino=casino, gaming_day=day)
        .select_related("table", "series")
        .order_by("number")
    )
    found: dict[int, list[str]] = {}
    for table_name, numbers in (
        DropCount.objects.current()
        .filter(table__pit__casino=casino, day=day)
        .values_list("table__name", "forms")
    ):
        for number in numbers:
            found.setdefault(int(number), []).append(table_name)
    for number, boxes in sorted(found.items()):
        if len(boxes) > 1:
            out.exceptions.append(
                f"Form {form_number(number)} counted {len(boxes)} times ({', '.join(boxes)})"
            )
    known = {f.number for f in forms}
    for f in forms:
        boxes = found.get(f.number, [])
        table = f.table.name if f.table else ""
        line = FormLine(
            number=f.printed_number,
            table=table,
            amount=f.amount,
            status=f.get_status_display(),
            original=", ".join(boxes),
            duplicate=f.forwarded_at is not None,
        )
        problems = []
        if f.is_void:
            out.void += 1
            if boxes:
                problems.append(f"Form {line.number} is VOID but an original was counted")
        else:
            out.used += 1
            out.amount += f.amount or Decimal("0.00")
            if not boxes:
                problems.append(
                    f"Form {line.number} ({table}, ${f.amount}): original missing from the drop"
                )
            elif table and table not in boxes:
                problems.append(
                    f"Form {line.number} of {table} found in the box of {line.original}"
                )
            if not line.duplicate:
                problems.append(f"Form {line.number}: duplicate not forwarded by the pit clerk")
        line.flagged = bool(problems)
        out.exceptions += problems
        out.forms.append(line)
    for number in sorted(set(found) - known):
        out.exceptions.append(
            f"Form {form_number(number)} was counted in the drop but no form of the day has it"
        )
    series_ids = {f.series_id for f in forms}
    for series in VigorishFormSeries.objects.filter(pk__in=series_ids).order_by("first_number"):
        used = set(series.forms.values_list("number", flat=True))
        issued = range(series.first_number, series.next_number)
        missing = [n for n in issued if n not in used]
        if missing:
            shown = ", ".join(form_number(n) for n in missing[:10])
            out.exceptions.append(f"Gap in the serial numbers of {series}: {shown}")
    return out
