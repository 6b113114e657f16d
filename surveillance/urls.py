"""The surveillance pages, under /surveillance/."""

from __future__ import annotations

from django.urls import URLPattern, path

from surveillance import notices, significant, signins, views

app_name = "surveillance"

urlpatterns: list[URLPattern] = [
    path("", views.wall, name="wall"),
    path("tables/<int:table_id>/tile/", views.tile, name="tile"),
    path("sequences/", views.sequences, name="sequences"),
    path("marks/", views.marks, name="marks"),
    path("rounds/", views.rounds, name="rounds"),
    path("rounds/<int:round_id>/", views.round_moved, name="round-moved"),  # now /rounds/<id>/
    path("notices/", notices.notices, name="notices"),
    path("signins/", signins.signins, name="signins"),
    path("significant/", significant.significant_page, name="significant"),
    path("notices/acknowledge/", notices.acknowledge, name="acknowledge_notice"),
]
