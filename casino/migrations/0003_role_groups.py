"""Create one auth Group per staff role (names frozen here as casino.roles.ROLES had them)."""

from django.db import migrations

ROLE_GROUPS = ("dealer", "floorperson", "pit_boss", "pit_clerk", "surveillance", "accounting")


def create_role_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in ROLE_GROUPS:
        Group.objects.get_or_create(name=name)


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("casino", "0002_record_append_only"),
    ]

    operations = [migrations.RunPython(create_role_groups, migrations.RunPython.noop)]
