"""BotAccount moved to players: its table stays, only Django's state forgets it here."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0005_bot_account_from_api"),
        ("api", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(
                    name="BotAccount",
                ),
            ]
        ),
    ]
