"""What accounting reads from a request or a caller, checked where it enters: gaming days within
the range a casino can mean, ids that fit their column, text PostgreSQL can store.

A wrong value is refused with :class:`BadInput`, a sentence for the person at the screen; nothing
is replaced by a default (only a value not given at all may mean the default).
"""

from __future__ import annotations

import datetime

from django.db.models import Min

from casino.models import Casino, Event
from tablegame.errors import ActionError

#: How many years before the first gaming day on record (or today, if earlier) a day may be.
YEARS_BACK = 5
#: Days after today a count may be dated: a tray counted for the next day before it begins.
COUNT_AHEAD = 1
#: The largest id a column holds (PostgreSQL's bigint).
MOST_ID = 2**63 - 1


class BadInput(ActionError):
    """A value that cannot be what the form or page means; ``str(error)`` says why."""


def today(casino: Casino, now: datetime.datetime) -> datetime.date:
    return casino.gaming_day(now)


def earliest_day(casino: Casino, now: datetime.datetime) -> datetime.date:
    """:data:`YEARS_BACK` years before the first gaming day on record, or before today if the
    record starts later (its chains' first events, written by the server, never by a form)."""
    first = Event.objects.filter(chain__casino=casino, sequence=1).aggregate(at=Min("created_at"))
    start = today(casino, now)
    if first["at"] is not None:
        start = min(start, casino.gaming_day(first["at"]))
    return start - datetime.timedelta(days=365 * YEARS_BACK + YEARS_BACK // 4 + 1)


def check_day(
    casino: Casino, day: datetime.date, now: datetime.datetime, *, ahead: int = 0
) -> datetime.date:
    """``day``, if it is one a casino can mean: not more than ``ahead`` days after today (a
    report's figures do not exist before the day; a tray may be counted for the next day before
    it begins), not long before the casino's record."""
    last = today(casino, now) + datetime.timedelta(days=ahead)
    if day > last:
        raise BadInput(
            f"The gaming day {day.isoformat()} has not begun yet: choose "
            f"{'today' if not ahead else last.isoformat()} or a day before."
        )
    first = earliest_day(casino, now)
    if day < first:
        raise BadInput(
            f"The gaming day {day.isoformat()} is more than {YEARS_BACK} years before this "
            f"casino's record begins: choose {first.isoformat()} or later."
        )
    return day


def parse_day(raw: str, casino: Casino, now: datetime.datetime, *, ahead: int = 0) -> datetime.date:
    """A gaming day typed as YYYY-MM-DD, checked by :func:`check_day`."""
    text = raw.strip()
    try:
        day = datetime.date.fromisoformat(text) if len(text) == 10 and text.isascii() else None
    except ValueError:
        day = None
    if day is None:
        raise BadInput(f"{text[:20]!r} is not a date: give the gaming day as YYYY-MM-DD.")
    return check_day(casino, day, now, ahead=ahead)


def ident(raw: str) -> int | None:
    """The id ``raw`` names, or None if it is not one (not plain digits, or too large a number
    for any row to have)."""
    text = raw.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or int(text) > MOST_ID:
        return None
    return int(text)


def check_text(values: dict[str, list[str]]) -> None:
    """Refuses a form or query whose text holds a NUL character (PostgreSQL stores none)."""
    for name, items in values.items():
        if "\x00" in name or any("\x00" in item for item in items):
            shown = name.replace("\x00", "")[:40].replace("_", " ")
            raise BadInput(
                f"The field {shown!r} holds a NUL character, which cannot be stored: "
                "type it again without it."
            )
