"""What is changed in the admin is an event of the record, like any other: in the table's chain
for a table, the pit's for a pit, the casino's for staff accounts; old and new values, and no
secrets."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.forms import MultiWidget
from django.test import Client
from django.utils import timezone

from casino.models import Casino, Chain, Event, Pit
from casino.record import verify_chain
from tablegame.models import Table
from tests.values import present


def form_data(client: Client, url: str, **changes: Any) -> dict[str, Any]:
    """The admin form at ``url`` as the browser would post it back, with ``changes``."""
    form = client.get(url).context["adminform"].form
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        if field.disabled:
            continue
        value = form[name].value()
        if isinstance(field.widget, MultiWidget):
            for n, part in enumerate(present(field.widget.decompress(value))):
                data[f"{name}_{n}"] = "" if part is None else part
        elif isinstance(value, list):
            data[name] = [str(v) for v in value]
        else:
            data[name] = "" if value is None else value
    return data | changes


def admin_changes(chain_id: int) -> list[tuple[str | None, dict[str, Any]]]:
    return [
        (e.actor.username if e.actor else None, e.data)
        for e in Event.objects.filter(chain_id=chain_id, action="admin_change").order_by("sequence")
    ]


def verify_record() -> str:
    out = StringIO()
    call_command("verify_record", stdout=out)
    return out.getvalue()


def test_renaming_a_table_in_the_admin_is_an_event_in_its_chain(
    admin_client: Client, admin_user: User, table: Table
) -> None:
    url = f"/admin/tablegame/table/{table.pk}/change/"
    response = admin_client.post(url, form_data(admin_client, url, name="MB-9"))
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.name == "MB-9"
    assert admin_changes(table.chain_id) == [
        (
            "admin",
            {
                "model": "tablegame.table",
                "object_id": str(table.pk),
                "change": "changed",
                "fields": {"name": ["MB-1", "MB-9"]},
            },
        )
    ]
    report = verify_chain(table.chain_id)
    assert (report.ok, report.checked) == (True, 1)
    assert "MB-1: 1 event, chain intact" in verify_record()


def test_saving_a_table_unchanged_records_nothing(admin_client: Client, table: Table) -> None:
    url = f"/admin/tablegame/table/{table.pk}/change/"
    assert admin_client.post(url, form_data(admin_client, url)).status_code == 302
    assert admin_changes(table.chain_id) == []


def test_a_pit_added_in_the_admin_is_the_first_event_of_its_chain(
    admin_client: Client, pit: Pit
) -> None:
    url = "/admin/casino/pit/add/"
    response = admin_client.post(url, {"casino": pit.casino_id, "name": "Pit 2"})
    assert response.status_code == 302
    added = Pit.objects.get(name="Pit 2")
    chain = Chain.objects.get(pit=added, scope="pit")
    assert admin_changes(chain.pk) == [
        (
            "admin",
            {
                "model": "casino.pit",
                "object_id": str(added.pk),
                "change": "added",
                "fields": {"casino": [None, pit.casino_id], "name": [None, "Pit 2"]},
            },
        )
    ]
    assert verify_chain(chain).ok


def test_a_table_deleted_in_the_admin_leaves_the_deletion_in_its_chain(
    admin_client: Client, table: Table
) -> None:
    chain_id = table.chain_id
    response = admin_client.post(f"/admin/tablegame/table/{table.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Table.objects.filter(pk=table.pk).exists()
    [(actor, data)] = admin_changes(chain_id)
    assert (actor, data["change"]) == ("admin", "deleted")
    assert data["fields"]["name"] == ["MB-1", None]
    assert verify_chain(chain_id).ok


def test_pits_deleted_together_are_each_recorded_in_their_casinos_chain(
    admin_client: Client, pit: Pit
) -> None:
    other = Pit.objects.create(casino=pit.casino, name="Pit 2")
    response = admin_client.post(
        "/admin/casino/pit/",
        {"action": "delete_selected", "_selected_action": [pit.pk, other.pk], "post": "yes"},
    )
    assert response.status_code == 302
    assert not Pit.objects.exists()
    casino_chain = Chain.objects.get(casino=pit.casino, scope="casino")
    assert sorted(
        (data["object_id"], data["change"], data["fields"]["name"][0])
        for _, data in admin_changes(casino_chain.pk)
    ) == sorted([(str(pit.pk), "deleted", "Pit 1"), (str(other.pk), "deleted", "Pit 2")])
    assert verify_chain(casino_chain).ok


def test_a_casino_cannot_be_deleted_in_the_admin(admin_client: Client, pit: Pit) -> None:
    response = admin_client.get(f"/admin/casino/casino/{pit.casino_id}/delete/")
    assert response.status_code == 403


def test_a_role_given_in_the_admin_is_recorded_in_the_casinos_chain(
    admin_client: Client, pit: Pit
) -> None:
    # Joined on a whole second, as the admin's form shows and posts it back.
    joined = timezone.now().replace(microsecond=0)
    floor = User.objects.create_user("floor", password="old-password-1", date_joined=joined)
    pit_boss = Group.objects.get(name="pit_boss")
    url = f"/admin/auth/user/{floor.pk}/change/"
    response = admin_client.post(url, form_data(admin_client, url, groups=[str(pit_boss.pk)]))
    assert response.status_code == 302
    assert list(floor.groups.values_list("name", flat=True)) == ["pit_boss"]
    chain = Chain.objects.get(casino=pit.casino, scope="casino")
    assert chain.pit_id is None
    assert admin_changes(chain.pk) == [
        (
            "admin",
            {
                "model": "auth.user",
                "object_id": str(floor.pk),
                "change": "changed",
                "fields": {"groups": [[], [pit_boss.pk]]},
            },
        )
    ]


def test_a_password_set_in_the_admin_is_recorded_without_its_hash(
    admin_client: Client, pit: Pit
) -> None:
    floor = User.objects.create_user("floor", password="old-password-1")
    response = admin_client.post(
        f"/admin/auth/user/{floor.pk}/password/",
        {
            "password1": "a-new-Password-2",
            "password2": "a-new-Password-2",
            "usable_password": "true",
        },
    )
    assert response.status_code == 302
    floor.refresh_from_db()
    assert floor.check_password("a-new-Password-2")
    chain = Chain.objects.get(casino=Casino.objects.get(), scope="casino")
    [(actor, data)] = admin_changes(chain.pk)
    assert (actor, data["change"]) == ("admin", "changed")
    assert data["fields"] == {"password": ["(not recorded)", "(not recorded)"]}
    assert floor.password not in str(Event.objects.get(chain=chain).data)
