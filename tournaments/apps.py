from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

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
