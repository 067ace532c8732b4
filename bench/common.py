"""What every benchmark shares: the games to measure, the machine, timing and printing.

Benchmarks print figures; they never pass or fail on time. The machine is shared and noisy,
so a comparison is always a ratio of two figures measured in the same run.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
BENCH_DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pbm_bench"
)


def games() -> list:
    """Every registered game (the real ones as they land) and the platform's test game."""
    import tests.sealed_cards  # noqa: F401  registers "sealed-cards"
    from games.engine import available_games

    return available_games()


def game_sizes(only: list[str] | None = None) -> Iterator[tuple[Any, int]]:
    """(game, player count) for every game and every player count it allows."""
    for game in games():
        if only and game.slug not in only:
            continue
        for players in range(game.min_players, game.max_players + 1):
            yield game, players


def machine() -> dict[str, Any]:
    """nproc, CPU model and memory: the figures mean nothing without them."""
    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = "unknown"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "memory": memory,
        "python": platform.python_version(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        # Which generator the seeds select: the figures depend on it.
        "seeds": "legacy (Mersenne Twister)" if bench_seed("") == "" else "hash stream",
    }


def repeat(fn: Callable[[], Any], *, seconds: float, at_least: int = 3) -> list[float]:
    """Call `fn` again and again for about `seconds`; each call's wall time in seconds."""
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    while len(times) < at_least or time.perf_counter() < deadline:
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return times


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[index]


def bare_reducer(stored: list[tuple]) -> dict:
    """The floor a replay is measured against: decode each stored move (seq, seat, kind,
    JSON text) and fold it into a dict, no rules at all."""
    counts: dict = {}
    for _seq, seat, _kind, text in stored:
        move = json.loads(text)
        counts[(seat, move.get("type"))] = counts.get((seat, move.get("type")), 0) + 1
    return counts


def bench_seed(name: str) -> str:
    """A match seed as new matches draw from (`games.engine.rng.HASH_STREAM`); with
    BENCH_LEGACY_SEEDS=1, as matches made before it (the Mersenne Twister)."""
    from games.engine.rng import HASH_STREAM

    return name if os.environ.get("BENCH_LEGACY_SEEDS") == "1" else HASH_STREAM + name


def us(seconds: float) -> str:
    return f"{seconds * 1e6:,.1f}"


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:,.2f}"


def table(headers: list[str], rows: list[list[Any]]) -> str:
    """A Markdown table, so the output pastes straight into docs/benchmarks.md."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(" --- " for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def report(name: str, title: str, text: str, figures: dict[str, Any]) -> None:
    """Print a benchmark's tables and keep its figures as JSON in bench/results/."""
    print(f"\n## {title}\n")
    print(text)
    RESULTS.mkdir(parents=True, exist_ok=True)
    figures = {"benchmark": name, "machine": machine(), **figures}
    (RESULTS / f"{name}.json").write_text(json.dumps(figures, indent=2, default=str))


def django_setup(database_url: str | None = None) -> None:
    """Configure Django for a benchmark that needs the database (the bench one by default)."""
    os.environ["DATABASE_URL"] = database_url or BENCH_DATABASE_URL
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    import tests.sealed_cards  # noqa: F401
