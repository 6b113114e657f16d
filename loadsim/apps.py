from django.apps import AppConfig


class LoadsimConfig(AppConfig):
    """The load simulator: ``manage.py simulate`` (a tool, not part of the table domain)."""

    name = "loadsim"
    verbose_name = "Load simulator"
