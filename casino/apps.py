from django.apps import AppConfig


class CasinoConfig(AppConfig):
    """The house: casinos, pits, staff and roles, the access policy, the gaming day, the record."""

    name = "casino"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Counts failed sign-ins (the user_login_failed receiver) to lock usernames out.
        from casino import signin  # noqa: F401
