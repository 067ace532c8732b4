from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from anymail.signals import inbound, tracking

        from . import signals

        inbound.connect(signals.on_inbound, weak=False, dispatch_uid="notifications-inbound")
        tracking.connect(signals.on_tracking, weak=False, dispatch_uid="notifications-tracking")
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_save

        pre_save.connect(
            signals.on_user_saved,
            sender=get_user_model(),
            weak=False,
            dispatch_uid="notifications-address-changed",
        )
