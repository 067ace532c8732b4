"""Accounts made before addresses were verified never proved theirs: mark them unverified.

Until migration 0001, sign-up trusted any address typed in, so an account from then may have
been made by someone else in its owner's name. Counting those as verified would let such an
account keep the address, its password, and the seats reserved for it. Marked unverified,
its password no longer signs in and it takes no reserved seat until a link mailed to the
address is followed, which drops any password set before (players.accounts). Staff accounts
are made by operators and stay as they are."""

from django.conf import settings
from django.db import migrations
from django.db.migrations.recorder import MigrationRecorder


def mark_older_accounts_unverified(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    UnverifiedAddress = apps.get_model("players", "UnverifiedAddress")
    recorder = MigrationRecorder(schema_editor.connection)
    introduced = (
        recorder.migration_qs.filter(app="players", name="0001_unverified_address")
        .values_list("applied", flat=True)
        .first()
    )
    if introduced is None:
        return
    older = User.objects.filter(
        date_joined__lt=introduced, is_staff=False, unverified_address__isnull=True
    ).values_list("pk", flat=True)
    UnverifiedAddress.objects.bulk_create(
        [UnverifiedAddress(user_id=pk) for pk in older.iterator()], batch_size=1000
    )


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0001_unverified_address"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(mark_older_accounts_unverified, migrations.RunPython.noop),
    ]
