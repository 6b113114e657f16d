"""The table's pages: the dealer's tablet and the table display (scoreboard)."""

from __future__ import annotations

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
