from django.apps import AppConfig


class ProtectionConfig(AppConfig):
    """Game protection: live edges, advantage-play alerts, exact ratings (read from the record)."""

    name = "protection"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from protection import console

        console.register()  # the pit console's ratings panel (``tablegame.panels``)
