from django.apps import AppConfig
from django.core import checks


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import signin  # noqa: F401  records the kind of every sign-in

        checks.register(rules_compiled, deploy=True)


def rules_compiled(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """`check --deploy`: the rules should run as built for their source (games/speedups.py).
    Plain Python gives the same results, slower: a deployment that skipped the build step."""
    from games import speedups

    if not speedups.enabled():
        return []
    plain = [m for m, how in speedups.status().items() if how != "compiled"]
    if not plain:
        return []
    return [
        checks.Warning(
            f"The rules run as plain Python ({', '.join(plain)}): no build for their source.",
            hint="Run `python -m games.compile_rules` after installing (README, Production).",
            id="games.W001",
        )
    ]
