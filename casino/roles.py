"""Staff roles. Each is a Django Group of the same name (created by migration pit 0002)."""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, Group, User
from django.db import connection

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


def role_sql(user_id: str) -> str:
    """SQL for the role of the user whose id is the expression ``user_id``, as ``role_of``
    answers it: read in the statement that reads the user (``access.remember_role`` keeps it
    on the user object)."""
    q = connection.ops.quote_name
    through = q(User.groups.through._meta.db_table)
    ranks = " ".join(f"WHEN '{role}' THEN {rank}" for rank, role in enumerate(ROLES))
    names = ", ".join(f"'{role}'" for role in ROLES)
    return (
        f"(SELECT g.{q('name')} FROM {q(Group._meta.db_table)} g "
        f"JOIN {through} ug ON ug.{q('group_id')} = g.{q('id')} "
        f"WHERE ug.{q('user_id')} = {user_id} AND g.{q('name')} IN ({names}) "
        f"ORDER BY CASE g.{q('name')} {ranks} END LIMIT 1)"
    )


def role_of(user: User | AnonymousUser) -> str | None:
    """The user's role: the first of ``ROLES`` among their groups; None if they have none."""
    if not user.is_authenticated:
        return None
    names = set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
    return next((role for role in ROLES if role in names), None)
