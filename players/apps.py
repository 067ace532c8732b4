from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = _("Players and accounts")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import language, match_links  # noqa: F401  their sign-in receivers
