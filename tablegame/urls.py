"""The table's pages: the dealer's tablet and the table display (scoreboard)."""

from __future__ import annotations

from django.urls import URLPattern, path

from tablegame.views_dealer import dealer_tablet
from tablegame.views_display import table_display, table_display_roads

urlpatterns: list[URLPattern] = [
    path("dealer/<int:table_id>/", dealer_tablet, name="dealer"),
    path("display/<int:table_id>/", table_display, name="display"),
    path("display/<int:table_id>/roads.json", table_display_roads, name="display-roads"),
]
