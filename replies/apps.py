from django.apps import AppConfig


class RepliesConfig(AppConfig):
    name = "replies"
    verbose_name = "Replies"

    def ready(self) -> None:
        from anymail.signals import inbound

        from . import signals

        inbound.connect(signals.on_inbound, weak=False, dispatch_uid="replies-inbound")
