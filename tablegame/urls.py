"""The table's pages: the dealer's tablet, the table display (scoreboard) and the progressive
strip both show."""

from __future__ import annotations

from django.urls import URLPattern, path

from tablegame.progressives.views import table_progressives_state
from tablegame.views_dealer import dealer_tablet
from tablegame.views_display import table_display, table_display_roads

urlpatterns: list[URLPattern] = [
    path("dealer/<int:table_id>/", dealer_tablet, name="dealer"),
    path("display/<int:table_id>/", table_display, name="display"),
    path("display/<int:table_id>/roads.json", table_display_roads, name="display-roads"),
    path(
        "tables/<int:table_id>/progressives.json",
        table_progressives_state,
        name="table-progressives",
    ),
]
