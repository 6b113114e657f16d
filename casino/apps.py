from django.apps import AppConfig


class CasinoConfig(AppConfig):
    """The house: casinos, pits, staff and roles, the access policy, the gaming day, the record."""

    name = "casino"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Records lock-outs (axes' user_locked_out receiver); starts a session's idle clock;
        # registers the supervision events.
        from casino import sessions, signin, supervision  # noqa: F401
