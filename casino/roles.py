"""Staff roles. Each is a Django Group of the same name (created by migration pit 0002)."""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, Group, User
from django.db.models import Case, IntegerField, OuterRef, Subquery, Value, When

#: Who does an action: a member of staff who has logged in (the API and the screens let nobody
#: else through), recorded on the event and on every row the action writes.
Actor: TypeAlias = User

DEALER = "dealer"
FLOORPERSON = "floorperson"
PIT_BOSS = "pit_boss"
PIT_CLERK = "pit_clerk"
SURVEILLANCE = "surveillance"
ACCOUNTING = "accounting"

ROLES: tuple[str, ...] = (DEALER, FLOORPERSON, PIT_BOSS, PIT_CLERK, SURVEILLANCE, ACCOUNTING)

LABELS: dict[str, str] = {
    DEALER: "Dealer",
    FLOORPERSON: "Floorperson",
    PIT_BOSS: "Pit boss",
    PIT_CLERK: "Pit clerk",
    SURVEILLANCE: "Surveillance",
    ACCOUNTING: "Accounting",
}


def role_query(user: OuterRef) -> Subquery:
    """Annotation: the role of the user ``user`` refers to, as ``role_of`` answers it, read in
    the query that reads the user (``access.remember_role`` keeps it on the user object)."""
    ranked = (
        Group.objects.filter(user=user, name__in=ROLES)
        .annotate(
            rank=Case(
                *(When(name=role, then=Value(rank)) for rank, role in enumerate(ROLES)),
                output_field=IntegerField(),
            )
        )
        .order_by("rank")
        .values("name")[:1]
    )
    return Subquery(ranked)


def role_of(user: User | AnonymousUser) -> str | None:
    """The user's role: the first of ``ROLES`` among their groups; None if they have none."""
    if not user.is_authenticated:
        return None
    names = set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
    return next((role for role in ROLES if role in names), None)
