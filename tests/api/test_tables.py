"""The floor as a list: every table with its pit, status and the game it is dealt under."""

from __future__ import annotations

import datetime

from django.utils import timezone

from tablegame.models import Table, TableRules


def test_the_list_shows_every_table_with_the_title_of_its_game(tablet, mini, tablet_for):
    later = (timezone.now() + datetime.timedelta(minutes=31)).isoformat()
    tablet_for("floor").do(mini, "rules/", {"profile": "ma-mini-ez", "effective_at": later})
    # The commission changes once surveillance has had its 30 minutes' notice: let them pass.
    TableRules.objects.filter(table=mini, profile="ma-mini-ez").update(effective_at=timezone.now())
    response = tablet.client.get("/api/tables/")
    assert response.status_code == 200
    rows = {row["name"]: row for row in response.json()}
    assert set(rows) == set(Table.objects.values_list("name", flat=True))
    assert rows["MB-1"] == {
        "id": mini.pk,
        "name": "MB-1",
        "pit": "Pit 1",
        "status": "open",
        "profile": "ma-mini-ez",
        "title": rows["MB-1"]["title"],
    }
    assert "EZ" in rows["MB-1"]["title"]


def test_the_list_reads_the_floor_in_a_fixed_number_of_queries(
    tablet, seeded, django_assert_max_num_queries
):
    with django_assert_max_num_queries(4):
        response = tablet.client.get("/api/tables/")
    assert len(response.json()) == Table.objects.count() > 5
