from django.apps import AppConfig


class TablegameConfig(AppConfig):
    """Baccarat tables and the games dealt on them; the rules come from the ``baccarat`` package."""

    name = "tablegame"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from casino.verification import register
        from tablegame.verification import day_reports

        register("settled play", day_reports)
