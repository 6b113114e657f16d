"""Rules in force are one ordered history (issue 27): each Rules Submission filed says what it
changes (``changes``), and whether it states the whole submission (``whole``) or sets its changes
over the submission in force just before it. Every filing made before held the whole submission
(its preset and options): it is kept as a whole filing whose changes are its options."""

from typing import Any

from django.db import migrations, models


def filed_whole(apps: Any, schema_editor: Any) -> None:
    """The filings made before: each stated its whole submission."""
    rules = apps.get_model("tablegame", "TableRules")
    for filing in rules.objects.exclude(options={}).only("pk", "options"):
        rules.objects.filter(pk=filing.pk).update(changes=filing.options)


class Migration(migrations.Migration):
    dependencies = [
        ("tablegame", "0013_settled_final"),
    ]

    operations = [
        migrations.AddField(
            model_name="tablerules",
            name="changes",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="What the filing set, as filed: options and their values (plain JSON).",
            ),
        ),
        migrations.AddField(
            model_name="tablerules",
            name="whole",
            field=models.BooleanField(
                default=True,
                help_text="The filing states the whole Rules Submission (its preset and its "
                "changes); otherwise it sets its changes over the options in force just before it.",
            ),
        ),
        migrations.AlterField(
            model_name="tablerules",
            name="options",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The options in force from then on, over the preset.",
            ),
        ),
        migrations.RunPython(filed_whole, migrations.RunPython.noop),
    ]
