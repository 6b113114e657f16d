from django.apps import AppConfig


class PitConfig(AppConfig):
    """The pit console: what floorpersons, pit bosses and pit clerks see and do for a pit."""

    name = "pit"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from pit import alerts  # noqa: F401  (registers the pit's kinds of event)
