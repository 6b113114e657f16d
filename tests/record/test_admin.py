"""The admin shows the event record and offers no way to add, change or delete an event."""

from __future__ import annotations

from django.test import Client

from tablegame.models import Table
from tests.record.chains import record


def test_the_admin_lists_events_but_cannot_add_change_or_delete_them(
    admin_client: Client, table: Table
) -> None:
    event = record(table, data={"card": "AS"})
    listing = admin_client.get("/admin/casino/event/")
    assert listing.status_code == 200
    assert "card_dealt" in listing.text
    assert admin_client.get("/admin/casino/event/add/").status_code == 403
    detail = admin_client.get(f"/admin/casino/event/{event.pk}/change/")
    assert detail.status_code == 200
    assert event.hash in detail.text
    assert 'name="_save"' not in detail.text
    assert admin_client.get(f"/admin/casino/event/{event.pk}/delete/").status_code == 403
    assert admin_client.post(f"/admin/casino/event/{event.pk}/change/").status_code == 403
