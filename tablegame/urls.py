"""The table's pages: the dealer's tablet, the table display (scoreboard), the progressive strip
both show, and the round review."""

from __future__ import annotations

from django.urls import URLPattern, path

from tablegame.progressives.views import table_progressives_state
from tablegame.views_dealer import dealer_tablet
from tablegame.views_display import table_display, table_display_roads
from tablegame.views_review import round_review_page

urlpatterns: list[URLPattern] = [
    path("dealer/<int:table_id>/", dealer_tablet, name="dealer"),
    path("display/<int:table_id>/", table_display, name="display"),
    path("display/<int:table_id>/roads.json", table_display_roads, name="display-roads"),
    path(
        "tables/<int:table_id>/progressives.json",
        table_progressives_state,
        name="table-progressives",
    ),
    path("rounds/<int:round_id>/", round_review_page, name="round-review"),
]
