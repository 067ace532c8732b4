from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RepliesConfig(AppConfig):
    name = "replies"
    verbose_name = _("Replies")

    def ready(self) -> None:
        from anymail.signals import inbound

        from . import signals

        inbound.connect(signals.on_inbound, weak=False, dispatch_uid="replies-inbound")
