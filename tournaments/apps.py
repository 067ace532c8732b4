from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games import events
        from notifications import feeds

        from . import services

        feeds.calendar_days.connect(
            services.calendar_days, weak=False, dispatch_uid="tournaments-calendar-days"
        )
        events.match_finished.connect(
            services.on_match_finished, weak=False, dispatch_uid="tournaments-match-finished"
        )
        events.moves_appended.connect(
            services.on_moves_appended, weak=False, dispatch_uid="tournaments-moves-appended"
        )
