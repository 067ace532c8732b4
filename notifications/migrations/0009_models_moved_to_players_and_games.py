"""Preferences, Vacation and SignInLinkUse moved to players, SeatClock and ChatMessage to
games: their tables stay, only Django's state forgets them here."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_chat_and_seat_clock_from_notifications"),
        ("players", "0004_preferences_vacations_and_match_links_from_notifications"),
        ("notifications", "0008_failing_index"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="preferences",
                    name="user",
                ),
                migrations.RemoveField(
                    model_name="seatclock",
                    name="match",
                ),
                migrations.RemoveField(
                    model_name="signinlinkuse",
                    name="match",
                ),
                migrations.RemoveField(
                    model_name="signinlinkuse",
                    name="user",
                ),
                migrations.RemoveField(
                    model_name="vacation",
                    name="user",
                ),
                migrations.DeleteModel(
                    name="ChatMessage",
                ),
                migrations.DeleteModel(
                    name="Preferences",
                ),
                migrations.DeleteModel(
                    name="SeatClock",
                ),
                migrations.DeleteModel(
                    name="SignInLinkUse",
                ),
                migrations.DeleteModel(
                    name="Vacation",
                ),
            ]
        ),
    ]
