from __future__ import annotations

from io import StringIO

from django.contrib.auth.models import Group, User
from django.core.management import call_command

from baccarat.profiles import PROFILES
from casino.models import Casino, Pit
from tablegame.models import DealerAssignment, Table

DEMO_USERS = {
    "dealer": "dealer",
    "floor": "floorperson",
    "pitboss": "pit_boss",
    "clerk": "pit_clerk",
    "surveillance": "surveillance",
    "accounting": "accounting",
}


def test_seed_demo_creates_one_table_per_profile_in_pit_1(seeded: str) -> None:
    pit = Pit.objects.get(name="Pit 1")
    tables = list(pit.tables.all())
    assert sorted(t.profile for t in tables) == sorted(PROFILES)
    for table in tables:
        rules = PROFILES[table.profile]
        assert table.seat_count == rules.max_seats
        prefix = "BB" if rules.table_type.value == "big" else "MB"
        assert table.name.startswith(f"{prefix}-"), table.name


def test_seed_demo_numbers_the_tables_of_each_kind_from_one(seeded: str) -> None:
    names = set(Table.objects.values_list("name", flat=True))
    minis = sum(1 for p in PROFILES.values() if p.table_type.value != "big")
    bigs = len(PROFILES) - minis
    assert names == {f"MB-{n}" for n in range(1, minis + 1)} | {
        f"BB-{n}" for n in range(1, bigs + 1)
    }


def test_seed_demo_creates_one_user_per_role(seeded: str) -> None:
    for username, role in DEMO_USERS.items():
        user = User.objects.get(username=username)
        assert list(user.groups.values_list("name", flat=True)) == [role]
        assert user.check_password("baccarat")
        assert not user.is_staff
    admin = User.objects.get(username="admin")
    assert admin.is_superuser
    assert admin.check_password("baccarat")


def test_seed_demo_run_twice_creates_nothing_new(seeded: str) -> None:
    def counts() -> dict[str, int]:
        return {
            "casinos": Casino.objects.count(),
            "pits": Pit.objects.count(),
            "tables": Table.objects.count(),
            "users": User.objects.count(),
            "groups": Group.objects.count(),
            "memberships": User.groups.through.objects.count(),
            "assignments": DealerAssignment.objects.count(),
        }

    before = counts()
    out = StringIO()
    call_command("seed_demo", stdout=out)
    assert counts() == before
    assert "none new" in out.getvalue()
    assert "users created: none" in out.getvalue()
    assert "dealers assigned: none" in out.getvalue()


def test_seed_demo_puts_back_a_missing_table_under_the_free_name(seeded: str) -> None:
    missing = Table.objects.get(name="MB-2")
    profile = missing.profile
    missing.dealer_assignments.all().delete()
    missing.delete()
    call_command("seed_demo", stdout=StringIO())
    assert Table.objects.get(name="MB-2").profile == profile
    assert Table.objects.count() == len(PROFILES)
