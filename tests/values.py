"""Small helpers for what a test knows better than the types."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def present(value: T | None) -> T:
    """``value``, which the test expects to be there (an assertion fails otherwise)."""
    assert value is not None
    return value
