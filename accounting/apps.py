from django.apps import AppConfig


class AccountingConfig(AppConfig):
    """The accounting department's end-of-day work: count, win and hold, reports, reconciliation."""

    name = "accounting"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounting import events  # noqa: F401  (registers accounting's kinds of event)
