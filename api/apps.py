from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "API tokens and bot accounts"

    def ready(self) -> None:
        from api import account_events  # noqa: F401  the event stream's signal receivers
