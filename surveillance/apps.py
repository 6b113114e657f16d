from django.apps import AppConfig


class SurveillanceConfig(AppConfig):
    """Surveillance, read-only: the live wall, the round search and the round review."""

    name = "surveillance"
    default_auto_field = "django.db.models.BigAutoField"
