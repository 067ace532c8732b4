"""InboundMessage moved here from notifications: its table stays (db_table), only Django's
state learns it here."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0014_hidden_state_opening"),
        ("notifications", "0009_models_moved_to_players_and_games"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="InboundMessage",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("message_id", models.CharField(max_length=500, unique=True)),
                        ("received_at", models.DateTimeField(auto_now_add=True)),
                        ("recipient", models.CharField(blank=True, max_length=500)),
                        ("sender", models.CharField(blank=True, max_length=500)),
                        ("subject", models.CharField(blank=True, max_length=500)),
                        ("raw", models.TextField()),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("received", "Received, not yet handled"),
                                    ("done", "Handled"),
                                    ("dropped", "Dropped (machine mail)"),
                                    ("rejected", "Rejected"),
                                ],
                                default="received",
                                max_length=10,
                            ),
                        ),
                        ("outcome", models.TextField(blank=True)),
                        ("seat", models.PositiveSmallIntegerField(blank=True, null=True)),
                        (
                            "match",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="games.match",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "notifications_inboundmessage",
                        "ordering": ["-received_at"],
                    },
                ),
            ]
        ),
    ]
