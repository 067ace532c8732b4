from django.apps import AppConfig


class BenchConfig(AppConfig):
    """The benchmarks as an app of bench.settings: its `bench_floor` command, and the
    platform's test game registered in every process (gunicorn's and each `manage.py`'s)."""

    name = "bench"

    def ready(self) -> None:
        import tests.sealed_cards  # noqa: F401  registers "sealed-cards"
