from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Group, User

from casino.roles import ROLES, role_of


@pytest.mark.django_db
def test_every_role_has_a_group_after_migrating() -> None:
    assert set(Group.objects.values_list("name", flat=True)) >= set(ROLES)
    assert set(ROLES) == {
        "dealer",
        "floorperson",
        "pit_boss",
        "pit_clerk",
        "surveillance",
        "accounting",
    }


@pytest.mark.django_db
def test_role_of_is_the_users_role_group() -> None:
    user = User.objects.create_user("ana")
    user.groups.add(Group.objects.get(name="pit_clerk"), Group.objects.create(name="bowling"))
    assert role_of(user) == "pit_clerk"


@pytest.mark.django_db
def test_role_of_is_none_without_a_role_group() -> None:
    assert role_of(User.objects.create_user("bo")) is None
    assert role_of(AnonymousUser()) is None
