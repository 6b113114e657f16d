"""The floor's actions on who supervises which pit (``casino.supervision``): each asks the access
policy first (``command:assign_supervisor``, ``command:relieve_supervisor``)."""

from __future__ import annotations

from django.contrib.auth.models import User

from casino.models import Pit, PitSupervision
from casino.roles import Actor
from casino.supervision import SupervisionRefused, relieve, supervise
from tablegame.actions.common import ActionError, action


@action
def assign_supervisor(pit: Pit, *, supervisor: User, actor: Actor) -> PitSupervision:
    """``supervisor`` now supervises ``pit`` (their console shows it)."""
    try:
        return supervise(pit, supervisor, by=actor)
    except SupervisionRefused as refusal:
        raise ActionError(str(refusal)) from None


@action
def relieve_supervisor(pit: Pit, *, supervisor: User, actor: Actor) -> PitSupervision:
    """``supervisor`` no longer supervises ``pit``."""
    try:
        return relieve(pit, supervisor, by=actor)
    except SupervisionRefused as refusal:
        raise ActionError(str(refusal)) from None
