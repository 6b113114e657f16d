"""Who supervises which pit: the pit's pages show a person the pits they supervise.

A floorperson or pit boss assigns the pit console's people (floorpersons, pit bosses, pit clerks)
to pits (on the dealers' page, ``pit.supervision``'s actions, or in the admin) and relieves them;
each is an event of the pit's own chain (:func:`supervise`, :func:`relieve`). A console's cost
then follows the pits its person supervises, not the size of the casino: "all pits" is shown only
when the person asks for it (:func:`pits_shown`, ``?pits=all``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from baccarat.errors import RulesError
from casino import access
from casino.events import Payload, event_kind
from casino.models import Pit, PitSupervision
from casino.record import record_pit_event


class SupervisionEvent(StrEnum):
    """Kinds of event of the pit's people, in the pit's own chain."""

    SUPERVISOR_ASSIGNED = "supervisor_assigned"
    SUPERVISOR_RELIEVED = "supervisor_relieved"


@event_kind
@dataclasses.dataclass(frozen=True)
class SupervisorAssigned(Payload):
    kind = SupervisionEvent.SUPERVISOR_ASSIGNED
    title = "Supervisor assigned"

    supervisor: str
    """The username."""

    def describe(self) -> str:
        return f"{self.supervisor} supervises the pit"


@event_kind
@dataclasses.dataclass(frozen=True)
class SupervisorRelieved(Payload):
    kind = SupervisionEvent.SUPERVISOR_RELIEVED
    title = "Supervisor relieved"

    supervisor: str

    def describe(self) -> str:
        return f"{self.supervisor} no longer supervises the pit"


def supervised_pits(person: User) -> list[Pit]:
    """The pits ``person`` supervises now, in the floor's order."""
    return list(
        Pit.objects.filter(
            supervisions__supervisor=person, supervisions__relieved_at__isnull=True
        ).select_related("casino")
    )


@dataclass(frozen=True)
class PitsShown:
    """The pits a page of the pit shows its person, and how they were chosen."""

    pits: list[Pit]
    everything: bool
    """The person asked for every pit of the floor (``?pits=all``)."""
    mine: list[Pit]
    """The pits the person supervises."""
    asked: str
    """The choice as the query gives it (``""``, ``"all"`` or pit ids ``"1,3"``), for links
    and the page's script to keep."""
    problem: str = ""
    """Why the choice asked for could not be shown (the person's own pits are shown instead)."""


def pits_shown(person: User, asked: str | None) -> PitsShown:
    """The pits to show: those ``person`` supervises; every pit when they ask for ``all``; or the
    pits named by id (``"1,3"``). A choice that names no pit is answered with their own pits and
    the reason."""
    mine = supervised_pits(person)
    wanted = (asked or "").strip()
    if not wanted:
        return PitsShown(mine, False, mine, "")
    if wanted == "all":
        return PitsShown(list(Pit.objects.select_related("casino")), True, mine, "all")
    parts = [part.strip() for part in wanted.split(",")]
    if len(parts) > MOST_PITS_ASKED or not all(_pit_number(p) for p in parts):
        problem = "Choose pits by their numbers, such as 1,3, or all: showing your own pits."
        return PitsShown(mine, False, mine, "", problem)
    ids = sorted({int(p) for p in parts})
    pits = (
        [] if max(ids) >= 2**31 else list(Pit.objects.filter(pk__in=ids).select_related("casino"))
    )
    if len(pits) != len(ids):
        missing = sorted(set(ids) - {p.pk for p in pits})
        problem = f"There is no pit {', '.join(map(str, missing))}: showing your own pits."
        return PitsShown(mine, False, mine, "", problem)
    return PitsShown(pits, False, mine, ",".join(map(str, ids)))


#: Pits one query may name (a longer list is refused, not read).
MOST_PITS_ASKED = 100


def _pit_number(text: str) -> bool:
    """Whether ``text`` can be a pit's number: ASCII digits, not absurdly many."""
    return text.isascii() and text.isdigit() and len(text) <= 12


def pit_supervisors() -> dict[int, list[PitSupervision]]:
    """Each pit's current supervisions (by pit id), with their people."""
    by_pit: dict[int, list[PitSupervision]] = {}
    current = PitSupervision.objects.current().select_related("supervisor", "assigned_by")
    for supervision in current.order_by("supervisor__username"):
        by_pit.setdefault(supervision.pit_id, []).append(supervision)
    return by_pit


def console_people() -> list[User]:
    """Everyone who may open the pit console, the people a pit can be given to."""
    return [
        user
        for user in User.objects.filter(is_active=True).order_by("username")
        if access.decide(user, "page:floor").allowed and not user.is_superuser
    ]


class SupervisionRefused(RulesError):
    """A supervision that cannot be given or ended; ``str(error)`` says why. Nothing changed."""


def supervise(pit: Pit, supervisor: User, *, by: User) -> PitSupervision:
    """``supervisor`` now supervises ``pit``, given it by ``by`` (recorded in the pit's chain)."""
    with transaction.atomic():
        locked = Pit.objects.select_for_update().get(pk=pit.pk)
        if not access.decide(supervisor, "page:floor").allowed:
            raise SupervisionRefused(
                f"{supervisor.username} does not work at the pit console: only floorpersons, "
                "pit bosses and pit clerks supervise a pit."
            )
        if PitSupervision.objects.current().filter(pit=locked, supervisor=supervisor).exists():
            raise SupervisionRefused(f"{supervisor.username} already supervises {locked.name}.")
        supervision = PitSupervision.objects.create(
            pit=locked, supervisor=supervisor, assigned_by=by
        )
        record_pit_event(locked, actor=by, payload=SupervisorAssigned(supervisor.username))
    return supervision


def relieve(pit: Pit, supervisor: User, *, by: User) -> PitSupervision:
    """``supervisor`` no longer supervises ``pit`` (recorded in the pit's chain)."""
    with transaction.atomic():
        locked = Pit.objects.select_for_update().get(pk=pit.pk)
        found = PitSupervision.objects.current().filter(pit=locked, supervisor=supervisor).first()
        if found is None:
            raise SupervisionRefused(f"{supervisor.username} does not supervise {locked.name}.")
        found.relieved_at, found.relieved_by = timezone.now(), by
        found.save(update_fields=["relieved_at", "relieved_by"])
        record_pit_event(locked, actor=by, payload=SupervisorRelieved(supervisor.username))
    return found
