"""The floor as a list: every table with its pit, status and the game it is dealt under."""

from __future__ import annotations

from tablegame.models import Table


def test_the_list_shows_every_table_with_the_title_of_its_game(tablet, mini, tablet_for):
    tablet_for("floor").do(mini, "rules/", {"profile": "ma-mini-ez"})
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
    with django_assert_max_num_queries(6):
        response = tablet.client.get("/api/tables/")
    assert len(response.json()) == Table.objects.count() > 5
