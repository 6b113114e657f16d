from django.apps import AppConfig


class SurveillanceConfig(AppConfig):
    """Surveillance, read-only: the live wall and the round search (the review is tablegame's)."""

    name = "surveillance"
    default_auto_field = "django.db.models.BigAutoField"
