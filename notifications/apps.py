from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from anymail.signals import tracking

        from games import clock, events

        from . import signals

        for event, receiver in (
            (events.players_invited, signals.on_players_invited),
            (events.moves_appended, signals.on_moves_appended),
            (events.match_finished, signals.on_match_finished),
            (events.chat_posted, signals.on_chat_posted),
            (events.timeout_held, signals.on_timeout_held),
            (clock.clock_held, signals.on_clock_held),
        ):
            event.connect(receiver, weak=False, dispatch_uid=f"notifications-{receiver.__name__}")

        tracking.connect(signals.on_tracking, weak=False, dispatch_uid="notifications-tracking")
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_save

        pre_save.connect(
            signals.on_user_saved,
            sender=get_user_model(),
            weak=False,
            dispatch_uid="notifications-address-changed",
        )
