"""Game protection's pages, under /protection/."""

from __future__ import annotations

from django.urls import URLPattern, path

from protection import views

app_name = "protection"

urlpatterns: list[URLPattern] = [
    path("", views.floor, name="floor"),
    path("ratings/", views.ratings_page, name="ratings"),
    path("sessions/<int:session_id>/", views.session, name="session"),
    path("pits/<int:pit_id>/ratings/", views.pit_ratings, name="pit-ratings"),
    path("ratings.csv", views.ratings_csv_file, name="ratings-csv"),
    path("ratings.pdf", views.ratings_pdf_file, name="ratings-pdf"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/edges/", views.edges, name="edges"),
]
