"""Game protection's pages, under /protection/."""

from __future__ import annotations

from django.urls import URLPattern, path

from protection import views

app_name = "protection"

urlpatterns: list[URLPattern] = [
    path("", views.floor, name="floor"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/edges/", views.edges, name="edges"),
]
