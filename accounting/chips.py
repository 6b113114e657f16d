"""Chips and currency counted by denomination: checked, stored as plain JSON, totalled exactly.

A count is ``{"25": 40, "100": 12}``: the denomination (as its canonical string) to how many
pieces. It is stored in a JSON column beside its total, so that the reports sum totals in the
database and the pages show the denominations as counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from tablegame.errors import ActionError

#: Chip denominations in the tray, smallest first.
CHIPS: tuple[Decimal, ...] = tuple(
    Decimal(d) for d in ("1", "2.50", "5", "25", "100", "500", "1000", "5000")
)
#: Banknotes found in a drop box.
CURRENCY: tuple[Decimal, ...] = tuple(Decimal(d) for d in ("1", "2", "5", "10", "20", "50", "100"))

#: No tray or box holds this many pieces of one denomination.
MOST_PIECES = 1_000_000


def label(denomination: Decimal) -> str:
    """``Decimal("2.5")`` is ``"2.50"``, ``Decimal("25")`` is ``"25"``: the key of a count."""
    return (
        f"{denomination:.2f}"
        if denomination != denomination.to_integral()
        else f"{denomination:.0f}"
    )


def parse_counts(
    raw: Mapping[str, Any], allowed: tuple[Decimal, ...], *, what: str
) -> dict[str, int]:
    """A count from a form or JSON: each key a denomination of ``allowed``, each value a whole
    number of pieces; zeros dropped. Refuses anything else with a sentence."""
    keys = {label(d): d for d in allowed}
    counts: dict[str, int] = {}
    for key, value in raw.items():
        try:
            denomination = Decimal(str(key).strip().lstrip("$"))
        except InvalidOperation:
            raise ActionError(f"{key!r} is not a denomination of {what}.") from None
        name = label(denomination) if denomination.is_finite() else str(key)
        if name not in keys:
            shown = ", ".join(f"${k}" for k in keys)
            raise ActionError(f"${key} is not a denomination of {what} ({shown}).")
        text = str(value).strip() if value is not None else ""
        if text == "":
            continue
        if not (text.isascii() and text.isdigit()) or len(text) > 7 or int(text) > MOST_PIECES:
            raise ActionError(
                f"The count of ${name} {what} must be a whole number of pieces, at most "
                f"{MOST_PIECES:,}."
            )
        if int(text):
            counts[name] = int(text)
    return dict(sorted(counts.items(), key=lambda item: Decimal(item[0])))


def total(counts: Mapping[str, int]) -> Decimal:
    """The value of a count, to the cent."""
    value = sum((Decimal(k) * n for k, n in counts.items()), Decimal("0"))
    return value.quantize(Decimal("0.01"))
