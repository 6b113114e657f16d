"""The accounting pages, under /accounting/."""

from __future__ import annotations

from django.urls import URLPattern, path

from accounting import views

app_name = "accounting"

urlpatterns: list[URLPattern] = [
    path("", views.day, name="day"),
    path("day.csv", views.day_csv_download, name="day-csv"),
    path("day.pdf", views.day_pdf_download, name="day-pdf"),
    path("master/", views.master, name="master"),
    path("rounds/", views.table_rounds, name="rounds"),
    path("close/", views.close, name="close"),
    path("drop/", views.drop, name="drop"),
    path("inventory/", views.inventory, name="inventory"),
    path("slips/new/", views.slip, name="slip"),
    path("slips/void/", views.slip_void, name="slip-void"),
    path("table/", views.table_day, name="table-day"),
    path("settings/", views.accounting_settings, name="settings"),
]
