"""What every command function is given besides the state in play: who gives it, and when."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from casino import access, roles
from casino.roles import Actor
from tablegame.errors import ActionError, NotAllowed
from tablegame.play.state import InPlay


@dataclass(frozen=True)
class Command:
    """The person giving the command and the moment it is done (every time it writes)."""

    actor: Actor | None
    """None: the rules, no person (a filing taking effect at its time)."""
    at: datetime.datetime

    @property
    def actor_id(self) -> int | None:
        return int(self.actor.pk) if self.actor is not None else None

    def may(self, what: str) -> bool:
        """Whether the policy lets the actor do ``what`` (``casino.access``)."""
        return self.actor is not None and access.decide(self.actor, what).allowed

    def require(self, what: str) -> None:
        """Refuse with the policy's reason unless the actor may do ``what``."""
        if self.actor is None:
            raise NotAllowed("Only a person gives this command.")
        decision = access.decide(self.actor, what)
        if not decision.allowed:
            raise NotAllowed(decision.reason)

    @property
    def is_dealer(self) -> bool:
        return self.actor is not None and access.floor_role(self.actor) == roles.DEALER


def dealer_dealing(state: InPlay, command: Command) -> str:
    """Who deals a round the command opens: the dealer giving it, else the table's assigned
    dealer (a supervisor opening it), else blank (``tablegame.dealers.dealer_dealing``)."""
    if command.is_dealer and command.actor is not None:
        return str(command.actor.username)
    return next((a.username for a in state.assignments if a.table_id == state.table.id), "")


def check_text(value: str, *, field: str, limit: int) -> str:
    """Trimmed text that fits its column, or a refusal that says how long it may be."""
    text = value.strip()
    if len(text) > limit:
        raise ActionError(f"The {field} may be at most {limit} characters.")
    return text


def supervisor_reason(command: Command, reason: str, doing: str) -> str:
    """The reason for an order, trimmed: a supervisor's order (from the pit console) always
    says why; the dealer's own call may not."""
    text = check_text(reason, field="reason", limit=200)
    if not text and not command.is_dealer:
        raise ActionError(f"Say why {doing}: the reason is recorded.")
    return text


def check_approver(approver: Any, command: Command, authority: str, what: str) -> None:
    """A floorperson's approval given at the tablet (its password checked where it came in:
    ``tablegame.api.approvals``): someone with ``authority``, and not the person asking
    (``what`` is approved: "the correction", "the void")."""
    approval = access.decide(approver, authority)
    if not approval.allowed:
        raise ActionError(approval.reason)
    if approver.pk == command.actor_id:
        raise ActionError(f"Another person approves {what}: call a floorperson.")
