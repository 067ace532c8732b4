"""ChatMessage, SeatClock move here from the notifications app. Their tables stay as they
are (each model names its table): only Django's state moves, and the content types (with
their permissions) are relabelled."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = (
    "ChatMessage",
    "SeatClock",
)


def relabel(apps, schema_editor, old="notifications", new="games"):
    content_types = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        name = model.lower()
        if not content_types.objects.filter(app_label=new, model=name).exists():
            content_types.objects.filter(app_label=old, model=name).update(app_label=new)


def relabel_back(apps, schema_editor):
    relabel(apps, schema_editor, old="games", new="notifications")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("notifications", "0008_failing_index"),
        ("games", "0012_archive_index"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ChatMessage",
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
                        ("seat", models.PositiveSmallIntegerField()),
                        ("text", models.TextField(max_length=2000)),
                        ("source", models.CharField(default="web", max_length=10)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "author",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "match",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="chat_messages",
                                to="games.match",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "notifications_chatmessage",
                        "ordering": ["created_at", "pk"],
                    },
                ),
                migrations.CreateModel(
                    name="SeatClock",
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
                        ("seat", models.PositiveSmallIntegerField()),
                        ("bank_seconds", models.PositiveIntegerField()),
                        ("asked_at", models.DateTimeField(blank=True, null=True)),
                        ("asked_seq", models.PositiveIntegerField(blank=True, null=True)),
                        (
                            "match",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="games.match",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "notifications_seatclock",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("match", "seat"), name="seatclock_unique_seat"
                            )
                        ],
                    },
                ),
            ]
        ),
        migrations.RunPython(relabel, relabel_back),
    ]
