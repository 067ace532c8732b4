from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = _("API tokens and bot accounts")

    def ready(self) -> None:
        from api import account_events  # noqa: F401  the event stream's signal receivers
