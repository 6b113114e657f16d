from django.apps import AppConfig


class PitConfig(AppConfig):
    """The casino floor: casinos, their pits, and the staff roles that work them."""

    name = "pit"
    default_auto_field = "django.db.models.BigAutoField"
