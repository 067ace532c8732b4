from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players and accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import match_links  # noqa: F401  records the kind of every sign-in
