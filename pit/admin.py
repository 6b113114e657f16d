from django.contrib import admin

from pit.models import Casino, Pit


@admin.register(Casino)
class CasinoAdmin(admin.ModelAdmin):
    list_display = ("name", "gaming_day_start", "time_zone")


@admin.register(Pit)
class PitAdmin(admin.ModelAdmin):
    list_display = ("name", "casino")
    list_filter = ("casino",)
