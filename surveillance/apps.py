from django.apps import AppConfig


class SurveillanceConfig(AppConfig):
    """What surveillance watches and is told about (filled in by later issues)."""

    name = "surveillance"
    default_auto_field = "django.db.models.BigAutoField"
