from django.contrib import admin

from tablegame.models import Table


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "pit", "profile", "seat_count")
    list_filter = ("pit", "profile")
