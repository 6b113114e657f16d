"""``manage.py seed_demo``: a demo floor, one user per role and a dealer assigned to each table.
Running it again creates nothing."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand
from django.db import transaction

from baccarat.profiles import PROFILES, RulesSubmission
from casino import roles
from casino.models import Casino, Pit, PitSupervision
from casino.supervision import supervise
from tablegame.actions.dealers import assign_dealer
from tablegame.models import DealerAssignment, Table

DEMO_CASINO = "Demo Casino"
DEMO_PIT = "Pit 1"
DEMO_PASSWORD = "baccarat"

# username -> role
DEMO_USERS: dict[str, str] = {
    "dealer": roles.DEALER,
    "floor": roles.FLOORPERSON,
    "pitboss": roles.PIT_BOSS,
    "clerk": roles.PIT_CLERK,
    "surveillance": roles.SURVEILLANCE,
    "accounting": roles.ACCOUNTING,
}
#: The demo's people of the pit console, each supervising the demo pit.
SUPERVISING = ("floor", "pitboss", "clerk")


def _sign_order(table: Table) -> tuple[bool, int]:
    """``MB-1``, ``MB-2``, …, then ``BB-1``, …: the order the demo dealers take the tables."""
    prefix, _, number = table.name.partition("-")
    return prefix != "MB", int(number) if number.isdigit() else 0


def demo_dealer(index: int) -> str:
    """The demo dealers' usernames: ``dealer`` for the first table, then ``dealer2``, …"""
    return "dealer" if index == 0 else f"dealer{index + 1}"


def _table_prefix(rules: RulesSubmission) -> str:
    """``BB`` for a big table, ``MB`` for minibaccarat, as on the table signs."""
    return "BB" if rules.table_type.value == "big" else "MB"


def _ensure_tables(pit: Pit) -> list[Table]:
    """A table per bundled profile in the pit, each missing one created with the next free sign
    number of its kind (``MB-3`` when ``MB-1`` and ``MB-2`` are taken); returns those created."""
    tables = list(pit.tables.all())
    have = {table.profile for table in tables}
    taken = {table.name for table in tables}
    new = []
    for rules in PROFILES.values():
        if rules.name in have:
            continue
        prefix = _table_prefix(rules)
        number = next(n for n in range(1, len(taken) + 2) if f"{prefix}-{n}" not in taken)
        table = Table(
            pit=pit, name=f"{prefix}-{number}", profile=rules.name, seat_count=rules.max_seats
        )
        table.full_clean(
            validate_unique=False, validate_constraints=False
        )  # the database checks those
        table.save()  # each table opens its chain of the record
        taken.add(table.name)
        new.append(table)
    return new


def _ensure_users(wanted: dict[str, str]) -> list[str]:
    """Each user of ``wanted`` (username -> role, ``""`` for the superuser) with the demo
    password if missing, and in their role's group; returns the usernames created."""
    existing = set(User.objects.filter(username__in=wanted).values_list("username", flat=True))
    created = [name for name in wanted if name not in existing]
    User.objects.bulk_create(
        User(
            username=name,
            password=make_password(DEMO_PASSWORD),
            is_staff=not wanted[name],
            is_superuser=not wanted[name],
        )
        for name in created
    )
    names = {role for role in wanted.values() if role}
    groups = {g.name: g for g in Group.objects.filter(name__in=names)}
    for group in Group.objects.bulk_create(Group(name=n) for n in names if n not in groups):
        groups[group.name] = group
    ids = dict(User.objects.filter(username__in=wanted).values_list("username", "pk"))
    Membership = User.groups.through
    Membership.objects.bulk_create(
        (
            Membership(user_id=ids[name], group_id=groups[role].pk)
            for name, role in wanted.items()
            if role
        ),
        ignore_conflicts=True,
    )
    return created


class Command(BaseCommand):
    help = (
        "Create a demo casino, 'Pit 1' with one table per bundled rules profile, one user per "
        "role, a dealer assigned to each table (dealer at MB-1, dealer2 at MB-2, ...), the pit's "
        "people supervising the pit, and a "
        f"superuser 'admin', all with password '{DEMO_PASSWORD}'. Idempotent."
    )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        casino, _ = Casino.objects.get_or_create(name=DEMO_CASINO)
        pit, _ = Pit.objects.get_or_create(casino=casino, name=DEMO_PIT)
        new_tables = _ensure_tables(pit)
        tables = sorted(pit.tables.all(), key=_sign_order)
        wanted = dict(DEMO_USERS)
        wanted.update((demo_dealer(index), roles.DEALER) for index in range(len(tables)))
        wanted["admin"] = ""
        new_users = _ensure_users(wanted)
        assigned = self._assign_dealers(tables)
        supervising = self._supervise(pit)

        self.stdout.write(
            f"{casino}, {pit}: {pit.tables.count()} tables "
            f"({', '.join(map(str, new_tables)) or 'none'} new); "
            f"users created: {', '.join(new_users) or 'none'}; "
            f"dealers assigned: {', '.join(assigned) or 'none'}; "
            f"supervising {pit}: {', '.join(supervising) or 'nobody new'}."
        )

    def _supervise(self, pit: Pit) -> list[str]:
        """The demo's pit people supervise the demo pit (their consoles show it), given it by the
        demo pit boss as a floor does it (the pit's record names them)."""
        boss = User.objects.get(username="pitboss")
        current = set(
            PitSupervision.objects.current()
            .filter(pit=pit)
            .values_list("supervisor__username", flat=True)
        )
        given = []
        for username in SUPERVISING:
            if username not in current:
                supervise(pit, User.objects.get(username=username), by=boss)
                given.append(username)
        return given

    def _assign_dealers(self, tables: list[Table]) -> list[str]:
        """One demo dealer per table, assigned by the demo floorperson as a floor does it (the
        record names them); a table or dealer with an assignment already is left alone."""
        dealers = {demo_dealer(index): table for index, table in enumerate(tables)}
        users = {u.username: u for u in User.objects.filter(username__in=[*dealers, "floor"])}
        current = DealerAssignment.objects.current()
        busy_tables = set(current.values_list("table_id", flat=True))
        busy_dealers = set(current.values_list("dealer_id", flat=True))
        assigned = []
        for username, table in dealers.items():
            dealer = users[username]
            if table.pk in busy_tables or dealer.pk in busy_dealers:
                continue
            assign_dealer(table, dealer=dealer, actor=users["floor"])
            assigned.append(f"{username} at {table}")
        return assigned
