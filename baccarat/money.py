"""Money: Decimal amounts to the cent, commission rounding up (000 §12(c), 002 (c)(3)(i))."""

from decimal import ROUND_CEILING, ROUND_DOWN, Decimal, InvalidOperation
from fractions import Fraction

from baccarat.errors import RulesError

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
MOST = Decimal("9999999999.99")
"""The most an amount of money may be: ten digits of dollars, more than any table's limit."""


def parse_amount(text: object) -> Decimal:
    """A positive amount of money with at most two decimals, from a string or number."""
    try:
        amount = Decimal(str(text))
    except (InvalidOperation, ValueError):
        raise RulesError(f"'{text}' is not an amount of money.") from None
    if not amount.is_finite():
        raise RulesError(f"'{text}' is not an amount of money.")
    if amount <= 0:
        raise RulesError(f"A wager must be more than zero, not {text}.")
    if amount > MOST:
        raise RulesError(f"An amount of money is at most {MOST}, not {text}.")
    if amount != amount.quantize(CENT):
        raise RulesError(f"{text} is not an amount in dollars and cents.")
    return amount.quantize(CENT)


def times(amount: Decimal, ratio: Fraction) -> Decimal:
    """``amount x ratio`` to the cent, rounded down: the house never pays a fraction of a cent."""
    exact = amount * ratio.numerator / ratio.denominator
    return exact.quantize(CENT, rounding=ROUND_DOWN)


def vigorish(amount: Decimal, ratio: Fraction, increment: Decimal | None) -> Decimal:
    """Commission ``amount x ratio`` rounded up to the increment (25¢, 5¢), or to the cent."""
    if ratio == 0:
        return ZERO
    exact = amount * ratio.numerator / ratio.denominator
    step = increment or CENT
    return ((exact / step).to_integral_value(rounding=ROUND_CEILING) * step).quantize(CENT)
