"""SignInLinkUse, Vacation, Preferences move here from the notifications app. Their tables stay as they
are (each model names its table): only Django's state moves, and the content types (with
their permissions) are relabelled."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import players.models

MOVED = (
    "SignInLinkUse",
    "Vacation",
    "Preferences",
)


def relabel(apps, schema_editor, old="notifications", new="players"):
    content_types = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        name = model.lower()
        if not content_types.objects.filter(app_label=new, model=name).exists():
            content_types.objects.filter(app_label=old, model=name).update(app_label=new)


def relabel_back(apps, schema_editor):
    relabel(apps, schema_editor, old="players", new="notifications")


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("notifications", "0008_failing_index"),
        ("games", "0013_chat_and_seat_clock_from_notifications"),
        ("players", "0003_used_sign_in_link"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="SignInLinkUse",
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
                        ("token_digest", models.CharField(max_length=64, unique=True)),
                        ("used_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "match",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="games.match",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "notifications_signinlinkuse",
                    },
                ),
                migrations.CreateModel(
                    name="Vacation",
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
                        ("first_day", models.DateField()),
                        ("last_day", models.DateField()),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="vacations",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "notifications_vacation",
                        "ordering": ["first_day"],
                    },
                ),
                migrations.CreateModel(
                    name="Preferences",
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
                        (
                            "mode",
                            models.CharField(
                                choices=[
                                    ("every", "An email every turn"),
                                    ("digest", "A daily digest of the matches waiting on me"),
                                    ("none", "Nothing"),
                                ],
                                default="every",
                                max_length=10,
                            ),
                        ),
                        ("time_zone", models.CharField(default="UTC", max_length=60)),
                        (
                            "quiet_start",
                            models.TimeField(blank=True, help_text="e.g. 22:00", null=True),
                        ),
                        (
                            "quiet_end",
                            models.TimeField(blank=True, help_text="e.g. 07:00", null=True),
                        ),
                        ("digest_hour", models.PositiveSmallIntegerField(default=8)),
                        (
                            "reminder_hours",
                            models.JSONField(
                                blank=True, default=players.models.default_reminder_hours
                            ),
                        ),
                        ("webhook_url", models.URLField(blank=True, max_length=500)),
                        ("email_failing", models.BooleanField(default=False)),
                        ("email_failure", models.CharField(blank=True, max_length=300)),
                        ("email_failed_at", models.DateTimeField(blank=True, null=True)),
                        ("email_failure_permanent", models.BooleanField(default=False)),
                        ("webhook_failing", models.BooleanField(default=False)),
                        ("webhook_failure", models.CharField(blank=True, max_length=300)),
                        ("webhook_failed_at", models.DateTimeField(blank=True, null=True)),
                        ("digest_due_at", models.DateTimeField(blank=True, null=True)),
                        ("digest_idle", models.BooleanField(default=False)),
                        (
                            "user",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="notification_prefs",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name_plural": "preferences",
                        "db_table": "notifications_preferences",
                        "indexes": [
                            models.Index(
                                condition=models.Q(("mode", "digest")),
                                fields=["digest_due_at"],
                                name="prefs_digest_due",
                            ),
                            models.Index(
                                condition=models.Q(
                                    ("email_failing", True),
                                    ("webhook_failing", True),
                                    _connector="OR",
                                ),
                                fields=["user"],
                                name="prefs_failing",
                            ),
                        ],
                    },
                ),
            ]
        ),
        migrations.RunPython(relabel, relabel_back),
    ]
