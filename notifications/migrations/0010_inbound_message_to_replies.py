"""InboundMessage moved to replies: its table stays, only Django's state forgets it here."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0009_models_moved_to_players_and_games"),
        ("replies", "0001_inbound_message_from_notifications"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(model_name="inboundmessage", name="match"),
                migrations.DeleteModel(name="InboundMessage"),
            ]
        ),
    ]
