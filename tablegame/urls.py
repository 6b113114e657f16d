"""The table's pages: the dealer's tablet and the table display (scoreboard)."""

from __future__ import annotations

from django.urls import URLPattern, path

from tablegame.views_dealer import dealer_tablet

urlpatterns: list[URLPattern] = [
    path("dealer/<int:table_id>/", dealer_tablet, name="dealer"),
]
