"""BotAccount moves here from the api app: its table stays (the model names it), only
Django's state moves, and its content type (with its permissions) is relabelled."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def relabel(apps, schema_editor, old="api", new="players"):
    content_types = apps.get_model("contenttypes", "ContentType")
    if not content_types.objects.filter(app_label=new, model="botaccount").exists():
        content_types.objects.filter(app_label=old, model="botaccount").update(app_label=new)


def relabel_back(apps, schema_editor):
    relabel(apps, schema_editor, old="players", new="api")


class Migration(migrations.Migration):
    dependencies = [
        ("api", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("players", "0004_preferences_vacations_and_match_links_from_notifications"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="BotAccount",
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
                        ("owner_note", models.CharField(blank=True, max_length=200)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "user",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="bot_account",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "api_botaccount",
                    },
                ),
            ]
        ),
        migrations.RunPython(relabel, relabel_back),
    ]
