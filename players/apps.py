from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players and accounts"
    default_auto_field = "django.db.models.BigAutoField"
