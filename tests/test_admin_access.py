"""The admin asks the access policy (issue 28): ``is_staff`` alone opens nothing."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from tests.tablegame.conftest import floor, staff

__all__ = ["floor", "staff"]


def test_an_is_staff_floorperson_is_refused_the_admin(floor: User) -> None:
    floor.is_staff = True
    floor.save(update_fields=["is_staff"])
    client = Client()
    client.force_login(floor)

    index = client.get("/admin/")
    assert index.status_code == 302
    assert index["Location"].startswith("/admin/login/")
    assert client.get("/admin/auth/user/").status_code == 302


def test_the_administrator_opens_the_admin(staff: dict[str, User]) -> None:
    admin = User.objects.create_superuser("root-admin", password="x-Long-enough-9")
    client = Client()
    client.force_login(admin)

    index = client.get("/admin/")
    assert index.status_code == 200
    assert b"Site administration" in index.content
    assert client.get("/admin/auth/user/").status_code == 200
