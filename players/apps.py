from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players and accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import language, match_links  # noqa: F401  their sign-in receivers
