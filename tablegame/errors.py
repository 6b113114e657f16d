"""Refusals at the table: what an action, or a model asked to change one row, says instead."""

from __future__ import annotations

from baccarat.errors import RulesError


class ActionError(RulesError):
    """An action refused; ``str(error)`` is the message for the screen. Nothing was changed."""
