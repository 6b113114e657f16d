"""``manage.py seed_demo``: a demo floor, one user per role and a dealer assigned to each table.
Running it again creates nothing."""

from __future__ import annotations

from typing import Any

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


def _ensure_table(pit: Pit, rules: RulesSubmission) -> Table | None:
    """The pit's table for this profile, created with the next free sign number if missing.

    Returns the new table, or None when the pit already had one.
    """
    if Table.objects.filter(pit=pit, profile=rules.name).exists():
        return None
    prefix = _table_prefix(rules)
    taken = set(pit.tables.filter(name__startswith=f"{prefix}-").values_list("name", flat=True))
    number = next(n for n in range(1, len(taken) + 2) if f"{prefix}-{n}" not in taken)
    table = Table(
        pit=pit, name=f"{prefix}-{number}", profile=rules.name, seat_count=rules.max_seats
    )
    table.full_clean()
    table.save()
    return table


def _ensure_user(username: str, *, superuser: bool = False) -> bool:
    """Create the user with the demo password if missing; True when created."""
    if User.objects.filter(username=username).exists():
        return False
    if superuser:
        User.objects.create_superuser(username, password=DEMO_PASSWORD)
    else:
        User.objects.create_user(username, password=DEMO_PASSWORD)
    return True


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
        new_tables = [t for t in (_ensure_table(pit, p) for p in PROFILES.values()) if t]

        new_users = []
        for username, role in DEMO_USERS.items():
            if _ensure_user(username):
                new_users.append(username)
            group, _ = Group.objects.get_or_create(name=role)
            User.objects.get(username=username).groups.add(group)
        if _ensure_user("admin", superuser=True):
            new_users.append("admin")
        assigned = self._assign_dealers(pit, new_users)
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

    def _assign_dealers(self, pit: Pit, new_users: list[str]) -> list[str]:
        """One demo dealer per table, assigned by the demo floorperson as a floor does it (the
        record names them); a table or dealer with an assignment already is left alone."""
        floor = User.objects.get(username="floor")
        dealer_group = Group.objects.get(name=roles.DEALER)
        busy_tables = set(DealerAssignment.objects.current().values_list("table_id", flat=True))
        busy_dealers = set(DealerAssignment.objects.current().values_list("dealer_id", flat=True))
        assigned = []
        for index, table in enumerate(sorted(pit.tables.all(), key=_sign_order)):
            username = demo_dealer(index)
            if _ensure_user(username):
                new_users.append(username)
            dealer = User.objects.get(username=username)
            dealer.groups.add(dealer_group)
            if table.pk in busy_tables or dealer.pk in busy_dealers:
                continue
            assign_dealer(table, dealer=dealer, actor=floor)
            assigned.append(f"{username} at {table}")
        return assigned
